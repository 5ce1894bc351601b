"""SQL inside Python: `.py` migration files and `.ipynb` notebooks checked as `.sql` files are.

A file's SQL is every string literal passed to `spark.sql(...)` (and the other SQL callables:
`DEFAULT_CALLABLES` plus `sql-callables` of `[tool.icelint]`) and every `%%sql` cell of a notebook,
read with Python's `ast` (nothing is run), one statement per call, in source (and cell) order.
f-string fields become `${...}` placeholders (`icelint.placeholders`: `--var`, else ICE060).

The API the engine uses (one place to re-point):

- `SUFFIXES`, `wanted(path)`: the inputs this module reads;
- `read(source, values, callables) -> EmbeddedMap`: the SQL to check (`.substituted`) and the map
  back to the file; it stands where `placeholders.FileMap` stands (`.original`, `.substituted`,
  `.unresolved`, `.position`), so the engine checks it exactly as a `.sql` file;
- `remap(findings, maps)`: findings (and their fixes) at the file's positions: a `.py` file's
  line and column; a notebook's `nb.ipynb:cell N` with the line and column in the cell (ruff's
  way); a fix stays applicable when its edit stays inside one plain literal and needs no escaping,
  else it is display-only;
- `unread_findings(maps, enabled, pending)`: ICE063 for each call whose SQL is not a literal;
- `extract(path, text, callables) -> (sql_text, EmbeddedMap)`: the same, without placeholders.
"""

from __future__ import annotations

import bisect
from dataclasses import replace
from typing import Iterable, Mapping, Sequence

from icelint.embedded.python_sql import DEFAULT_CALLABLES, Extracted, PythonSyntaxError, extract_python
from icelint.findings import Finding, Severity
from icelint.fix import Applicability, Edit, Fix
from icelint.source import InputError, LineIndex, SourceFile

SUFFIXES = (".py", ".ipynb")
NOTEBOOK = ".ipynb"
UNREAD = "ICE063"

__all__ = ["SUFFIXES", "DEFAULT_CALLABLES", "EmbeddedMap", "wanted", "read", "read_file", "extract", "remap",
           "unread_findings", "cell_texts", "is_map"]  # fmt: skip


def wanted(path) -> bool:
    return str(path).lower().endswith(SUFFIXES)


def callables_of(configured: Iterable[str] = ()) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*DEFAULT_CALLABLES, *configured)))


class EmbeddedMap:
    """One Python file or notebook: the SQL the engine checks and the way back to the file."""

    def __init__(self, original: SourceFile, ex: Extracted, cells=None) -> None:
        self.original = original
        self.ex = ex
        self.cells = cells  # notebook.Cells, None for a .py file
        self.origin = cells.text if cells is not None else original.text
        self.sql = SourceFile(original.path, ex.text)
        self.inner = None  # placeholders.FileMap of the SQL, when it has placeholders
        self.substituted = self.sql
        self.unresolved: list = []
        self._lines: dict[int, LineIndex] = {}

    def substitute(self, values: Mapping[str, str]) -> EmbeddedMap:
        from icelint.placeholders import substitute

        self.inner = substitute(self.sql, values)
        if self.inner is not None:
            self.substituted, self.unresolved = self.inner.substituted, self.inner.unresolved
        return self

    def _sub_index(self) -> LineIndex:
        if "_sub" not in self.__dict__:
            self.__dict__["_sub"] = LineIndex(self.substituted.path, self.substituted.text)
        return self.__dict__["_sub"]

    # ------------------------------------------------------------------ positions
    def sql_offset(self, line: int, column: int) -> int:
        index = self._sub_index()
        start = index._starts[line - 1] if line - 1 < len(index._starts) else len(index.text)
        return start + column - 1

    def origin_offset(self, o: int, end: bool = False) -> int:
        """An offset in the checked SQL → the origin offset of the character it came from."""
        if self.inner is not None:
            o = self.inner.offset(o, end)
        src = self.ex.src_of
        if not src:
            return 0
        if o >= len(src):
            return src[-1] + 1
        return src[max(o, 0)]

    def locate(self, origin: int) -> tuple[str, int, int, int]:
        """An origin offset → (path, line, column, offset in that path's text)."""
        if self.cells is None:
            line, column = self._index(0, self.origin).position(origin)
            return self.original.path, line, column, origin
        k = max(bisect.bisect_right(self.cells.starts, origin) - 1, 0)
        base = self.cells.starts[k]
        line, column = self._index(k, self.cells.texts[k]).position(origin - base)
        return f"{self.original.path}:cell {self.cells.numbers[k]}", line, column, origin - base

    def _index(self, k: int, text: str) -> LineIndex:
        got = self._lines.get(k)
        if got is None:
            got = self._lines[k] = LineIndex(self.original.path, text)
        return got

    def position(self, line: int, column: int, end: bool = False) -> tuple[int, int]:
        """(line, column) in the checked SQL → (line, column) in the file (a notebook: in its cell)."""
        _, line, column, _ = self.locate(self.origin_offset(self.sql_offset(line, column), end))
        return line, column

    # ------------------------------------------------------------------ findings and fixes
    def finding(self, f: Finding) -> Finding:
        path, line, column, _ = self.locate(self.origin_offset(self.sql_offset(f.line, f.column)))
        end_path, end_line, end_column, _ = self.locate(self.origin_offset(self.sql_offset(f.end_line, f.end_column), True))
        if end_path != path or (end_line, end_column) < (line, column):
            end_line, end_column = line, column
        fix = self._fix(f.fix) if f.fix is not None else None
        return replace(f, path=path, line=line, column=column, end_line=end_line, end_column=end_column, fix=fix)

    def _fix(self, fix: Fix) -> Fix | None:
        edits, applicable = [], fix.applicability is not Applicability.DISPLAY_ONLY
        paths = set()
        for e in fix.edits:
            a, b = self._sql_range(e.start, e.end)
            applicable = applicable and self._in_one_literal(a, b, e.content)
            oa = self.origin_offset(a) if a < b else self._insertion(a)
            ob = self.ex.src_of[b - 1] + 1 if a < b else oa
            path, _, _, start = self.locate(oa)
            text = self.original.text if self.cells is None else self.cells.texts[self.cells.starts.index(oa - start)]
            paths.add(path)
            edits.append(Edit.at(text, start, start + (ob - oa), e.content))
        if len(paths) > 1:
            return None  # a notebook fix across cells: not shown
        if self.cells is not None or not applicable:
            return replace(fix, applicability=Applicability.DISPLAY_ONLY, edits=tuple(edits))
        return replace(fix, edits=tuple(edits))

    def _sql_range(self, start: int, end: int) -> tuple[int, int]:
        """An edit's range in the checked (substituted) SQL → its range in the extracted SQL."""
        if self.inner is None:
            return start, end
        a = self.inner.offset(start)
        return (a, self.inner.offset(end - 1, True) + 1) if end > start else (a, a)

    def _insertion(self, a: int) -> int:
        src, lit = self.ex.src_of, self.ex.lit_of
        if a < len(src) and (a == 0 or lit[a - 1] != lit[a] or lit[a] < 0):
            return src[a]
        return src[a - 1] + 1 if a > 0 else 0

    def _in_one_literal(self, a: int, b: int, content: str) -> bool:
        """Whether the edit of extracted SQL [a, b) is an edit of one plain literal's characters as
        written (no escape among them, none needed in `content`), leaving it not empty."""
        ex, sql, origin = self.ex, self.ex.text, self.origin
        lo, hi = (a, b) if b > a else (max(a - 1, 0), min(a + 1, len(sql)))
        lits = set(ex.lit_of[lo:hi])
        if len(lits) != 1 or -1 in lits or hi <= lo:
            return False
        literal, base = ex.literals[lits.pop()]
        if b > a:
            oa = ex.src_of[a]
            if ex.src_of[b - 1] - oa != b - 1 - a or origin[oa : oa + (b - a)] != sql[a:b]:
                return False
        bad = {"\\", "\r", literal.quote[0]} | (set() if literal.triple else {"\n"})
        if any(c in bad for c in content):
            return False
        rest = [sql[i] for i in range(len(sql)) if ex.lit_of[i] == ex.lit_of[lo] and not a <= i < b]
        return bool(("".join(rest) + content).strip().strip(";").strip())


def extract(path: str, text: str, callables: Iterable[str] = ()) -> tuple[str, EmbeddedMap]:
    """A `.py` file's or notebook's SQL and its map back to the file (no placeholders substituted).
    Bad input (not Python, not a notebook) is an `InputError` naming the file."""
    source = SourceFile(str(path), text)
    names = callables_of(callables)
    if str(path).lower().endswith(NOTEBOOK):
        from icelint.embedded.notebook import NotebookError, extract_notebook

        try:
            ex, cells = extract_notebook(text, names)
        except NotebookError as e:
            raise InputError(f"{path}:{e}" if str(e).startswith("cell ") else f"{path}: {e}") from None
        m = EmbeddedMap(source, ex, cells)
    else:
        try:
            m = EmbeddedMap(source, extract_python(text, names))
        except PythonSyntaxError as e:
            raise InputError(f"{path}:{e.line}:{e.column}: Python syntax error: {e.message}") from None
    return m.sql.text, m


def read(source: SourceFile, values: Mapping[str, str], callables: Iterable[str] = ()) -> EmbeddedMap:
    """The file's SQL, placeholders substituted (`EmbeddedMap.substituted` is what the engine parses)."""
    return extract(source.path, source.text, callables)[1].substitute(values)


def read_file(path) -> SourceFile:
    """A `.py` file or notebook as text: like `SourceFile.read`, but an empty file is no error (no SQL)."""
    from icelint.source import read_bytes

    data = read_bytes(path, missing="no such file", directory="is a directory, not a Python file")
    try:
        return SourceFile(str(path), data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None


def is_map(m) -> bool:
    return isinstance(m, EmbeddedMap)


def remap(findings: Iterable[Finding], maps: Mapping) -> list[Finding]:
    """`placeholders.remap`, and the findings of Python files and notebooks at their places there."""
    from icelint.placeholders import remap as remap_placeholders

    plain = {p: m for p, m in maps.items() if not isinstance(m, EmbeddedMap)}
    ours = {p: m for p, m in maps.items() if isinstance(m, EmbeddedMap)}
    if not ours:
        return remap_placeholders(findings, plain)
    import re

    cited = re.compile(r"(?<![\w/.\\])(" + "|".join(re.escape(p) for p in sorted(ours, key=len, reverse=True)) + r"):(\d+)(?::(\d+))?(?![\d:])")

    def place(hit: re.Match) -> str:  # `V2__x.py:3` in a message: a place in the checked SQL
        m = ours[hit.group(1)]
        line, column = int(hit.group(2)), int(hit.group(3) or 1)
        if line > len(m._sub_index()._starts):
            return hit.group(0)
        path, line, column, _ = m.locate(m.origin_offset(m.sql_offset(line, column)))
        return f"{path}:{line}:{column}" if hit.group(3) else f"{path}:{line}"

    def texts(f: Finding) -> Finding:
        message, help = cited.sub(place, f.message), cited.sub(place, f.help) if f.help else f.help
        return f if (message, help) == (f.message, f.help) else replace(f, message=message, help=help)

    out = []
    for f in remap_placeholders(findings, plain):
        m = ours.get(f.path)
        out.append(texts(m.finding(f) if m is not None else f))
    return out


def cell_texts(maps: Mapping) -> dict[str, str]:
    """`nb.ipynb:cell N` → the cell's text, for the notebooks among `maps` (what their fixes edit)."""
    out = {}
    for m in maps.values():
        if isinstance(m, EmbeddedMap) and m.cells is not None:
            for n, text in zip(m.cells.numbers, m.cells.texts):
                out[f"{m.original.path}:cell {n}"] = text
    return out


def unread_findings(maps: Mapping, enabled: Iterable[str], pending: Sequence[str] | None = None, config=None) -> list[Finding]:
    """ICE063 for every SQL call whose argument is not a string literal (files under review only;
    `per-file-ignores` and `severity` of `config` applied)."""
    if UNREAD not in set(enabled):
        return []
    from icelint.rules import get

    rule = get(UNREAD)
    out = []
    for path, m in maps.items():
        if not isinstance(m, EmbeddedMap) or (pending is not None and path not in pending):
            continue
        for u in m.ex.unread:
            where, line, column, _ = m.locate(u.start)
            _, end_line, end_column, _ = m.locate(max(u.end - 1, u.start))
            arg = f"`{_short(u.argument)}`" if u.argument is not None else "no SQL argument icelint can find"
            call = f"{u.callable}({_short(u.argument) if u.argument is not None else '...'})"
            if config is not None and UNREAD in config.ignored_for(path):
                continue
            level = config.severity_of(UNREAD) if config is not None else None
            out.append(
                Finding(
                    rule=rule.code, name=rule.name, severity=Severity(level) if level else rule.severity, path=where, line=line, column=column,
                    end_line=end_line, end_column=end_column,
                    message=f"`{call}` runs SQL that icelint cannot read: its argument is {arg}, not a string "
                    "literal, so this statement is not checked and the migrations after it are checked without it",
                    help="pass the SQL to the call as a string literal (an f-string's fields become `${...}` "
                    "placeholders, given with `--var NAME=VALUE`), or keep the statement in a `.sql` migration file",
                )
            )  # fmt: skip
    return out


def _short(text: str, limit: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 3] + "..."


def lint(run, rules, maps: Mapping, config=None):
    """`placeholders.lint` for runs that hold Python files or notebooks: rules, placeholders,
    suppressions, then positions (and places cited in messages) mapped back to the files."""
    from icelint import suppress
    from icelint.checker import lint_run
    from icelint.placeholders import adjust
    from icelint.rules import get

    codes = [r.code for r in rules]
    findings = adjust(lint_run(run, rules), run.parsed, maps, codes, get("ICE060"))
    outcome = suppress.apply(findings, run.parsed, run.sources, codes, config)
    return suppress.Outcome(remap(outcome.findings, maps), remap(outcome.suppressed, maps))


def refuse_suppressions(findings: Iterable[Finding], maps: Mapping) -> None:
    """`--add-suppressions` writes SQL comments: an `InputError` when one would go into a Python file
    or a notebook (where a comment line can break the string it lands in)."""
    ours = {m.original.path for m in maps.values() if isinstance(m, EmbeddedMap)}
    for f in findings:
        path = f.path.split(":cell ", 1)[0]
        if path in ours:
            raise InputError(
                f"{path}: --add-suppressions cannot write into a Python file or notebook; put "
                f"`-- icelint: ignore {f.rule} -- REASON` inside the SQL string before the statement"
            )
