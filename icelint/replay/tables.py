"""Replaying whole tables: CREATE TABLE, CREATE OR REPLACE / REPLACE TABLE, DROP TABLE, RENAME TO.

A CREATE gives fresh ids in Spark's order; a replacement keeps the ids of same-named columns
(`TableMetadata.buildReplacement`). A CTAS column whose type cannot be known gets an `UntypedType`
(its name and id are still Spark's); tables whose columns cannot be known at all (`SELECT *` over
an unknown table, non-Iceberg `USING`) are marked unknown and not replayed further.
"""

from __future__ import annotations

from types import MappingProxyType

from icelint.values import changes as ch
from icelint.model.table import UNSORTED, PartitionSpec, Schema, TableMetadata
from icelint.model.types import ListType, MapType, NestedField, StructType, Type, UntypedType, walk
from icelint.replay import names as name_index
from icelint.replay import partitioning as pt
from icelint.replay import refs
from icelint.replay import spark_types as sp
from icelint.replay.schemas import add_schema, check_format_types
from icelint.replay.common import not_found, quoted, table_key
from icelint.replay.ctas import infer_columns
from icelint.replay.errors import ReplayError, Unchecked
from icelint.replay.layout import add_spec
from icelint.replay.properties import (
    DEFAULT_FORMAT_VERSION,
    NEW_TABLE_DEFAULTS,
    RESERVED_PROPERTIES,
    SPARK_RESERVED,
    check_reserved,
    format_version,
    validate_commit_properties,
)
from icelint.syntax.ast import Name, Transform


class TablesMixin:
    """CREATE / REPLACE / DROP / RENAME of a whole table (a mixin of `Replay`)."""

    def _create(self, key: str, meta: TableMetadata | None, c: ch.CreateTable, step: ch.Commit) -> TableMetadata | None:
        check_reserved(c.properties + c.options)  # Spark's parser, before anything else
        if c.columns and not c.as_select:
            self._analyze_columns(c)  # Spark's analyzer: before it looks for the table (IF NOT EXISTS too)
        if meta is not None and not (c.or_replace or c.replace_only):
            if c.if_not_exists:
                if not c.columns and c.as_select and c.sql is not None:  # the query is analysed too
                    columns, _, untyped = infer_columns(c.sql, self._known_schema)
                    if columns is not None:
                        self._analyze_columns(c._replace(columns=columns), partitioning=not untyped)
                return meta
            raise ReplayError(
                "table-exists",
                f"[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot create table or view {quoted(step.table)} because it already exists.",
                "spark",
            )
        if meta is None and c.replace_only:
            raise not_found(step)
        file_format = None
        if c.hive_format and c.using is None and self.catalog_kind == "session":  # STORED AS: a Hive table there
            self.unknown.add(key)
            return None
        if c.using is not None and c.using.lower() != "iceberg":
            if self.catalog_kind == "session":  # SparkSessionCatalog: a Spark table, not Iceberg
                self.unknown.add(key)
                return None
            file_format = c.using.lower()  # SparkCatalog: an Iceberg table writing that format
            if file_format not in ("parquet", "avro", "orc"):
                raise ReplayError("unsupported", f"Unsupported format in USING: {c.using}", "iceberg")
            given = dict(c.properties).get("write.format.default")
            if given is not None:  # Iceberg builds the properties as an ImmutableMap: one key twice fails
                raise ReplayError(
                    "property",
                    f"Multiple entries with same key: write.format.default={file_format} and write.format.default={given}",
                    "iceberg",
                )
        if meta is None:
            validate_commit_properties(dict(c.properties))
        untyped: dict[int, str] = {}  # CTAS: columns whose type cannot be known (`replay/ctas.py`)
        if not c.columns and c.as_select and c.sql is not None:  # CTAS / RTAS: the query's columns
            columns, why, untyped = infer_columns(c.sql, self._known_schema)
            if columns is not None:
                c = c._replace(columns=columns)
            else:
                self.unknown_why[key] = why
        if not c.columns:
            self.unknown.add(key)
            return None
        if c.as_select:  # the query's columns, now known; PARTITIONED BY is judged here only when all their types are
            self._analyze_columns(c, partitioning=not untyped)
        props = dict(c.properties)
        version = DEFAULT_FORMAT_VERSION
        if "format-version" in props:
            version = format_version(props["format-version"])
        counter = [0]

        def next_id() -> int:
            counter[0] += 1
            return counter[0]

        ids = [next_id() for _ in c.columns]
        fields = tuple(
            NestedField(i, col.path[-1], UntypedType(*untyped[n]) if n in untyped else sp.to_iceberg(col.type, next_id), col.required, col.doc)
            for n, (i, col) in enumerate(zip(ids, c.columns))
        )
        schema = Schema(0, fields)
        if name_index.may_collide((c,), None):
            name_index.check_unique_names(schema)
        check_format_types(version, walk(schema.fields))
        partitioning = c.partition_by
        if c.bucketed:  # CLUSTERED BY: Spark spells its columns as the table does (PARTITIONED BY: as written)
            partitioning = (*partitioning[:-1], self._respelled(partitioning[-1], schema))
        try:
            terms = [pt.resolve(t, schema, case_sensitive=True) for t in partitioning]
        except Unchecked as u:  # PARTITIONED BY a field inside a CTAS column of unknown type
            self.unknown.add(key)
            self.unknown_why[key] = f"it is partitioned by a field inside `{u.column}`, whose type is not known ({u.reason})"
            return None
        spec = pt.build_create_spec(terms, schema)
        properties = dict(NEW_TABLE_DEFAULTS)
        for k, v in props.items():
            if k not in RESERVED_PROPERTIES and k not in SPARK_RESERVED:
                properties[k] = v
        if file_format is not None:
            properties["write.format.default"] = file_format
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

    def _analyze_columns(self, c: ch.CreateTable, partitioning: bool = True) -> None:
        """What Spark's analyzer checks of a CREATE TABLE's own column list and PARTITIONED BY, before
        it looks for the table: a `CREATE TABLE IF NOT EXISTS` of a table that exists fails on these too."""
        self._check_repeated(c.columns)  # replay/columns.py: REPLACE COLUMNS checks its list the same way
        for col in c.columns:
            self._check_nested_names(col.type, col.path[-1], col.span)
        for col in c.columns:
            if col.default is not None:
                raise ReplayError("default-value", f"Cannot create column {col.path[-1]} with a default value: Iceberg's Spark 3.5 catalog does not support column default values", "spark", span=col.span)
        # PARTITIONED BY: every column it names is in the list (structs searched, as Spark's resolver
        # compares names), and no transform is written twice over the same columns (`bucket(4, id)` and
        # `bucket(8, id)` count as the same: Spark compares the transform's name and its columns only)
        written: dict[tuple, Transform] = {}
        fold = (lambda n: n) if self.case_sensitive else str.lower
        top = {fold(col.path[-1]): col.type for col in c.columns} if partitioning and c.partition_by else {}
        for t in c.partition_by if partitioning else ():
            names = []
            for ref in t.columns:
                if not _written_column(top, ref.parts, fold):
                    raise ReplayError(
                        "unknown-column",
                        f"Couldn't find column {ref.dotted} in: {', '.join(col.path[-1] for col in c.columns)}",
                        "spark",
                        span=ref.span,
                        column=ref.dotted,
                    )
                names.append(ref.dotted if self.case_sensitive else ref.dotted.lower())
            key = ((t.func or "identity").lower(), tuple(names))
            if key in written:
                raise ReplayError("partition", f"Found duplicate column(s) in the partitioning: {'.'.join(names)}", "spark", span=t.span)
            written[key] = t

    def _check_nested_names(self, t, prefix: str, span) -> None:
        """Spark's analyzer rejects a CREATE TABLE whose struct types name a field twice (compared as its
        resolver compares; the path it reports is lower case then, and leaves out arrays' `element`)."""
        if t.name == "struct":
            seen: set[str] = set()
            for f in t.fields:
                key = f.name if self.case_sensitive else f.name.lower()
                if key in seen:
                    path = f"{prefix}.{key}" if self.case_sensitive else f"{prefix}.{key}".lower()
                    raise ReplayError(
                        "duplicate-column",
                        f"[COLUMN_ALREADY_EXISTS] The column {quoted(path)} already exists. Consider to choose another name or rename the existing column.",
                        "spark",
                        span=f.span or span,
                        column=f"{prefix}.{f.name}",
                    )
                seen.add(key)
                self._check_nested_names(f.type, f"{prefix}.{f.name}", span)
        for inner, below in ((t.element, prefix), (t.key, f"{prefix}.key"), (t.value, f"{prefix}.value")):
            if inner is not None:
                self._check_nested_names(inner, below, span)

    def _respelled(self, t: Transform, schema: Schema) -> Transform:
        """`t` with each column it names spelled as `schema` spells it (found as the session compares names)."""
        args = []
        for a in t.args:
            if isinstance(a, Name):
                f = schema.find(a.parts, self.case_sensitive)
                path = schema.path_of(f.id) if f is not None else None
                if path is not None:
                    a = a._replace(parts=tuple(path))
            args.append(a)
        return t._replace(args=tuple(args))

    def _replace_table(self, meta: TableMetadata, fresh: Schema, spec: PartitionSpec, properties: dict[str, str], c: ch.CreateTable) -> TableMetadata:
        """`TableMetadata.buildReplacement`: ids reused by name from the current schema."""
        last = [meta.last_column_id]
        fields = _reassign_type(StructType(fresh.fields), StructType(meta.schema.fields), last).fields  # type: ignore[attr-defined]
        new_schema = Schema(0, fields)
        schemas, added = add_schema(meta.schemas, new_schema, meta.current_schema_id)
        schema_id = added.schema_id
        new_spec_fields = []
        next_pid = meta.last_partition_id
        for f in spec.fields:
            name = fresh.name_of(f.source_id)
            src = new_schema.find(tuple(name.split("."))) if name else None
            next_pid += 1
            new_spec_fields.append(type(f)(src.id if src else f.source_id, next_pid, f.name, f.transform))
        new_spec = PartitionSpec(0, tuple(new_spec_fields))
        specs, spec_id = add_spec(meta.specs, new_spec)
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

    def _known_schema(self, name: str) -> Schema | None:
        """The schema a query reads from `name`: a table's, or for a branch by name (`db.t.branch_audit`,
        no table of that name known) its table's current one, which Spark reads a branch with."""
        meta = self.tables.get(self.resolve_table(name))
        if meta is None:
            ref = ch.name_ref(tuple(name.split(".")))
            if ref is not None and ref.kind == "branch":
                meta = self.tables.get(self.resolve_table(ref.parent))
                if meta is not None and not refs.exists(ref, meta):
                    meta = None
        return meta.schema if meta is not None else None

    def _drop(self, meta: TableMetadata | None, c: ch.DropTable, step: ch.Commit) -> None:
        if meta is None and not c.if_exists:
            raise not_found(step)
        return None

    def _rename(self, meta: TableMetadata, c: ch.RenameTable, step: ch.Commit) -> None:
        new_key = table_key(c.new_name)
        if self.tables.get(new_key) is not None:
            raise ReplayError("table-exists", f"[TABLE_OR_VIEW_ALREADY_EXISTS] Cannot rename {step.table} to {c.new_name}: the table already exists.", "spark")
        self.tables[new_key] = meta
        self.display.setdefault(new_key, c.new_name)
        return None


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


def _written_column(top: dict, parts: tuple[str, ...], fold) -> bool:
    """Whether `parts` names a column of a CREATE TABLE's list (`top`: folded name → type), or a field
    of its structs (names compared once `fold`ed, as the session's resolver compares them)."""
    t = top.get(fold(parts[0]))
    for part in parts[1:]:
        if t is None or t.name != "struct":
            return False
        want = fold(part)
        t = next((f.type for f in t.fields if fold(f.name) == want), None)
    return t is not None
