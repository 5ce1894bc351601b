"""The rule registry: every rule module, in code order. Adding a rule = one module + one line here.

A rule is a module of this package (`drop_column.py`), or a module of a family's package when
rules share one analysis (`dropped_names/`: `analysis.py` and one module per rule).
"""

from __future__ import annotations

from icelint.rules import (
    acting_table_property,
    applied_migration_changed,
    char_varchar,
    column_default_dropped,
    column_reorder,
    create_if_not_exists_differs,
    create_or_replace_table,
    dotted_column_name,
    drop_column,
    drop_or_rename_table,
    duplicate_migration_version,
    empty_struct,
    identifier_fields_change,
    illegal_type_change,
    merge_on_read_v1,
    nested_change,
    nullability_change,
    out_of_order_migration,
    parse_error,
    reader_avro_data_files,
    reader_deletion_vectors,
    reader_null_nested_values,
    reader_position_delete_formats,
    rename_column,
    snapshot_procedure,
    unread_sql_argument,
    unreadable_commit_property,
    unresolved_placeholder,
    unused_suppression,
)
from icelint.rules.case_sensitivity import case_only_twin, case_sensitive_session
from icelint.rules.dropped_names import drop_then_add, drop_then_add_empty, rename_into_dropped_name, rename_into_dropped_name_backfilled
from icelint.rules.failures import runtime_failure, unknown_schema
from icelint.rules.partition_sources import old_partition_source_drop, partition_source_change, partition_source_rename, partition_source_widening
from icelint.rules.kit.base import Rule

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
        drop_then_add_empty,
        rename_into_dropped_name,
        column_reorder,
        identifier_fields_change,
        drop_or_rename_table,
        char_varchar,
        dotted_column_name,
        out_of_order_migration,
        applied_migration_changed,
        duplicate_migration_version,
        old_partition_source_drop,
        partition_source_widening,
        partition_source_rename,
        unknown_schema,
        case_only_twin,
        rename_into_dropped_name_backfilled,
        merge_on_read_v1,
        column_default_dropped,
        reader_deletion_vectors,
        reader_avro_data_files,
        reader_position_delete_formats,
        reader_null_nested_values,
        unresolved_placeholder,
        create_if_not_exists_differs,
        unreadable_commit_property,
        unread_sql_argument,
        unused_suppression,
    )
)

BY_CODE = {r.code: r for r in ALL_RULES}
BY_NAME = {r.name: r for r in ALL_RULES}


def get(selector: str) -> Rule | None:
    """A rule by code (`ICE001`, any case) or name (`drop-then-add`)."""
    return BY_CODE.get(selector.upper()) or BY_NAME.get(selector.lower())
