"""Committing a new schema to a table, as `TableMetadata` does: schema ids reused or assigned, the
default spec and sort order still bound, column-scoped properties following renames and drops.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Iterable

from icelint.model.diff import ROOT, SchemaDiff
from icelint.model.diff import diff as schema_diff
from icelint.model.storage.chain import Chain
from icelint.model.table import PartitionSpec, Schema, SortOrder, TableMetadata, index_schema
from icelint.model.types import V3_ONLY, NestedField, PrimitiveType
from icelint.model.storage.versions import adopt
from icelint.replay import partitioning as pt
from icelint.replay.common import Path
from icelint.replay.errors import ReplayError


def commit_schema(
    meta: TableMetadata, new_schema: Schema, last_column_id: int, changes_at: dict | None = None
) -> tuple[TableMetadata, SchemaDiff | None]:
    """A new current schema for `meta` (`TableMetadata.Builder.setCurrentSchema`); with what changed (None: nothing)."""
    current = meta.schema
    if (
        not _top_level_changed(changes_at)
        and new_schema.fields == current.fields
        and set(new_schema.identifier_field_ids) == set(current.identifier_field_ids)
    ):
        return meta, None  # nothing changed (fields are shared objects: this compares by identity first)
    d = schema_diff(current, new_schema, changes_at)
    added, removed, replaced = d.added, d.removed, d.replaced_top
    carried = new_schema.__dict__  # the derived values of `current`, moved on by the diff (as computed from scratch)
    carried["_retired"] = None  # set when the version is kept as its difference from the next (`model/versions.py`)
    carried["field_count"] = current.field_count + len(added) - len(removed)
    id_xor = current.id_xor
    for _, f in added:
        id_xor ^= f.id
    for _, f in removed:
        id_xor ^= f.id
    carried["id_xor"] = id_xor
    top_hash, dotted, nested = current.top_hash, current.dotted_top, current.nested_top
    if replaced or added or removed:
        top_added = [f for p, f in added if len(p) == 1]
        top_removed = [f for p, f in removed if len(p) == 1]
        for f, prev in replaced:
            top_hash += hash(f) - hash(prev)
            dotted += ("." in f.name) - ("." in prev.name)
        for f in top_added:
            top_hash += hash(f)
            dotted += "." in f.name
        for f in top_removed:
            top_hash -= hash(f)
            dotted -= "." in f.name
        # only struct, list and map columns are in `nested_top`: a primitive one gone or new leaves it as it is
        gone = {id(prev) for _, prev in replaced if not prev.type.is_primitive}
        for f in top_removed:  # a loop: mostly one column, or none
            if not f.type.is_primitive:
                gone.add(id(f))
        fresh = [f for f, _ in replaced if not f.type.is_primitive]
        fresh += [f for f in top_added if not f.type.is_primitive]
        if not gone:
            if fresh:
                nested = (*nested, *fresh)
        elif len(gone) == 1 and len(nested) > 8:  # one nested column replaced or dropped: cut it out at C speed
            (g,) = gone
            n = len(nested)
            # a column changed again is mostly one changed (or added) lately: those are last
            i = next((k for k in range(n - 1, n - 9, -1) if id(nested[k]) == g), -1)
            if i < 0:
                ids = list(map(id, nested))
                i = ids.index(g) if g in ids else -1
            nested = (*nested[:i], *nested[i + 1 :], *fresh) if i >= 0 else (*nested, *fresh)
        elif gone or fresh:
            nested = (*(f for f in nested if id(f) not in gone), *fresh)
    carried["top_hash"] = top_hash
    carried["dotted_top"] = dotted
    carried["nested_top"] = nested
    if meta.format_version < 3 and (added or d.changed) and _any_v3_type(added, d.changed):
        check_format_types(meta.format_version, (*d.added, *((p, new) for p, new, _ in d.changed)))
    schemas, schema = add_schema(meta.schemas, new_schema, meta.current_schema_id, meta.schemas_like(new_schema), own=True)
    schema_id = schema.schema_id
    if schema is not new_schema and isinstance(schema, Schema):
        adopt(schema, new_schema)  # an older version reused: it moves on from here as `new_schema` would have
    if schema.__dict__.get("fields") is new_schema.fields:  # `new_schema` itself, added, or an older version adopting it
        schema.carry_indexes(current, d)
        schema.__dict__["field_count"] = new_schema.field_count
    renamed = d.renamed
    if (d.added or renamed) and _any_partition_field(meta.specs):  # only a new name can collide with a partition field's
        new_names = {".".join(p) for p, _ in d.added} | {".".join(p) for p, _, _ in renamed}
        if not new_names.isdisjoint(meta.partition_names):
            for spec in meta.specs:
                pt.check_spec_names(spec, schema, new_names)
    _check_binding(meta.spec, meta.sort_order, current, schema, d)
    index = meta.schema_index  # shared along the chain of states (see `schemas_like`)
    if schemas is not meta.schemas:
        index_schema(index, schema)
    # `meta.evolve(schemas=..., current_schema_id=..., last_column_id=..., properties=...)` with the
    # derived values it would drop (`schema`, `schema_index`) set again: a copy of the state
    out = object.__new__(TableMetadata)
    state = out.__dict__
    state.update(meta.__dict__)
    state["schemas"] = schemas
    state["current_schema_id"] = schema_id
    state["last_column_id"] = max(meta.last_column_id, last_column_id)
    if d.removed or renamed:
        state["properties"] = _column_properties(meta, current, schema)
    state["schema_index"] = index
    state["schema"] = schema
    return out, d


def _top_level_changed(changes_at: dict | None) -> bool:
    """Whether the update's record (`SchemaUpdate.changes_at`) shows a column added, removed or changed
    in value: the new columns cannot then equal the old ones, in whatever order (most statements: the
    comparison of the two versions' columns is skipped). False: not known (moves, nested changes)."""
    top = changes_at.get(ROOT) if changes_at else None
    if top:
        for old, new in top.values():
            if old is None or new is None or old != new:
                return True
    return False


def _any_partition_field(specs) -> bool:
    """Whether any spec has a field (`bool(meta.partition_names)`, without making that set)."""
    for spec in specs:
        if spec.fields:
            return True
    return False


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
        # a tuple, not a set: kept per spec and order (thousands in a long replay: ~1.2 KB as a set of
        # 40 ids, 360 B as a tuple) and asked only about the few fields a statement removed or retyped
        sources = tuple({f.source_id: None for f in (*spec.fields, *order.fields)})
    pt.check_spec_compatible(spec, new)
    pt.check_sort_compatible(order, new)
    new.__dict__["_binds"] = (spec, order, sources)


def _sources_touched(sources: tuple[int, ...], d: SchemaDiff) -> bool:
    if not sources:
        return False
    for _, f in d.removed:  # loops, not generators: both lists are mostly empty
        if f.id in sources:
            return True
    for _, new, old in d.changed:
        if new.id in sources and new.type != old.type:
            return True
    return False


def check_format_types(version: int, fields: Iterable[tuple[Path, NestedField]]) -> None:
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


def _any_v3_type(added: list, changed: list) -> bool:
    """Would `check_format_types` find a problem among the added fields and the changed ones' new types?"""
    for _, f in added:
        t = f.type
        if isinstance(t, PrimitiveType) and _v3_name(t.name):
            return True
    for _, f, _ in changed:
        t = f.type
        if isinstance(t, PrimitiveType) and _v3_name(t.name):
            return True
    return False


def _v3_name(name: str) -> bool:
    """`name.split("(")[0] in V3_ONLY`, without the split for names with no parameters."""
    return name in V3_ONLY or ("(" in name and name.split("(")[0] in V3_ONLY)


def add_schema(
    schemas: tuple[Schema, ...], new: Schema, current_id: int, candidates: list[Schema] | None = None, own: bool = False
) -> tuple[tuple[Schema, ...], Schema]:
    """`reuseOrCreateNewSchemaId`: an identical schema is reused, else max(id) + 1.

    `candidates` (`TableMetadata.schemas_like`) narrows the search to the schemas of the same identity.
    `own`: `new` is the caller's to change (made for this commit, held by nothing else): when added,
    it takes the new schema id itself instead of being copied.
    """
    new_id = current_id
    for s in candidates if candidates is not None else schemas:
        if s.same_as(new):
            return schemas, s
    # schemas are kept in id order (metadata is read sorted by id), so the last holds the highest id
    new_id = max(new_id, schemas[-1].schema_id + 1 if schemas else 0)
    if own:
        added = new
        new.__dict__["schema_id"] = new_id  # a frozen dataclass: its fields live in the instance dict
    else:
        added = Schema(new_id, new.fields, new.identifier_field_ids)
        for carried in ("_identity", "field_count", "id_xor", "top_hash", "dotted_top", "nested_top"):  # computed for `new` already: the same for its copy
            if carried in new.__dict__:
                added.__dict__[carried] = new.__dict__[carried]
    # a Chain shares its storage with the previous state's: N versions cost N slots, not N²/2
    return (schemas if isinstance(schemas, Chain) else Chain(schemas)).append(added), added


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
