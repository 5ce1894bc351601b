"""What the reader rules (ICE040–ICE059, `icelint/rules/reader_*.py`) share: the configured readers, and one finding per reader.

A reader rule's `check` takes the readers to check as a keyword (`readers=`, default: every built-in
profile); the configuration binds it (:func:`bind_readers`, called by `Config.rules()`), so that
`readers = [...]` and `--readers` reach the rules without the checker knowing about readers.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Iterable, Iterator, Sequence

from icelint.values.findings import Finding
from icelint.readers import ALL, PROFILES
from icelint.rules.kit.base import Rule, RuleContext

READER_CODES = frozenset(f"ICE{n:03d}" for n in range(40, 60))


def bind_readers(rules: Iterable[Rule], readers: Sequence[str] | None) -> tuple[Rule, ...]:
    """The rules, with the reader rules checking only `readers` (None: every built-in profile)."""
    if readers is None:
        return tuple(rules)
    chosen = tuple(readers)
    return tuple(replace(r, check=partial(r.check, readers=chosen)) if r.code in READER_CODES else r for r in rules)


def reader_findings(
    ctx: RuleContext, rule: Rule, kind: str, readers: Sequence[str], when: str, help: str, span=None
) -> Iterator[Finding]:
    """A warning for every configured reader whose profile does not read `kind` at the table's format version
    (at `span`, else at the table's name in the statement)."""
    meta = ctx.outcome.after
    assert meta is not None
    for name in readers or ALL:
        profile = PROFILES[name]
        b = profile.problem(kind, meta.format_version)
        if b is None:
            continue
        does = "cannot read" if b.does.value == "fails" else "reads wrong values from"
        yield ctx.finding(
            rule,
            f"{profile.title} {does} `{ctx.table_name}` {when}: {b.detail}",
            help,
            span=span or (ctx.commit.table_span if ctx.commit is not None else None),
        )


def property_span(ctx: RuleContext, keys: Sequence[str]):
    """The key of the first `keys` property this statement sets (SET TBLPROPERTIES), or None."""
    from icelint.values import changes as ch

    for c in ctx.changes:
        if isinstance(c, ch.SetProperties):
            for (k, _), sp in zip(c.properties, c.key_spans):
                if k in keys:
                    return sp
    return None
