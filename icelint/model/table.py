"""Iceberg table state: schemas, partition specs, sort orders, identifier fields, properties.

Immutable values mirroring metadata.json (format v1, v2, v3). The replay produces a new
`TableMetadata` per change; history (every schema, spec and sort order ever) is kept as Iceberg keeps it.
"""


from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from dataclasses import fields as dataclass_fields
from types import MappingProxyType
from typing import Any, Callable, Mapping, TypeVar

from icelint.util.lazy import cached_property
from icelint.model.schema import UNDO_KEPT, LazySchema, Schema, field_type_at, forget_built, forget_link  # noqa: F401 - importers of the table model find them here too

T = TypeVar("T")
_SOURCES_MAX = 8  # each holds the table's whole spec history (see `_of_specs`): a few of its newest states'


@dataclass(frozen=True, slots=True)
class PartitionField:
    """One field of a partition spec: a transform of a source column, with the partition field's own id and name."""

    source_id: int
    field_id: int
    name: str
    transform: str  # identity, bucket[16], truncate[4], year, month, day, hour, void

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "transform": self.transform, "source-id": self.source_id, "field-id": self.field_id}

    def __str__(self) -> str:
        return f"{self.field_id}: {self.name}: {self.transform}({self.source_id})"


@dataclass(frozen=True, slots=True)
class PartitionSpec:
    """A partition spec: its id and its fields (a table keeps every spec it ever had)."""

    spec_id: int
    fields: tuple[PartitionField, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"spec-id": self.spec_id, "fields": [f.to_json() for f in self.fields]}

    def compatible_with(self, other: PartitionSpec) -> bool:
        """Iceberg's `PartitionSpec.compatibleWith` (the spec id is ignored)."""
        if len(self.fields) != len(other.fields):
            return False
        return all(
            a.field_id == b.field_id and a.source_id == b.source_id and a.transform == b.transform and a.name == b.name
            for a, b in zip(self.fields, other.fields)
        )

    @property
    def is_unpartitioned(self) -> bool:
        return all(f.transform == "void" for f in self.fields)


@dataclass(frozen=True, slots=True)
class SortField:
    """One term of a sort order: a transform of a source column, its direction and where nulls go."""

    transform: str
    source_id: int
    direction: str  # asc | desc
    null_order: str  # nulls-first | nulls-last

    def to_json(self) -> dict[str, Any]:
        return {"transform": self.transform, "source-id": self.source_id, "direction": self.direction, "null-order": self.null_order}

    def __str__(self) -> str:
        nulls = "NULLS FIRST" if self.null_order == "nulls-first" else "NULLS LAST"
        return f"{self.transform}({self.source_id}) {self.direction.upper()} {nulls}"


@dataclass(frozen=True, slots=True)
class SortOrder:
    """A sort order (the table's write order): its id and its terms; order 0 is unsorted."""

    order_id: int
    fields: tuple[SortField, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"order-id": self.order_id, "fields": [f.to_json() for f in self.fields]}


@dataclass(frozen=True, slots=True)
class Snapshot:
    """One snapshot of the table: its id, the schema it was written with, and when."""

    snapshot_id: int
    schema_id: int | None
    timestamp_ms: int


UNSORTED = SortOrder(0, ())


@dataclass(frozen=True)
class TableMetadata:
    """One table's state at one point of the replay."""

    format_version: int
    schemas: tuple[Schema, ...]
    current_schema_id: int
    last_column_id: int
    specs: tuple[PartitionSpec, ...]
    default_spec_id: int
    last_partition_id: int
    sort_orders: tuple[SortOrder, ...] = (UNSORTED,)
    default_sort_order_id: int = 0
    properties: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    location: str | None = None
    table_uuid: str | None = None
    snapshots: tuple[Snapshot, ...] = ()
    current_snapshot_id: int | None = None
    has_data: bool = False  # holds rows: see `model/data.py` for when icelint presumes it and when it proves it empty
    data_origin: Any = None  # why (`model.data.DataOrigin`): said in every data-dependent message
    refs: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))  # branch/tag name → type

    @cached_property
    def schema_index(self) -> dict[Any, Any]:
        """`Schema._identity` → schemas that have it, oldest first: a schema can only be reused from its bucket
        (one schema is filed as itself, two or more as a list: see `index_schema`).

        The replay shares one index along a table's chain of states and appends each new schema to
        it, so it may also hold schemas newer than this state: ask `schemas_like`, which leaves them out.
        """
        index: dict[Any, Any] = {}
        for s in self.schemas:
            index_schema(index, s)
        return index

    def schemas_like(self, schema: Schema) -> list[Schema]:
        """This state's schemas with the same identity as `schema` (candidates for `same_as`).

        Schemas whose `id_xor` and `top_hash` were known when indexed (every one the replay makes)
        are filed under them instead: a table whose field count goes up and down (DROP c, ADD c, ...)
        or whose columns change only names or comments would otherwise compare each new schema with
        every older one.
        """
        ident = schema._identity
        index = self.schema_index
        bucket = _bucket(index.get(ident))
        xored = _bucket(index.get(hash((ident, schema.id_xor, schema.top_hash))))
        if xored:
            bucket = sorted((*bucket, *xored), key=_schema_id) if bucket else xored
        newest = self.schemas[-1].schema_id if self.schemas else -1
        return [s for s in bucket if s.schema_id <= newest]

    @cached_property
    def schema(self) -> Schema:
        if self.schemas and self.schemas[-1].schema_id == self.current_schema_id:
            return self.schemas[-1]
        for s in self.schemas:
            if s.schema_id == self.current_schema_id:
                return s
        raise KeyError(self.current_schema_id)

    @cached_property
    def spec(self) -> PartitionSpec:
        specs = self.specs
        if specs and specs[-1].spec_id == self.default_spec_id:  # mostly the newest (a long evolution: no scan)
            return specs[-1]
        for s in specs:
            if s.spec_id == self.default_spec_id:
                return s
        raise KeyError(self.default_spec_id)

    @property
    def partition_sources(self) -> tuple[dict[int, list[PartitionField]], dict[int, list[PartitionField]]]:
        """Source field id → its fields in the current spec (void ones left out) / in any spec (history).

        Shared by the states with the same specs (the rules ask every state of a long replay), and
        kept among the newest few only (`_of_specs`)."""
        return _of_specs(self, self.default_spec_id, self._partition_sources)

    def _partition_sources(self) -> tuple[dict[int, list[PartitionField]], dict[int, list[PartitionField]]]:
        current: dict[int, list[PartitionField]] = {}
        for f in self.spec.fields:
            if f.transform != "void":
                current.setdefault(f.source_id, []).append(f)
        every: dict[int, list[PartitionField]] = {}
        for s in self.specs:
            for f in s.fields:
                every.setdefault(f.source_id, []).append(f)
        return current, every

    @property
    def partition_names(self) -> frozenset[str]:
        """The names of every partition field of every spec (a new column may not take one)."""
        return _of_specs(self, -1, lambda: frozenset(f.name for s in self.specs for f in s.fields))

    @cached_property
    def sort_order(self) -> SortOrder:
        orders = self.sort_orders
        if orders and orders[-1].order_id == self.default_sort_order_id:  # mostly the newest: no scan
            return orders[-1]
        for s in orders:
            if s.order_id == self.default_sort_order_id:
                return s
        return UNSORTED

    def schema_by_id(self, schema_id: int) -> Schema | None:
        for s in self.schemas:
            if s.schema_id == schema_id:
                return s
        return None

    def evolve(self, **changes: Any) -> TableMetadata:
        """A copy with `changes`; derived values (`schema`, `spec`, ...) are kept unless a change touches them.

        The replay makes one state per statement: copying the instance dict is several times cheaper
        than `dataclasses.replace`, and keeps the lookups the next statement needs.
        """
        state = self.__dict__.copy()
        for k in changes:
            if k not in _FIELDS:
                raise TypeError(f"TableMetadata has no field {k!r}")
            for derived in _DERIVED.get(k, ()):
                state.pop(derived, None)
        state.update(changes)
        out = object.__new__(TableMetadata)
        out.__dict__.update(state)
        return out

    def to_json(self, schemas: bool = True) -> dict[str, Any]:
        """The state as a metadata.json object (the keys Iceberg's TableMetadataParser writes);
        without `schemas`, its `schemas` are an empty list (`schema_view` writes them one at a time)."""
        out: dict[str, Any] = {"format-version": self.format_version}
        if self.table_uuid:
            out["table-uuid"] = self.table_uuid
        if self.location:
            out["location"] = self.location
        out["last-column-id"] = self.last_column_id
        out["current-schema-id"] = self.current_schema_id
        if self.format_version == 1:
            out["schema"] = self.schema.to_json()
        out["schemas"] = [s.to_json() for s in self.schemas] if schemas else []
        out["default-spec-id"] = self.default_spec_id
        if self.format_version == 1:
            out["partition-spec"] = [f.to_json() for f in self.spec.fields]
        out["partition-specs"] = [s.to_json() for s in self.specs]
        out["last-partition-id"] = self.last_partition_id
        out["default-sort-order-id"] = self.default_sort_order_id
        out["sort-orders"] = [s.to_json() for s in self.sort_orders]
        out["properties"] = dict(self.properties)
        return out


def _of_specs(meta: TableMetadata, spec_id: int, build: Callable[[], T]) -> T:
    """A table derived from a state's specs (`spec_id`: the default spec's id, or -1 when it does not
    depend on it), shared by the states with these specs and kept among the newest few, not on
    each state: one table of the whole spec history per state would grow with the square of a
    table's spec changes. They are kept in a store of the state's lineage (`_spec_tables`: made
    with the first one, and handed on to every state evolved from it with the rest of its dict),
    by (id(specs), spec_id) → (specs, table)."""
    d = meta.__dict__
    store = d.get("_spec_tables")
    if store is None:
        store = d["_spec_tables"] = OrderedDict()
    specs = meta.specs
    key = (id(specs), spec_id)
    hit = store.get(key)
    if hit is not None and hit[0] is specs:  # the entry holds the specs, so an id is never reused
        store.move_to_end(key)
        return hit[1]
    value = build()
    store[key] = (specs, value)
    if len(store) > _SOURCES_MAX:
        store.popitem(last=False)
    return value


def index_schema(index: dict[Any, Any], s: Schema) -> None:
    """File `s` in a `schema_index`: under its identity, or, when its `id_xor` and `top_hash` are
    known (every version the replay makes), under the hash of the three (an int: a collision only
    adds a candidate, which `same_as` rules out). A key's one schema is filed as itself, not as a
    list of one: the replay files one version per statement, most under a key of their own."""
    xor, top = s.__dict__.get("id_xor"), s.__dict__.get("top_hash")
    key = s._identity if xor is None or top is None else hash((s._identity, xor, top))
    held = index.get(key)
    if held is None:
        index[key] = s
    elif held.__class__ is list:
        held.append(s)
    else:
        index[key] = [held, s]


def _bucket(held: Any) -> Any:
    """The schemas `index_schema` filed under one key, as a sequence."""
    if held is None:
        return ()
    return held if held.__class__ is list else (held,)




def _schema_id(s: Schema) -> int:
    return s.schema_id


_FIELDS = frozenset(f.name for f in dataclass_fields(TableMetadata))


def _share_state_keys() -> None:
    """Make every key a state may hold one of the keys its instance dicts share (CPython's key-sharing
    dicts, PEP 412): set them all once, in one order, on a first instance. A state's dict then stays
    a values array (~270 bytes for 22 values) instead of turning into a dict of its own (~830 bytes)
    when it computes a derived value (`schema_index`, ...) in another order than the class's first
    instance did; the replay keeps one state per statement."""
    first = object.__new__(TableMetadata)
    for name in (*(f.name for f in dataclass_fields(TableMetadata)), *_LAZY):
        first.__dict__[name] = None


_LAZY = ("schema", "schema_index", "spec", "sort_order", "_spec_tables")  # its cached properties and `_of_specs`' store
_share_state_keys()
# cached properties, by the fields they are computed from (dropped by `evolve` when one changes)
_DERIVED = {
    "schemas": ("schema", "schema_index"),
    "current_schema_id": ("schema",),
    "specs": ("spec",),
    "default_spec_id": ("spec",),
    "sort_orders": ("sort_order",),
    "default_sort_order_id": ("sort_order",),
}
