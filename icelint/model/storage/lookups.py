"""The lookup tables of a table's schema versions, kept where the versions can reach them: the
newest version holds its own (moved on from version to version by `Schema.carry_indexes`), and a
table asked of an older one is built (or moved from a neighbour and patched) and kept among the
newest few of a store that the versions of one lineage share (`_tables` in each version's dict,
handed on by `join`). Nothing is kept in a module: a run's tables go with its versions.
"""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, TypeVar

from icelint.util.lazy import cached_property

T = TypeVar("T")

# A lineage's store (`_tables` in each of its versions' dicts) keeps this many lookup tables built
# for versions that do not hold their own (see `lookup_table`): the newest few, by
# (id(schema), name) → (schema, table); the entry holds the schema, so an id is never reused.
_BUILT_MAX = 32


def store_of(schema: Any) -> OrderedDict:
    """The store of lookup tables of `schema`'s lineage (made with its first table)."""
    d = schema.__dict__
    store = d.get("_tables")
    if store is None:
        store = d["_tables"] = OrderedDict()
    return store


def _pop_built(schema: Any, name: str) -> Any:
    """The table `name` built for `schema` and kept in its lineage's store, taken out of it; None."""
    store = schema.__dict__.get("_tables")
    if store is None:
        return None
    key = (id(schema), name)
    hit = store.get(key)
    if hit is None or hit[0] is not schema:
        return None
    del store[key]
    return hit[1]


class lookup_table(cached_property[T]):  # noqa: N801 - used like cached_property
    """A lookup table of a schema (name or id → field), built on demand and kept in a small LRU.

    The replay makes one schema version per statement and moves the tables of the current one to
    the next (`Schema.carry_indexes`): only the newest version holds them in its instance dict
    (found there at C speed). A table asked of an older version (the rules compare each statement's
    before and after) is rebuilt and kept among the newest few of its lineage (`_store`, shared by
    the versions `carry_indexes` joins), not on every version: one per version of a 5,000-column
    table would be most of a long replay's memory.
    """

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        store = store_of(obj)
        key = (id(obj), self.name)
        hit = store.get(key)
        if hit is not None and hit[0] is obj:
            store.move_to_end(key)
            return hit[1]
        table = _move_table(obj, self.name)
        if table is None:
            table = self.func(obj)
        store[key] = (obj, table)
        if len(store) > _BUILT_MAX:
            store.popitem(last=False)
        return table


_SLOTS = {"_lower_names": 1, "_top_ids": 2}  # where `carry_indexes` records each table's changes in `_undo`


def _move_table(schema: Any, name: str) -> Any:
    """The table `name` of a version up to `MOVE_STEPS` before or after `schema` (on its chain of
    versions), built earlier and kept among the newest few, taken and patched into `schema`'s with
    the entries `carry_indexes` recorded between them; None when there is none. The rules walk a
    replay's versions in order, asking some statements' before and after: each version between two
    asks costs the few entries one statement changed, not a table of every column."""
    slot = _SLOTS.get(name)
    if slot is None:
        return None
    back: list = []  # the changes from each earlier version to the next, newest first
    ahead: list = []  # the changes from each version to the next, oldest first
    before = after = schema  # the search goes both ways at once: the nearest kept table wins
    for _ in range(MOVE_STEPS):
        if before is not None:
            prev = before.__dict__.get("_pred")
            undo = prev.__dict__.get("_undo") if prev is not None else None
            if undo is None or undo[0] is not before or undo[slot] is None:
                before = None
            else:
                back.append(undo[slot])
                hit = _pop_built(prev, name)
                if hit is not None:
                    return _patch(hit, reversed(back), 2)  # forward: the new values
                before = prev
        if after is not None:
            undo = after.__dict__.get("_undo")
            if undo is None or undo[slot] is None:
                after = None
            else:
                ahead.append(undo[slot])
                after = undo[0]
                hit = _pop_built(after, name)
                if hit is not None:
                    return _patch(hit, reversed(ahead), 1)  # backward: the old values
                if name in after.__dict__:
                    after = None
        if before is None and after is None:
            break
    return None


MOVE_STEPS = 128


def _patch(table: dict, changes, which: int) -> dict:
    """Set each key of each (key, old, new, ...) tuple of `changes` to its old (`which` 1) or new (2) value."""
    for t in changes:
        for i in range(0, len(t), 3):
            v = t[i + which]
            if v is None:
                table.pop(t[i], None)
            else:
                table[t[i]] = v
    return table


def forget_built(schema: Any) -> None:
    """Drop the lookup tables its lineage's store holds for `schema` (its fields are about to be other objects)."""
    store = schema.__dict__.get("_tables")
    if store:
        for key in [k for k, v in store.items() if v[0] is schema]:  # at most `_BUILT_MAX`
            del store[key]


def take_table(schema: Any, name: str) -> Any:
    """`schema`'s own table `name` (from its dict or its lineage's store), removed from it; None when it has none."""
    table = schema.__dict__.pop(name, None)
    if table is None:
        table = _pop_built(schema, name)
    return table


def join(new: Any, old: Any) -> None:
    """`new`, the version made after `old`, joins `old`'s lineage store (one is made for both when
    neither has one; tables built for `new` before it joined go into it): a table asked of an
    older version is then kept among the lineage's newest few, not on each version."""
    store = old.__dict__.get("_tables")
    own = new.__dict__.get("_tables")
    if store is None:
        store = own if own is not None else OrderedDict()
        old.__dict__["_tables"] = store
    elif own is not None and own is not store:
        store.update(own)
        while len(store) > _BUILT_MAX:
            store.popitem(last=False)
    new.__dict__["_tables"] = store


def has_built(schema: Any, name: str) -> bool:
    """Whether its lineage's store holds the table `name` of `schema`."""
    store = schema.__dict__.get("_tables")
    return store is not None and (id(schema), name) in store
