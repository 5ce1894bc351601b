"""`icelint.spark.guard` inside a real Spark 3.5.9 + Iceberg 1.10.2 job: the migration that drops and
re-adds a column is stopped before it runs (whole) or at the re-add (statement by statement), a safe
job runs, and a query through the guard costs nothing Spark would notice."""

from __future__ import annotations

import logging
import time

import pytest

import icelint
from icelint.spark.guarding import Guard, _Dispatch
from tests.oracle.spark import load_metadata, metadata_path, namespace_session

NS = "icelint_guard"

pytestmark = [pytest.mark.spark]


@pytest.fixture(scope="module")
def spark_env(tmp_path_factory):
    with namespace_session(tmp_path_factory, NS, "spark-guard") as (spark, warehouse):
        yield spark, warehouse


def _events(spark, name: str) -> str:
    """A fresh `NS.name (id bigint, payload string)` holding two rows."""
    table = f"{NS}.{name}"
    spark.sql(f"DROP TABLE IF EXISTS {table} PURGE")
    spark.sql(f"CREATE TABLE {table} (id bigint, payload string) USING iceberg")
    spark.sql(f"INSERT INTO {table} VALUES (1, 'a'), (2, 'b')")
    return table


def _field_id(meta: dict, name: str) -> int | None:
    schema = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    return next((f["id"] for f in schema["fields"] if f["name"] == name), None)


def _rows(spark, table: str) -> list[tuple]:
    return [tuple(r) for r in spark.sql(f"SELECT * FROM {table} ORDER BY id").collect()]


def _readd(table: str) -> str:
    return f"ALTER TABLE {table} DROP COLUMN payload;\nALTER TABLE {table} ADD COLUMN payload binary;\n"


def test_whole_migration_is_stopped_before_its_first_statement(spark_env, tmp_path):
    spark, warehouse = spark_env
    table = _events(spark, "whole")
    migration = tmp_path / "V2__payload_as_binary.sql"
    migration.write_text(_readd(table))
    before_file, before = metadata_path(warehouse, table), load_metadata(warehouse, table)
    payload_id = _field_id(before, "payload")

    with pytest.raises(icelint.MigrationError) as raised:
        icelint.spark.guard(spark).run(migration)

    assert metadata_path(warehouse, table) == before_file and load_metadata(warehouse, table) == before
    assert _rows(spark, table) == [(1, "a"), (2, "b")]
    e = raised.value
    assert e.statement is None and [f.rule for f in e.blocking] == ["ICE001"]
    readd = e.blocking[0]
    assert f"field id {payload_id}" in readd.message and readd.path == str(migration) and readd.line == 2
    assert "ICE011" in [f.rule for f in e.findings]  # the drop's warning comes with it
    # the data at stake, counted from the manifests of the live table's current snapshot
    assert readd.impact is not None and readd.impact.non_null_values == 2 and readd.impact.records == 2
    report = str(e)
    assert "stopped the migration before Spark ran it" in report and "help: " in report
    assert "data at stake: 2 non-null values in 1 data file (snapshot " in report

    with pytest.raises(icelint.MigrationError):  # the same as SQL text, checked without running
        icelint.spark.guard(spark).check(_readd(table))
    assert load_metadata(warehouse, table) == before


def test_statement_by_statement_it_stops_at_the_readd(spark_env, caplog):
    spark, warehouse = spark_env
    table = _events(spark, "stepwise")
    payload_id = _field_id(load_metadata(warehouse, table), "payload")
    caplog.set_level(logging.WARNING, logger="icelint")

    with pytest.raises(icelint.MigrationError) as raised, icelint.spark.guard(spark):
        assert spark.sql(f"SELECT count(*) FROM {table}").collect()[0][0] == 2
        spark.sql(f"ALTER TABLE {table} DROP COLUMN payload")
        after_drop = load_metadata(warehouse, table)
        spark.sql(f"ALTER TABLE {table} ADD COLUMN payload binary")

    assert "sql" not in vars(spark)  # spark.sql restored, also on the exception
    after = load_metadata(warehouse, table)
    assert after == after_drop and _field_id(after, "payload") is None  # the drop ran, the re-add did not
    assert _rows(spark, table) == [(1,), (2,)]
    e = raised.value
    assert e.statement == f"ALTER TABLE {table} ADD COLUMN payload binary"
    assert [f.rule for f in e.blocking] == ["ICE001"]
    assert f"field id {payload_id}" in e.blocking[0].message and "test_guard_spark.py" in e.blocking[0].path
    # the drop's warning was logged, not raised
    assert [r.levelno for r in caplog.records if "ICE011" in r.getMessage()] == [logging.WARNING]


def test_fail_on_warning_stops_the_drop(spark_env):
    spark, warehouse = spark_env
    table = _events(spark, "strict")
    before = load_metadata(warehouse, table)
    with pytest.raises(icelint.MigrationError) as raised, icelint.spark.guard(spark, fail_on="warning"):
        spark.sql(f"ALTER TABLE {table} DROP COLUMN payload")
    assert [f.rule for f in raised.value.blocking] == ["ICE011"]
    assert load_metadata(warehouse, table) == before


def test_a_safe_job_runs_with_the_guard(spark_env, tmp_path, caplog):
    spark, warehouse = spark_env
    table = _events(spark, "safe")
    migration = tmp_path / "V2__payload_bin.sql"
    migration.write_text(f"ALTER TABLE {table} ADD COLUMN payload_bin binary;\n"
                         f"ALTER TABLE {table} ADD COLUMN country string COMMENT 'ISO code';\n")
    caplog.set_level(logging.INFO, logger="icelint")
    frames = icelint.spark.guard(spark).run(migration)
    assert len(frames) == 2
    with icelint.spark.guard(spark) as guard:
        spark.sql(f"UPDATE {table} SET payload_bin = CAST(payload AS binary), country = 'NL'")
        spark.sql(f"ALTER TABLE {table} RENAME COLUMN payload TO payload_old")
        spark.sql(f"ALTER TABLE {table} RENAME COLUMN payload_bin TO payload")
        assert spark.sql(f"SELECT count(*) FROM {table} WHERE country = 'NL'").collect()[0][0] == 2
    assert len(guard.history) == 3  # the UPDATE (a write) and the two renames; the SELECT passed through
    meta = load_metadata(warehouse, table)
    assert [f["name"] for f in next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])["fields"]] \
        == ["id", "payload_old", "payload", "country"]
    assert _rows(spark, table) == [(1, "a", b"a", "NL"), (2, "b", b"b", "NL")]
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert "sql" not in vars(spark)


def test_queries_through_the_guard_cost_nothing_spark_would_notice(spark_env):
    """The wrapper alone (Spark's work replaced by a no-op) against Spark's own `spark.sql("SELECT 1")`."""
    spark, _ = spark_env
    n = 10_000
    spark_calls = 200
    start = time.perf_counter()
    for _ in range(spark_calls):
        spark.sql("SELECT 1")
    spark_each = (time.perf_counter() - start) / spark_calls

    def noop(q, args=None, **kw):
        return q

    dispatch = _Dispatch(noop, None)
    token = dispatch.active.set((Guard(spark, lambda s, t: None),))
    try:
        wrapped = min(_timed(dispatch.sql, n) for _ in range(5))
    finally:
        dispatch.active.reset(token)
    bare = min(_timed(noop, n) for _ in range(5))
    overhead = (wrapped - bare) / n
    print(f"\nguard overhead per query: {overhead * 1e6:.2f} µs; Spark's own spark.sql('SELECT 1'): {spark_each * 1e6:.0f} µs")
    assert overhead < 0.01 * spark_each  # under 1 % of what Spark itself takes
    assert overhead < 20e-6


def _timed(fn, n: int) -> float:
    start = time.perf_counter()
    for _ in range(n):
        fn("SELECT 1")
    return time.perf_counter() - start
