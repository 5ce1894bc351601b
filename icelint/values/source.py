"""Source files and positions: where every statement, change and finding came from."""

from __future__ import annotations

import bisect
import os
import stat
from array import array
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple, Sequence


class InputError(Exception):
    """Bad input a user must fix: reported as one line naming the file, exit code 2."""


_new_tuple = tuple.__new__


class Span(NamedTuple):
    """A region of a source file: 1-based line and column of its first and last character.

    The parser makes `TextSpan`s, which read the same and compute their lines on demand; a `Span`
    is made where positions are known without their text (tests, a region inside a statement)."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0  # character offsets into the file's text, end exclusive
    end: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def positions(self) -> tuple[int, int, int, int]:
        """(line, column, end_line, end_column)."""
        return self.line, self.column, self.end_line, self.end_column


class TextSpan(tuple):
    """A `Span` as the parser makes one (a few per statement): (the `LineIndex` of its text, start
    offset, length), read through the same names as a `Span`, lines and columns computed when
    asked. Three slots instead of seven, and one int object instead of up to four (a length under
    257 is one of Python's shared small ints): on a long file, spans were the largest part of
    what the parse keeps (~240 bytes each, now ~110)."""

    __slots__ = ()

    start = property(itemgetter(1))  # character offsets into the file's text, end exclusive

    @property
    def end(self) -> int:
        return self[1] + self[2]

    @property
    def path(self) -> str:
        return self[0].path

    @property
    def line(self) -> int:
        return bisect.bisect_right(self[0]._starts, self[1])

    @property
    def column(self) -> int:
        starts, start = self[0]._starts, self[1]
        return start - starts[bisect.bisect_right(starts, start) - 1] + 1

    @property
    def end_line(self) -> int:
        start, n = self[1], self[2]
        return bisect.bisect_right(self[0]._starts, start + n - 1 if n > 1 else start)

    @property
    def end_column(self) -> int:
        starts, start, n = self[0]._starts, self[1], self[2]
        last = start + n - 1 if n > 1 else start
        return last - starts[bisect.bisect_right(starts, last) - 1] + 1

    def positions(self) -> tuple[int, int, int, int]:
        """(line, column, end_line, end_column): two searches, not one per attribute."""
        starts, start, n = self[0]._starts, self[1], self[2]
        line = bisect.bisect_right(starts, start)
        last = start + n - 1 if n > 1 else start
        if line < len(starts) and last >= starts[line]:
            end_line = bisect.bisect_right(starts, last)
        else:
            end_line = line  # the common case: the span ends on its first line
        return line, start - starts[line - 1] + 1, end_line, last - starts[end_line - 1] + 1

    def as_span(self) -> Span:
        return _new_tuple(Span, (self[0].path, *self.positions(), self[1], self[1] + self[2]))

    def _replace(self, **kw) -> Span:
        return self.as_span()._replace(**kw)

    def _key(self) -> Span:
        return self.as_span()

    # compared with other TextSpans only (as `as_span()` would be): a Span of the same place is
    # another type, as two named tuple types are unequal
    def __eq__(self, other: object) -> bool:
        if other.__class__ is not TextSpan:
            return NotImplemented
        a, b = self[0], other[0]  # type: ignore[index]
        return self[1] == other[1] and self[2] == other[2] and (a is b or (a.path == b.path and a.text == b.text))  # type: ignore[index]

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash((self[0].path, self[1], self[2]))

    def __lt__(self, other: object) -> bool:
        return self._key() < other._key() if other.__class__ is TextSpan else NotImplemented  # type: ignore[attr-defined]

    def __le__(self, other: object) -> bool:
        return self._key() <= other._key() if other.__class__ is TextSpan else NotImplemented  # type: ignore[attr-defined]

    def __gt__(self, other: object) -> bool:
        return self._key() > other._key() if other.__class__ is TextSpan else NotImplemented  # type: ignore[attr-defined]

    def __ge__(self, other: object) -> bool:
        return self._key() >= other._key() if other.__class__ is TextSpan else NotImplemented  # type: ignore[attr-defined]

    def __reduce__(self):  # pickled as the `Span` it reads as (not with its file's text)
        return (Span, tuple(self.as_span()))

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"

    def __repr__(self) -> str:
        return repr(self.as_span())


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file's path as given and its text."""

    path: str
    text: str

    @classmethod
    def read(cls, path: str | Path) -> SourceFile:
        data = read_bytes(path, missing="no such file", directory="is a directory, not a SQL file")
        text = decode_utf8(data, str(path))
        if not text or text.isspace():  # not `strip()`: a copy of the whole text
            raise InputError(f"{path}: empty file, expected Spark SQL statements")
        return cls(str(path), text)


def decode_utf8(data: bytes, label: str, where: str = "") -> str:
    """`data` as UTF-8 text (a byte order mark dropped), or an `InputError` naming the line and column
    (in characters, from 1) of the first byte that is not UTF-8."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as e:
        line_start = body.rfind(b"\n", 0, e.start) + 1
        line = body.count(b"\n", 0, e.start) + 1
        column = len(body[line_start : e.start].decode("utf-8")) + 1
        raise InputError(
            f"{label}:{line}:{column}{where}: not UTF-8 text (byte 0x{body[e.start]:02x} cannot start or continue a "
            "UTF-8 character; save the file as UTF-8)"
        ) from None


def read_bytes(path: str | Path, missing: str, directory: str, label: str | None = None) -> bytes:
    """A file's bytes, or an `InputError` naming the file (as `label`, if given) and what is wrong."""
    name = label or path
    try:
        if not stat.S_ISREG(os.stat(path).st_mode) and not os.path.isdir(path):
            raise InputError(f"{name}: not a regular file")  # a FIFO, socket or device: reading could block
        return Path(path).read_bytes()
    except FileNotFoundError:
        raise InputError(f"{name}: {missing}") from None
    except IsADirectoryError:
        raise InputError(f"{name}: {directory}") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read: {e.strerror or e}") from None


def line_starts(text: str) -> array:
    """The offset of each line's first character in `text`: 8 bytes a line, not a list slot and an
    int object (40)."""
    out = array("q", (0,))
    find = text.find
    i = find("\n")
    while i >= 0:
        out.append(i + 1)
        i = find("\n", i + 1)
    return out


def containing(starts: Sequence, ends: Sequence, pos) -> int | None:
    """The index of the range holding `pos` among ranges in order that do not overlap (range i runs
    from `starts[i]` to `ends[i]`, both included; positions compare as (line, column) tuples or
    offsets), or None: one binary search, not a scan of the ranges."""
    i = bisect.bisect_right(starts, pos) - 1
    return i if i >= 0 and pos <= ends[i] else None


class LineIndex:
    """Maps character offsets of one text to 1-based (line, column)."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self._starts = line_starts(text)

    @classmethod
    def shared(cls, path: str, text: str) -> LineIndex:
        """`LineIndex(path, text)`, made once for a text that the parser and the reporters all index
        (the same string object): a file of 50,000 lines is scanned once, not once per user."""
        got = _shared.get(path)
        if got is None or got.text is not text:
            if len(_shared) >= 64:
                _shared.clear()
            got = _shared[path] = cls(path, text)
        return got

    @staticmethod
    def repack(path: str, text: str, packed) -> None:
        """The shared index of `text` (if any) reads `packed` instead (`packed_text.PackedText`, the
        same characters kept compressed): the spans the parser made keep no copy of the text."""
        got = _shared.get(path)
        if got is not None and got.text is text:
            got.text = packed

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def span(self, start: int, end: int) -> TextSpan:
        """Span covering text[start:end] (end exclusive)."""
        return _new_tuple(TextSpan, (self, start, end - start))

    def line_text(self, line: int) -> str:
        start = self._starts[line - 1]
        end = self._starts[line] - 1 if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r")


_shared: dict[str, LineIndex] = {}  # path → the index of the last text seen for it
