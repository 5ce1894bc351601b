"""An immutable sequence that shares its storage with the sequences it was extended from.

The replay makes one table state per statement, and each state holds every schema version so far
(as Iceberg's metadata does). As tuples, N versions cost N²/2 slots: 25,000 schema changes on one
table would need gigabytes for the tuples alone. A `Chain` is a view of the first `n` items of a
list shared along a table's chain of states: `append` adds to the shared list when the view is
its newest (the usual case, O(1)), and copies only when an older state is extended a second time.

It reads as a tuple (index, slice, iterate, `len`, `==` and `hash` against tuples). Tested against
tuples in `tests/equivalence/test_chain.py`.
"""

from __future__ import annotations

import operator
from itertools import chain as _chain
from itertools import compress, count, islice, repeat
from typing import Any, Iterable, Iterator, Sequence

chain_from = _chain.from_iterable
_new_tuple = tuple.__new__


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
        if i.__class__ is int and i == -1 and self._n:  # the newest (asked on every commit)
            return self._items[self._n - 1]
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


# ---------------------------------------------------------------------------- Rope

CHUNK = 32  # fields per chunk of a Rope; schemas up to 2 × CHUNK columns stay tuples
SPINE = 16  # chunk pointers per node of a Rope's spine


class Rope(Sequence):
    """A schema version's top-level fields, in chunks shared with the version it was made from.

    A table of 500 columns changed one column at a time would otherwise hold 500 slots per version;
    a new version built by `share` keeps every chunk of the old one that the change did not touch
    (one chunk of 32 per version). The spine (the chunks in order) of a table wider than `SPINE`
    chunks is itself kept in nodes of `SPINE` chunk pointers (`_Nodes`), shared in the same way
    (`_spine`): a version of a table of 2,000 columns holds a few slots of top spine and one node of
    16, not 63 slots; a narrower table's spine is the tuple of its chunks. Reads as a tuple (index,
    slice, iterate, `len`, `==` and `hash` against tuples, `repr`).
    """

    __slots__ = ("_nodes", "_n", "_where")

    def __init__(self, items: Iterable[Any] = ()) -> None:
        items = list(items)
        self._nodes = _spine(_chunked(items), None)
        self._n = len(items)
        self._where = None  # item id → the chunk holding it (see `patch`), kept by the newest version only

    @property
    def _chunks(self) -> tuple[tuple, ...]:
        """The chunks in order (made from the spine's nodes when asked, if it has nodes)."""
        return tuple(_each_chunk(self._nodes))  # a flat spine: itself (`tuple` of a tuple copies nothing)

    def __len__(self) -> int:
        return self._n

    def __iter__(self) -> Iterator[Any]:
        spine = self._nodes  # `_each_chunk` inlined, C-level: a call or generator here costs more than the rest of a commit
        return chain_from(chain_from(spine)) if spine.__class__ is _Nodes else chain_from(spine)

    def __reversed__(self) -> Iterator[Any]:
        return chain_from(map(reversed, reversed(self._chunks)))

    def __getitem__(self, i):  # type: ignore[override]
        if isinstance(i, slice):
            return tuple(self)[i]
        n = self._n
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("Rope index out of range")
        for chunk in _each_chunk(self._nodes):
            if i < len(chunk):
                return chunk[i]
            i -= len(chunk)
        raise IndexError("Rope index out of range")  # pragma: no cover - len() is kept exact

    def place(self, item: Any) -> tuple[int, int] | None:
        """(chunk index, index in the chunk) of `item` (an object with an `id`, found by identity)
        through the locator (id → chunk, built on first use, then carried by `patch`, `share` and
        `appended` to the version made from this one); None when it is not there."""
        where = self._where
        if where is None:
            where = self._where = _locate(self._chunks)
        c = where.get(item.id)
        if c is None:
            return None
        ci = next(compress(count(), map(operator.is_, _each_chunk(self._nodes), repeat(c))), -1)
        if ci < 0:
            return None
        j = next(compress(count(), map(operator.is_, c, repeat(item))), -1)
        return None if j < 0 else (ci, j)

    def __add__(self, other: Sequence[Any]) -> tuple:
        return tuple(self) + tuple(other)

    def __radd__(self, other: Sequence[Any]) -> tuple:
        return tuple(other) + tuple(self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Rope):
            if self is other:
                return True
            if self._n != other._n:
                return False
            if self._nodes is other._nodes:
                return True
            # shared chunks at both ends are skipped by identity; only the items between are compared
            mine, theirs = self._chunks, other._chunks
            head, tail = same_ends(mine, theirs)
            if head == len(mine) == len(theirs):
                return True
            return tuple(chain_from(mine[head : len(mine) - tail])) == tuple(chain_from(theirs[head : len(theirs) - tail]))
        if isinstance(other, (tuple, Chain)):
            return self._n == len(other) and tuple(self) == tuple(other)
        return NotImplemented

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return repr(tuple(self))

    def __reduce__(self):
        return (Rope, (tuple(self),))


def _chunked(items: list) -> tuple[tuple, ...]:
    return tuple(tuple(items[i : i + CHUNK]) for i in range(0, len(items), CHUNK))


class _Nodes(tuple):
    """The spine of a Rope of more than `SPINE` chunks: its chunks in nodes of `SPINE` pointers,
    every node full but the last (a plain tuple of chunks is the spine of a narrower Rope)."""

    __slots__ = ()


def _each_chunk(spine: tuple) -> Iterable[tuple]:
    """The chunks of a spine, in order (its nodes' chunks, or the spine itself when it is flat)."""
    return chain_from(spine) if spine.__class__ is _Nodes else spine


def _spine(chunks: Sequence[tuple], old: tuple | None) -> tuple:
    """The spine of `chunks`: the tuple of them, up to `SPINE`; else their `_Nodes`, each node of
    `old` (the spine of the version it was made from) kept where it holds the same chunks at the
    same place: a change to one chunk makes one node, not a new spine of every chunk."""
    if len(chunks) <= SPINE:
        return tuple(chunks)
    nodes = []
    olds = old if old.__class__ is _Nodes else ()
    for k, i in enumerate(range(0, len(chunks), SPINE)):
        part = chunks[i : i + SPINE]
        if k < len(olds):
            prev = olds[k]  # type: ignore[index]
            if len(prev) == len(part) and all(map(operator.is_, prev, part)):
                nodes.append(prev)
                continue
        nodes.append(tuple(part))
    return _new_tuple(_Nodes, nodes)


def _same(chunk: tuple, items: list, start: int) -> bool:
    """`chunk` holds exactly the objects items[start:start + len(chunk)]."""
    end = start + len(chunk)
    return 0 <= start and end <= len(items) and all(map(operator.is_, chunk, items[start:end]))


def share(old: Sequence[Any], new: list, locate: bool = True, ends: tuple[int, int] | None = None) -> tuple | Rope:
    """`tuple(new)`, as a Rope reusing the chunks of `old` that hold the same objects in `new`.

    Chunks are reused from both ends; the ones between, and a partly filled neighbour, are made
    again (so that appending one field at a time keeps chunks full, not one per field). The new
    Rope takes `old`'s locator (see `patch`), unless `locate` is False (an older version made again
    from a newer one, `versions.revive`: the newer keeps its own). `ends`: how many items at the
    front and at the back are known to be the same objects in both (as `same_ends` finds them, or
    fewer), when the caller knows where it changed `new` (no pass over every item).
    """
    n = len(new)
    if n <= 2 * CHUNK:
        return tuple(new)
    if not isinstance(old, Rope):
        return Rope(new)
    chunks = old._chunks
    head, tail = same_ends(old, new) if ends is None else ends
    front: list[tuple] = []
    pos = 0
    for chunk in chunks:
        if pos + len(chunk) > head:
            break
        front.append(chunk)
        pos += len(chunk)
    back: list[tuple] = []
    end = n
    for chunk in reversed(chunks[len(front) :]):
        if n - (end - len(chunk)) > tail or end - len(chunk) < pos:
            break
        back.append(chunk)
        end -= len(chunk)
    if front and len(front[-1]) < CHUNK:
        pos -= len(front.pop())
    if back and len(back[-1]) < CHUNK:
        end += len(back.pop())
    out = Rope.__new__(Rope)
    made = _chunked(new[pos:end])
    out._nodes = _spine((*front, *made, *reversed(back)), old._nodes)
    out._n = n
    out._where = _register(_take_where(old), made) if locate else None
    return out


def appended(old: Sequence[Any], added: Sequence[Any]) -> tuple | Rope:
    """`share(old, [*old, *added])` without looking at `old`'s items: its chunks are all kept (the
    last one, if not full, is filled up), and so are its spine's nodes but the last (every node but
    the last is full), so that appending a column costs O(SPINE + len / CHUNK / SPINE), not O(len)."""
    n = len(old) + len(added)
    if n <= 2 * CHUNK or not isinstance(old, Rope):
        return share(old, [*old, *added])
    spine = old._nodes
    deep = spine.__class__ is _Nodes
    chunks = list(spine[-1] if deep else spine)
    items = list(added)
    if chunks and len(chunks[-1]) < CHUNK:
        items[:0] = chunks.pop()
    out = Rope.__new__(Rope)
    made = _chunked(items)
    chunks.extend(made)
    if deep:
        out._nodes = _new_tuple(_Nodes, spine[:-1] + tuple(tuple(chunks[i : i + SPINE]) for i in range(0, len(chunks), SPINE)))
    else:
        out._nodes = _spine(chunks, None)
    out._n = n
    out._where = _register(_take_where(old), made)
    return out


def same_ends(a: Sequence[Any], b: Sequence[Any]) -> tuple[int, int]:
    """How many items of `a` and `b` are the same objects at the front, and then at the back
    (never overlapping the front): C-level passes that stop at the first difference (no list of
    the whole length). Two Ropes skip the chunks they share whole, at each end."""
    if a.__class__ is Rope and b.__class__ is Rope:
        return _rope_same_ends(a, b)  # type: ignore[arg-type]
    shortest = min(len(a), len(b))
    head = next(compress(count(), map(operator.is_not, a, b)), shortest)
    tail = next(compress(count(), map(operator.is_not, reversed(a), reversed(b))), shortest)
    return head, min(tail, shortest - head)


def _rope_same_ends(a: Rope, b: Rope) -> tuple[int, int]:
    """`same_ends` of two Ropes: the chunks they share at the front (and at the back) hold the same
    objects at the same places, so only the items from the first differing chunk on are compared:
    O(chunks), not O(items), between two versions of a wide table one change apart."""
    ca, cb = a._chunks, b._chunks
    shortest = min(a._n, b._n)
    k = next(compress(count(), map(operator.is_not, ca, cb)), min(len(ca), len(cb)))
    p = sum(map(len, ca[:k]))
    head = p + next(compress(count(), map(operator.is_not, chain_from(ca[k:]), chain_from(cb[k:]))), shortest - p)
    m = next(compress(count(), map(operator.is_not, reversed(ca), reversed(cb))), min(len(ca), len(cb)))
    q = sum(map(len, ca[len(ca) - m :]))
    rest_a = chain_from(map(reversed, reversed(ca[: len(ca) - m])))
    rest_b = chain_from(map(reversed, reversed(cb[: len(cb) - m])))
    tail = q + next(compress(count(), map(operator.is_not, rest_a, rest_b)), shortest - q)
    return head, max(0, min(tail, shortest - head))


def patch(
    old: Sequence[Any], changed: Sequence[tuple[Any, Any]], added: Sequence[Any], moves: Sequence[tuple[int, int | None]] = ()
) -> Rope | None:
    """`share(old, new)` where `new` is `old` with each (item, replacement) of `changed` applied in
    place (replacement None: the item deleted), `added` appended, then each (id, id after which it
    goes, or None: first) of `moves` made, for items with an `id` (fields): each item is found
    through a locator (id → chunk) carried from version to version, not by a pass over every item,
    so a change costs O(len / CHUNK). None when it does not apply (`old` not a Rope, the result
    short, an item not found where the locator says): then `share` does it."""
    if not isinstance(old, Rope):
        return None
    if not changed and not added and not moves:
        return old
    gone = 0
    for _, x in changed:  # a loop: mostly one change
        if x is None:
            gone += 1
    n = old._n - gone + len(added)
    if n <= 2 * CHUNK:
        return None
    spine = old._chunks
    edits: dict[int, list] = {}  # chunk index → its items, edited in place (None: deleted)
    holes: set[int] = set()  # the edited chunks that lost an item
    for item, new in changed:
        place = old.place(item)
        if place is None:
            return None
        ci, j = place
        items = edits.get(ci)
        if items is None:
            items = edits[ci] = list(spine[ci])
        items[j] = new
        if new is None:
            holes.add(ci)
    where = old._where if old._where is not None else _locate(spine)
    out = list(spine)
    for ci in sorted(edits, reverse=True):  # from the end: merging changes only later indexes
        chunk = tuple(x for x in edits[ci] if x is not None) if ci in holes else tuple(edits[ci])
        if not chunk:
            del out[ci]
            continue
        if len(chunk) < CHUNK // 2 and ci + 1 < len(out) and len(chunk) + len(out[ci + 1]) <= CHUNK:
            chunk += out.pop(ci + 1)  # a small chunk joins its neighbour
        out[ci] = chunk
        _register(where, (chunk,))
    for item, new in changed:
        if new is None:
            where.pop(item.id, None)
    if added:
        items = list(added)
        if out and len(out[-1]) < CHUNK:
            items[:0] = out.pop()
        made = _chunked(items)
        out.extend(made)
        _register(where, made)
    for fid, ref in moves:
        ci = _chunk_of(out, where, fid)
        if ci is None:
            return None
        chunk = list(out[ci])
        item = chunk.pop(_index_of(chunk, fid))
        if chunk:
            out[ci] = tuple(chunk)
            _register(where, out[ci : ci + 1])
        else:
            del out[ci]
        if ref is None:
            ri, at = 0, 0
        else:
            ri = _chunk_of(out, where, ref)
            if ri is None:
                return None
            at = _index_of(out[ri], ref) + 1
        c = out[ri] if out else ()
        c = (*c[:at], item, *c[at:])
        out[ri : ri + 1] = [c] if len(c) <= 2 * CHUNK else [c[: len(c) // 2], c[len(c) // 2 :]]
        _register(where, out[ri : ri + 2])
    old._where = None  # moved to the new version
    rope = Rope.__new__(Rope)
    rope._nodes = _spine(out, old._nodes)
    rope._n = n
    rope._where = where
    return rope


def _chunk_of(chunks: list, where: dict, fid: int) -> int | None:
    """The index in `chunks` of the chunk the locator names for `fid`, if it is there and holds it."""
    c = where.get(fid)
    if c is None:
        return None
    ci = next(compress(count(), map(operator.is_, chunks, repeat(c))), -1)
    return ci if ci >= 0 and _index_of(c, fid) >= 0 else None


def _index_of(chunk: Sequence[Any], fid: int) -> int:
    return next((i for i, x in enumerate(chunk) if x.id == fid), -1)


def _locate(chunks: tuple) -> dict:
    return {x.id: c for c in chunks for x in c}


def _take_where(old: Any) -> dict | None:
    """The locator of `old` (a Rope), moved out of it; None when it has none."""
    if not isinstance(old, Rope) or old._where is None:
        return None
    where, old._where = old._where, None
    return where


def _register(where: dict | None, chunks: Iterable[tuple]) -> dict | None:
    if where is not None:
        for c in chunks:
            for x in c:
                where[x.id] = c
    return where
