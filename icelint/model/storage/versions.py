"""Older schema versions of a long replay, kept as their difference from the next version.

Iceberg keeps every schema version, and so does the replay: one per schema change. Each one holds
its own top-level field list (`chain.Rope`: the chunk and spine node its change made), the values
the replay carried to it and the lookup tables it built, ~1.4 KB a statement on a long file. Rules
read the newest versions; older ones are read rarely (the schemas of a metadata file written out,
a rule looking far back). So the streamed replay (`Replay.stream`) *retires* a version once it is
`UNDO_KEPT` versions behind the newest: its instance dict then holds its schema id, its identifier
field ids and `_retired` = (the next version, start, n, *fields), such that its fields are the
next version's with the `n` from `start` replaced by `fields` (one field for most changes), or, for
a column moved, where it was (`splice`).

Reading a retired version's `fields` (`Schema.fields` finds none in its dict) revives it: the
versions after it are followed to the first one that is not retired and their differences undone
on one list; it, and every `CHECKPOINT`th version on the way, keep their fields from then on (see
`revive`). Every other attribute is derived from the fields and computed again when asked. `tests/equivalence/test_versions.py`
compares each version with the version as it was before it was retired.

A commit that makes a schema equal to an older one gives the table that older version's id again
(Iceberg's `reuseOrCreateNewSchemaId`: a rename undone, a comment set back). The older version then
becomes current and `adopt`s the fields of the version the commit made (equal to its own, as other
objects) with what the replay carried to it, so that its lookup tables and locator move on from it
at the cost of the change. The streamed replay does not retire a version while it is among the
newest `UNDO_KEPT` again, nor, once one has been reused, ever: it is likely to be reused again (a
column renamed back and forth), and each reuse of a retired version revives it.
"""

from __future__ import annotations

from itertools import chain as _chain
from itertools import compress, count
from operator import is_, is_not
from typing import Any, Sequence

from icelint.model.storage.chain import CHUNK, Rope, same_ends, share
from icelint.model.schema import Schema, forget_built

MAX_SPLICE = 2 * CHUNK  # a version whose difference holds more fields than this (a far reorder) is kept whole


def retire(older: Any, newer: Any) -> bool:
    """Keep `older` (a `Schema`) as its difference from `newer`, the version made after it; False
    (and `older` unchanged) when it cannot be: not a plain replayed version, already retired,
    `newer` retired (a link only ever points at a version that holds its fields, so that links
    make no cycle), or too different from it."""
    d = older.__dict__
    if older is newer or older.__class__ is not Schema or newer.__class__ is not Schema or d.get("_retired") is not None:
        return False
    mine, theirs = d.get("fields"), newer.__dict__.get("fields")
    if mine is None or theirs is None:
        return False
    spliced = splice(mine, theirs)
    if spliced is None:
        return False
    for k in [k for k in d if k not in _KEPT]:
        del d[k]  # deleted, not cleared: the dict keeps sharing its keys with the other versions'
    d["_retired"] = (newer, *spliced)  # the key is there already (`replay/schemas.py`)
    return True


_KEPT = frozenset({"schema_id", "identifier_field_ids", "_retired", "_tables"})  # `_tables`: its lineage's store (model/schema.py)


def adopt(older: Any, new: Any) -> None:
    """`older`, an earlier version a commit reuses because `new` equals it (Iceberg gives the table
    its schema id back: a rename undone, a comment set back), takes `new`'s fields (equal to its
    own, as other objects) and what the replay carried to `new`: the values, and then the lookup
    tables and the fields' locator, which move on from it at the cost of the change, as from a
    version just made. Without this each reuse rebuilds them from every column (a table of 12,000
    columns renaming one back and forth: quadratic). Its links to its neighbours go (`_undo`,
    `_pred`): the versions around it follow them only when they check out. An older schema of a
    metadata file (`LazySchema`) keeps its JSON as read (`to_json` passes it through)."""
    d = older.__dict__
    plain = older.__class__ is Schema
    for k in [k for k in d if k not in _KEPT] if plain else [k for k in _DERIVED if k in d]:
        del d[k]
    forget_built(older)
    carried = new.__dict__
    for k in carried if plain else _DERIVED:
        if k not in _KEPT and k in carried:
            d[k] = carried[k]
    fields = d["fields"] = carried["fields"]
    if not plain:  # its `fields` is a property reading `_fields`; the rest of its dict (its JSON) stays
        d["_fields"] = fields
        d["_adopted"] = True
    d["_retired"] = None


# what a version computes from its fields and the replay carries or moves from version to version
_DERIVED = ("_lower_names", "_top_ids", "_index", "_exact_names", "_undo", "_pred", "_binds",
            "nested_top", "top_hash", "dotted_top", "id_xor", "field_count", "_identity")  # fmt: skip


def is_retired(schema: Any) -> bool:
    return schema.__dict__.get("_retired") is not None


CHECKPOINT = 32  # a revival also gives their fields back to every 32nd version on its way


def revive(schema: Any) -> Sequence[Any]:
    """The fields of a retired version, given back to it. The versions after it are followed to the
    first one that holds its own, and each difference is undone on one list, newest first (a slice
    assignment a version); every `CHECKPOINT`th version on the way gets its fields back too, so that
    reading every version, oldest first, walks each chain once and then never more than
    `CHECKPOINT` versions (rules read a retired version rarely: an older schema Iceberg reuses)."""
    todo = []
    s = schema
    while True:
        retired = s.__dict__.get("_retired")
        if retired is None:
            break
        todo.append(s)
        s = retired[0]
    made = s.fields
    fields = list(made)
    head = tail = len(fields)  # the items at each end no difference touched: the same objects as `made`'s
    for k in range(len(todo) - 1, -1, -1):  # the newest retired first, `schema` last
        r = todo[k]
        _, start, removed, *items = r.__dict__["_retired"]
        if removed >= 0:
            fields[start : start + removed] = items
            stop = start + len(items)
        else:  # a column moved: the `-removed` from `start` hold it at the other end
            stop = start - removed
            if items[0] == _LAST_FIRST:
                fields.insert(start, fields.pop(stop - 1))
            else:
                fields.insert(stop - 1, fields.pop(start))
        head = min(head, start)
        tail = min(tail, len(fields) - stop)
        if k % CHECKPOINT == 0:
            ends = (head, min(tail, min(len(made), len(fields)) - head))  # never overlapping, as `same_ends`
            made = share(made, fields, locate=False, ends=ends)  # a tuple up to `2 * CHUNK` fields, as any version
            head = tail = len(fields)
            d = r.__dict__
            d["_retired"] = None
            d["fields"] = made
    return made


_LAST_FIRST, _FIRST_LAST = 0, 1  # which way a moved column went (see `splice`)


def splice(old: Sequence[Any], new: Sequence[Any]) -> tuple | None:
    """(start, n, *items) with `old` == new[:start] + items + new[start + n:] (fields compared by
    identity), the shortest such; or, when one column moved (ALTER COLUMN ... FIRST / AFTER),
    (start, -n, way): `old` is `new` with the last of the `n` from `start` moved to the front of
    them (`way` `_LAST_FIRST`) or the first to their end (`_FIRST_LAST`). None when `items` would
    be longer than `MAX_SPLICE` and no column moved."""
    if old.__class__ is Rope and new.__class__ is Rope:
        mine, theirs = old._chunks, new._chunks  # shared chunks are skipped whole
        at = _one_differs(mine, theirs)
        if at >= 0:  # one chunk changed in place (most statements)
            skipped = sum(map(len, mine[:at]))
            old_mid, new_mid = mine[at], theirs[at]
        else:
            head, tail = same_ends(mine, theirs)
            skipped = sum(map(len, mine[:head]))
            old_mid = tuple(_chain.from_iterable(mine[head : len(mine) - tail]))
            new_mid = tuple(_chain.from_iterable(theirs[head : len(theirs) - tail]))
    else:
        skipped, old_mid, new_mid = 0, tuple(old), tuple(new)
    i = _one_differs(old_mid, new_mid)
    if i >= 0:  # one column changed in place (a rename, a comment, a type): its old field is all there is to keep
        return (skipped + i, 1, old_mid[i])
    p, s = same_ends(old_mid, new_mid)
    items = old_mid[p : len(old_mid) - s]
    theirs_n = len(new_mid) - s - p
    if len(items) <= MAX_SPLICE:
        return (skipped + p, theirs_n, *items)
    block = new_mid[p : len(new_mid) - s]
    if len(block) == len(items):
        if items[0] is block[-1] and all(map(is_, items[1:], block[:-1])):
            return (skipped + p, -len(block), _LAST_FIRST)
        if items[-1] is block[0] and all(map(is_, items[:-1], block[1:])):
            return (skipped + p, -len(block), _FIRST_LAST)
    return None


def _one_differs(a: Sequence[Any], b: Sequence[Any]) -> int:
    """The one place where `a` and `b`, of the same length, hold different objects; -1 when they
    differ in length or in more (or fewer) places than one."""
    n = len(a)
    if n != len(b):
        return -1
    i = next(compress(count(), map(is_not, a, b)), n)
    return i if i < n and all(map(is_, a[i + 1 :], b[i + 1 :])) else -1


class _RetiredFields:
    """`Schema.fields` for a version whose instance dict does not hold them: an older version the
    streamed replay keeps as its difference from the next one (`retire`). A non-data descriptor,
    set on the class when this module is loaded, which is before any version can be retired: a
    version that holds its fields reads them from its dict as before, at no cost."""

    def __get__(self, obj: Any, cls: Any = None) -> Any:
        if obj is None:
            return self
        if obj.__dict__.get("_retired") is None:
            raise AttributeError("fields")
        return revive(obj)


Schema.fields = _RetiredFields()  # type: ignore[assignment,misc]
