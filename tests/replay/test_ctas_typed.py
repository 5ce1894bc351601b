"""CTAS / RTAS schemas icelint derives as Spark does (differential case 704 checks them against the
metadata.json Spark 3.5.9 + Iceberg 1.10.2 writes): `SELECT *` over known tables, numeric and binary
literals, and the illegal type changes on such columns that are then errors."""

from __future__ import annotations

import pytest

from icelint.engine.checker import lint_run
from icelint.model.types import is_untyped
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES
from icelint.values.source import SourceFile

SRC = (
    "CREATE TABLE db.src (id bigint NOT NULL, name string, attrs struct<source: string, score: int>, "
    "tags array<string>, props map<string, struct<v: int, w: string>>) USING iceberg;\n"
)


def _run(sql: str):
    r = replay(parse_sources([SourceFile("m.sql", sql)]), None)
    return r, lint_run(r, ALL_RULES)


def test_select_star_over_a_known_table_is_its_schema_with_fresh_ids() -> None:
    r, _ = _run(SRC + "CREATE TABLE db.copy USING iceberg PARTITIONED BY (bucket(8, id)) AS SELECT * FROM db.src;\n")
    assert "db.copy" not in r.result.unknown
    meta = r.result.tables["db.copy"]
    top = [(f.id, f.name, f.required) for f in meta.schema.fields]
    assert top == [(1, "id", False), (2, "name", False), (3, "attrs", False), (4, "tags", False), (5, "props", False)]
    ids = sorted(f.id for _, f in meta.schema.all_fields())
    assert ids == list(range(1, 13)) and meta.last_column_id == 12  # nested fields after the columns
    assert [(f.source_id, f.transform) for f in meta.spec.fields] == [(1, "bucket[8]")]


def test_star_with_other_projections_and_a_qualified_star() -> None:
    r, _ = _run(SRC + "CREATE TABLE db.c2 USING iceberg AS SELECT 1 AS one, s.* FROM db.src s;\n")
    assert [f.name for f in r.result.tables["db.c2"].schema.fields] == ["one", "id", "name", "attrs", "tags", "props"]


@pytest.mark.parametrize(
    ("literal", "iceberg"),
    [("10000000000", "long"), ("-2147483648", "int"), ("2147483648", "long"), ("1.5", "decimal(2, 1)"),
     ("0.05", "decimal(2, 2)"), ("100.0", "decimal(4, 1)"), ("1e3", "double"), ("X'01'", "binary"),
     ("12345678901234567890", "decimal(20, 0)")],
)  # fmt: skip
def test_literal_types(literal: str, iceberg: str) -> None:
    r, _ = _run(f"CREATE TABLE db.l USING iceberg AS SELECT {literal} AS v;\n")
    (f,) = r.result.tables["db.l"].schema.fields
    assert not is_untyped(f.type) and f.type.to_json() == iceberg


def test_illegal_type_change_on_a_ctas_column_is_an_error() -> None:
    sql = SRC + (
        "CREATE TABLE db.copy USING iceberg AS SELECT * FROM db.src;\n"
        "CREATE TABLE db.lits USING iceberg AS SELECT 10000000000 AS big, 1.5 AS dec;\n"
        "ALTER TABLE db.copy ALTER COLUMN name TYPE int;\n"
        "ALTER TABLE db.lits ALTER COLUMN big TYPE int;\n"
        "ALTER TABLE db.lits ALTER COLUMN dec TYPE decimal(10, 1);\n"
    )
    _, findings = _run(sql)
    errors = sorted((f.line, f.rule) for f in findings if f.severity.value == "error")
    assert errors == [(4, "ICE002"), (5, "ICE002")]
