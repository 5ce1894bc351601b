"""Fixes as data: the safe alternative to a finding, as edits of the migration file's text.

The shape is ruff's: a fix has an applicability (`safe`: `--fix` applies it; `unsafe`: only with
`--unsafe-fixes`, because it changes what the migration means in a way the user must accept;
`display-only`: shown, never applied), a one-line message, and edits. An edit replaces the
characters `[start, end)` of the file's text (offsets into `SourceFile.text`, the same offsets as
`Span.start` / `Span.end`) with `content`; it also carries the 1-based row and column of both ends
(end exclusive) so the reporters can render it without the text.

This module is pure data and text: no file IO (the CLI writes files), no rule logic (rules build fixes).
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass
from enum import Enum
from typing import Iterable, Sequence

from icelint.values.source import Span


class Applicability(str, Enum):
    SAFE = "safe"
    UNSAFE = "unsafe"
    DISPLAY_ONLY = "display-only"


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace text[start:end] of one file with `content` (an insertion when start == end)."""

    start: int  # character offset of the first replaced character
    end: int  # character offset after the last replaced character (== start for an insertion)
    content: str
    row: int  # 1-based line of `start`
    column: int  # 1-based column (in characters) of `start`
    end_row: int  # 1-based line of `end`
    end_column: int  # 1-based column of `end` (exclusive, as in ruff's JSON)

    @classmethod
    def replace(cls, span: Span, content: str) -> Edit:
        """Replace the whole region of `span` (a statement, a name, a type) with `content`."""
        line, column, end_line, end_column = span.positions()  # a parser's span: two searches, not four
        return cls(span.start, span.end, content, line, column, end_line, end_column + 1)

    @classmethod
    def at(cls, text: str, start: int, end: int, content: str, starts: Sequence[int] | None = None) -> Edit:
        """An edit of `text[start:end]`, its rows and columns computed from the text, or from its
        `source.line_starts` when given (a caller making many edits of one long text: no scan per edit)."""
        if starts is not None:
            row, end_row = bisect_right(starts, start), bisect_right(starts, end)
            return cls(start, end, content, row, start - starts[row - 1] + 1, end_row, end - starts[end_row - 1] + 1)
        row, col = _position(text, start)
        end_row, end_col = _position(text, end)
        return cls(start, end, content, row, col, end_row, end_col)

    def to_json(self) -> dict:
        return {
            "content": self.content,
            "location": {"row": self.row, "column": self.column},
            "end_location": {"row": self.end_row, "column": self.end_column},
        }


@dataclass(frozen=True, slots=True)
class Fix:
    """The edits that fix one finding, with how safe they are to apply and what they do."""

    applicability: Applicability
    message: str
    edits: tuple[Edit, ...]

    def to_json(self) -> dict:
        return {
            "applicability": self.applicability.value,
            "message": self.message,
            "edits": [e.to_json() for e in self.edits],
        }

    def applies(self, unsafe: bool) -> bool:
        """Whether `--fix` applies this fix (with `--unsafe-fixes` when `unsafe`)."""
        if self.applicability is Applicability.SAFE:
            return True
        return unsafe and self.applicability is Applicability.UNSAFE


def apply_fixes(text: str, fixes: Iterable[Fix]) -> tuple[str, list[Fix]]:
    """`text` with every fix applied whose edits overlap no earlier-applied fix's edits.

    Returns the new text and the fixes applied (in the order given). Fixes are taken in order of
    their first edit; a fix that overlaps one already taken is skipped whole (ruff does the same and
    reaches the rest on the next pass)."""
    taken: list[Fix] = []
    claimed: list[tuple[int, int]] = []
    for fix in sorted(fixes, key=lambda f: min((e.start, e.end) for e in f.edits) if f.edits else (0, 0)):
        if not fix.edits:
            continue
        ranges = [(e.start, e.end) for e in fix.edits]
        if any(_overlaps(r, c) for r in ranges for c in claimed):
            continue
        taken.append(fix)
        claimed.extend(ranges)
    edits = sorted((e for f in taken for e in f.edits), key=lambda e: (e.start, e.end))
    out: list[str] = []
    pos = 0
    for e in edits:
        out.append(text[pos : e.start])
        out.append(e.content)
        pos = e.end
    out.append(text[pos:])
    return "".join(out), taken


def _overlaps(a: tuple[int, int], b: tuple[int, int]) -> bool:
    if a[0] == a[1] or b[0] == b[1]:  # an insertion overlaps only a range strictly around it, or the same point
        return a == b or (b[0] < a[0] < b[1]) or (a[0] < b[0] < a[1])
    return a[0] < b[1] and b[0] < a[1]


def _position(text: str, offset: int) -> tuple[int, int]:
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1
