"""Column types as a statement writes them and as a table holds them, in Spark's SQL names
(`BIGINT`, `DECIMAL(10,2)`, `ARRAY<INT>`): what a rule compares when it sets a statement's columns
against an existing table's fields."""

from __future__ import annotations

from typing import Iterable

from icelint.model.types import NestedField, Type
from icelint.replay import spark_types as sp
from icelint.replay.errors import ReplayError


def written_sql(t) -> str | None:
    """Spark's name of a type as a statement writes it (`ColumnSpec.type`); None when Spark knows no such type."""
    try:
        return sp.sql_name(sp.spark_type(t))
    except ReplayError:
        return None


def held_sql(t: Type) -> str:
    """Spark's name of an Iceberg field's type (`<type>` for a type icelint cannot know)."""
    return sp.sql_name(sp.from_iceberg(t))


def as_fields(columns: Iterable) -> tuple[NestedField, ...] | None:
    """Written columns (`ColumnSpec`s) as the Iceberg fields Spark makes of them, ids numbered from 1;
    None when a type is not one Spark knows."""
    counter = [0]

    def next_id() -> int:
        counter[0] += 1
        return counter[0]

    try:
        return tuple(NestedField(next_id(), col.path[-1], sp.to_iceberg(col.type, next_id), col.required, col.doc) for col in columns)
    except ReplayError:
        return None
