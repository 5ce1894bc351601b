"""Iceberg schemas: one immutable `Schema` per version, with its lookup tables (by id, by name,
case-insensitively) built when first asked for, and `LazySchema` for the older versions of a
metadata file, parsed only when something looks inside them.

The replay makes one version per statement; a new version may take over its predecessor's lookup
tables and patch them (`carry`), and older versions rebuild theirs only when asked, kept in a small
store that the versions of one table share (`icelint.model.storage.lookups`). Which versions are
kept in full is `icelint.model.storage.versions`' business.
"""

from __future__ import annotations

from dataclasses import dataclass
from operator import attrgetter
from typing import Any, Iterator, TypeVar

from icelint.util.lazy import cached_property
from icelint.model.storage.lookups import MOVE_STEPS, forget_built, has_built, join, take_table  # noqa: F401 - forget_built: importers of the schema model find it here
from icelint.model.storage.lookups import lookup_table as _lookup_table
from icelint.model.types import NestedField, StructType, Type, children, repeated_id, walk

T = TypeVar("T")
Path = tuple[str, ...]
_NO_IDS: frozenset[int] = frozenset()

def _knows_identity(schema: Any) -> bool:
    """Whether `schema._identity` costs no pass over every field: known (carried by the replay), or
    not a replayed version (a metadata file's reads it from the JSON; one made whole, from its fields)."""
    d = schema.__dict__
    return "_identity" in d or "field_count" in d or ("_retired" not in d and "_undo" not in d and "_pred" not in d)


@dataclass(frozen=True)
class Schema:
    """One schema version of a table: its columns (nested fields with permanent ids) and its identifier fields."""

    schema_id: int
    fields: tuple[NestedField, ...]
    identifier_field_ids: tuple[int, ...] = ()

    def __getstate__(self) -> dict[str, Any]:  # pickled and copied with its own fields
        d = self.__dict__
        if d.get("_retired") is not None:
            self.fields
        if "_tables" in d:  # its lineage's store of other versions' tables is not the copy's
            d = {k: v for k, v in d.items() if k != "_tables"}
        return d

    @property
    def struct(self) -> StructType:
        return StructType(self.fields)

    @_lookup_table
    def _index(self) -> tuple[dict[int, tuple[Path, NestedField]], dict[int, int | None]]:
        """field id → (path, field) and field id → parent id, built in one pass."""
        by_id: dict[int, tuple[Path, NestedField]] = {}
        parents: dict[int, int | None] = {}
        todo: list[tuple[tuple[NestedField, ...], Path, int | None]] = [(self.fields, (), None)]
        while todo:
            fields, prefix, parent = todo.pop()
            for f in fields:
                path = prefix + (f.name,)
                by_id[f.id] = (path, f)
                parents[f.id] = parent
                if not f.type.is_primitive:
                    todo.append((children(f.type), path, f.id))
        return by_id, parents

    @property
    def _by_id(self) -> dict[int, tuple[Path, NestedField]]:
        return self._index[0]

    @property
    def _parents(self) -> dict[int, int | None]:
        return self._index[1]

    def top_field(self, field_id: int) -> NestedField | None:
        """A top-level field by id without building the full index (most lookups are top-level)."""
        table = self.__dict__.get("_top_ids")
        if table is not None:
            return table.get(field_id)
        return _older(self, "_top_ids", 2, field_id)


    def carry_indexes(self, old: Schema, d) -> None:
        """Take `old`'s top-level lookup tables and patch them with the diff between the two.

        The replay makes one schema per statement and resolves names only in the newest: the
        tables move to it (patching a few entries instead of rebuilding thousands), and `old`
        rebuilds its own only if something asks it later. Copying them instead would keep a
        copy per statement alive, which is most of a long replay's memory.
        """
        removed = [f for p, f in d.removed if len(p) == 1]
        added = [f for p, f in d.added if len(p) == 1]
        replaced = d.replaced_top
        undo: list = [self, None, None]  # `old`'s entries the patches overwrote (None: not carried), see `_older`
        mine = self.__dict__
        for slot, attr in ((1, "_lower_names"), (2, "_top_ids")):
            table = old.__dict__.pop(attr, None)
            if table is None:
                table = take_table(old, attr)  # from its lineage's store
                if table is None:
                    continue
            by_name = slot == 1  # the key: the lower-cased name (`_lower`) or the id (`_id`), computed inline
            before: dict = {}  # key → its value in `old`'s table (None: absent), before any patch
            keep = before.setdefault
            get = table.get
            moved = []  # replaced fields whose key changed (renames): delete all first, then insert
            for new, prev in replaced:
                k = prev.name.lower() if by_name else prev.id
                if get(k) is prev:
                    keep(k, prev)
                    if (new.name.lower() if by_name else new.id) == k:
                        table[k] = new
                        continue
                    del table[k]
                moved.append(new)
            for f in removed:
                k = f.name.lower() if by_name else f.id
                if get(k) is f:
                    keep(k, f)
                    del table[k]
            for f in moved:
                k = f.name.lower() if by_name else f.id
                if k not in table:
                    keep(k, None)
                    table[k] = f
            for f in added:
                k = f.name.lower() if by_name else f.id
                if k not in table:
                    keep(k, None)
                    table[k] = f
            flat: list = []  # key, old, new, ... (a loop: cheaper than a generator for the one or two entries)
            for k, v in before.items():
                flat += (k, v, get(k))
            undo[slot] = tuple(flat)
            mine[attr] = table
        lower = mine.get("_lower_names")
        if lower is not None and len(lower) != len(self.fields):
            del mine["_lower_names"]  # a case collision: first-wins order matters, rebuild
            undo[1] = None
        if undo[1] is not None or undo[2] is not None:
            old.__dict__["_undo"] = tuple(undo)
            mine["_pred"] = old
        join(self, old)  # one store of built tables for the lineage

    def field_by_id(self, field_id: int) -> NestedField | None:
        top = self.top_field(field_id)
        if top is not None:
            return top
        nested = self._searchable()
        if nested is not None:
            # not a column: a field inside one of the few nested columns, or nowhere (a rule asking
            # each older version about a dropped column must not index every version in full)
            return _search(field_id, [children(f.type) for f in nested])
        hit = self._by_id.get(field_id)
        return hit[1] if hit else None

    def _searchable(self) -> tuple[NestedField, ...] | None:
        """The nested columns the replay carried to this version, when it has no index of every
        field: a field below them is searched there instead of indexing every field."""
        d = self.__dict__
        if "nested_top" in d and "_index" not in d and not has_built(self, "_index"):
            return d["nested_top"]
        return None

    @cached_property
    def nested_top(self) -> tuple[NestedField, ...]:
        """The top-level fields of a struct, list or map type (carried by the replay like `dotted_top`)."""
        return tuple(f for f in self.fields if not f.type.is_primitive)

    def has_field_id(self, field_id: int) -> bool:
        """`field_by_id(field_id) is not None`, without building lookup tables this schema does not
        have (an older version's went to its successor): a scan, so that a rule asking about one
        old version per statement does not keep a table of every column for each of them."""
        d = self.__dict__
        if "_top_ids" in d and field_id in d["_top_ids"]:
            return True
        if "_index" in d:
            return field_id in d["_index"][0]
        if "_pred" in d or "_undo" in d:  # a version of a replay: its lookups move between versions, cheaply
            return self.field_by_id(field_id) is not None
        return _search(field_id, [self.fields]) is not None

    def path_of(self, field_id: int) -> Path | None:
        top = self.top_field(field_id)
        if top is not None:
            return (top.name,)
        chain = self._below_nested(field_id)
        if chain is not None:
            return tuple(f.name for f in chain) if chain else None
        hit = self._by_id.get(field_id)
        return hit[0] if hit else None

    def _below_nested(self, field_id: int) -> list[NestedField] | None:
        """The fields from a column down to `field_id` ([]: not there), searched as `field_by_id`
        does (`_searchable`); None when it does not search. A schema change on a table keyed by a
        nested identifier field asks its path and ancestors every statement: no index of every field."""
        nested = self._searchable()
        return None if nested is None else _search_chain(field_id, nested)

    def name_of(self, field_id: int) -> str | None:
        p = self.path_of(field_id)
        return ".".join(p) if p else None

    def parent_id(self, field_id: int) -> int | None:
        if self.top_field(field_id) is not None:
            return None
        return self._parents.get(field_id)

    def ancestors(self, field_id: int) -> list[NestedField]:
        if self.top_field(field_id) is not None:
            return []
        chain = self._below_nested(field_id)
        if chain is not None:
            return chain[-2::-1]  # the nearest first
        out = []
        pid = self._parents.get(field_id)
        while pid is not None:
            out.append(self._by_id[pid][1])
            pid = self._parents.get(pid)
        return out

    def all_fields(self) -> Iterator[tuple[Path, NestedField]]:
        return walk(self.fields)

    @property
    def highest_field_id(self) -> int:
        return max(self._by_id, default=0)

    @cached_property
    def _identity(self) -> tuple:
        """A necessary condition for `same_as`: how many field ids, which identifier fields.

        Also computable from a schema's JSON text without decoding it (`fastload.TextSchema`), and
        carried from one schema version to the next by the replay (`field_count`).
        """
        ids = self.identifier_field_ids
        return (self.field_count, frozenset(ids) if ids else _NO_IDS)  # one empty set for all: kept per version

    @cached_property
    def field_count(self) -> int:
        """Every field id, list elements and map keys/values included."""
        return len(self._by_id)

    @cached_property
    def id_xor(self) -> int:
        """The XOR of every field id: schemas with different sets of ids differ here (carried by the replay)."""
        out = 0
        for i in self._by_id:
            out ^= i
        return out

    @cached_property
    def top_hash(self) -> int:
        """The sum of the top-level fields' hashes: equal schemas have equal sums, whatever the order
        (carried by the replay like `id_xor`, so that a table whose columns keep their ids but change
        names or comments does not compare each new schema with every older one)."""
        return sum(map(hash, self.fields))

    @cached_property
    def dotted_top(self) -> int:
        """How many top-level names hold a dot (carried by the replay: `replay/names.py` asks per statement)."""
        return sum("." in f.name for f in self.fields)

    def same_as(self, other: Schema) -> bool:
        """Iceberg's `sameSchema`: same struct and identifier fields (the schema id is ignored)."""
        if self is other:
            return True
        if _knows_identity(self) and _knows_identity(other):
            if self._identity != other._identity:
                return False
        # else: an older version of a replay that let its derived values go (`versions.py`): its
        # identity would be computed from every field again; the comparison of the fields decides alone
        mine, theirs = self.__dict__.get("id_xor"), other.__dict__.get("id_xor")
        if mine is not None and theirs is not None and mine != theirs:
            return False  # a quick no, when both are known: the full comparison decides otherwise
        return self.fields == other.fields and set(self.identifier_field_ids) == set(other.identifier_field_ids)

    @_lookup_table
    def _top_ids(self) -> dict[int, NestedField]:
        fields = self.fields  # C-level passes: built once per schema version, ~4,000 columns in big tables
        return dict(zip(map(_field_id, fields), fields))

    @_lookup_table
    def _lower_names(self) -> dict[str, NestedField]:
        """Lower-cased top-level name → the first field with it (Spark's case-insensitive resolution)."""
        fields = self.fields
        lower: dict[str, NestedField] = dict(zip(map(str.lower, map(_field_name, fields)), fields))
        if len(lower) == len(fields):  # no two names differ only in case: the same as the loop below, in C
            return lower
        lower = {}
        for f in self.fields:
            lower.setdefault(f.name.lower(), f)
        return lower

    @_lookup_table
    def _exact_names(self) -> dict[str, NestedField]:
        """Only built when two top-level names differ only in case (`_lower_names` answers otherwise)."""
        return {f.name: f for f in self.fields}

    @property
    def has_case_collisions(self) -> bool:
        """Two top-level names differing only in case (`status` and `Status`)."""
        return len(self._lower_names) != len(self.fields)

    def top_level(self, name: str, case_sensitive: bool = True) -> NestedField | None:
        table = self.__dict__.get("_lower_names")
        hit = table.get(name.lower()) if table is not None else _older(self, "_lower_names", 1, name.lower())
        if hit is None or hit.name == name:
            return hit
        if self.has_case_collisions:  # `name` may be the exact name of a case twin
            exact = self._exact_names.get(name)
            if exact is not None:
                return exact
        return None if case_sensitive else hit

    def find(self, path: Path, case_sensitive: bool = True) -> NestedField | None:
        """Resolve a dotted path; list/map children are named element/key/value."""
        if not path:
            return None
        first = self.top_level(path[0], case_sensitive)
        if first is None or len(path) == 1:
            return first
        fields = children(first.type)
        found: NestedField | None = first
        for part in path[1:]:
            found = None
            want = part if case_sensitive else part.lower()
            for f in fields:
                if (f.name if case_sensitive else f.name.lower()) == want:
                    found = f
                    break
            if found is None:
                return None
            fields = children(found.type)
        return found

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "struct", "schema-id": self.schema_id}
        if self.identifier_field_ids:
            out["identifier-field-ids"] = list(self.identifier_field_ids)
        out["fields"] = [f.to_json() for f in self.fields]
        return out


def _search(field_id: int, todo: list) -> NestedField | None:
    """The field `field_id` in the field lists `todo` or below them (depth first, no table built)."""
    while todo:
        for f in todo.pop():
            if f.id == field_id:
                return f
            if not f.type.is_primitive:
                todo.append(children(f.type))
    return None


def _search_chain(field_id: int, columns) -> list[NestedField]:
    """The fields from one of `columns` down to `field_id` (depth first, no table built); [] when not there."""
    todo: list = [(f, (f,)) for f in columns]
    while todo:
        f, chain = todo.pop()
        if f.id == field_id:
            return list(chain)
        if not f.type.is_primitive:
            todo.extend((k, (*chain, k)) for k in children(f.type))
    return []


_UNDO_STEPS = 8  # how far `_older` walks towards the newest version before building the table instead


def forget_link(older: Schema, newer: Schema) -> None:
    """Drop what `carry_indexes` recorded between two consecutive versions (`older`'s `_undo`,
    `newer`'s `_pred`): lookups in `older` then build their own tables when asked. The streamed
    replay (`Replay.stream`) does this `UNDO_KEPT` versions behind the newest: its rules ask the
    newest versions, and an undo entry per version is a few hundred bytes per statement."""
    d = newer.__dict__
    if d.get("_pred") is older:
        del d["_pred"]
        undo = older.__dict__.get("_undo")
        if undo is not None and undo[0] is newer:
            del older.__dict__["_undo"]


UNDO_KEPT = MOVE_STEPS  # versions behind the newest whose links the streamed replay keeps


def _older(schema: Schema, attr: str, slot: int, key: Any) -> NestedField | None:
    """`getattr(schema, attr).get(key)` for a schema that gave its lookup table `attr` away.

    `carry_indexes` leaves on the old version `_undo` = (the version that took the tables, and per
    table the entries the patch changed, flat: key, old value, new value (None: absent), ...). A
    version's entry is the one it overwrote, else the taker's: a lookup in a version a few before
    the newest costs a few dictionary reads instead of a table of every column. Farther back (the
    rules run after the whole replay), `_lookup_table` moves a neighbour's table (`_move_table`).
    """
    s = schema
    for _ in range(_UNDO_STEPS):
        undo = s.__dict__.get("_undo")
        if undo is None:
            break
        pairs = undo[slot]
        if pairs is None:  # this table was not carried from `s`
            break
        keys = pairs[::3]
        if key in keys:
            return pairs[3 * keys.index(key) + 1]
        s = undo[0]
        table = s.__dict__.get(attr)
        if table is not None:
            return table.get(key)
    return getattr(schema, attr).get(key)


_field_id = attrgetter("id")
_field_name = attrgetter("name")


def field_type_at(schema: Schema, field_id: int) -> Type | None:
    f = schema.field_by_id(field_id)
    return f.type if f else None


class LazySchema(Schema):
    """An older schema of a metadata file, parsed only when something looks inside it.

    Large tables keep hundreds of full schema versions in `schemas`; the replay and most rules only
    need the current one. Until parsed, `to_json` passes the file's own JSON through unchanged.
    """

    def __init__(self, raw: dict[str, Any], parse) -> None:  # noqa: D107 - frozen: set via object.__setattr__
        object.__setattr__(self, "schema_id", int(raw.get("schema-id", 0)))
        object.__setattr__(self, "identifier_field_ids", tuple(int(i) for i in raw.get("identifier-field-ids") or ()))
        object.__setattr__(self, "_raw", raw)
        object.__setattr__(self, "_parse", parse)

    @property  # type: ignore[override]
    def fields(self) -> tuple[NestedField, ...]:
        parsed = self.__dict__.get("_fields")
        if parsed is None:
            parsed = tuple(self._parse(f) for f in self._raw["fields"])
            if repeated_id(parsed) is not None:  # as the file's current schema is refused (`metadata._schema`)
                raise ValueError("a field id used twice")
            object.__setattr__(self, "_fields", parsed)
        return parsed

    @cached_property
    def field_count(self) -> int:
        return sum(1 for _ in self.raw_paths())

    def raw_paths(self) -> Iterator[tuple[Path, int]]:
        """(path, field id) of every field, read from the JSON without building the model."""
        todo: list[tuple[list, Path]] = [(self._raw["fields"], ())]
        while todo:
            fields, prefix = todo.pop()
            for f in fields:
                path = prefix + (f["name"],)
                yield path, f["id"]
                t = f["type"]
                if isinstance(t, dict):
                    kind = t.get("type")
                    if kind == "struct":
                        todo.append((t["fields"], path))
                    elif kind == "list":
                        todo.append(([{"name": "element", "id": t["element-id"], "type": t["element"]}], path))
                    elif kind == "map":
                        todo.append(([{"name": "key", "id": t["key-id"], "type": t["key"]},
                                      {"name": "value", "id": t["value-id"], "type": t["value"]}], path))  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        if "_fields" in self.__dict__ and "_adopted" not in self.__dict__:  # adopted: fields equal to the JSON's
            return super().to_json()
        out: dict[str, Any] = {"type": "struct", "schema-id": self.schema_id}
        if self.identifier_field_ids:
            out["identifier-field-ids"] = list(self.identifier_field_ids)
        out["fields"] = self._raw["fields"]
        return out

    def __repr__(self) -> str:
        return f"LazySchema(schema_id={self.schema_id})"
