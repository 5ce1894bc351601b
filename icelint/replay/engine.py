"""The replay: steps of typed changes applied to table states, as Spark 3.5 + Iceberg 1.10 would.

Each `Commit` either yields a new `TableMetadata` or a `ReplayError` (and the state stays as it
was, like a failed Spark statement). Every outcome keeps the state before and after, so rules can
compare them and look back over the history.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from types import MappingProxyType
from typing import Iterable, NamedTuple

from icelint import changes as ch
from icelint.model.chain import Chain
from icelint.model.diff import SchemaDiff
from icelint.model.diff import diff as schema_diff
from icelint.model.table import UNSORTED, PartitionSpec, Schema, SortOrder, TableMetadata, index_schema
from icelint.model.types import V3_ONLY, ListType, MapType, NestedField, PrimitiveType, StructType, Type, children, walk
from icelint.replay import dml
from icelint.replay import partitioning as pt
from icelint.replay import spark_types as sp
from icelint.replay.errors import ReplayError
from icelint.replay.schema_update import SchemaUpdate, dotted, validate_identifier_field

Path = tuple[str, ...]

# Keys Iceberg never persists in `properties` (TableProperties.RESERVED_PROPERTIES) and the ones
# SparkCatalog turns into actions.
RESERVED_PROPERTIES = frozenset(
    {"format-version", "uuid", "snapshot-count", "current-snapshot-id", "current-snapshot-summary",
     "current-snapshot-timestamp-ms", "current-schema", "default-partition-spec", "default-sort-order"}
)  # fmt: skip
ACTION_PROPERTIES = frozenset({"location", "current-snapshot-id", "cherry-pick-snapshot-id"})
SPARK_RESERVED = frozenset({"provider", "location", "owner", "external", "is_managed_location"})
NEW_TABLE_DEFAULTS = (("write.parquet.compression-codec", "zstd"),)
DEFAULT_FORMAT_VERSION = 2
MAX_FORMAT_VERSION = 3


@lru_cache(maxsize=4096)
def table_key(name: str) -> str:
    """`local.db.events`, `db.events`, `DB.Events` → `db.events` (the catalog part is dropped)."""
    parts = [p.lower() for p in name.split(".")]
    if len(parts) > 2:
        parts = parts[-2:]
    return ".".join(parts)


class Outcome(NamedTuple):
    """What one step did to one table (a named tuple: one is made per statement)."""

    step: ch.Step
    table: str | None  # table key
    before: TableMetadata | None
    after: TableMetadata | None  # equals `before` when the step was rejected
    error: ReplayError | None = None
    case_sensitive: bool = False
    skipped: str | None = None  # why the step could not be replayed (unknown schema, non-Iceberg table)
    diff: SchemaDiff | None = None  # what the step changed in the schema, when it made a new one

    @property
    def accepted(self) -> bool:
        return self.error is None and self.skipped is None


@dataclass
class ReplayResult:
    outcomes: list[Outcome]
    tables: dict[str, TableMetadata | None]  # final states; None: dropped
    initial: dict[str, TableMetadata]
    unknown: set[str] = field(default_factory=set)  # tables whose schema cannot be known (CTAS, non-Iceberg)
    display_names: dict[str, str] = field(default_factory=dict)  # key → name as first written
    missing: set[str] = field(default_factory=set)  # referenced but never created, and no state given


class Replay:
    def __init__(self, initial: dict[str, TableMetadata] | None = None, case_sensitive: bool = False) -> None:
        self.initial = {table_key(k): v for k, v in (initial or {}).items()}
        self.tables: dict[str, TableMetadata | None] = dict(self.initial)
        self.unknown: set[str] = set()
        self.missing: set[str] = set()  # referenced, never created, no state given
        self.case_sensitive = case_sensitive
        self.display: dict[str, str] = {}

    # ------------------------------------------------------------------ table names
    def resolve_table(self, name: str) -> str:
        key = table_key(name)
        if "." not in key:
            matches = [k for k in self.tables if k.rsplit(".", 1)[-1] == key]
            if len(matches) == 1:
                return matches[0]
        return key

    def run(self, steps: Iterable[ch.Step]) -> ReplayResult:
        outcomes = [self.apply(s) for s in steps]
        tables = {k: v for k, v in self.tables.items()}
        return ReplayResult(outcomes, tables, self.initial, self.unknown, self.display, self.missing)

    def apply(self, step: ch.Step) -> Outcome:
        self._diff: SchemaDiff | None = None
        if isinstance(step, ch.SessionConfig):
            if step.key.lower() == "spark.sql.casesensitive" and step.value is not None:
                self.case_sensitive = step.value.strip().strip("'\"").lower() == "true"
            return Outcome(step, None, None, None, case_sensitive=self.case_sensitive)
        if not isinstance(step, ch.Commit):
            return Outcome(step, None, None, None, case_sensitive=self.case_sensitive)
        key = self.resolve_table(step.table)
        self.display.setdefault(key, step.table)
        before = self.tables.get(key)
        if key in self.unknown:
            return Outcome(step, key, None, None, None, self.case_sensitive, "unknown-schema")
        first = step.changes[0] if step.changes else None
        if key not in self.tables and not isinstance(first, (ch.CreateTable, ch.DropTable)):
            self.missing.add(key)
        elif isinstance(first, ch.CreateTable):
            self.missing.discard(key)  # created after all (a script used it before creating it)
        if key in self.missing:
            if isinstance(first, ch.DropTable) and not first.if_exists:
                return Outcome(step, key, None, None, _not_found(step), self.case_sensitive)
            return Outcome(step, key, None, None, None, self.case_sensitive, "unknown-table")
        try:
            after = self._commit(key, before, step)
        except ReplayError as e:
            if e.span is None:
                e.span = step.span
            return Outcome(step, key, before, before, e, self.case_sensitive)
        self.tables[key] = after  # None: dropped (or renamed away)
        return Outcome(step, key, before, after, None, self.case_sensitive, diff=self._diff)

    # ------------------------------------------------------------------ commits
    def _commit(self, key: str, meta: TableMetadata | None, step: ch.Commit) -> TableMetadata | None:
        first = step.changes[0] if step.changes else None
        if isinstance(first, ch.CreateTable):
            return self._create(key, meta, first, step)
        if isinstance(first, ch.DropTable):
            if meta is None and not first.if_exists:
                raise _not_found(step)
            return None
        if meta is None:
            raise _not_found(step)
        if isinstance(first, ch.RenameTable):
            new_key = table_key(first.new_name)
            if self.tables.get(new_key) is not None:
                raise ReplayError("table-exists", f"[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot rename {step.table} to {first.new_name}: the table already exists.", "spark")
            self.tables[new_key] = meta
            self.display.setdefault(new_key, first.new_name)
            return None
        schema_changes = [c for c in step.changes if isinstance(c, ch.SchemaChange)]  # type: ignore[arg-type]
        if schema_changes:
            return self._schema_commit(meta, schema_changes, step)
        out = meta
        for c in step.changes:
            out = self._other(out, c, step)
        return out

    def _other(self, meta: TableMetadata, c: ch.TableChange, step: ch.Commit) -> TableMetadata:
        if isinstance(c, ch.SetProperties):
            return self._set_properties(meta, c)
        if isinstance(c, ch.UnsetProperties):
            props = {k: v for k, v in meta.properties.items() if k not in c.keys}
            return meta.evolve(properties=MappingProxyType(props))
        if isinstance(c, ch.SetLocation):
            return meta.evolve(location=c.location)
        if isinstance(c, (ch.AddPartitionField, ch.DropPartitionField, ch.ReplacePartitionField)):
            return self._partition(meta, c)
        if isinstance(c, ch.SetWriteOrder):
            return self._write_order(meta, c)
        if isinstance(c, ch.SetIdentifierFields):
            return self._set_identifiers(meta, c)
        if isinstance(c, ch.DropIdentifierFields):
            return self._drop_identifiers(meta, c)
        if isinstance(c, ch.RefChange):
            return self._ref(meta, c)
        if isinstance(c, ch.CallProcedure) and c.procedure == "rollback_to_timestamp":
            _check_rollback_to_timestamp(c, meta)
        if isinstance(c, ch.WriteData):
            dml.check_row_level(c.kind, meta)
            if c.sql is not None:
                dml.check_insert(c.sql, _quoted(step.table), meta, self.case_sensitive)
            if c.kind.startswith("truncate"):  # the current snapshot no longer holds any row
                return meta.evolve(has_data=False) if meta.has_data else meta
            return meta if meta.has_data else meta.evolve(has_data=True)
        return meta  # CallProcedure, NoEffect

    def _ref(self, meta: TableMetadata, c: ch.RefChange) -> TableMetadata:
        """Iceberg's `UpdateSnapshotReferencesOperation` checks (branches and tags share one namespace)."""
        refs = dict(meta.refs)
        exists = c.name in refs
        what = c.kind.capitalize()
        if c.verb == "drop":
            if not exists or refs[c.name] != c.kind:
                if c.if_exists:
                    return meta
                raise ReplayError("unsupported", f"{what} does not exist: {c.name}", "iceberg")
            del refs[c.name]
        elif c.verb == "create":
            if exists:
                if c.if_exists:
                    return meta
                raise ReplayError("unsupported", f"Ref {c.name} already exists", "iceberg")
            refs[c.name] = c.kind
        elif c.verb == "replace":
            if not exists:
                raise ReplayError("unsupported", f"{what} does not exist: {c.name}", "iceberg")
        else:  # create or replace
            refs[c.name] = c.kind
        return meta.evolve(refs=MappingProxyType(refs))

    # ------------------------------------------------------------------ CREATE TABLE
    def _create(self, key: str, meta: TableMetadata | None, c: ch.CreateTable, step: ch.Commit) -> TableMetadata | None:
        if meta is not None and not (c.or_replace or c.replace_only):
            if c.if_not_exists:
                return meta
            raise ReplayError(
                "table-exists",
                f"[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view {_quoted(step.table)} because it already exists.",
                "spark",
            )
        if meta is None and c.replace_only:
            raise _not_found(step)
        if c.using is not None and c.using.lower() != "iceberg":
            self.unknown.add(key)
            return None
        if not c.columns:
            self.unknown.add(key)
            return None
        seen: dict[str, str] = {}
        for col in c.columns:
            low = col.path[-1] if self.case_sensitive else col.path[-1].lower()
            if low in seen:
                raise ReplayError("duplicate-column", f"[COLUMN_ALREADY_EXISTS] The column `{col.path[-1]}` already exists.", "spark", span=col.span)
            seen[low] = col.path[-1]
            if col.default is not None:
                raise ReplayError("default-value", f"Cannot create column {col.path[-1]} with a default value: Iceberg's Spark 3.5 catalog does not support column default values", "spark", span=col.span)
        for col in c.columns:
            self._check_nested_names(col.type, col.path[-1], col.span)
        props = dict(c.properties)
        version = DEFAULT_FORMAT_VERSION
        if "format-version" in props:
            version = _format_version(props["format-version"])
        counter = [0]

        def next_id() -> int:
            counter[0] += 1
            return counter[0]

        ids = [next_id() for _ in c.columns]
        fields = tuple(
            NestedField(i, col.path[-1], sp.to_iceberg(col.type, next_id), col.required, col.doc)
            for i, col in zip(ids, c.columns)
        )
        schema = Schema(0, fields)
        _check_format_types(version, walk(schema.fields))
        terms = [pt.resolve(t, schema, case_sensitive=True) for t in c.partition_by]
        spec = pt.build_create_spec(terms, schema)
        properties = dict(NEW_TABLE_DEFAULTS)
        for k, v in props.items():
            if k not in RESERVED_PROPERTIES and k not in SPARK_RESERVED:
                properties[k] = v
        if c.comment is not None:
            properties["comment"] = c.comment
        last_column_id = max(counter[0], 0)
        if meta is not None:  # CREATE OR REPLACE / REPLACE TABLE: keep ids of same-named columns
            return self._replace_table(meta, schema, spec, properties, c)
        return TableMetadata(
            format_version=version,
            schemas=(schema,),
            current_schema_id=0,
            last_column_id=last_column_id,
            specs=(spec,),
            default_spec_id=0,
            last_partition_id=max((f.field_id for f in spec.fields), default=999),
            sort_orders=(UNSORTED,),
            default_sort_order_id=0,
            properties=MappingProxyType(properties),
            location=c.location,
        )

    def _replace_table(self, meta: TableMetadata, fresh: Schema, spec: PartitionSpec, properties: dict[str, str], c: ch.CreateTable) -> TableMetadata:
        """`TableMetadata.buildReplacement`: ids reused by name from the current schema."""
        last = [meta.last_column_id]
        fields = _reassign_type(StructType(fresh.fields), StructType(meta.schema.fields), last).fields  # type: ignore[attr-defined]
        new_schema = Schema(0, fields)
        schemas, added = _add_schema(meta.schemas, new_schema, meta.current_schema_id)
        schema_id = added.schema_id
        new_spec_fields = []
        next_pid = meta.last_partition_id
        for f in spec.fields:
            name = fresh.name_of(f.source_id)
            src = new_schema.find(tuple(name.split("."))) if name else None
            next_pid += 1
            new_spec_fields.append(type(f)(src.id if src else f.source_id, next_pid, f.name, f.transform))
        new_spec = PartitionSpec(0, tuple(new_spec_fields))
        specs, spec_id = _add_spec(meta.specs, new_spec)
        props = dict(meta.properties)
        props.update(properties)
        return meta.evolve(
            schemas=schemas,
            current_schema_id=schema_id,
            last_column_id=max(meta.last_column_id, last[0]),
            specs=specs,
            default_spec_id=spec_id,
            last_partition_id=max(meta.last_partition_id, max((f.field_id for f in new_spec.fields), default=0)),
            default_sort_order_id=0,
            properties=MappingProxyType(props),
            current_snapshot_id=None,
            has_data=False,  # the replacement's current snapshot holds no rows
        )

    # ------------------------------------------------------------------ schema changes
    def _resolve(self, schema: Schema, path: Path, step: ch.Commit, span=None) -> tuple[Path, NestedField]:
        """Spark's analyzer resolution: case-insensitive unless spark.sql.caseSensitive=true."""
        out, found, invalid_at = self._walk(schema, path)
        if invalid_at is not None:
            raise ReplayError(
                "unknown-column",
                f"[INVALID_FIELD_NAME] Field name {_quoted(dotted(path))} is invalid: {_quoted(dotted(out[:invalid_at]))} is not a struct.",
                "spark",
                span=span,
                column=dotted(path),
            )
        if found is None:
            raise ReplayError(
                "unknown-column",
                f"Missing field {dotted(path)} in table {step.table} with schema: {schema.struct}",
                "spark",
                span=span,
                column=dotted(path),
            )
        return out, found

    def _walk(self, schema: Schema, path: Path) -> tuple[Path, NestedField | None, int | None]:
        """Resolve `path` like Spark: names case-insensitively (by default), but the `element`, `key` and
        `value` of lists and maps only exactly as written. Returns (resolved prefix, field or None, index
        of the part that addresses a list/map wrongly or None)."""
        out: list[str] = []
        found: NestedField | None = None
        for i, part in enumerate(path):
            if i == 0:
                found = schema.top_level(part, self.case_sensitive)
            elif isinstance(found.type, (ListType, MapType)):  # type: ignore[union-attr]
                kids = children(found.type)  # type: ignore[union-attr]
                found = next((k for k in kids if k.name == part), None)
                if found is None:
                    return tuple(out), None, i
            else:
                found = _match(children(found.type), part, self.case_sensitive)  # type: ignore[union-attr]
            if found is None:
                return tuple(out), None, None
            out.append(found.name)
        return tuple(out), found, None

    def _sibling_exists(self, schema: Schema, parent: Path, name: str) -> NestedField | None:
        if not parent:
            return schema.top_level(name, self.case_sensitive)
        return _match(_kids(schema, parent), name, self.case_sensitive)

    def _schema_commit(self, meta: TableMetadata, changes: list, step: ch.Commit) -> TableMetadata:
        schema = meta.schema
        upd = SchemaUpdate(schema, meta.last_column_id)
        added_here: dict[Path, list[str]] = {}
        for c in changes:
            if isinstance(c, ch.AddColumn):
                self._add(schema, upd, c.column, step, added_here)
            elif isinstance(c, ch.DeleteColumn):
                if c.if_exists and self._try_resolve(schema, c.path) is None:
                    continue
                path, _ = self._resolve(schema, c.path, step, c.span)
                upd.delete_column(path)
            elif isinstance(c, ch.RenameColumn):
                path, f = self._resolve(schema, c.path, step, c.span)
                parent = self._try_resolve(schema, path[:-1]) if len(path) > 1 else None
                if parent is not None and isinstance(parent.type, (ListType, MapType)):
                    raise ReplayError(
                        "unsupported",
                        f"[INVALID_FIELD_NAME] Field name {_quoted(dotted(path[:-1] + (c.new_name,)))} is invalid: "
                        f"{_quoted(dotted(path[:-1]))} is not a struct.",
                        "spark",
                        column=dotted(path),
                    )
                clash = self._sibling_exists(schema, path[:-1], c.new_name)
                if clash is not None:
                    raise ReplayError(
                        "duplicate-column",
                        f"[FIELDS_ALREADY_EXISTS] Cannot rename column, because `{c.new_name}` already exists in {_struct_sql(schema, path[:-1])}.",
                        "spark",
                        field_id=clash.id,
                        column=c.new_name,
                    )
                upd.rename_column(path, c.new_name)
            elif isinstance(c, ch.UpdateColumnType):
                path, f = self._resolve(schema, c.path, step, c.span)
                self._update_type(upd, path, f, c.type, step)
            elif isinstance(c, ch.UpdateColumnRequired):
                path, f = self._resolve(schema, c.path, step, c.span)
                if c.required and not f.required:
                    raise ReplayError(
                        "nullability", f"Cannot change nullable column to non-nullable: {dotted(path)}.", "spark", field_id=f.id, column=dotted(path)
                    )
                upd.update_required(path, c.required)
            elif isinstance(c, ch.UpdateColumnDoc):
                path, _ = self._resolve(schema, c.path, step, c.span)
                upd.update_doc(path, c.doc)
            elif isinstance(c, ch.MoveColumn):
                path, _ = self._resolve(schema, c.path, step, c.span)
                self._move(schema, upd, path, c.first, c.after, step)
            elif isinstance(c, ch.UpdateColumnDefault):
                self._resolve(schema, c.path, step, c.span)
                raise ReplayError(
                    "default-value",
                    "Cannot set a column default value: setting default values in Spark is currently unsupported by Iceberg",
                    "spark",
                )
            elif isinstance(c, ch.ReplaceColumns):
                for f in schema.fields:
                    upd.delete_column((f.name,))
                names: set[str] = set()
                for col in c.columns:
                    low = col.path[-1] if self.case_sensitive else col.path[-1].lower()
                    if low in names:
                        raise ReplayError("duplicate-column", f"[COLUMN_ALREADY_EXISTS] The column `{col.path[-1]}` already exists.", "spark", span=col.span)
                    names.add(low)
                    self._add(schema, upd, col, step, added_here, replacing=True)
            elif isinstance(c, ch.HiveChangeColumn):
                path, f = self._resolve(schema, c.path, step, c.span)
                same = c.new_name == f.name if self.case_sensitive else c.new_name.lower() == f.name.lower()
                if not same:
                    raise ReplayError("unsupported", "Renaming column is not supported in Hive-style ALTER COLUMN, please run RENAME COLUMN instead.", "spark")
                if c.required:
                    raise ReplayError("unsupported", "NOT NULL is not supported in Hive-style ALTER COLUMN, please run ALTER COLUMN ... SET/DROP NOT NULL instead.", "spark")
                self._update_type(upd, path, f, c.type, step)
                if c.doc is not None:
                    upd.update_doc(path, c.doc)
                if c.first or c.after:
                    self._move(schema, upd, path, c.first, c.after, step)
        new_schema = upd.apply()
        return self._commit_schema(meta, new_schema, upd.last_column_id, upd.changes_at)

    def _try_resolve(self, schema: Schema, path: Path) -> NestedField | None:
        return self._walk(schema, path)[1]

    def _add(self, schema: Schema, upd: SchemaUpdate, col: ch.ColumnSpec, step: ch.Commit, added_here: dict[Path, list[str]], replacing: bool = False) -> None:
        parent, name = col.path[:-1], col.path[-1]
        if col.span is not None:
            span = col.span
        else:
            span = step.span
        rparent: Path = ()
        if parent:
            rparent, pf = self._resolve(schema, parent, step, span)
        if not replacing:
            clash = self._sibling_exists(schema, rparent, name)
            if clash is not None:
                raise ReplayError(
                    "duplicate-column",
                    f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `{name}` already exists in {_struct_sql(schema, rparent)}.",
                    "spark",
                    span=span,
                    field_id=clash.id,
                    column=dotted(rparent + (name,)),
                )
            here = added_here.setdefault(rparent, [])
            if any((n == name) if self.case_sensitive else (n.lower() == name.lower()) for n in here):
                raise ReplayError("duplicate-column", f"[COLUMN_ALREADY_EXISTS] The column `{dotted(rparent + (name,))}` already exists.", "spark", span=span)
            here.append(name)
        if col.required:
            raise ReplayError(
                "required-column",
                f"Incompatible change: cannot add required column: {name}",
                "iceberg-wrapped",
                span=span,
                column=dotted(rparent + (name,)),
            )
        if col.default is not None:
            raise ReplayError(
                "default-value",
                f"Cannot add column {name} since setting default values in Spark is currently unsupported",
                "iceberg-wrapped",
                span=span,
            )
        sp.spark_type(col.type)  # unsupported types fail here, in Spark
        self._check_nested_names(col.type, dotted(rparent + (name,)), span)
        if col.after is not None:
            ref = rparent + (col.after[-1],)
            if self._try_resolve(schema, ref) is None and not any(
                (n == col.after[-1]) if self.case_sensitive else (n.lower() == col.after[-1].lower())
                for n in added_here.get(rparent, [])
            ):
                raise ReplayError(
                    "unknown-column",
                    f"[FIELD_NOT_FOUND] No such struct field `{col.after[-1]}` in {', '.join(f.name for f in _kids(schema, rparent))}.",
                    "spark",
                    span=span,
                    column=dotted(ref),
                )
        upd.add_column(rparent, name, lambda nid: sp.to_iceberg(col.type, nid), False, col.doc)
        full = rparent + (name,)
        if col.first:
            upd.move_first(full)
        elif col.after is not None:
            ref_name = col.after[-1]
            existing = self._try_resolve(schema, rparent + (ref_name,))
            upd.move_after(full, rparent + ((existing.name if existing else ref_name),))

    def _check_nested_names(self, t, prefix: str, span) -> None:
        """Spark rejects struct types with a field name twice (compared as its resolver compares)."""
        if t.name == "struct":
            seen: set[str] = set()
            for f in t.fields:
                key = f.name if self.case_sensitive else f.name.lower()
                if key in seen:
                    raise ReplayError(
                        "duplicate-column",
                        f"[COLUMN_ALREADY_EXISTS] The column {_quoted(prefix + '.' + f.name)} already exists.",
                        "spark",
                        span=f.span or span,
                        column=f"{prefix}.{f.name}",
                    )
                seen.add(key)
                self._check_nested_names(f.type, f"{prefix}.{f.name}", span)
        for inner, part in ((t.element, "element"), (t.key, "key"), (t.value, "value")):
            if inner is not None:
                self._check_nested_names(inner, f"{prefix}.{part}", span)

    def _update_type(self, upd: SchemaUpdate, path: Path, f: NestedField, new: "ch.SqlType", step: ch.Commit) -> None:  # type: ignore[name-defined]
        target = sp.spark_type(new)
        kind = target[0]
        if kind in ("struct", "map", "array"):
            what = {"struct": "STRUCT_TYPE", "map": "MAP_TYPE", "array": "ARRAY_TYPE"}[kind]
            hint = {"struct": "Update a struct by updating its fields", "map": "Update a map by updating its keys and values",
                    "array": "Update an array by updating its elements"}[kind]  # fmt: skip
            raise ReplayError(
                "type-change",
                f"[CANNOT_UPDATE_FIELD.{what}] Cannot update {_quoted(step.table)} field {_quoted(dotted(path))} type: {hint}.",
                "spark",
                field_id=f.id,
                column=dotted(path),
            )
        current = sp.from_iceberg(f.type)
        if not sp.can_up_cast(current, target):
            raise ReplayError(
                "type-change",
                f"[NOT_SUPPORTED_CHANGE_COLUMN] ALTER TABLE ALTER/CHANGE COLUMN is not supported for changing "
                f"{_quoted(step.table)}'s column `{dotted(path)}` with type \"{sp.sql_name(current)}\" to "
                f"`{dotted(path)}` with type \"{sp.sql_name(target)}\".",
                "spark",
                field_id=f.id,
                column=dotted(path),
            )
        ice = sp.to_iceberg(new, lambda: 0)
        assert isinstance(ice, PrimitiveType)
        upd.update_column(path, ice)

    def _move(self, schema: Schema, upd: SchemaUpdate, path: Path, first: bool, after: Path | None, step: ch.Commit) -> None:
        if first:
            upd.move_first(path)
            return
        assert after is not None
        ref = path[:-1] + (after[-1],)
        target = self._try_resolve(schema, ref)
        if target is None:
            raise ReplayError(
                "unknown-column",
                f"Missing field {dotted(ref)} in table {step.table} with schema: {schema.struct}",
                "spark",
                column=dotted(ref),
            )
        upd.move_after(path, path[:-1] + (target.name,))

    def _commit_schema(
        self, meta: TableMetadata, new_schema: Schema, last_column_id: int, changes_at: dict | None = None
    ) -> TableMetadata:
        current = meta.schema
        if new_schema.fields == current.fields and set(new_schema.identifier_field_ids) == set(current.identifier_field_ids):
            return meta  # nothing changed (fields are shared objects: this compares by identity first)
        d = self._diff = schema_diff(current, new_schema, changes_at)
        new_schema.__dict__["field_count"] = current.field_count + len(d.added) - len(d.removed)
        id_xor = current.id_xor
        for _, f in d.added:
            id_xor ^= f.id
        for _, f in d.removed:
            id_xor ^= f.id
        new_schema.__dict__["id_xor"] = id_xor
        top_hash = current.top_hash
        for f, prev in d.replaced_top:
            top_hash += hash(f) - hash(prev)
        top_hash += sum(hash(f) for p, f in d.added if len(p) == 1) - sum(hash(f) for p, f in d.removed if len(p) == 1)
        new_schema.__dict__["top_hash"] = top_hash
        if meta.format_version < 3 and (d.added or d.changed):
            _check_format_types(meta.format_version, (*d.added, *((p, new) for p, new, _ in d.changed)))
        schemas, schema = _add_schema(meta.schemas, new_schema, meta.current_schema_id, meta.schemas_like(new_schema))
        schema_id = schema.schema_id
        if schema is not new_schema and schema.fields is new_schema.fields:
            schema.carry_indexes(current, d)
            schema.__dict__["field_count"] = new_schema.field_count
        renamed = d.renamed
        new_names = {".".join(p) for p, _ in d.added} | {".".join(p) for p, _, _ in renamed}
        if not new_names.isdisjoint(meta.partition_names):  # only a new name can collide with a partition field's
            for spec in meta.specs:
                pt.check_spec_names(spec, schema, new_names)
        _check_binding(meta.spec, meta.sort_order, current, schema, d)
        out = meta.evolve(
            schemas=schemas,
            current_schema_id=schema_id,
            last_column_id=max(meta.last_column_id, last_column_id),
            properties=_column_properties(meta, current, schema) if d.removed or renamed else meta.properties,
        )
        index = meta.schema_index  # shared along the chain of states (see `schemas_like`)
        if schemas is not meta.schemas:
            index_schema(index, schema)
        out.__dict__["schema_index"] = index
        out.__dict__["schema"] = schema
        return out

    # ------------------------------------------------------------------ properties
    def _set_properties(self, meta: TableMetadata, c: ch.SetProperties) -> TableMetadata:
        props = dict(meta.properties)
        version = meta.format_version
        location = meta.location
        for k, v in c.properties:
            if k in ("sort-order", "identifier-fields"):
                cmd = "ALTER TABLE ... WRITE ORDERED BY" if k == "sort-order" else "ALTER TABLE ... SET IDENTIFIER FIELDS"
                what = "write sort-orders" if k == "sort-order" else "identifier fields"
                raise ReplayError(
                    "unsupported",
                    f"Cannot specify the '{k}' because it's a reserved table property. Please use the command '{cmd}' to specify {what}.",
                    "spark",
                )
        for k, v in c.properties:
            if k == "format-version":
                new = _format_version(v)
                if new < version:
                    raise ReplayError("format-version", f"Cannot downgrade v{version} table to v{new}", "iceberg-wrapped")
                version = new
            elif k == "location":
                location = v
            elif k in RESERVED_PROPERTIES or k in ACTION_PROPERTIES:
                continue
            else:
                props[k] = v
        return meta.evolve(properties=MappingProxyType(props), format_version=version, location=location)

    # ------------------------------------------------------------------ partitions
    def _partition(self, meta: TableMetadata, c) -> TableMetadata:
        schema = meta.schema
        upd = pt.SpecUpdate(meta.spec, schema, meta.specs, meta.format_version, meta.last_partition_id)
        if isinstance(c, ch.AddPartitionField):
            upd.add_field(c.name, pt.resolve(c.transform, schema))
        else:
            old = c.transform if isinstance(c, ch.DropPartitionField) else c.old
            if old.func is None and len(old.columns) == 1 and len(old.columns[0].parts) == 1 and schema.find(old.columns[0].parts) is None:
                upd.remove_by_name(old.columns[0].parts[0], old.span)
            else:
                upd.remove_by_term(pt.resolve(old, schema))
            if isinstance(c, ch.ReplacePartitionField):
                upd.add_field(c.name, pt.resolve(c.new, schema))
        new_spec = upd.apply()
        specs, spec_id = _add_spec(meta.specs, new_spec)
        if spec_id not in {s.spec_id for s in meta.specs}:
            pt.check_spec_compatible(new_spec, schema)
            if meta.format_version == 1:
                _check_sequential(new_spec)
        spec = next(s for s in specs if s.spec_id == spec_id)
        return meta.evolve(
            specs=specs,
            default_spec_id=spec_id,
            last_partition_id=max(meta.last_partition_id, max((f.field_id for f in spec.fields), default=0)),
        )

    def _write_order(self, meta: TableMetadata, c: ch.SetWriteOrder) -> TableMetadata:
        if not c.distributed and c.order is None and not c.unordered:
            raise ReplayError("unsupported", "ALTER TABLE has no changes: missing both distribution and ordering clauses", "spark")
        schema = meta.schema
        fields = tuple(pt.sort_field(pt.resolve(t.transform, schema, self.case_sensitive), t) for t in (c.order or ()))
        orders, order_id = _add_sort_order(meta.sort_orders, SortOrder(0, fields))
        props = dict(meta.properties)
        if c.distributed:
            props["write.distribution-mode"] = "hash"
        elif c.unordered:
            props["write.distribution-mode"] = "none"
        elif not c.locally:
            props["write.distribution-mode"] = "range"
        return meta.evolve(sort_orders=orders, default_sort_order_id=order_id, properties=MappingProxyType(props))

    # ------------------------------------------------------------------ identifier fields
    def _set_identifiers(self, meta: TableMetadata, c: ch.SetIdentifierFields) -> TableMetadata:
        schema = meta.schema
        ids: list[int] = []
        for path, span in zip(c.paths, c.spans):
            f = schema.find(path)
            if f is None:
                raise ReplayError(
                    "identifier",
                    f"Cannot add field {dotted(path)} as an identifier field: not found in current schema or added columns",
                    "iceberg",
                    span=span,
                    column=dotted(path),
                )
            ids.append(f.id)
        new = Schema(schema.schema_id, schema.fields, tuple(sorted(set(ids))))
        for fid in new.identifier_field_ids:
            try:
                validate_identifier_field(new, fid)
            except ReplayError as e:
                e.layer = "iceberg"
                raise
        return self._commit_schema(meta, new, meta.last_column_id)

    def _drop_identifiers(self, meta: TableMetadata, c: ch.DropIdentifierFields) -> TableMetadata:
        schema = meta.schema
        ids = set(schema.identifier_field_ids)
        for path, span in zip(c.paths, c.spans):
            f = schema.find(path)
            if f is None:
                raise ReplayError("identifier", f"Cannot complete drop identifier fields operation: field {dotted(path)} not found", "iceberg", span=span, column=dotted(path))
            if f.id not in ids:
                raise ReplayError("identifier", f"Cannot complete drop identifier fields operation: {dotted(path)} is not an identifier field", "iceberg", span=span, column=dotted(path))
            ids.discard(f.id)
        return self._commit_schema(meta, Schema(schema.schema_id, schema.fields, tuple(sorted(ids))), meta.last_column_id)


# ---------------------------------------------------------------------------- helpers


def _match(fields: tuple[NestedField, ...], name: str, case_sensitive: bool) -> NestedField | None:
    if case_sensitive:
        for f in fields:
            if f.name == name:
                return f
        return None
    low = name.lower()
    for f in fields:
        if f.name.lower() == low:
            return f
    return None


def _kids(schema: Schema, parent: Path) -> tuple[NestedField, ...]:
    if not parent:
        return schema.fields
    f = schema.find(parent)
    if f is None:
        return ()
    t = f.type
    if isinstance(t, MapType):  # fields are added to (and resolved in) the map value
        return children(t.value)
    if isinstance(t, ListType):
        return children(t.element)
    return children(t)


def _struct_sql(schema: Schema, parent: Path) -> str:
    fields = _kids(schema, parent)
    return "\"STRUCT<" + ", ".join(f"{f.name}: {sp.sql_name(sp.from_iceberg(f.type))}" for f in fields) + ">\""


def _quoted(name: str) -> str:
    return ".".join(f"`{p}`" for p in name.split("."))


def _not_found(step: ch.Commit) -> ReplayError:
    return ReplayError(
        "unknown-table",
        f"[TABLE_OR_VIEW_NOT_FOUND] The table or view {_quoted(step.table)} cannot be found.",
        "spark",
        span=step.table_span,
    )


def _format_version(v: str) -> int:
    try:
        n = int(str(v).strip())
    except ValueError:
        raise ReplayError("format-version", f"Invalid format version: {v}", "iceberg-wrapped") from None
    if n > MAX_FORMAT_VERSION or n < 1:
        raise ReplayError(
            "format-version", f"Cannot upgrade table to unsupported format version: v{n} (supported: v{MAX_FORMAT_VERSION})", "iceberg-wrapped"
        )
    return n


def _check_binding(spec: PartitionSpec, order: SortOrder, old: Schema, new: Schema, d: SchemaDiff) -> None:
    """The default spec and sort order must still bind to the new schema (`checkCompatibility`).

    Binding depends only on each source field's existence, type and ancestors. When the old schema
    is known to bind the same spec and order, and no source field was dropped or retyped, the new
    one binds too and the check is skipped; each schema remembers what it was checked against.
    """
    bound = old.__dict__.get("_binds")
    if bound is not None and bound[0] is spec and bound[1] is order:
        sources = bound[2]
        if not _sources_touched(sources, d):
            new.__dict__["_binds"] = bound
            return
    else:
        sources = frozenset(f.source_id for f in spec.fields) | frozenset(f.source_id for f in order.fields)
    pt.check_spec_compatible(spec, new)
    pt.check_sort_compatible(order, new)
    new.__dict__["_binds"] = (spec, order, sources)


def _sources_touched(sources: frozenset[int], d: SchemaDiff) -> bool:
    if not sources:
        return False
    return any(f.id in sources for _, f in d.removed) or any(
        new.id in sources and new.type != old.type for _, new, old in d.changed
    )


def _check_format_types(version: int, fields: Iterable[tuple[Path, NestedField]]) -> None:
    """Types a format version cannot hold (in a change, only added fields and type changes can bring one)."""
    if version >= 3:
        return
    problems = [
        f"Invalid type for {'.'.join(p)}: {f.type} is not supported until v3"
        for p, f in fields
        if isinstance(f.type, PrimitiveType) and f.type.name.split("(")[0] in V3_ONLY
    ]
    if problems:
        raise ReplayError("unsupported-type", f"Invalid schema for v{version}:\n- " + "\n- ".join(problems), "iceberg")


def _add_schema(
    schemas: tuple[Schema, ...], new: Schema, current_id: int, candidates: list[Schema] | None = None
) -> tuple[tuple[Schema, ...], Schema]:
    """`reuseOrCreateNewSchemaId`: an identical schema is reused, else max(id) + 1.

    `candidates` (`TableMetadata.schemas_like`) narrows the search to the schemas of the same identity.
    """
    new_id = current_id
    for s in candidates if candidates is not None else schemas:
        if s.same_as(new):
            return schemas, s
    # schemas are kept in id order (metadata is read sorted by id), so the last holds the highest id
    new_id = max(new_id, schemas[-1].schema_id + 1 if schemas else 0)
    added = Schema(new_id, new.fields, new.identifier_field_ids)
    for carried in ("_identity", "field_count", "id_xor", "top_hash"):  # computed for `new` already: the same for its copy
        if carried in new.__dict__:
            added.__dict__[carried] = new.__dict__[carried]
    # a Chain shares its storage with the previous state's: N versions cost N slots, not N²/2
    return (schemas if isinstance(schemas, Chain) else Chain(schemas)).append(added), added


def _check_rollback_to_timestamp(c: ch.CallProcedure, meta: TableMetadata) -> None:
    """`rollback_to_timestamp` needs a snapshot older than the timestamp (session time zone: UTC assumed)."""
    import datetime as dt

    raw = next((v for k, v in c.args if k and k.lower() == "timestamp"), None)
    if raw is None:
        positional = [v for k, v in c.args if k is None]
        raw = positional[1] if len(positional) > 1 else None
    if raw is None:
        return
    text = raw.strip()
    if text.upper().startswith("TIMESTAMP"):
        text = text[len("TIMESTAMP") :].strip()
    text = text.strip("'\"")
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    ts = int(when.timestamp() * 1000)
    if ts >= int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000):
        return  # snapshots written by the scripts may be older than that
    if not any(s.timestamp_ms < ts for s in meta.snapshots):
        raise ReplayError("procedure", f"Cannot roll back, no valid snapshot older than: {ts}", "iceberg")


def _add_spec(specs: tuple[PartitionSpec, ...], new: PartitionSpec) -> tuple[tuple[PartitionSpec, ...], int]:
    new_id = 0
    for s in specs:
        if new.compatible_with(s):
            return specs, s.spec_id
        if new_id <= s.spec_id:
            new_id = s.spec_id + 1
    return specs + (PartitionSpec(new_id, new.fields),), new_id


def _add_sort_order(orders: tuple[SortOrder, ...], new: SortOrder) -> tuple[tuple[SortOrder, ...], int]:
    if not new.fields:
        if not any(o.order_id == 0 for o in orders):
            orders = (UNSORTED,) + orders
        return orders, 0
    new_id = 1
    for o in orders:
        if o.fields == new.fields:
            return orders, o.order_id
        if new_id <= o.order_id:
            new_id = o.order_id + 1
    return orders + (SortOrder(new_id, new.fields),), new_id


def _check_sequential(spec: PartitionSpec) -> None:
    for i, f in enumerate(spec.fields):
        if f.field_id != 1000 + i:
            raise ReplayError("partition", f"Spec does not use sequential IDs that are required in v1: {spec.to_json()}", "iceberg")


_COLUMN_PROPERTY_PREFIXES = (
    "write.metadata.metrics.column.",
    "write.parquet.bloom-filter-enabled.column.",
    "write.parquet.stats-enabled.column.",
)


def _column_properties(meta: TableMetadata, old: Schema, new: Schema):
    """`PropertyUtil.applySchemaChanges`: column-scoped properties follow renames and drops."""
    props = meta.properties
    if not any(k.startswith(_COLUMN_PROPERTY_PREFIXES) for k in props):
        return props
    out: dict[str, str] = {}
    for k, v in props.items():
        prefix = next((p for p in _COLUMN_PROPERTY_PREFIXES if k.startswith(p)), None)
        if prefix is None:
            out[k] = v
            continue
        col = k[len(prefix):]
        f = old.find(tuple(col.split(".")))
        if f is None:
            out[k] = v
            continue
        new_name = new.name_of(f.id)
        if new_name is None:
            continue
        out[prefix + new_name] = v
    return MappingProxyType(out)


def _reassign_type(t: Type, old: Type | None, last: list[int]) -> Type:
    """Nested ids for REPLACE TABLE: reuse the old ids by name, else fresh ones."""
    def nid(prev: int | None) -> int:
        if prev is not None:
            return prev
        last[0] += 1
        return last[0]

    if isinstance(t, StructType):
        olds = {f.name: f for f in (old.fields if isinstance(old, StructType) else ())}
        ids = [nid(olds[f.name].id if f.name in olds else None) for f in t.fields]
        return StructType(tuple(
            NestedField(i, f.name, _reassign_type(f.type, olds[f.name].type if f.name in olds else None, last), f.required, f.doc)
            for i, f in zip(ids, t.fields)
        ))  # fmt: skip
    if isinstance(t, ListType):
        o = old if isinstance(old, ListType) else None
        eid = nid(o.element_id if o else None)
        return ListType(eid, _reassign_type(t.element, o.element if o else None, last), t.element_required)
    if isinstance(t, MapType):
        o = old if isinstance(old, MapType) else None
        kid, vid = nid(o.key_id if o else None), nid(o.value_id if o else None)
        return MapType(kid, _reassign_type(t.key, o.key if o else None, last), vid, _reassign_type(t.value, o.value if o else None, last), t.value_required)
    return t
