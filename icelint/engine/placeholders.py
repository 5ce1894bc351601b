"""Placeholders: Flyway's `${name}` and Spark's `${name}` / `${hivevar:name}`, substituted before parsing.

Values come from `--var name=value` (repeatable; flags win) and `[tool.icelint.vars]`. `${hivevar:x}`
takes the value of `x` unless `hivevar:x` itself is given; other prefixes (`${env:x}`,
`${flyway:defaultSchema}`) need their full name. Substitution is plain text replacement
everywhere in the file (strings and comments too), as Flyway and Spark's variable substitution do.

Positions keep pointing into the original file: each file with placeholders gets a `FileMap`
from offsets in the substituted text to offsets in the original, and every finding (and every
statement position a reporter or `--add-suppressions` uses) is mapped back after the lint. A value
cannot hold a line break, so line numbers never move; only columns do, after a placeholder on the
same line. A position inside a substituted value maps to the placeholder (its start for a start,
its last character for an end).

A placeholder with no value stays in the text (Spark leaves unknown variables as they are; Flyway
refuses to run the script). The rule ICE060 `unresolved-placeholder` reports each one (a rule over
files of the `TEXT` stage, `rules/kit/files.py`), and the parse error of the statement it breaks is
dropped here: one finding that names the placeholder, not a parse error. Files without `${` cost one substring search.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Mapping, Sequence

from icelint.values.findings import Finding, in_report_order
from icelint.rules.kit.files import TEXT, FilesContext, findings_at
from icelint.config.vars import check_value, parse_vars  # noqa: F401 - the values' rules, used here too
from icelint.values.source import LineIndex, SourceFile, containing

PLACEHOLDER = re.compile(r"\$\{(?P<name>[A-Za-z_][\w.:\-]*)\}")
PARSE_ERROR = "ICE006"


def lookup(name: str, values: Mapping[str, str]) -> str | None:
    if name in values:
        return values[name]
    if name.lower().startswith("hivevar:"):
        return values.get(name[len("hivevar:"):])
    return None


@dataclass
class FileMap:
    """One file's substitution: where each value went, and the placeholders that had none."""

    original: SourceFile
    substituted: SourceFile
    sub_starts: list[int] = field(default_factory=list)  # value i spans substituted[sub_starts[i]:sub_ends[i]]
    sub_ends: list[int] = field(default_factory=list)
    orig_starts: list[int] = field(default_factory=list)  # ... and replaced original[orig_starts[i]:orig_ends[i]]
    orig_ends: list[int] = field(default_factory=list)
    unresolved: list[tuple[str, int, int]] = field(default_factory=list)  # (name, start, end) in the substituted text

    def offset(self, o: int, end: bool = False) -> int:
        """An offset in the substituted text → the offset in the original."""
        k = bisect.bisect_right(self.sub_starts, o) - 1
        if k < 0:
            return o
        if o < self.sub_ends[k]:  # inside a value: the placeholder
            return self.orig_ends[k] - 1 if end else self.orig_starts[k]
        return self.orig_ends[k] + (o - self.sub_ends[k])

    def position(self, line: int, column: int, end: bool = False) -> tuple[int, int]:
        """(line, column) in the substituted text → (line, column) in the original."""
        sub = self._sub_index()
        start = sub._starts[line - 1] if line - 1 < len(sub._starts) else len(sub.text)
        return self._orig_index().position(self.offset(start + column - 1, end))

    def _sub_index(self) -> LineIndex:
        if "_sub" not in self.__dict__:
            self.__dict__["_sub"] = LineIndex(self.substituted.path, self.substituted.text)
        return self.__dict__["_sub"]

    def _orig_index(self) -> LineIndex:
        if "_orig" not in self.__dict__:
            self.__dict__["_orig"] = LineIndex(self.original.path, self.original.text)
        return self.__dict__["_orig"]


def substitute(source: SourceFile, values: Mapping[str, str]) -> FileMap | None:
    """The file with its placeholders replaced; None when it has none (nothing to map)."""
    text = source.text
    if "${" not in text:
        return None
    m = FileMap(source, source)
    parts: list[str] = []
    pos = 0
    out_len = 0
    for hit in PLACEHOLDER.finditer(text):
        value = lookup(hit.group("name"), values)
        parts.append(text[pos : hit.start()])
        out_len += hit.start() - pos
        if value is None:
            m.unresolved.append((hit.group("name"), out_len, out_len + len(hit.group(0))))
            parts.append(hit.group(0))
            out_len += len(hit.group(0))
        else:
            m.sub_starts.append(out_len)
            m.sub_ends.append(out_len + len(value))
            m.orig_starts.append(hit.start())
            m.orig_ends.append(hit.end())
            parts.append(value)
            out_len += len(value)
        pos = hit.end()
    if not m.sub_starts and not m.unresolved:
        return None
    parts.append(text[pos:])
    m.substituted = SourceFile(source.path, "".join(parts))
    return m


def prepare(sources: Iterable[SourceFile], values: Mapping[str, str]) -> tuple[list[SourceFile], dict[str, FileMap]]:
    """Substituted sources (to parse) and the maps of those that changed."""
    out, maps = [], {}
    for src in sources:
        m = substitute(src, values)
        if m is not None:
            maps[src.path] = m
        out.append(m.substituted if m is not None else src)
    return out, maps


# ---------------------------------------------------------------------------- after the lint


def adjust(findings: Sequence[Finding], parsed_files, maps: Mapping[str, FileMap], rules: Sequence) -> list[Finding]:
    """Drop the parse errors of statements that hold an unresolved placeholder; add the findings of
    the enabled `rules` of the `TEXT` stage (ICE060 names each placeholder without a value)."""
    if not any(m.unresolved for m in maps.values()):  # no parse error to drop
        files = {f.path for f in parsed_files} if maps else ()
        extra = text_findings({p: m for p, m in maps.items() if p in files}, rules)
        return in_report_order([*findings, *extra]) if extra else list(findings)
    broken: dict[str, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    files = {f.path: f for f in parsed_files}
    for path, m in maps.items():
        pf = files.get(path)
        if pf is None or not m.unresolved:
            continue
        index = m._sub_index()
        holes = sorted(index.position(start) for _, start, _ in m.unresolved)
        for st in pf.statements:  # the first hole at or after the statement's start: one search, not a scan
            sp = st.span
            a, b = (sp.line, sp.column), (sp.end_line, sp.end_column)
            k = bisect.bisect_left(holes, a)
            if k < len(holes) and holes[k] <= b:
                broken.setdefault(path, []).append((a, b))
    # in file order: statements do not overlap
    bounds = {path: ([a for a, _ in ranges], [b for _, b in ranges]) for path, ranges in broken.items()}

    def in_broken(f: Finding) -> bool:
        got = bounds.get(f.path)
        return got is not None and containing(*got, (f.line, f.column)) is not None

    out = [f for f in findings if not (f.rule == PARSE_ERROR and in_broken(f))]
    out += text_findings({p: m for p, m in maps.items() if p in files}, rules)
    return in_report_order(out)


def text_findings(maps: Mapping[str, FileMap], rules: Sequence) -> list[Finding]:
    """The findings of the enabled rules over files of the `TEXT` stage, for the files of `maps`."""
    return findings_at(TEXT, rules, FilesContext(enabled=frozenset(r.code for r in rules), maps=maps))


def remap(findings: Iterable[Finding], maps: Mapping[str, FileMap]) -> list[Finding]:
    """Findings with positions in the original files."""
    if not maps:
        return list(findings)
    out = []
    for f in findings:
        m = maps.get(f.path)
        if m is None:
            out.append(f)
            continue
        line, column = m.position(f.line, f.column)
        end_line, end_column = m.position(f.end_line, f.end_column, end=True)
        out.append(replace(f, line=line, column=column, end_line=end_line, end_column=end_column))
    return out


def lint(run, rules, maps: Mapping[str, FileMap], config=None):
    """`icelint.engine.suppress.lint` for substituted files: rules, placeholders, suppressions, positions mapped back."""
    from icelint.engine import suppress
    from icelint.engine.checker import lint_run

    findings = adjust(lint_run(run, rules), run.parsed, maps, rules)
    outcome = suppress.apply(findings, run.parsed, run.sources, [r.code for r in rules], config)
    return suppress.Outcome(remap(outcome.findings, maps), remap(outcome.suppressed, maps))


def lint_text(sql: str, rules, path: str = "<string>", values: Mapping[str, str] | None = None,
              iceberg_version: str = "1.10") -> list[Finding]:
    """`icelint.engine.suppress.lint_text` with placeholders: the reported findings for one SQL text."""
    from icelint.engine.pipeline import parse_sources, replay

    sources, maps = prepare([SourceFile(path, sql)], values or {})
    return lint(replay(parse_sources(sources), iceberg_version=iceberg_version), rules, maps).findings


def statement_positions(files, maps) -> dict:
    """path → [(line, column, end_line, end_column)] of each statement, in the original file."""
    out = {}
    for pf in files:
        m = maps.get(pf.path)
        rows = []
        for st in pf.statements:
            sp = st.span
            if m is None:
                rows.append((sp.line, sp.column, sp.end_line, sp.end_column))
            else:
                rows.append((*m.position(sp.line, sp.column), *m.position(sp.end_line, sp.end_column, end=True)))
        out[pf.path] = rows
    return out
