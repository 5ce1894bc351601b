"""An immutable sequence that shares its storage with the sequences it was extended from.

The replay makes one table state per statement, and each state holds every schema version so far
(as Iceberg's metadata does). As tuples, N versions cost N²/2 slots: 25,000 schema changes on one
table would need gigabytes for the tuples alone. A `Chain` is a view of the first `n` items of a
list shared along a table's chain of states: `append` adds to the shared list when the view is
its newest (the usual case, O(1)), and copies only when an older state is extended a second time.

It reads as a tuple (index, slice, iterate, `len`, `==` and `hash` against tuples). Tested against
tuples in `tests/test_scale_shortcuts.py`.
"""

from __future__ import annotations

from itertools import islice
from typing import Any, Iterable, Iterator, Sequence


class Chain(Sequence):
    __slots__ = ("_items", "_n")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        self._items = list(items)
        self._n = len(self._items)

    def append(self, item: Any) -> Chain:
        """A new chain: this one with `item` at the end (this one is unchanged)."""
        items = self._items
        if len(items) != self._n:  # another chain already extended this one: copy
            items = items[: self._n]
        items.append(item)
        out = Chain.__new__(Chain)
        out._items, out._n = items, self._n + 1
        return out

    def __len__(self) -> int:
        return self._n

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self._items[: self._n][i])
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("Chain index out of range")
        return self._items[i]

    def __iter__(self) -> Iterator[Any]:
        return islice(self._items, self._n)

    def __reversed__(self) -> Iterator[Any]:
        return reversed(self._items[: self._n])

    def __add__(self, other: Sequence[Any]) -> Chain:
        out = self
        for x in other:
            out = out.append(x)
        return out

    def __radd__(self, other: Sequence[Any]) -> tuple:
        return tuple(other) + tuple(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (tuple, Chain)):
            return len(self) == len(other) and all(a is b or a == b for a, b in zip(self, other))
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):  # pickles (and copies) as a chain of its own items
        return (Chain, (tuple(self),))
