"""A long file's text kept compressed once it is parsed (memory per statement).

After parsing and lowering, `icelint check` reads a file's text only here and there: the literal
VALUES of an INSERT (`changes.WriteData.sql`), the lines a finding shows, a fix's surroundings, a
suppression comment's line. A 34 MB file held as one string costs 34 MB for the whole run, the
largest single item of a long check (the ×20 benchmark: its INSERTs are 30 MB of it). `PackedText`
holds it as zlib-compressed blocks of `BLOCK` characters (about a tenth of the size on SQL) and
answers what those readers ask, decompressing only the blocks they touch (the last two are kept):
`len`, indexing and slicing (step 1), `find`, `rfind`, `count`, `in`, `startswith`, `==`, and
`str()` for the whole text (a fresh string each time: what needs it all, `--fix`, pays for it
then). Only texts of `PACK_MIN` characters or more are packed (`pack`); a shorter one stays a `str`.
"""

from __future__ import annotations

import zlib

BLOCK = 1 << 16  # characters per compressed block
PACK_MIN = 2 << 20  # texts shorter than this (2 M characters) stay plain strings


def pack(text: str) -> str | PackedText:
    """`text` packed when it is long enough to be worth it, else `text` itself."""
    return PackedText(text) if isinstance(text, str) and len(text) >= PACK_MIN else text


class PackedText:
    """The characters of a `str`, compressed in blocks; reads as the string for what the module says."""

    __slots__ = ("_blocks", "_len", "_recent")

    def __init__(self, text: str) -> None:
        self._len = len(text)
        self._blocks = [
            zlib.compress(text[i : i + BLOCK].encode("utf-8", "surrogatepass"), 1) for i in range(0, len(text), BLOCK)
        ]
        self._recent: list[tuple[int, str]] = []  # (block number, its text): the two last read

    def _block(self, k: int) -> str:
        for n, s in self._recent:
            if n == k:
                return s
        s = zlib.decompress(self._blocks[k]).decode("utf-8", "surrogatepass")
        self._recent = [(k, s), *self._recent[:1]]
        return s

    def _slice(self, start: int, stop: int) -> str:
        if start >= stop:
            return ""
        first, last = start // BLOCK, (stop - 1) // BLOCK
        if first == last:
            base = first * BLOCK
            return self._block(first)[start - base : stop - base]
        parts = [self._block(first)[start - first * BLOCK :]]
        parts += [self._block(k) for k in range(first + 1, last)]
        parts.append(self._block(last)[: stop - last * BLOCK])
        return "".join(parts)

    def _bounds(self, start: int | None, end: int | None) -> tuple[int, int]:
        return slice(start, end).indices(self._len)[:2]

    def __len__(self) -> int:
        return self._len

    def __getitem__(self, key: int | slice) -> str:
        if isinstance(key, slice):
            start, stop, step = key.indices(self._len)
            if step != 1:
                return self._slice(0, self._len)[key]
            return self._slice(start, stop)
        if key < 0:
            key += self._len
        if not 0 <= key < self._len:
            raise IndexError("string index out of range")
        return self._block(key // BLOCK)[key % BLOCK]

    def __str__(self) -> str:
        return self._slice(0, self._len)

    def __repr__(self) -> str:
        return f"PackedText({self._len} characters in {len(self._blocks)} blocks)"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, PackedText):
            return other is self or (other._len == self._len and (other._blocks == self._blocks or str(other) == str(self)))
        if isinstance(other, str):
            return len(other) == self._len and str(self) == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(str(self))

    def __contains__(self, sub: str) -> bool:
        return self.find(sub) >= 0

    def _empty(self, start: int | None, end: int | None, last: bool) -> int:
        """Where `""` is found, as `str.find`/`str.rfind` say (-1 when start is past the end)."""
        s = 0 if start is None else max(start + self._len if start < 0 else start, 0)
        e = self._len if end is None else max(min(end + self._len if end < 0 else end, self._len), 0)
        return -1 if s > self._len or s > e else (e if last else s)

    def find(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        if not sub:
            return self._empty(start, end, last=False)
        start, end = self._bounds(start, end)
        n, pos = len(sub), start
        while pos < end:
            base = pos - pos % BLOCK
            i = self._block(pos // BLOCK).find(sub, pos - base, end - base)
            if i >= 0:
                return base + i
            nxt = base + BLOCK
            if nxt >= end:
                break
            if n > 1:  # a match that starts in this block and ends in the next
                lo = max(pos, nxt - n + 1)
                j = self._slice(lo, min(end, nxt + n - 1)).find(sub)
                if j >= 0:
                    return lo + j
            pos = nxt
        return -1

    def rfind(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        if not sub:
            return self._empty(start, end, last=True)
        start, end = self._bounds(start, end)
        n, stop = len(sub), end
        while stop > start:
            k = (stop - 1) // BLOCK
            base = k * BLOCK
            i = self._block(k).rfind(sub, max(start - base, 0), stop - base)
            if i >= 0:
                return base + i
            if base <= start:
                break
            if n > 1:  # a match that starts in the block before and ends in this one
                lo = max(start, base - n + 1)
                j = self._slice(lo, min(stop, base + n - 1)).rfind(sub)
                if j >= 0:
                    return lo + j
            stop = base
        return -1

    def count(self, sub: str, start: int | None = None, end: int | None = None) -> int:
        if not sub:
            first = self._empty(start, end, last=False)
            return 0 if first < 0 else self._empty(start, end, last=True) - first + 1
        start, end = self._bounds(start, end)
        if len(sub) != 1:  # a match could cross a block's end: count in the text itself
            return self._slice(start, end).count(sub) if start <= end else 0
        n, pos = 0, start
        while pos < end:
            base = pos - pos % BLOCK
            n += self._block(pos // BLOCK).count(sub, pos - base, end - base)
            pos = base + BLOCK
        return n

    def startswith(self, prefix: str, start: int = 0) -> bool:
        if start < 0:
            start = max(start + self._len, 0)
        if start > self._len:
            return False
        return self._slice(start, min(start + len(prefix), self._len)) == prefix
