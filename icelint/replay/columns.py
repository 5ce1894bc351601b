"""Replaying column changes: ADD / DROP / RENAME / ALTER TYPE / nullability / doc / move, REPLACE
COLUMNS and Hive's CHANGE COLUMN, resolved as Spark's analyzer resolves names, then committed as a
new schema (`schemas.commit_schema`).
"""

from __future__ import annotations

from icelint.values import changes as ch
from icelint.model.table import Schema, TableMetadata
from icelint.model.types import ListType, MapType, NestedField, PrimitiveType, children, is_untyped
from icelint.replay import names as name_index
from icelint.replay import spark_types as sp
from icelint.replay.common import SHOWN_FIELDS, Path, quoted, struct_text
from icelint.replay.errors import ReplayError, Unchecked
from icelint.replay.schema_update import SchemaUpdate, dotted
from icelint.replay.schemas import commit_schema
from icelint.config.target import accepts_column_defaults


class ColumnsMixin:
    """Column changes of one statement, committed together (a mixin of `Replay`)."""

    def _resolve(self, schema: Schema, path: Path, step: ch.Commit, span=None) -> tuple[Path, NestedField]:
        """Spark's analyzer resolution: case-insensitive unless spark.sql.caseSensitive=true."""
        out, found, invalid_at = self._walk(schema, path)
        if invalid_at is not None:
            raise ReplayError(
                "unknown-column",
                f"[INVALID_FIELD_NAME] Field name {quoted(dotted(path))} is invalid: {quoted(dotted(out[:invalid_at]))} is not a struct.",
                "spark",
                span=span,
                column=dotted(path),
            )
        if found is None:
            raise ReplayError(
                "unknown-column",
                f"Missing field {dotted(path)} in table {step.table} with schema: {struct_text(schema)}",
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
            elif is_untyped(found.type):  # type: ignore[union-attr]
                raise Unchecked(dotted(tuple(out)), found.type.reason)  # type: ignore[union-attr]
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
        if changes and isinstance(changes[0], ch.AddColumn):
            self._check_adds(schema, changes, step)
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
                        f"[INVALID_FIELD_NAME] Field name {quoted(dotted(path[:-1] + (c.new_name,)))} is invalid: "
                        f"{quoted(dotted(path[:-1]))} is not a struct.",
                        "spark",
                        column=dotted(path),
                    )
                clash = self._sibling_exists(schema, path[:-1], c.new_name)
                if clash is not None:
                    raise ReplayError(
                        "duplicate-column",
                        f"[FIELDS_ALREADY_EXISTS] Cannot rename column, because {sp.sql_id(path[:-1] + (c.new_name,))} already exists in {_table_sql(schema)}.",
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
                if any(col.default is not None for col in c.columns):  # Spark's parser, on Iceberg 1.9 and 1.10 alike
                    raise ReplayError("default-value", "[UNSUPPORTED_DEFAULT_VALUE.WITHOUT_SUGGESTION] DEFAULT column values is not supported.", "spark")
                for f in schema.fields:
                    upd.delete_column((f.name,))
                self._check_repeated(c.columns)
                for col in c.columns:
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
        if name_index.may_collide(changes, schema):
            name_index.check_unique_names(new_schema)
        return self._commit_schema(meta, new_schema, upd.last_column_id, upd.changes_at)

    def _check_repeated(self, columns) -> None:
        """Spark's analyzer: a column list (CREATE TABLE, REPLACE COLUMNS) that names a column twice."""
        self._check_list_repeats([((col.path[-1],), col.span) for col in columns])

    def _check_list_repeats(self, paths: list) -> None:
        """Spark's `checkColumnNameDuplication` over a statement's list of (column path, span): names
        compared as its resolver compares; of several repeated, the first in sorted order is reported,
        in lower case unless the session is case-sensitive (`(b int, a int, B int, a int)`: `a`)."""
        if len(paths) < 2:
            return
        seen: set[str] = set()
        repeated: dict[str, tuple] = {}
        for parts, span in paths:
            key = ".".join(sp.quote_if_needed(p) for p in parts)
            if not self.case_sensitive:
                key = key.lower()
            if key in seen and key not in repeated:
                repeated[key] = (parts, span)
            seen.add(key)
        if repeated:
            key = min(repeated)
            parts, span = repeated[key]
            shown = parts if self.case_sensitive else tuple(p.lower() for p in parts)
            raise ReplayError("duplicate-column", f"{_ALREADY_EXISTS_START}{sp.sql_id(shown)}{_ALREADY_EXISTS_END}", "spark", span=span)

    def _check_adds(self, schema: Schema, changes: list, step: ch.Commit) -> None:
        """Spark's analyzer on ADD COLUMNS, in its order: every parent resolved, then no column that
        exists already (the first such in the list), then no name twice in the list."""
        listed = []
        for c in changes:
            if not isinstance(c, ch.AddColumn):
                continue
            col = c.column
            span = col.span if col.span is not None else step.span
            parent = self._resolve(schema, col.path[:-1], step, span)[0] if len(col.path) > 1 else ()
            listed.append((parent + (col.path[-1],), span))
        for path, span in listed:
            clash = self._sibling_exists(schema, path[:-1], path[-1])
            if clash is not None:
                raise ReplayError(
                    "duplicate-column",
                    f"[FIELDS_ALREADY_EXISTS] Cannot add column, because {sp.sql_id(path)} already exists in {_table_sql(schema)}.",
                    "spark",
                    span=span,
                    field_id=clash.id,
                    column=dotted(path),
                )
        self._check_list_repeats(listed)

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
            if is_untyped(pf.type):  # a field inside a column of unknown type (CTAS): not checkable
                raise Unchecked(dotted(rparent), pf.type.reason)  # type: ignore[attr-defined]
        if not replacing:  # its name is neither the table's nor another new column's (`_check_adds`)
            added_here.setdefault(rparent, []).append(name)
        if col.required:
            raise ReplayError(
                "required-column",
                f"Incompatible change: cannot add required column: {name}",
                "iceberg-wrapped",
                span=span,
                column=dotted(rparent + (name,)),
            )
        if col.default is not None and not accepts_column_defaults(self.iceberg_version):
            e = ReplayError(
                "default-value",
                f"Cannot add column {name} since setting default values in Spark is currently unsupported",
                "iceberg-wrapped",
                span=span,
            )
            e.runtime = self.iceberg_version  # Iceberg 1.9 accepts it, without the default (ICE032)
            raise e
        sp.spark_type(col.type)  # unsupported types fail here, in Spark
        # a struct that names a field twice: not Spark's check here (`struct<x: int, X: int>` is added), but
        # Iceberg's, of exact names (`names.check_unique_names`, "multiple fields for name")
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

    def _update_type(self, upd: SchemaUpdate, path: Path, f: NestedField, new: "ch.SqlType", step: ch.Commit) -> None:  # type: ignore[name-defined]
        target = sp.spark_type(new)
        kind = target[0]
        if kind in ("struct", "map", "array"):
            what = {"struct": "STRUCT_TYPE", "map": "MAP_TYPE", "array": "ARRAY_TYPE"}[kind]
            hint = {"struct": "Update a struct by updating its fields", "map": "Update a map by updating its keys and values",
                    "array": "Update an array by updating its elements"}[kind]  # fmt: skip
            raise ReplayError(
                "type-change",
                f"[CANNOT_UPDATE_FIELD.{what}] Cannot update {quoted(step.table)} field {quoted(dotted(path))} type: {hint}.",
                "spark",
                field_id=f.id,
                column=dotted(path),
            )
        current = sp.from_iceberg(f.type)
        if not is_untyped(f.type) and not sp.can_up_cast(current, target):  # untyped (CTAS): not checkable
            raise ReplayError(
                "type-change",
                f"[NOT_SUPPORTED_CHANGE_COLUMN] ALTER TABLE ALTER/CHANGE COLUMN is not supported for changing "
                f"{quoted(step.table)}'s column `{dotted(path)}` with type \"{sp.sql_name(current)}\" to "
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
                f"Missing field {dotted(ref)} in table {step.table} with schema: {struct_text(schema)}",
                "spark",
                column=dotted(ref),
            )
        upd.move_after(path, path[:-1] + (target.name,))

    def _commit_schema(
        self, meta: TableMetadata, new_schema: Schema, last_column_id: int, changes_at: dict | None = None
    ) -> TableMetadata:
        out, d = commit_schema(meta, new_schema, last_column_id, changes_at)
        if d is not None:
            self._diff = d
        return out


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


def _table_sql(schema: Schema) -> str:
    """The table's schema as Spark's FIELDS_ALREADY_EXISTS quotes it (the whole table, whichever
    struct the column is in), its columns after the first `SHOWN_FIELDS` counted, not listed."""
    return '"' + sp.struct_sql(schema.fields, SHOWN_FIELDS) + '"'


_ALREADY_EXISTS_START = "[COLUMN_ALREADY_EXISTS] The column "
_ALREADY_EXISTS_END = " already exists. Consider to choose another name or rename the existing column."
