"""Rule selection as ruff resolves it: codes, names, code prefixes and `ALL`.

A *selector* is a rule code (`ICE001`, any case), a rule name (`drop-then-add`), a code prefix
(`ICE`, `ICE0`, `ICE01`) or `ALL`. Selection happens in levels, the configuration file's first,
then the command line's; each level has `select` (or none), `extend-select` and `ignore`
(`extend-ignore` is the same as `ignore`):

- Within a level, selectors apply from the least specific to the most specific (`ALL` < `ICE` <
  `ICE0` < `ICE01` < a code or name), so `--select ALL --ignore ICE01` keeps everything but
  ICE010–ICE019 and `--ignore ICE0 --extend-select ICE011` keeps ICE011. When the same
  specificity selects and ignores a rule, `ignore` wins.
- A level with `select` starts over from what it selects; a level without `select` adds to and
  removes from the level below. The default, below every level, is every rule.

An unknown selector (no rule has that code, name or code prefix) is one clear error naming the
option (`--select`, `` `tool.icelint.ignore` ``) and the selector.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from icelint.values.source import InputError

ALL = "ALL"
_PREFIX = re.compile(r"^ICE\d{0,2}$")
EXACT = 10  # the specificity of a code or a name

Level = tuple  # (select: tuple[str, ...] | None, extend_select: tuple[str, ...], ignore: tuple[str, ...])


def registry() -> list:
    """Every rule, in registry order (`unused-suppression` included)."""
    from icelint.rules import ALL_RULES
    from icelint.rules.unused_suppression import RULE as UNUSED

    rules = list(ALL_RULES)
    if all(r.code != UNUSED.code for r in rules):
        rules.append(UNUSED)
    return rules


def _lookup(sel: str):
    from icelint.rules import get
    from icelint.rules.unused_suppression import RULE as UNUSED

    r = get(sel)
    if r is None and (sel.upper() == UNUSED.code or sel.lower() == UNUSED.name):
        r = UNUSED
    return r


def resolve(sel: str) -> tuple[int, list[str]] | None:
    """(specificity, rule codes) of one selector; None when it selects no rule."""
    if sel.upper() == ALL:
        return 0, [r.code for r in registry()]
    r = _lookup(sel)
    if r is not None:
        return EXACT, [r.code]
    up = sel.upper()
    if _PREFIX.match(up):
        codes = [r.code for r in registry() if r.code.startswith(up)]
        if codes:
            return len(up) - 2, codes
    return None


def split(selectors: Iterable[str]) -> Iterable[str]:
    """Each selector of a list whose items may be comma-separated (`--select ICE001,ICE01`), stripped."""
    for raw in selectors:
        for sel in raw.split(","):
            sel = sel.strip()
            if sel:
                yield sel


def normalize(selectors: Iterable[str], where: str) -> tuple[str, ...]:
    """Selectors (comma-separated allowed) checked and de-duplicated; an unknown one is an error naming it."""
    out: list[str] = []
    for sel in split(selectors):
        if resolve(sel) is None:
            raise InputError(f"{where}: unknown rule {sel!r} (see `icelint rules`)")
        r = _lookup(sel)
        norm = r.code if r is not None else sel.upper()
        if norm not in out:
            out.append(norm)
    return tuple(out)


def expand(selectors: Iterable[str], where: str) -> list[str]:
    """The rule codes a list of selectors names (per-file ignores)."""
    out: list[str] = []
    for sel in normalize(selectors, where):
        for code in resolve(sel)[1]:  # type: ignore[index]
            if code not in out:
                out.append(code)
    return out


def level(
    select: Sequence[str] | None,
    extend_select: Sequence[str],
    ignore: Sequence[str],
    extend_ignore: Sequence[str],
    where: dict[str, str],
) -> Level | None:
    """One level of selection, validated (`where` names each option for errors); None when empty."""
    sel = normalize(select, where["select"]) if select is not None else None
    ext = normalize(extend_select, where["extend-select"])
    ign = normalize(ignore, where["ignore"]) + normalize(extend_ignore, where["extend-ignore"])
    if sel is None and not ext and not ign:
        return None
    return sel, ext, tuple(dict.fromkeys(ign))


def enabled(levels: Sequence[Level]) -> set[str]:
    """The codes enabled after every level (ruff's algorithm, `ruff_workspace::configuration`)."""
    chosen = {r.code for r in registry()}
    carried: tuple[str, ...] = ()
    for select, extend, ignore in levels:
        updates: dict[str, bool] = {}
        ignores = (*ignore, *carried)
        carried = ()
        for spec in range(EXACT + 1):
            for s in (*(select or ()), *extend):
                got = resolve(s)
                if got and got[0] == spec:
                    updates.update(dict.fromkeys(got[1], True))
            for s in ignores:
                got = resolve(s)
                if got and got[0] == spec:
                    updates.update(dict.fromkeys(got[1], False))
        if select is not None:
            chosen = {c for c, on in updates.items() if on}
            if not select and not extend and ignore:
                carried = ignore  # `select = []` with an `ignore`: ruff carries the ignore to the next level
        else:
            for c, on in updates.items():
                (chosen.add if on else chosen.discard)(c)
    return chosen
