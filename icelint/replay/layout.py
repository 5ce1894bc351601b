"""Replaying the table's layout: partition specs, write sort orders and identifier fields."""

from __future__ import annotations

from types import MappingProxyType

from icelint.values import changes as ch
from icelint.model.table import UNSORTED, PartitionSpec, Schema, SortOrder, TableMetadata
from icelint.replay import partitioning as pt
from icelint.replay.errors import ReplayError
from icelint.replay.schema_update import dotted, validate_identifier_field


class LayoutMixin:
    """ADD / DROP / REPLACE PARTITION FIELD, WRITE ORDERED BY, SET / DROP IDENTIFIER FIELDS (a mixin of `Replay`)."""

    def _partition(self, meta: TableMetadata, c, step: ch.Commit) -> TableMetadata:
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
        specs, spec_id = add_spec(meta.specs, new_spec)
        if specs is not meta.specs:  # a new spec (an existing one reused keeps the specs as they are)
            pt.check_spec_compatible(new_spec, schema)
            if meta.format_version == 1:
                _check_sequential(new_spec)
            spec = specs[-1]
        else:
            spec = pt.spec_index(specs).by_id[spec_id]
        return meta.evolve(
            specs=specs,
            default_spec_id=spec_id,
            last_partition_id=max(meta.last_partition_id, max((f.field_id for f in spec.fields), default=0)),
        )

    def _write_order(self, meta: TableMetadata, c: ch.SetWriteOrder, step: ch.Commit) -> TableMetadata:
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
    def _set_identifiers(self, meta: TableMetadata, c: ch.SetIdentifierFields, step: ch.Commit) -> TableMetadata:
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
                validate_identifier_field(schema, fid)  # the same fields: the current version's lookup tables
            except ReplayError as e:
                e.layer = "iceberg"
                raise
        return self._commit_schema(meta, new, meta.last_column_id)

    def _drop_identifiers(self, meta: TableMetadata, c: ch.DropIdentifierFields, step: ch.Commit) -> TableMetadata:
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



def add_spec(specs: tuple[PartitionSpec, ...], new: PartitionSpec) -> tuple[tuple[PartitionSpec, ...], int]:
    """`reuseOrCreateNewSpecId`: the first compatible spec's id, else a new spec of the highest id + 1
    (looked up in the specs' index, `partitioning.SpecIndex`, not by a scan of every spec)."""
    index = pt.spec_index(specs)
    found = index.compatible.get(pt.compatibility_key(new))
    if found is not None:
        return specs, found
    new_id = index.max_id + 1
    return pt.appended_spec(specs, PartitionSpec(new_id, new.fields)), new_id


def _add_sort_order(orders: tuple[SortOrder, ...], new: SortOrder) -> tuple[tuple[SortOrder, ...], int]:
    """`reuseOrCreateNewSortOrderId`: unsorted is id 0; the first order with the same fields, else the
    highest id + 1 (at least 1), looked up in the orders' index (`partitioning.OrderIndex`)."""
    index = pt.order_index(orders)
    if not new.fields:
        if 0 not in index.ids:
            orders = (UNSORTED,) + orders
        return orders, 0
    found = index.by_fields.get(new.fields)
    if found is not None:
        return orders, found
    new_id = index.max_id + 1
    return pt.appended_order(orders, SortOrder(new_id, new.fields)), new_id


def _check_sequential(spec: PartitionSpec) -> None:
    for i, f in enumerate(spec.fields):
        if f.field_id != 1000 + i:
            raise ReplayError("partition", f"Spec does not use sequential IDs that are required in v1: {spec.to_json()}", "iceberg")

