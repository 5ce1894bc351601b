"""Partition specs and sort orders: Iceberg 1.10's `BaseUpdatePartitionSpec`, `PartitionSpec.Builder`
checks, `BaseReplaceSortOrder`, and Spark's transform names (`Spark3Util.toIcebergTerm`)."""

from __future__ import annotations

from icelint.util.lazy import ByIdentity
from icelint.model.table import PartitionField, PartitionSpec, Schema, SortField, SortOrder
from icelint.model.types import DecimalType, FixedType, ListType, MapType, PrimitiveType, Type, is_untyped
from icelint.replay.common import struct_text
from icelint.replay.errors import ReplayError, Unchecked
from icelint.syntax.ast import Name, SortTerm, Transform

_TIME = {"year": "year", "years": "year", "month": "month", "months": "month", "day": "day", "days": "day",
         "date": "day", "hour": "hour", "hours": "hour", "date_hour": "hour"}  # fmt: skip


class Term:
    """A resolved transform: source field id + Iceberg transform string (`bucket[16]`, `day`)."""

    __slots__ = ("source_id", "transform", "source_name", "span")

    def __init__(self, source_id: int, transform: str, source_name: str, span) -> None:
        self.source_id = source_id
        self.transform = transform
        self.source_name = source_name
        self.span = span

    @property
    def key(self) -> tuple[int, str]:
        return (self.source_id, self.transform)


def transform_kind(t: Transform) -> str:
    """`identity`, `bucket[16]`, `truncate[4]`, `year`... from Spark's names; raises on unknown ones."""
    if t.func is None:
        return "identity"
    f = t.func.lower()
    if f == "identity":
        return "identity"
    if f in _TIME:
        return _TIME[f]
    if f in ("bucket", "truncate"):
        ints = [a for a in t.args if isinstance(a, int)]
        if not ints:
            raise ReplayError("partition", f"Cannot find width for transform: {f}", "iceberg", span=t.span)
        if ints[0] <= 0:
            raise ReplayError("partition", f"Unsupported width for transform: {f}({ints[0]})", "iceberg", span=t.span)
        return f"{f}[{ints[0]}]"
    if f in ("void", "alwaysnull"):
        return "void"
    raise ReplayError("partition", f"Transform is not supported: {t.func}", "iceberg", span=t.span)


def column_of(t: Transform) -> Name:
    cols = t.columns
    if len(cols) != 1:
        raise ReplayError(
            "partition",
            f"Cannot convert transform with more than one column reference: "
            f"{t.func}({', '.join(a.dotted if isinstance(a, Name) else str(a) for a in t.args)})",
            "iceberg",
            span=t.span,
        )
    return cols[0]


def can_transform(transform: str, t: Type) -> bool:
    if is_untyped(t):  # a CTAS column of unknown type: icelint cannot tell, so it allows
        return True
    if not isinstance(t, PrimitiveType):
        return False
    name = t.name
    if transform in ("identity", "void"):
        return name not in ("variant", "geometry", "geography") and not name.startswith(("geometry", "geography"))
    if transform.startswith("bucket"):
        return isinstance(t, (DecimalType, FixedType)) or name in (
            "int", "long", "date", "time", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns", "string", "uuid", "binary",
        )  # fmt: skip
    if transform.startswith("truncate"):
        return isinstance(t, DecimalType) or name in ("int", "long", "string", "binary")
    if transform in ("year", "month", "day"):
        return name in ("date", "timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns")
    if transform == "hour":
        return name in ("timestamp", "timestamptz", "timestamp_ns", "timestamptz_ns")
    return False


def resolve(t: Transform, schema: Schema, case_sensitive: bool = True) -> Term:
    """Bind a transform to the schema (`Cannot find field 'x' in struct: ...` when missing)."""
    col = column_of(t)  # Iceberg's `Spark3Util.toPartitionSpec` counts the references before it reads the name
    kind = transform_kind(t)
    f = schema.find(col.parts, case_sensitive)
    if f is None:
        for n in range(1, len(col.parts)):  # a field inside a column of unknown type (CTAS): not checkable
            above = schema.find(col.parts[:n], case_sensitive)
            if above is not None and is_untyped(above.type):
                raise Unchecked(".".join(col.parts[:n]), above.type.reason)
        raise ReplayError(
            "unknown-column",
            f"Cannot find field '{col.dotted}' in struct: {struct_text(schema)}",
            "iceberg",
            span=col.span,
            column=col.dotted,
        )
    if not can_transform(kind, f.type):
        raise ReplayError(
            "partition",
            f"Cannot bind: {kind} cannot transform {f.type} values from '{col.dotted}'",
            "iceberg",
            span=t.span,
            field_id=f.id,
        )
    return Term(f.id, kind, schema.name_of(f.id) or col.dotted, t.span)


def update_name(term: Term) -> str:
    """`PartitionNameGenerator` of BaseUpdatePartitionSpec (ADD PARTITION FIELD)."""
    k, n = term.transform, term.source_name
    if k == "identity":
        return n
    if k.startswith("bucket["):
        return f"{n}_bucket_{k[7:-1]}"
    if k.startswith("truncate["):
        return f"{n}_trunc_{k[9:-1]}"
    if k == "void":
        return f"{n}_null"
    return f"{n}_{k}"


def create_name(term: Term) -> str:
    """`PartitionSpec.Builder` default names (CREATE TABLE ... PARTITIONED BY)."""
    k, n = term.transform, term.source_name
    if k == "identity":
        return n
    if k.startswith("bucket["):
        return f"{n}_bucket"
    if k.startswith("truncate["):
        return f"{n}_trunc"
    return f"{n}_{k}"


def _ice_arg(message: str, kind: str = "partition", span=None) -> ReplayError:
    return ReplayError(kind, message, "iceberg", span=span)


def build_create_spec(terms: list[Term], schema: Schema) -> PartitionSpec:
    """CREATE TABLE's spec via the named builder methods, with their checks."""
    fields: list[PartitionField] = []
    names: set[str] = set()
    seen: dict[tuple[int, str], Term] = {}
    for i, term in enumerate(terms):
        name = create_name(term)
        existing = schema.find(tuple(name.split(".")))
        if term.transform == "identity":
            if existing is not None and existing.id != term.source_id:
                raise _ice_arg(f"Cannot create identity partition sourced from different field in schema: {name}", span=term.span)
        elif existing is not None:
            raise _ice_arg(f"Cannot create partition from name that exists in schema: {name}", span=term.span)
        if name in names:
            raise _ice_arg(f"Cannot use partition name more than once: {name}", span=term.span)
        dedup = "time" if term.transform in ("year", "month", "day", "hour") else term.transform
        key = (term.source_id, dedup)
        if key in seen:
            raise _ice_arg(
                f"Cannot add redundant partition: {_fmt(seen[key], fields)} conflicts with {term.source_name}",
                span=term.span,
            )
        seen[key] = term
        names.add(name)
        fields.append(PartitionField(term.source_id, 1000 + i, name, term.transform))
    return PartitionSpec(0, tuple(fields))


def _fmt(term: Term, fields: list[PartitionField]) -> str:
    for f in fields:
        if f.source_id == term.source_id:
            return str(f)
    return term.source_name


def check_spec_names(spec: PartitionSpec, schema: Schema, only: set[str] | None = None) -> None:
    """Run on every spec at every schema change (`PartitionSpec.Builder.add` → checkAndAddPartitionName).

    `only`: the column names that are new in this change; no other name can start to collide.
    """
    names: set[str] = set()
    for f in spec.fields:
        if only is not None and f.name not in only:
            continue
        existing = schema.find(tuple(f.name.split(".")))
        if existing is not None and existing.id != f.source_id:
            raise ReplayError(
                "partition",
                f"Cannot create identity partition sourced from different field in schema: {f.name}",
                "iceberg-wrapped",
                field_id=existing.id,
                column=f.name,
            )
        if not f.name:
            raise _ice_arg(f"Cannot use empty partition name: {f.name}")
        if f.name in names:
            raise _ice_arg(f"Cannot use partition name more than once: {f.name}")
        names.add(f.name)


def check_spec_compatible(spec: PartitionSpec, schema: Schema) -> None:
    """`PartitionSpec.checkCompatibility`: only the default spec must bind (ValidationException)."""
    for f in spec.fields:
        if f.transform == "void":
            continue
        src = schema.field_by_id(f.source_id)
        if src is None:
            raise ReplayError(
                "partition", f"Cannot find source column for partition field: {f}", "iceberg", field_id=f.source_id
            )
        if not src.type.is_primitive:
            raise ReplayError("partition", f"Cannot partition by non-primitive source field: {src.type}", "iceberg")
        if not can_transform(f.transform, src.type):
            raise ReplayError("partition", f"Invalid source type {src.type} for transform: {f.transform}", "iceberg")
        for anc in schema.ancestors(src.id):
            if isinstance(anc.type, (ListType, MapType)):
                raise ReplayError("partition", f"Invalid partition field parent: {anc.type}", "iceberg")


def check_sort_compatible(order: SortOrder, schema: Schema) -> None:
    for f in order.fields:
        src = schema.field_by_id(f.source_id)
        if src is None:
            raise ReplayError(
                "sort-order", f"Cannot find source column for sort field: {f}", "iceberg", field_id=f.source_id
            )
        if not src.type.is_primitive:
            raise ReplayError("sort-order", f"Cannot sort by non-primitive source field: {src.type}", "iceberg")


class SpecUpdate:
    """Port of `BaseUpdatePartitionSpec` (one statement's partition changes)."""

    def __init__(self, spec: PartitionSpec, schema: Schema, specs: tuple[PartitionSpec, ...], format_version: int, last_partition_id: int) -> None:
        self.spec = spec
        self.schema = schema
        self.specs = specs
        self.format_version = format_version
        self.last_id = last_partition_id
        self.name_to_field = {f.name: f for f in spec.fields}
        self.transform_to_field = {(f.source_id, f.transform): f for f in spec.fields}
        self.name_to_added: dict[str, PartitionField] = {}
        self.transform_to_added: dict[tuple[int, str], PartitionField] = {}
        self.added_time: dict[int, PartitionField] = {}
        self.deletes: set[int] = set()
        self.renames: dict[str, str] = {}
        self.adds: list[PartitionField] = []

    def add_field(self, name: str | None, term: Term) -> None:
        if name is not None and name in self.name_to_added:
            raise _ice_arg(f"Cannot add duplicate partition field: {self.name_to_added[name]}", span=term.span)
        key = term.key
        existing = self.transform_to_field.get(key)
        if existing is not None and existing.field_id in self.deletes and existing.transform == term.transform:
            self.deletes.discard(existing.field_id)
            if name is not None and existing.name != name:
                self.rename_field(existing.name, name)
            return
        if existing is not None and not (existing.field_id in self.deletes and existing.transform != term.transform):
            raise _ice_arg(
                f"Cannot add duplicate partition field {name}={_term_str(term)}, conflicts with {existing}",
                span=term.span,
            )
        added = self.transform_to_added.get(key)
        if added is not None:
            raise _ice_arg(f"Cannot add duplicate partition field {name}={_term_str(term)}, already added: {added}", span=term.span)
        new = self._recycle_or_create(term, name)
        if term.transform in ("year", "month", "day", "hour"):
            t = self.added_time.get(new.source_id)
            if t is not None:
                raise _ice_arg(f"Cannot add redundant partition field: {t} conflicts with {new}", span=term.span)
            self.added_time[new.source_id] = new
        self.transform_to_added[key] = new
        existing_field = self.name_to_field.get(new.name)
        if existing_field is not None and existing_field.field_id not in self.deletes:
            if existing_field.transform == "void":
                self.rename_field(existing_field.name, f"{existing_field.name}_{existing_field.field_id}")
            else:
                raise _ice_arg(f"Cannot add duplicate partition field name: {name if name is not None else new.name}", span=term.span)
        elif existing_field is not None and existing_field.field_id in self.deletes:
            self.renames[existing_field.name] = f"{existing_field.name}_{existing_field.field_id}"
        self.name_to_added[new.name] = new
        self.adds.append(new)

    def _recycle_or_create(self, term: Term, name: str | None) -> PartitionField:
        if self.format_version >= 2:  # the first field of any spec with this source and transform (and name)
            found = spec_index(self.specs).first(term.source_id, term.transform, name)
            if found is not None:
                return found
        self.last_id += 1
        return PartitionField(term.source_id, self.last_id, name if name is not None else update_name(term), term.transform)

    def remove_by_name(self, name: str, span) -> None:
        if name in self.name_to_added:
            raise _ice_arg(f"Cannot delete newly added field: {self.name_to_added[name]}", span=span)
        if name in self.renames:
            raise _ice_arg(f"Cannot rename and delete partition field: {name}", span=span)
        f = self.name_to_field.get(name)
        if f is None:
            raise _ice_arg(f"Cannot find partition field to remove: {name}", span=span)
        self.deletes.add(f.field_id)

    def remove_by_term(self, term: Term) -> None:
        added = self.transform_to_added.get(term.key)
        if added is not None:
            raise _ice_arg(f"Cannot delete newly added field: {added}", span=term.span)
        f = self.transform_to_field.get(term.key)
        if f is None:
            raise _ice_arg(f"Cannot find partition field to remove: {_term_str(term)}", span=term.span)
        if f.name in self.renames:
            raise _ice_arg(f"Cannot rename and delete partition field: {f.name}", span=term.span)
        self.deletes.add(f.field_id)

    def rename_field(self, name: str, new_name: str) -> None:
        existing = self.name_to_field.get(new_name)
        if existing is not None and existing.transform == "void":
            self.rename_field(new_name, f"{new_name}_{existing.field_id}")
        if name in self.name_to_added:
            raise _ice_arg(f"Cannot rename newly added partition field: {name}")
        f = self.name_to_field.get(name)
        if f is None:
            raise _ice_arg(f"Cannot find partition field to rename: {name}")
        if f.field_id in self.deletes:
            raise _ice_arg(f"Cannot delete and rename partition field: {name}")
        self.renames[name] = new_name

    def apply(self) -> PartitionSpec:
        fields: list[PartitionField] = []
        for f in self.spec.fields:
            new_name = self.renames.get(f.name, f.name)
            if f.field_id not in self.deletes:  # unchanged: the same object, shared by every spec that keeps it
                fields.append(f if new_name == f.name else PartitionField(f.source_id, f.field_id, new_name, f.transform))
            elif self.format_version < 2:
                fields.append(PartitionField(f.source_id, f.field_id, new_name, "void"))
        fields.extend(self.adds)
        spec = PartitionSpec(self.spec.spec_id, tuple(fields))
        check_spec_names(spec, self.schema)
        return spec


def _term_str(term: Term) -> str:
    k = term.transform
    if k == "identity":
        return f"ref(name=\"{term.source_name}\")"
    return f"{k}(ref(name=\"{term.source_name}\"))"


def sort_field(term: Term, st: SortTerm) -> SortField:
    direction = "desc" if st.descending else "asc"
    if st.nulls_first is None:
        null_order = "nulls-last" if st.descending else "nulls-first"
    else:
        null_order = "nulls-first" if st.nulls_first else "nulls-last"
    return SortField(term.transform, term.source_id, direction, null_order)


class SpecIndex:
    """Look-ups over a table's partition specs, in spec order: the first spec compatible with a new
    one (`add_spec`), a spec by id, the highest id, and the first field of any spec with a source,
    a transform and maybe a name (`SpecUpdate._recycle_or_create`). A scan of every spec per
    statement would make a long partition evolution quadratic: the index is built once for a specs
    tuple and moved on to the tuple that appends a spec to it (`spec_index`, `appended_spec`)."""

    __slots__ = ("compatible", "by_id", "max_id", "first_field", "first_named")

    def __init__(self, specs) -> None:
        self.compatible: dict[tuple, int] = {}
        self.by_id: dict[int, PartitionSpec] = {}
        self.max_id = -1
        self.first_field: dict[tuple[int, str], PartitionField] = {}
        self.first_named: dict[tuple[int, str, str], PartitionField] = {}
        for spec in specs:
            self.add(spec)

    def add(self, spec: PartitionSpec) -> None:
        self.compatible.setdefault(compatibility_key(spec), spec.spec_id)  # the first compatible wins
        self.by_id.setdefault(spec.spec_id, spec)
        self.max_id = max(self.max_id, spec.spec_id)
        for f in spec.fields:
            self.first_field.setdefault((f.source_id, f.transform), f)
            self.first_named.setdefault((f.source_id, f.transform, f.name), f)

    def first(self, source_id: int, transform: str, name: str | None) -> PartitionField | None:
        if name is None:
            return self.first_field.get((source_id, transform))
        return self.first_named.get((source_id, transform, name))


def compatibility_key(spec: PartitionSpec) -> tuple:
    """Equal for two specs exactly when `PartitionSpec.compatible_with` holds (the id ignored)."""
    return tuple((f.field_id, f.source_id, f.transform, f.name) for f in spec.fields)


class OrderIndex:
    """Look-ups over a table's sort orders, in order: the first order with given fields
    (`reuseOrCreateNewSortOrderId`), whether id 0 (unsorted) is there, the highest id."""

    __slots__ = ("by_fields", "ids", "max_id")

    def __init__(self, orders) -> None:
        self.by_fields: dict[tuple, int] = {}
        self.ids: set[int] = set()
        self.max_id = 0
        for order in orders:
            self.add(order)

    def add(self, order: SortOrder) -> None:
        self.by_fields.setdefault(order.fields, order.order_id)  # the first with these fields wins
        self.ids.add(order.order_id)
        self.max_id = max(self.max_id, order.order_id)


_SPECS = ByIdentity(SpecIndex)  # the newest few specs tuples' indexes, moved on as specs are appended
_ORDERS = ByIdentity(OrderIndex)


def spec_index(specs) -> SpecIndex:
    """The index of a specs tuple."""
    return _SPECS.of(specs)


def appended_spec(specs, spec: PartitionSpec):
    return _SPECS.appended(specs, spec)


def order_index(orders) -> OrderIndex:
    """The index of a sort orders tuple."""
    return _ORDERS.of(orders)


def appended_order(orders, order: SortOrder):
    return _ORDERS.appended(orders, order)
