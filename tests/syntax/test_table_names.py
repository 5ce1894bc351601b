"""Table names as Spark 3.5 reads them: `USE`, keywords as names, and the IF [NOT] EXISTS forms
Spark cannot parse (in Spark's own words). Every expectation was measured in Spark 3.5.9 + Iceberg
1.10.2 (tests/differential/cases/300_* and docs/iceberg-behaviour.md, "Table names")."""

from __future__ import annotations

import pytest

from icelint.values import changes as ch
from icelint.engine.pipeline import parse_sources
from icelint.values.source import SourceFile
from icelint.syntax.ast import AlterTable, CreateTable, Other, Unparsed, UseNamespace
from icelint.syntax.parser import parse_text


def one(sql: str):
    statements = parse_text(sql).statements
    assert len(statements) == 1, statements
    return statements[0]


@pytest.mark.parametrize(
    "sql, parts",
    [
        ("USE db", ("db",)),
        ("USE local.db", ("local", "db")),
        ("USE NAMESPACE db", ("db",)),
        ("use database db", ("db",)),
        ("USE SCHEMA `my db`", ("my db",)),
        ("USE namespace", ("namespace",)),  # a namespace called `namespace`, as in Spark
        ("USE IDENTIFIER('cat.db')", ("cat", "db")),
    ],
)
def test_use(sql, parts):
    st = one(sql)
    assert isinstance(st, UseNamespace), st
    assert st.name.parts == parts


def test_use_needs_a_name():
    assert isinstance(one("USE"), Unparsed)
    assert isinstance(one("USE db extra"), Unparsed)


def steps(*files: str) -> list[tuple[str, str]]:
    parsed = parse_sources([SourceFile(f"V{i}.sql", text) for i, text in enumerate(files, 1)])
    return [
        (type(s).__name__, s.table if isinstance(s, ch.Commit) else s.namespace)
        for s in parsed.steps
        if isinstance(s, (ch.Commit, ch.UseNamespace))
    ]


def test_use_qualifies_later_one_part_names_across_files():
    got = steps(
        "CREATE TABLE t (id int) USING iceberg;\nUSE db;\nALTER TABLE t ADD COLUMN c int;\nALTER TABLE x.t ADD COLUMN c int;\n",
        "INSERT INTO t VALUES (1, 2);\nCALL local.system.rollback_to_snapshot('t', 1);\nUSE local.db2;\nDROP TABLE t;\n"
        "USE spark_catalog;\nDROP TABLE t;\n",
    )
    assert got == [
        ("Commit", "t"),  # before any USE: the one known table of that name (Replay.resolve_table)
        ("UseNamespace", "db"),
        ("Commit", "db.t"),
        ("Commit", "x.t"),  # two parts: as written
        ("Commit", "db.t"),  # USE lasts for the session: the next file too
        ("Commit", "db.t"),  # procedures resolve 't' in the current namespace (Spark: Couldn't load table 'db.t')
        ("UseNamespace", "local.db2"),
        ("Commit", "local.db2.t"),
        ("UseNamespace", "spark_catalog"),
        ("Commit", "default.t"),  # USE spark_catalog: Spark's `default` namespace
    ]


# Spark 3.5 (spark.sql.ansi.enabled=false, the default) takes every one of its 326 keywords as an
# unquoted table name (measured with sql_keywords() and the parser of a live session).
@pytest.mark.parametrize(
    "sql, table",
    [
        ("INSERT INTO table VALUES (1)", "table"),
        ("INSERT INTO table VALUES (1), (2)", "table"),
        ("INSERT INTO table SELECT 1", "table"),
        ("INSERT INTO table (a, b) VALUES (1, 2)", "table"),
        ("INSERT INTO table TABLE src", "table"),
        ("INSERT INTO TABLE table VALUES (1)", "table"),
        ("INSERT INTO TABLE values VALUES (1)", "values"),
        ("INSERT INTO TABLE values (id) VALUES (1)", "values"),
        ("INSERT INTO TABLE select SELECT 1", "select"),
        ("INSERT INTO TABLE t PARTITION (p = 1) VALUES (1)", "t"),
        ("INSERT INTO TABLE db.t BY NAME SELECT 1 AS a", "db.t"),
        ("INSERT INTO table.x VALUES (1)", "table.x"),
        ("INSERT INTO directory VALUES (1)", "directory"),
        ("INSERT OVERWRITE local VALUES (1)", "local"),
        ("INSERT OVERWRITE directory VALUES (1)", "directory"),
        ("INSERT OVERWRITE LOCAL DIRECTORY '/tmp/x' SELECT 1", None),
        ("INSERT OVERWRITE DIRECTORY USING parquet SELECT 1", None),
        ("UPDATE set SET id = 1", "set"),
        ("DELETE FROM from WHERE id = 1", "from"),
        ("MERGE INTO using USING s ON using.id = s.id WHEN MATCHED THEN DELETE", "using"),
        ("TRUNCATE TABLE table", "table"),
    ],
)
def test_keywords_as_dml_targets(sql, table):
    st = one(sql)
    assert isinstance(st, Other), st
    assert (st.table.dotted if st.table else None) == table


@pytest.mark.parametrize("word", ["table", "order", "select", "if", "external", "values", "using", "partition", "array"])
def test_keywords_as_ddl_names(word):
    st = one(f"CREATE TABLE {word} (id int) USING iceberg")
    assert isinstance(st, CreateTable) and st.table.dotted == word
    st = one(f"ALTER TABLE db.{word} ADD COLUMN c int")
    assert isinstance(st, AlterTable) and st.table.dotted == f"db.{word}"


@pytest.mark.parametrize(
    "sql, near",
    [
        ("ALTER TABLE db.array ADD PARTITION FIELD id", "ALTER TABLE db.array"),
        ("ALTER TABLE array.t WRITE ORDERED BY id", "ALTER TABLE array"),
        ("ALTER TABLE db.retention CREATE BRANCH b", "ALTER TABLE db.retention"),
        ("ALTER TABLE db.Array SET IDENTIFIER FIELDS id", "ALTER TABLE db.Array"),
    ],
)
def test_words_icebergs_extensions_reserve(sql, near):
    st = one(sql)
    assert isinstance(st, Unparsed), st
    assert st.message == f"no viable alternative at input '{near}'"
    assert isinstance(one(sql.replace(near.split()[-1], f"`{near.split()[-1]}`")), AlterTable)  # quoted: fine


@pytest.mark.parametrize(
    "sql, spark, column",
    [
        ("ALTER TABLE db.t ADD COLUMN IF NOT EXISTS c int", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'EXISTS'.", 36),
        ("ALTER TABLE db.t ADD COLUMNS IF NOT EXISTS (c int)", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'EXISTS'.", 37),
        ("ALTER TABLE db.t ADD COLUMN c int IF NOT EXISTS", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'IF'.", 35),
        ("ALTER TABLE db.t ADD COLUMN c int, IF NOT EXISTS d int", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'EXISTS'.", 43),
        ("ALTER TABLE db.t ADD COLUMN IF NOT EXISTS", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'EXISTS': extra input 'EXISTS'.", 36),
        ("ALTER TABLE db.t ADD IF NOT EXISTS COLUMN c int", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'COLUMN'.", 36),
        ("ALTER TABLE db.t RENAME COLUMN IF EXISTS id TO id2", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'EXISTS': missing 'TO'.", 35),
        ("ALTER TABLE db.t ALTER COLUMN IF EXISTS id TYPE bigint", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'EXISTS'.", 34),
        ("ALTER TABLE db.t ADD PARTITION FIELD IF NOT EXISTS id", "mismatched input 'NOT' expecting {<EOF>, '.', 'AS'}.", 41),
        ("ALTER TABLE db.t DROP PARTITION FIELD IF EXISTS id", "mismatched input 'EXISTS' expecting {<EOF>, '.'}.", 42),
    ],
)
def test_if_exists_forms_spark_cannot_parse(sql, spark, column):
    """Spark's words (without its `(line 1, pos N)`: icelint reports the position as file:line:col)."""
    st = one(sql)
    assert isinstance(st, Unparsed), st
    assert st.message.startswith(spark + " ")
    assert st.error_span.column == column  # Spark's `pos` + 1


@pytest.mark.parametrize(
    "sql", ["ALTER TABLE db.t ADD COLUMN if int", "ALTER TABLE db.t RENAME COLUMN if TO x", "ALTER TABLE db.t DROP COLUMN IF EXISTS c"]
)
def test_columns_named_if_still_parse(sql):
    assert isinstance(one(sql), AlterTable)
