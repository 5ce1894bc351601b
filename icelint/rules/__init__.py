"""The rule registry: every rule module, in code order. Adding a rule = one module + one line here."""

from __future__ import annotations

from icelint.rules import (
    acting_table_property,
    case_sensitive_session,
    create_or_replace_table,
    drop_column,
    drop_then_add,
    empty_struct,
    illegal_type_change,
    nested_change,
    nullability_change,
    parse_error,
    partition_source_change,
    reader_avro_data_files,
    reader_deletion_vectors,
    reader_null_nested_values,
    reader_position_delete_formats,
    rename_column,
    runtime_failure,
    snapshot_procedure,
    unused_suppression,
)
from icelint.rules._base import Rule

ALL_RULES: tuple[Rule, ...] = tuple(
    m.RULE
    for m in (
        drop_then_add,
        illegal_type_change,
        partition_source_change,
        nullability_change,
        runtime_failure,
        parse_error,
        empty_struct,
        case_sensitive_session,
        create_or_replace_table,
        snapshot_procedure,
        drop_column,
        rename_column,
        acting_table_property,
        nested_change,
        reader_deletion_vectors,
        reader_avro_data_files,
        reader_position_delete_formats,
        reader_null_nested_values,
        unused_suppression,
    )
)

BY_CODE = {r.code: r for r in ALL_RULES}
BY_NAME = {r.name: r for r in ALL_RULES}


def get(selector: str) -> Rule | None:
    """A rule by code (`ICE001`, any case) or name (`drop-then-add`)."""
    return BY_CODE.get(selector.upper()) or BY_NAME.get(selector.lower())
