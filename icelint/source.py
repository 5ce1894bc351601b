"""Source files and positions: where every statement, change and finding came from."""

from __future__ import annotations

import bisect
import os
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple


class InputError(Exception):
    """Bad input a user must fix: reported as one line naming the file, exit code 2."""


_new_tuple = tuple.__new__


class Span(NamedTuple):
    """A region of a source file: 1-based line and column of its first and last character.

    A named tuple: the parser makes one per statement, name and type, so construction cost counts."""

    path: str
    line: int
    column: int
    end_line: int
    end_column: int
    start: int = 0  # character offsets into the file's text, end exclusive
    end: int = 0

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True)
class SourceFile:
    """A file's path as given and its text."""

    path: str
    text: str

    @classmethod
    def read(cls, path: str | Path) -> SourceFile:
        data = read_bytes(path, missing="no such file", directory="is a directory, not a SQL file")
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError as e:
            raise InputError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None
        if not text.strip():
            raise InputError(f"{path}: empty file, expected Spark SQL statements")
        return cls(str(path), text)


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


class LineIndex:
    """Maps character offsets of one text to 1-based (line, column)."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text
        self._starts = [0]
        self._line = 0  # the line of the last span made (`span` reuses its int: a big one is an object each)
        find = text.find
        i = find("\n")
        while i >= 0:
            self._starts.append(i + 1)
            i = find("\n", i + 1)

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

    def position(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset) - 1
        return line + 1, offset - self._starts[line] + 1

    def span(self, start: int, end: int) -> Span:
        """Span covering text[start:end] (end exclusive)."""
        starts = self._starts
        line = bisect.bisect_right(starts, start)  # 1-based: starts[line - 1] <= start
        if line == self._line:
            line = self._line  # one int object for the spans of one line (most of a statement's spans)
        else:
            self._line = line
        last = end - 1 if end - 1 > start else start
        if line < len(starts) and last >= starts[line]:
            end_line = bisect.bisect_right(starts, last)
        else:
            end_line = line  # the common case: the span ends on its first line
        return _new_tuple(Span, (self.path, line, start - starts[line - 1] + 1, end_line, last - starts[end_line - 1] + 1, start, end))

    def line_span(self, start: int, end: int) -> Span:
        """`span(start, end)` of a region on one line that holds two characters or more (a `--`
        comment): one lookup, and the tuple made without `Span.__new__`'s keyword handling
        (a file of 50,000 comment lines makes 50,000 of them)."""
        starts = self._starts
        line = bisect.bisect_right(starts, start)
        if line == self._line:
            line = self._line
        else:
            self._line = line
        base = starts[line - 1]
        return _new_tuple(Span, (self.path, line, start - base + 1, line, end - base, start, end))

    def line_text(self, line: int) -> str:
        start = self._starts[line - 1]
        end = self._starts[line] - 1 if line < len(self._starts) else len(self.text)
        return self.text[start:end].rstrip("\r")


_shared: dict[str, LineIndex] = {}  # path → the index of the last text seen for it
