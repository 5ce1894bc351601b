"""ICE005's messages for a column that exists already are Spark's, word for word.

Each expected text below is what Spark 3.5.9 with Iceberg 1.10.2 printed for the statement (run on
2026-11-24 with `tests/differential/harness.start_differential_session`, the analyzer's plan cut
off): FIELDS_ALREADY_EXISTS names the column by its whole resolved path (`s`.`x`) and quotes the
table's whole schema (names quoted where needed, comments kept), whichever struct the column is in;
ADD COLUMNS checks every column against the table before it looks for a name the list repeats;
of several repeated names, COLUMN_ALREADY_EXISTS reports the first in sorted order, in lower case.
"""

from __future__ import annotations

import pytest

from tests.rules.test_findings_detail import lint

TABLE = "CREATE TABLE db.d (id bigint, name string, ts timestamp) USING iceberg;\nALTER TABLE db.d ADD COLUMN s struct<x: int, y: int>;\n"
WHOLE = '"STRUCT<id: BIGINT, name: STRING, ts: TIMESTAMP, s: STRUCT<x: INT, y: INT>>"'
EXISTS = " already exists. Consider to choose another name or rename the existing column."

CASES = [
    ("ALTER TABLE db.d ADD COLUMN s.x int", f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `s`.`x` already exists in {WHOLE}."),
    ("ALTER TABLE db.d ADD COLUMN s.X int", f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `s`.`X` already exists in {WHOLE}."),
    ("ALTER TABLE db.d ADD COLUMNS (s.y int, z int)", f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `s`.`y` already exists in {WHOLE}."),
    ("ALTER TABLE db.d ADD COLUMN ID int", f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `ID` already exists in {WHOLE}."),
    ("ALTER TABLE db.d RENAME COLUMN s.x TO y", f"[FIELDS_ALREADY_EXISTS] Cannot rename column, because `s`.`y` already exists in {WHOLE}."),
    ("ALTER TABLE db.d RENAME COLUMN name TO ID", f"[FIELDS_ALREADY_EXISTS] Cannot rename column, because `ID` already exists in {WHOLE}."),
    ("ALTER TABLE db.d ADD COLUMNS (q int, q int, id int)", f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `id` already exists in {WHOLE}."),
    ("ALTER TABLE db.d ADD COLUMNS (q int, Q int)", f"[COLUMN_ALREADY_EXISTS] The column `q`{EXISTS}"),
    ("ALTER TABLE db.d ADD COLUMNS (b int, a int, b int, a int)", f"[COLUMN_ALREADY_EXISTS] The column `a`{EXISTS}"),
    ("ALTER TABLE db.d ADD COLUMNS (s.x1 int, s.X1 int)", f"[COLUMN_ALREADY_EXISTS] The column `s`.`x1`{EXISTS}"),
    ("ALTER TABLE db.d REPLACE COLUMNS (Q int, q string)", f"[COLUMN_ALREADY_EXISTS] The column `q`{EXISTS}"),
    ("ALTER TABLE db.d REPLACE COLUMNS (b int, a int, b int, a int)", f"[COLUMN_ALREADY_EXISTS] The column `a`{EXISTS}"),
    ("CREATE TABLE db.x (b int, a int, B int) USING iceberg", f"[COLUMN_ALREADY_EXISTS] The column `b`{EXISTS}"),
    ("CREATE TABLE db.x (b int, a int, b int, a int) USING iceberg", f"[COLUMN_ALREADY_EXISTS] The column `a`{EXISTS}"),
]


@pytest.mark.parametrize("statement, spark", CASES, ids=[c[0] for c in CASES])
def test_message_is_sparks(statement: str, spark: str) -> None:
    found = [f for f in lint(TABLE + statement + ";\n", "ICE005")]
    assert len(found) == 1 and found[0].line == 3
    assert found[0].message == f"`{found[0].table}`: Spark rejects this statement: {spark}"


def test_names_quoted_and_comments_kept_as_spark_prints_them() -> None:
    sql = (
        "CREATE TABLE db.d (id bigint, name string, ts timestamp) USING iceberg;\n"
        "ALTER TABLE db.d ADD COLUMN `a b` int COMMENT 'it is', c2 int COMMENT 'x\\'y', `0` int, _u int;\n"
        "ALTER TABLE db.d ADD COLUMN ts int;\n"
    )
    (f,) = lint(sql, "ICE005")
    assert f.message.endswith(
        "[FIELDS_ALREADY_EXISTS] Cannot add column, because `ts` already exists in "
        "\"STRUCT<id: BIGINT, name: STRING, ts: TIMESTAMP, `a b`: INT COMMENT 'it is', c2: INT COMMENT 'x\\'y', `0`: INT, _u: INT>\"."
    )


def test_collections_are_named_by_their_element_and_value() -> None:
    sql = (
        "CREATE TABLE db.d (id bigint, arr array<struct<p: int, q: int COMMENT 'qq'>>, m map<string, struct<u: int>>) USING iceberg;\n"
        "ALTER TABLE db.d ADD COLUMN arr.element.P int;\n"
        "ALTER TABLE db.d ADD COLUMN m.value.u int;\n"
    )
    whole = "\"STRUCT<id: BIGINT, arr: ARRAY<STRUCT<p: INT, q: INT COMMENT 'qq'>>, m: MAP<STRING, STRUCT<u: INT>>>\"."
    messages = [f.message.split("statement: ", 1)[1] for f in lint(sql, "ICE005")]
    assert messages == [
        f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `arr`.`element`.`P` already exists in {whole}",
        f"[FIELDS_ALREADY_EXISTS] Cannot add column, because `m`.`value`.`u` already exists in {whole}",
    ]


def test_a_wide_table_is_quoted_up_to_25_columns() -> None:
    cols = ", ".join(f"c{i} int" for i in range(40))
    (f,) = lint(f"CREATE TABLE db.w ({cols}) USING iceberg;\nALTER TABLE db.w ADD COLUMN c39 int;\n", "ICE005")
    assert f.message.endswith(", c24: INT, ... 15 more fields>\".")
