"""The way back from the SQL that `icelint.embedded` extracted to the Python file or notebook it
came from: positions, places cited in messages, and fixes (applicable when the edit stays inside one
plain literal, else display-only)."""

from __future__ import annotations

import bisect
import re
from dataclasses import replace
from typing import Mapping

from icelint.embedded.python_sql import Extracted
from icelint.values.findings import Finding
from icelint.values.fix import Applicability, Edit, Fix
from icelint.values.source import LineIndex, SourceFile

_COMMENTS = re.compile(r"--[^\n]*|/\*.*?\*/", re.S)


class EmbeddedMap:
    """One Python file or notebook: the SQL the engine checks and the way back to the file. It
    stands where a `placeholders.FileMap` stands (`.original`, `.substituted`, `.unresolved`,
    `.position`, `._sub_index`)."""

    embedded = True  # what `icelint.embedded.is_map` asks, without importing this module

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
        from icelint.engine.placeholders import substitute

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
        start = self.origin_offset(self.sql_offset(f.line, f.column))
        end = self.origin_offset(self.sql_offset(f.end_line, f.end_column), True)
        path, line, column, _ = self.locate(start)
        end_path, end_line, end_column, _ = self.locate(end)
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
            oa = self.ex.src_of[a] if a < b else self._insertion(a)  # a, b: offsets in the extracted SQL
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
        literal, start, end = ex.literals[lits.pop()]
        if b > a:
            oa = ex.src_of[a]
            if ex.src_of[b - 1] - oa != b - 1 - a or origin[oa : oa + (b - a)] != sql[a:b]:
                return False
        bad = {"\\", "\r", literal.quote[0]} | (set() if literal.triple else {"\n"})
        if any(c in bad for c in content):
            return False
        left = _COMMENTS.sub("", sql[start:a] + content + sql[b:end])  # a string of comments only: no statement
        return bool(left.strip().strip(";").strip())
