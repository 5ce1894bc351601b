"""Inline suppressions, `per-file-ignores` and per-rule severities: from raw findings to the reported ones.

```sql
-- icelint: ignore ICE001 -- payload is re-filled by the backfill job
ALTER TABLE db.events ADD COLUMN payload binary;

ALTER TABLE db.events DROP COLUMN legacy;  -- icelint: ignore drop-column-with-data, ICE013 -- unused since 2023

-- icelint: ignore-file ICE005 -- the table is created by another team's job
```

- `icelint: ignore RULES` applies to one statement: the one after it (the comment stands on its own
  line(s) before the statement) or the one whose last line it ends (`;` included). Inside a
  statement, it applies to that statement.
- `icelint: ignore-file RULES` applies to the whole file, wherever it stands.
- RULES are codes or names, separated by commas (or spaces); without any, every rule. The reason
  follows `--` and is kept: the JSON, SARIF and GitHub outputs show what was waived and why.
- A suppression (or one rule of it) that suppresses nothing is reported by the rule `ICE100
  unused-suppression` (a rule over files of the `SUPPRESSIONS` stage, `rules/kit/files.py`): this
  module notes what each directive suppressed (`Directive.used`) and hands them to it. Only the
  files under review are checked, and only when ICE100 is enabled.

Comments come from the parser (`ParsedFile.comments`): nothing here scans SQL text for comments.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Iterable, Sequence

from icelint.values.findings import Finding, Severity
from icelint.util.lazy import cached_property
from icelint.values.source import LineIndex, SourceFile, Span, containing
from icelint.syntax.ast import ParsedFile
from icelint.rules.kit.files import SUPPRESSIONS, FilesContext, findings_at

if TYPE_CHECKING:
    from icelint.config.model import Config

_DIRECTIVE = re.compile(r"^icelint\s*:\s*(?P<kind>ignore-file|ignore)(?![\w-])(?P<rest>.*)$", re.IGNORECASE | re.DOTALL)


@dataclass
class Directive:
    """One `-- icelint: ignore` comment: where it is, whether it covers the whole file, and the rules it names."""

    path: str
    span: Span
    file_level: bool
    names: tuple[str, ...]  # as written
    codes: tuple[str | None, ...]  # resolved, None: unknown rule
    reason: str | None
    target: int | None = None  # statement number in the file (statement-level only)
    used: set[str] = field(default_factory=set)  # codes that suppressed something ("*": any)

    @property
    def all_rules(self) -> bool:
        return not self.names

    def covers(self, code: str) -> bool:
        return self.all_rules or code in self.codes


def parse_directive(text: str) -> tuple[bool, tuple[str, ...], str | None] | None:
    """`icelint: ignore A, B -- why` → (file_level, names, reason); None for other comments."""
    m = _DIRECTIVE.match(text.strip())
    if not m:
        return None
    rest = m.group("rest")
    reason = None
    if "--" in rest:
        rest, reason = rest.split("--", 1)
        reason = reason.strip() or None
    rest = rest.strip()
    if rest.startswith("[") and "]" in rest:  # also accept `ignore[ICE001, ICE002]`
        rest = rest[1 : rest.index("]")]
    names = tuple(n for n in re.split(r"[,\s]+", rest) if n)
    return m.group("kind").lower() == "ignore-file", names, reason


def _resolve(name: str) -> str | None:
    from icelint.rules import get

    r = get(name)
    return r.code if r else None


# ---------------------------------------------------------------------------- placing directives


class _FileIndex:
    """Statements of one file, and which statement each comment belongs to."""

    def __init__(self, parsed: ParsedFile, source: SourceFile | None) -> None:
        self._statements = parsed.statements
        self.text = source.text if source else ""
        self._path = parsed.path
        self._has_source = source is not None
        self._comments = parsed.comments

    # Built when a comment or a finding asks (a file without directives: never; a long file's
    # statements would each compute their line and column)
    @cached_property
    def spans(self) -> list[Span]:
        return sorted((s.span for s in self._statements), key=lambda sp: sp.start)

    @cached_property
    def starts(self) -> list[int]:
        return [sp.start for sp in self.spans]

    @cached_property
    def positions(self) -> list[tuple[int, int]]:
        return [(sp.line, sp.column) for sp in self.spans]

    @cached_property
    def comment_ends(self) -> dict[int, int]:
        return {c.span.start: c.span.end for c in self._comments}

    @cached_property
    def lines(self) -> LineIndex | None:
        """The file's line index, built when a comment after a statement asks (most files: never)."""
        return LineIndex.shared(self._path, self.text) if self._has_source else None

    def _terminator_line(self, sp: Span) -> int:
        """The line of the `;` that ends the statement (its last line when there is none)."""
        if self.lines is None:
            return sp.end_line
        i, text = sp.end, self.text
        while i < len(text):
            if text[i].isspace():
                i += 1
            elif i in self.comment_ends:
                i = self.comment_ends[i]
            elif text[i] == ";":
                return self.lines.position(i)[0]
            else:
                break
        return sp.end_line

    def target_of(self, comment: Span) -> int | None:
        k = bisect.bisect_right(self.starts, comment.start) - 1
        if k >= 0 and comment.start < self.spans[k].end:
            return k  # inside the statement
        if k >= 0 and comment.line <= self._terminator_line(self.spans[k]):
            return k  # at the end of the statement's last line
        return k + 1 if k + 1 < len(self.spans) else None  # on the lines before the next statement

    @cached_property
    def ends(self) -> list[tuple[int, int]]:
        return [(sp.end_line, sp.end_column) for sp in self.spans]

    def statement_at(self, line: int, column: int) -> int | None:
        return containing(self.positions, self.ends, (line, column))


def collect(parsed: ParsedFile, index: _FileIndex) -> list[Directive]:
    out: list[Directive] = []
    seen: dict[str, tuple | None] = {}  # comment text → its reading: files repeat the same directives
    for c in parsed.comments:
        d = seen.get(c.text, False)
        if d is False:
            d = parse_directive(c.text)
            if d is not None:
                d = (*d, tuple(_resolve(n) for n in d[1]))
            seen[c.text] = d
        if d is None:
            continue
        file_level, names, reason, codes = d
        directive = Directive(parsed.path, c.span, file_level, names, codes, reason)
        if not file_level:
            directive.target = index.target_of(c.span)
        out.append(directive)
    return out


# ---------------------------------------------------------------------------- applying


@dataclass
class Outcome:
    """Findings after suppressions: those to report and those waived inline."""

    findings: list[Finding]  # to report, sorted
    suppressed: list[Finding]  # waived inline, sorted, each with its `suppressed_reason`


def apply(
    findings: Iterable[Finding],
    files: Sequence[ParsedFile],
    sources: Sequence[SourceFile],
    enabled: Iterable[str],
    config: Config | None = None,
) -> Outcome:
    """Apply `per-file-ignores`, severities and inline suppressions of `files` (the files under review);
    then run the enabled rules over files of the `SUPPRESSIONS` stage (ICE100), which see what each
    directive suppressed: their findings are waived only by an `ignore-file` directive naming the rule."""
    from icelint.rules import get

    enabled = set(enabled)
    by_text = {s.path: s for s in sources}
    indexes = {f.path: _FileIndex(f, by_text.get(f.path)) for f in files}
    directives = {f.path: collect(f, indexes[f.path]) for f in files}
    lookups = {path: Lookup(ds) for path, ds in directives.items()}

    ignored: dict[str, frozenset[str]] = {}  # path → its per-file-ignores (asked once per file, not per finding)
    levels: dict[str, str | None] = {}  # rule code → its configured severity

    def adjust(f: Finding) -> Finding | None:
        if config is None:
            return f
        off = ignored.get(f.path)
        if off is None:
            off = ignored[f.path] = config.ignored_for(f.path)
        if f.rule in off:
            return None
        code = f.rule
        level = levels[code] if code in levels else levels.setdefault(code, config.severity_of(code))
        return replace(f, severity=Severity(level)) if level and level != f.severity.value else f

    kept: list[Finding] = []
    suppressed: list[Finding] = []
    for f in findings:
        adjusted = adjust(f)
        if adjusted is None:
            continue
        f = adjusted
        lookup = lookups.get(f.path)
        if lookup is None or not lookup._first:  # no directive of this file applies anywhere: `find` gives None
            kept.append(f)
            continue
        idx = indexes.get(f.path)
        stmt = idx.statement_at(f.line, f.column) if idx else None
        hit = lookup.find(f.rule, stmt)
        if hit is None:
            kept.append(f)
            continue
        hit.used.add(f.rule if not hit.all_rules else "*")
        suppressed.append(replace(f, suppressed_reason=hit.reason))

    stage = [r for r in map(get, sorted(enabled)) if r is not None and r.stage == SUPPRESSIONS]
    if stage:
        ctx = FilesContext(enabled=frozenset(enabled), rule=get, directives=directives)
        waivers: dict[tuple[str, str], Directive | None] = {}  # (path, code) → the `ignore-file` naming it
        for f in findings_at(SUPPRESSIONS, stage, ctx):
            waiver_key = (f.path, f.rule)
            if waiver_key not in waivers:
                lookup = lookups.get(f.path)
                waivers[waiver_key] = lookup.find(f.rule, None, any_rule=False) if lookup is not None else None
            waiver = waivers[waiver_key]
            adjusted = adjust(f)
            if adjusted is None:
                continue
            if waiver is not None:
                suppressed.append(replace(adjusted, suppressed_reason=waiver.reason))
            else:
                kept.append(adjusted)
    key = lambda f: f.sort_key  # noqa: E731
    return Outcome(sorted(set(kept), key=key), sorted(suppressed, key=key))


class Lookup:
    """Which directive of a file suppresses a finding: the first statement-level one on its statement
    that covers its rule, else the first file-level one. Indexed by statement and rule code, so that
    many directives and many findings do not multiply (`tests/equivalence/test_suppress.py` compares it
    with the scan of every directive)."""

    def __init__(self, directives: Sequence[Directive]) -> None:
        # statement number (None: file level) → rule code ("*": all rules) → (order, first directive)
        self._first: dict[int | None, dict[str | None, tuple[int, Directive]]] = {}
        for n, d in enumerate(directives):
            if not d.file_level and d.target is None:
                continue  # applies to no statement
            table = self._first.setdefault(None if d.file_level else d.target, {})
            for code in ("*",) if d.all_rules else d.codes:
                table.setdefault(code, (n, d))

    def find(self, code: str, statement: int | None, any_rule: bool = True) -> Directive | None:
        """The directive that suppresses `code` on `statement` (file-level ones after statement-level
        ones); `any_rule=False`: only a directive naming `code` (not one covering every rule)."""
        for target in (statement, None) if statement is not None else (None,):
            table = self._first.get(target)
            if table is None:
                continue
            named, every = table.get(code), table.get("*") if any_rule else None
            hit = min((x for x in (named, every) if x is not None), default=None, key=lambda x: x[0])
            if hit is not None:
                return hit[1]
        return None


# ---------------------------------------------------------------------------- whole runs


def lint(run, rules, config: Config | None = None) -> Outcome:
    """Every rule over a run, then the suppressions of all its files: what `icelint check` reports
    when every file is under review."""
    from icelint.engine.checker import lint_run

    return apply(lint_run(run, rules), run.parsed, run.sources, [r.code for r in rules], config)


def lint_text(sql: str, rules, path: str = "<string>") -> list[Finding]:
    """The reported findings for one SQL text (suppressions applied, `ICE100` included when enabled)."""
    from icelint.engine.pipeline import replay_text

    return lint(replay_text(sql, path=path), rules).findings
