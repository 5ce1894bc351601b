"""`icelint.spark.table_state(spark, table)` against real Spark 3.5 + Iceberg 1.10 (the oracle's session)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import icelint
from icelint.model.metadata import parse_metadata_bytes
from icelint.values.source import InputError
from tests.oracle.spark import namespace_session

NS = "icelint_src"

pytestmark = [pytest.mark.spark]


@pytest.fixture(scope="module")
def spark_env(tmp_path_factory):
    with namespace_session(tmp_path_factory, NS, "spark-sources") as (spark, warehouse):
        spark.sql(f"CREATE TABLE {NS}.events (id bigint NOT NULL, payload string, ts timestamp) USING iceberg "
                  "PARTITIONED BY (days(ts))")  # fmt: skip
        spark.sql(f"INSERT INTO {NS}.events VALUES (1, 'a', TIMESTAMP '2024-01-01 00:00:00')")
        spark.sql(f"ALTER TABLE {NS}.events ADD COLUMN country string")
        spark.sql(f"CREATE TABLE {NS}.legacy (id bigint) USING iceberg TBLPROPERTIES ('format-version'='1')")
        spark.sql(f"CREATE TABLE {NS}.readings (id bigint) USING iceberg TBLPROPERTIES ('format-version'='3')")
        spark.sql(f"CREATE TABLE {NS}.zipped (id bigint) USING iceberg TBLPROPERTIES ('write.metadata.compression-codec'='gzip')")
        yield spark, warehouse


def _on_disk(warehouse: Path, table: str):
    meta = warehouse.joinpath(*table.split(".")) / "metadata"
    version = (meta / "version-hint.text").read_text().strip()
    path = next(p for p in meta.iterdir() if p.name.startswith(f"v{version}.") and ".metadata.json" in p.name)
    return path, parse_metadata_bytes(path.read_bytes(), str(path))


def test_table_state_is_the_current_metadata_file(spark_env):
    from icelint.spark import current_metadata_file, table_state

    spark, warehouse = spark_env
    location = current_metadata_file(spark, f"{NS}.events")
    path, expected = _on_disk(warehouse, f"{NS}.events")
    assert location.replace("file:", "").endswith(str(path))
    state = table_state(spark, f"{NS}.events")
    assert state == expected
    assert [f.name for f in state.schema.fields] == ["id", "payload", "ts", "country"]
    assert state.has_data


def test_follows_new_commits_and_catalog_qualified_names(spark_env):
    from icelint.spark import table_state

    spark, _ = spark_env
    spark.sql(f"ALTER TABLE {NS}.events ADD COLUMN later int")
    try:
        assert [f.name for f in table_state(spark, f"local.{NS}.events").schema.fields][-1] == "later"
    finally:
        spark.sql(f"ALTER TABLE {NS}.events DROP COLUMN later")
    assert [f.name for f in table_state(spark, f"{NS}.events").schema.fields][-1] == "country"


def test_format_versions_and_gzip(spark_env):
    from icelint.spark import load_state, table_state

    spark, warehouse = spark_env
    assert table_state(spark, f"{NS}.legacy").format_version == 1
    assert table_state(spark, f"{NS}.readings").format_version == 3
    zipped = load_state(spark, f"{NS}.zipped")
    assert zipped.origin.endswith(".gz.metadata.json")
    assert json.loads(zipped.data)["format-version"] == 2  # stored decompressed
    assert zipped.metadata == _on_disk(warehouse, f"{NS}.zipped")[1]


def test_reading_through_spark_itself(spark_env):
    """The path used for remote locations: Spark's binaryFile source, with the session's credentials."""
    from icelint.spark import _read_with_spark, current_metadata_file

    spark, warehouse = spark_env
    location = current_metadata_file(spark, f"{NS}.events")
    assert _read_with_spark(spark, location) == _on_disk(warehouse, f"{NS}.events")[0].read_bytes()


def test_missing_table_and_non_iceberg_names(spark_env):
    from icelint.spark import table_state, table_states

    spark, _ = spark_env
    with pytest.raises(InputError, match=rf"{NS}.nothere: no such table"):
        table_state(spark, f"{NS}.nothere")
    assert set(table_states(spark, [f"{NS}.events", f"{NS}.nothere"], missing_ok=True)) == {f"{NS}.events"}


def test_lint_from_a_job(spark_env):
    from icelint.spark import table_state

    spark, _ = spark_env
    sql = f"ALTER TABLE {NS}.events DROP COLUMN payload"
    findings = icelint.lint(sql, state={f"{NS}.events": table_state(spark, f"{NS}.events")})
    assert [f.rule for f in findings] == ["ICE011"]  # the table has data
    assert [f.rule for f in icelint.lint(sql, spark=spark)] == ["ICE011"]  # state asked from the session
    created = icelint.lint(f"CREATE TABLE {NS}.brand_new (id bigint) USING iceberg; ALTER TABLE {NS}.brand_new ADD COLUMN c int", spark=spark)
    assert created == []  # a table the SQL creates needs no state
