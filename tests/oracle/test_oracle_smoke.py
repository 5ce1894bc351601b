"""Smoke test of the Spark oracle: a real CREATE TABLE + ALTER in Spark + Iceberg."""

from __future__ import annotations

import json

import pytest

from .spark import metadata_path, reset_namespace, spark_available, split_statements, start_session

_AVAILABLE, _REASON = spark_available()

pytestmark = [
    pytest.mark.spark,
    pytest.mark.skipif(not _AVAILABLE, reason=f"Spark oracle unavailable: {_REASON}"),
]

MIGRATION = """
-- smoke: one create, one add
CREATE TABLE db.t (id bigint NOT NULL, name string) USING iceberg;
ALTER TABLE db.t ADD COLUMN point struct<x: double, y: double> COMMENT 'a;b' AFTER id;
"""


def test_create_and_alter_assign_field_ids(tmp_path):
    warehouse = tmp_path / "warehouse"
    spark = start_session(warehouse)
    try:
        reset_namespace(spark, "db")
        statements = split_statements(MIGRATION)
        assert [line for line, _ in statements] == [3, 4]
        for _, statement in statements:
            spark.sql(statement)
        path = metadata_path(warehouse, "db.t")
        assert path.name == "v2.metadata.json"
        metadata = json.loads(path.read_text())
    finally:
        spark.stop()

    schema = next(s for s in metadata["schemas"] if s["schema-id"] == metadata["current-schema-id"])
    fields = schema["fields"]
    assert [f["name"] for f in fields] == ["id", "point", "name"]
    point = fields[1]
    assert point["id"] == 3
    assert point["doc"] == "a;b"
    assert [(f["id"], f["name"]) for f in point["type"]["fields"]] == [(4, "x"), (5, "y")]
    assert metadata["last-column-id"] == 5
