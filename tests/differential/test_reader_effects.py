"""What the warning rules ICE017-ICE021 warn about, observed in real Spark 3.5.9 + Iceberg 1.10.2.

The differential cases (tests/differential/cases/400_* ...) show that Spark accepts the statements
and that icelint agrees on every verdict; the harness cannot express what changes for the readers
and writers that come after (an INSERT written for the old column order, a length that is no longer
enforced), so each test here runs the statement and then such a reader or writer, and asserts what
it gets. Each test also asserts icelint's finding on the same statement.
"""

from __future__ import annotations

import pytest

from icelint.engine.pipeline import replay_text
from icelint.engine import suppress
from icelint.rules import ALL_RULES

pytestmark = pytest.mark.spark


def codes(sql: str) -> list[tuple[int, str]]:
    return [(f.line, f.rule) for f in suppress.lint(replay_text(sql, path="t.sql"), list(ALL_RULES)).findings]


def run(oracle, sql: str) -> None:
    for st in [s.strip() for s in sql.split(";") if s.strip()]:
        oracle.sql(st)


def error_of(oracle, statement: str) -> str:
    try:
        oracle.sql(statement)
    except Exception as e:  # noqa: BLE001 - Spark's errors come as Py4J / AnalysisException
        return str(e)
    return ""


def test_reorder_moves_positional_inserts_into_other_columns(spark_oracle) -> None:
    ddl = (
        "CREATE TABLE db.users (id bigint NOT NULL, first_name string, last_name string) USING iceberg;\n"
        "ALTER TABLE db.users ALTER COLUMN last_name AFTER id;\n"
    )
    assert (2, "ICE017") in codes(ddl)
    spark_oracle.reset()
    run(spark_oracle, ddl)
    # an INSERT written for the old order (id, first_name, last_name): accepted, values swapped
    spark_oracle.sql("INSERT INTO db.users VALUES (1, 'Ada', 'Lovelace')")
    (row,) = spark_oracle.sql("SELECT first_name, last_name FROM db.users")
    assert (row.first_name, row.last_name) == ("Lovelace", "Ada")
    # INSERT ... SELECT * from a staging table with the old order: the same
    run(spark_oracle, "CREATE TABLE db.staging (id bigint NOT NULL, first_name string, last_name string) USING iceberg;"
        "INSERT INTO db.staging VALUES (2, 'Grace', 'Hopper');"
        "INSERT INTO db.users SELECT * FROM db.staging")
    (row,) = spark_oracle.sql("SELECT first_name, last_name FROM db.users WHERE id = 2")
    assert (row.first_name, row.last_name) == ("Hopper", "Grace")


def test_reorder_of_typed_columns_makes_old_inserts_fail(spark_oracle) -> None:
    ddl = (
        "CREATE TABLE db.t (id bigint NOT NULL, a string, b string) USING iceberg;\n"
        "ALTER TABLE db.t ALTER COLUMN b FIRST;\n"
    )
    assert (2, "ICE017") in codes(ddl)
    spark_oracle.reset()
    run(spark_oracle, ddl)
    err = error_of(spark_oracle, "INSERT INTO db.t VALUES (2, 'A2', 'B2')")
    assert "CANNOT_SAFELY_CAST" in err and "`id`" in err


def test_nested_reorder_swaps_named_struct_values(spark_oracle) -> None:
    ddl = (
        "CREATE TABLE db.n (id bigint NOT NULL, s struct<x: int, y: int>) USING iceberg;\n"
        "ALTER TABLE db.n ALTER COLUMN s.y FIRST;\n"
    )
    assert (2, "ICE017") in codes(ddl)
    spark_oracle.reset()
    run(spark_oracle, ddl)
    spark_oracle.sql("INSERT INTO db.n VALUES (1, named_struct('x', 1, 'y', 2))")
    (row,) = spark_oracle.sql("SELECT s.x, s.y FROM db.n")
    assert (row.x, row.y) == (2, 1)  # named_struct is matched by position, not by name


def test_char_and_varchar_lengths_are_not_kept(spark_oracle) -> None:
    ddl = "CREATE TABLE db.c (id bigint NOT NULL, code char(3), name varchar(5)) USING iceberg;\n"
    assert [c for _, c in codes(ddl)].count("ICE020") == 2
    spark_oracle.reset()
    run(spark_oracle, ddl)
    types = {r.col_name: r.data_type for r in spark_oracle.sql("DESCRIBE db.c")}
    assert types["code"] == "string" and types["name"] == "string"
    spark_oracle.sql("INSERT INTO db.c VALUES (1, 'ABCDE', 'abcdefghij')")
    (row,) = spark_oracle.sql("SELECT code, name FROM db.c")
    assert (row.code, row.name) == ("ABCDE", "abcdefghij")
    meta = spark_oracle.metadata("db.c")
    fields = {f["name"]: f["type"] for f in meta["schemas"][-1]["fields"]}
    assert fields["code"] == "string" and fields["name"] == "string"


def test_dotted_name_is_taken_for_a_nested_path(spark_oracle) -> None:
    ddl = "CREATE TABLE db.d (id bigint NOT NULL, `utm.source` string) USING iceberg;\n"
    assert (1, "ICE021") in codes(ddl)
    spark_oracle.reset()
    run(spark_oracle, ddl)
    spark_oracle.sql("INSERT INTO db.d VALUES (1, 'newsletter')")
    assert spark_oracle.sql("SELECT `utm.source` FROM db.d")[0][0] == "newsletter"
    assert "UNRESOLVED_COLUMN" in error_of(spark_oracle, "SELECT utm.source FROM db.d")
    # and a struct `utm` with a field `source` can no longer be added (icelint: ICE005)
    add = "ALTER TABLE db.d ADD COLUMN utm struct<source: string>"
    assert error_of(spark_oracle, add)
    assert (2, "ICE005") in codes(ddl + add + ";\n")


def test_identifier_fields_change_is_recorded_in_the_metadata(spark_oracle) -> None:
    ddl = (
        "CREATE TABLE db.k (id bigint NOT NULL, region string NOT NULL, v string) USING iceberg;\n"
        "ALTER TABLE db.k SET IDENTIFIER FIELDS id, region;\n"
        "ALTER TABLE db.k SET IDENTIFIER FIELDS id;\n"
    )
    assert (3, "ICE018") in codes(ddl)
    spark_oracle.reset()
    run(spark_oracle, ddl)
    meta = spark_oracle.metadata("db.k")
    current = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    assert current["identifier-field-ids"] == [1]  # the row key of upsert writers is now `id` alone


def test_truncate_delete_all_and_drop_purge(spark_oracle) -> None:
    ddl = (
        "CREATE TABLE db.e (id bigint NOT NULL) USING iceberg;\n"
        "INSERT INTO db.e VALUES (1), (2);\n"
        "DELETE FROM db.e;\n"
        "INSERT INTO db.e VALUES (3);\n"
        "TRUNCATE TABLE db.e;\n"
        "DROP TABLE db.e PURGE;\n"
    )
    found = codes(ddl)
    assert {(3, "ICE019"), (5, "ICE019"), (6, "ICE019")} <= set(found)
    spark_oracle.reset()
    statements = [s for s in ddl.split(";\n") if s.strip()]
    run(spark_oracle, ";".join(statements[:3]))
    assert spark_oracle.sql("SELECT count(*) FROM db.e")[0][0] == 0
    run(spark_oracle, ";".join(statements[3:5]))
    assert spark_oracle.sql("SELECT count(*) FROM db.e")[0][0] == 0
    table_dir = spark_oracle.warehouse / "db" / "e"
    assert any(table_dir.rglob("*.parquet"))
    spark_oracle.sql(statements[5])
    assert not any(table_dir.rglob("*.parquet")), "PURGE deletes the data files"


def test_positioned_add_column_is_no_reorder(spark_oracle) -> None:
    """A new column's position moves no existing column: an INSERT of the old arity fails, exactly as
    after an ADD COLUMN at the end; ICE017 warns only for moves of existing columns."""
    ddl = (
        "CREATE TABLE db.users (id bigint NOT NULL, first_name string, last_name string) USING iceberg;\n"
        "ALTER TABLE db.users ADD COLUMN middle_name string AFTER first_name;\n"
        "ALTER TABLE db.users ADD COLUMN title string FIRST;\n"
    )
    assert not [c for c in codes(ddl) if c[1] == "ICE017"]
    spark_oracle.reset()
    run(spark_oracle, ddl)
    for insert in ("INSERT INTO db.users VALUES (1, 'Ada', 'Lovelace')", "INSERT INTO db.users SELECT 1, 'Ada', 'Lovelace', 'x'"):
        assert "INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS" in error_of(spark_oracle, insert)
    assert spark_oracle.sql("SELECT count(*) AS n FROM db.users")[0].n == 0


def test_nested_column_backfilled_in_the_same_migration_holds_no_null(spark_oracle) -> None:
    """ICE043 warns about the NULLs of an added struct/list/map column; an UPDATE of the same migration
    that sets it in every row to `array(...)` leaves none, one with a WHERE leaves some."""
    ddl = (
        "CREATE TABLE db.events (id bigint NOT NULL, kind string NOT NULL) USING iceberg;\n"
        "INSERT INTO db.events VALUES (1, 'click'), (2, 'view');\n"
        "ALTER TABLE db.events ADD COLUMN q array<string>;\n"
        "UPDATE db.events SET q = array(kind);\n"
        "ALTER TABLE db.events ADD COLUMN r array<string>;\n"
        "UPDATE db.events SET r = array(kind) WHERE id = 1;\n"
    )
    assert [c for c in codes(ddl) if c[1] == "ICE043"] == [(5, "ICE043")]
    spark_oracle.reset()
    run(spark_oracle, ddl)
    (row,) = spark_oracle.sql("SELECT count_if(q IS NULL) AS q_null, count_if(r IS NULL) AS r_null FROM db.events")
    assert (row.q_null, row.r_null) == (0, 1)
