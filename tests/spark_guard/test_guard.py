"""`icelint.spark.guarding` without Spark: what the `spark.sql` stand-in checks, records and lets through,
how it is put back, the configuration, `fail_on` and the logger. The table state is the one real
Spark left in fixtures/replay/36_realistic_events_repartition (db.events, `payload` field id 5, rows)."""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path

import pytest

import icelint
from icelint.values.source import InputError
from icelint.sources import read_metadata_state
from icelint.spark.guarding import Guard, _Dispatch, first_keyword

META = Path(__file__).parents[2] / "fixtures/replay/36_realistic_events_repartition/expected/db.events.metadata.json"
DROP = "ALTER TABLE db.events DROP COLUMN payload"
READD = "ALTER TABLE db.events ADD COLUMN payload binary"


def load_state(spark, table):
    if table == "db.events":
        return read_metadata_state(str(META), "spark")
    raise InputError(f"{table}: no such table in the Spark session's catalog ([TABLE_OR_VIEW_NOT_FOUND])")


class Session:
    """Stands in for a SparkSession: `sql` records what it was asked to run."""

    def __init__(self) -> None:
        self.ran: list[str] = []

    def sql(self, sqlQuery, args=None, **kwargs):
        self.ran.append(sqlQuery)
        return sqlQuery


def guard(spark, **kw) -> Guard:
    kw.setdefault("config", Path(__file__).parent)  # no [tool.icelint] of the developer's checkout
    return Guard(spark, load_state, **kw)


@pytest.mark.parametrize("sql, word", [
    ("SELECT 1", "SELECT"), ("  alter table t", "ALTER"), ("-- c\n/* x; */ (\n Select 1)", "SELECT"),
    ("/* a */create table t", "CREATE"), ("insert into t values (1)", "INSERT"), ("", ""), ("-- only", ""),
    ("WITH x AS (SELECT 1) SELECT * FROM x", "WITH"), (None, ""),
])
def test_first_keyword(sql, word):
    assert first_keyword(sql) == word


def test_whole_migration_raises_before_anything_runs():
    spark = Session()
    with pytest.raises(icelint.MigrationError) as raised:
        guard(spark).run(f"{DROP};\n{READD};")
    assert spark.ran == []
    e = raised.value
    assert [f.rule for f in e.blocking] == ["ICE001"] and "field id 5" in e.blocking[0].message
    assert sorted(f.rule for f in e.findings) == ["ICE001", "ICE011"]
    text = str(e)
    assert text.startswith("icelint stopped the migration before Spark ran it: 1 error (fail-on: error)")
    assert "<migration>:2:34: ICE001 [error] drop-then-add:" in text and "\n    help: " in text
    assert "also (1 below fail-on):" in text


def test_a_clean_migration_runs_each_statement_as_spark_runs_it(tmp_path):
    spark = Session()
    folder = tmp_path / "migrations"
    folder.mkdir()
    (folder / "V2__country.sql").write_text("-- the country\nALTER TABLE ${db}.events ADD COLUMN country string;\n")
    (folder / "V10__city.sql").write_text("ALTER TABLE db.events ADD COLUMN city string; -- later\n")
    g = guard(spark, variables={"db": "db"})
    assert g.run(folder) == spark.ran == [
        "ALTER TABLE db.events ADD COLUMN country string", "ALTER TABLE db.events ADD COLUMN city string"]


def test_context_manager_stops_the_readd_after_the_drop_ran(caplog):
    spark = Session()
    caplog.set_level(logging.INFO, logger="icelint")
    with pytest.raises(icelint.MigrationError) as raised, guard(spark):
        spark.sql("SELECT * FROM db.events")
        spark.sql(DROP)
        spark.sql(READD)
    assert spark.ran == ["SELECT * FROM db.events", DROP]
    assert "sql" not in vars(spark)
    e = raised.value
    assert e.statement == READD and [f.rule for f in e.blocking] == ["ICE001"]
    f = e.blocking[0]
    assert f.path.startswith("<spark.sql #2 at ") and "test_guard.py:" in f.path
    assert "field id 5" in f.message and "dropped at <spark.sql #1 at " in f.message
    assert str(e).startswith("icelint stopped this statement before Spark ran it: 1 error")
    warned = [r for r in caplog.records if r.name == "icelint"]
    assert [(r.levelno, "ICE011" in r.getMessage()) for r in warned] == [(logging.WARNING, True)]


def test_writes_use_and_set_are_history_queries_are_not():
    spark = Session()
    with guard(spark) as g:
        spark.sql("SHOW TABLES")
        spark.sql("WITH x AS (SELECT 1) SELECT * FROM x")
        spark.sql("INSERT INTO db.events (event_id) VALUES (1)")
        spark.sql("use db")
        spark.sql("SET spark.sql.caseSensitive=true")
    assert g.history == ["INSERT INTO db.events (event_id) VALUES (1)", "use db", "SET spark.sql.caseSensitive=true"]
    assert len(spark.ran) == 5


@pytest.mark.parametrize("sql, kept", [
    ("insert into db.events (event_id) values (1)", True), ("\n  -- load\n/* x */ INSERT INTO db.events (event_id) VALUES (1)", True),
    ("Use db", True), ("use`db`", True), ("SET\tspark.sql.caseSensitive=false", True), ("(SELECT 1)", False),
    ("DESCRIBE db.events", False), ("SETTINGS", False), ("USES", False), ("select 1", False), ("  SELECT 1", False),
])
def test_what_the_stand_in_keeps_as_history(sql, kept):
    spark = Session()
    with guard(spark) as g:
        spark.sql(sql)
    assert g.history == ([sql] if kept else []) and spark.ran == [sql]


def test_a_statement_spark_rejects_is_not_history():
    class Failing(Session):
        def sql(self, sqlQuery, args=None, **kwargs):
            raise RuntimeError("AnalysisException")

    spark = Failing()
    with guard(spark) as g, pytest.raises(RuntimeError):
        spark.sql(DROP)
    assert g.history == []


def test_unknown_table_is_an_error_naming_the_session_catalog():
    spark = Session()
    with pytest.raises(icelint.MigrationError) as raised, guard(spark):
        spark.sql("ALTER TABLE db.nope ADD COLUMN c int")
    assert "does not exist in the Spark session's catalog" in raised.value.blocking[0].message
    assert spark.ran == []


def test_fail_on_and_the_logger(caplog):
    spark = Session()
    caplog.set_level(logging.INFO)
    with pytest.raises(icelint.MigrationError) as raised, guard(spark, fail_on="warning"):
        spark.sql(DROP)
    assert [f.rule for f in raised.value.blocking] == ["ICE011"] and spark.ran == []
    with guard(spark, logger="myjob.migrations"):
        spark.sql(DROP)
    assert [r.name for r in caplog.records if "ICE011" in r.getMessage()] == ["myjob.migrations"]
    with pytest.raises(InputError, match="fail_on='fatal'"):
        guard(spark, fail_on="fatal")


def test_configuration_applies(tmp_path):
    (tmp_path / "pyproject.toml").write_text(
        '[tool.icelint]\nignore = ["ICE001"]\nfail-on = "warning"\n[tool.icelint.severity]\nICE011 = "info"\n')
    spark = Session()
    found = guard(spark, config=tmp_path).check(f"{DROP};\n{READD};")  # ICE001 ignored, ICE011 an info
    assert [(f.rule, f.severity.value) for f in found] == [("ICE011", "info")]
    (tmp_path / "pyproject.toml").write_text('[tool.icelint.severity]\nICE011 = "error"\n')
    with pytest.raises(icelint.MigrationError) as raised:
        guard(spark, config=tmp_path / "pyproject.toml").check(DROP)
    assert [(f.rule, f.severity.value) for f in raised.value.blocking] == [("ICE011", "error")]
    found = guard(spark, config=tmp_path, select=["ICE001"]).check(DROP)  # keyword arguments win, as flags do
    assert found == []


def test_restored_on_exit_nested_and_around_another_wrapper():
    spark = Session()
    theirs = spark.sql  # a bound method someone set on the instance (another library's wrapper)
    spark.sql = theirs
    with guard(spark, fail_on="warning") as outer:
        with guard(spark) as inner:
            spark.sql("ALTER TABLE db.events ADD COLUMN c1 int")
        assert spark.sql.icelint_dispatch.users == 1  # the inner one left, the outer one still checks
        with pytest.raises(icelint.MigrationError):
            spark.sql(DROP)  # a warning: the outer guard stops it
    assert vars(spark)["sql"] is theirs
    assert outer.history == ["ALTER TABLE db.events ADD COLUMN c1 int"] == inner.history
    assert spark.ran == ["ALTER TABLE db.events ADD COLUMN c1 int"]


def test_threads_see_only_their_own_guards():
    spark = Session()
    entered, done = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def guarded_thread():
        try:
            with guard(spark, fail_on="warning"):
                entered.set()
                done.wait(10)
                with pytest.raises(icelint.MigrationError):
                    spark.sql(DROP)
        except BaseException as e:  # noqa: BLE001
            errors.append(e)

    t = threading.Thread(target=guarded_thread)
    t.start()
    assert entered.wait(10)
    spark.sql(DROP)  # this thread has no guard: Spark runs it
    with guard(spark) as mine:  # a second guard, here, while the other thread's is active
        spark.sql("ALTER TABLE db.events ADD COLUMN c2 int")
    done.set()
    t.join(10)
    assert not errors
    assert mine.history == ["ALTER TABLE db.events ADD COLUMN c2 int"]
    assert spark.ran == [DROP, "ALTER TABLE db.events ADD COLUMN c2 int"]
    assert "sql" not in vars(spark)


def test_keyword_arguments_are_formatted_as_pyspark_does():
    spark = Session()
    with guard(spark) as g:
        spark.sql("ALTER TABLE db.events SET TBLPROPERTIES ('team' = {team})", team="data-eng")
    assert g.history == ["ALTER TABLE db.events SET TBLPROPERTIES ('team' = 'data-eng')"]


def test_a_query_costs_under_a_few_microseconds():
    """10,000 `SELECT 1` through the stand-in, Spark's own work replaced by a no-op."""

    def noop(q, args=None, **kw):
        return q

    dispatch = _Dispatch(noop, None)
    token = dispatch.active.set((guard(Session()),))
    try:
        wrapped = min(_timed(dispatch.sql) for _ in range(5))
    finally:
        dispatch.active.reset(token)
    bare = min(_timed(noop) for _ in range(5))
    assert (wrapped - bare) / 10_000 < 5e-6


def _timed(fn) -> float:
    start = time.perf_counter()
    for _ in range(10_000):
        fn("SELECT 1")
    return time.perf_counter() - start


def test_inline_suppression_in_the_statement_text():
    spark = Session()
    with guard(spark) as g:
        spark.sql(DROP)
        spark.sql(f"-- icelint: ignore ICE001 -- payload is rewritten from the archive tonight\n{READD}")
    assert len(g.history) == 2 and spark.ran[-1].endswith(READD)


def test_a_table_created_and_written_inside_the_block():
    """No state (Spark does not know the table yet): the block's CREATE and INSERT are its history."""
    spark = Session()
    with pytest.raises(icelint.MigrationError) as raised, guard(spark):
        spark.sql("CREATE TABLE db.fresh (id bigint, p string) USING iceberg")
        spark.sql("INSERT INTO db.fresh VALUES (1, 'a')")
        spark.sql("ALTER TABLE db.fresh DROP COLUMN p")
        spark.sql("ALTER TABLE db.fresh ADD COLUMN p binary")
    assert [f.rule for f in raised.value.blocking] == ["ICE001"]
    assert len(spark.ran) == 3


def test_without_the_write_the_readd_is_not_an_error():
    spark = Session()
    with guard(spark):
        spark.sql("CREATE TABLE db.fresh (id bigint, p string) USING iceberg")
        spark.sql("ALTER TABLE db.fresh DROP COLUMN p")
        spark.sql("ALTER TABLE db.fresh ADD COLUMN p binary")  # an empty table: ICE015, a warning
    assert len(spark.ran) == 3


def test_per_file_ignores_apply_to_the_files_handed_over(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.icelint.per-file-ignores]\n"migrations/V1__*.sql" = ["ICE011"]\n')
    (tmp_path / "migrations").mkdir()
    v1, v2 = tmp_path / "migrations/V1__drop.sql", tmp_path / "migrations/V2__drop.sql"
    v1.write_text(DROP + ";\n")
    v2.write_text(DROP.replace("payload", "kind") + ";\n")
    found = guard(Session(), config=tmp_path).check([v1, v2])
    assert [(f.rule, Path(f.path).name) for f in found] == [("ICE011", "V2__drop.sql")]
