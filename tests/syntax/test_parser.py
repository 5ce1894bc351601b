"""Tests of icelint.syntax.parser: every statement form, spans, comments and error recovery."""

from __future__ import annotations

import pytest

from icelint.values.source import LineIndex, SourceFile, Span
from icelint.syntax.ast import (
    AddColumns,
    AddPartitionField,
    AlterColumnComment,
    AlterColumnDefault,
    AlterColumnNullability,
    AlterColumnPosition,
    AlterColumnType,
    AlterTable,
    BranchOrTag,
    Call,
    ChangeColumn,
    ColumnDef,
    Comment,
    CreateTable,
    DropColumns,
    DropIdentifierFields,
    DropPartitionField,
    HiveCommand,
    DropTable,
    Name,
    Other,
    ParsedFile,
    Position,
    RenameColumn,
    RenameTable,
    ReplaceColumns,
    ReplacePartitionField,
    SetConfig,
    SetIdentifierFields,
    SetLocation,
    SortTerm,
    SqlField,
    SqlType,
    Transform,
    Unparsed,
    WriteSpec,
)
from icelint.syntax.parser import parse_file, parse_text

PATH = "m.sql"

# ---------------------------------------------------------------------------- helpers


def _is_word_char(c: str) -> bool:
    return c.isalnum() or c == "_"


def S(sql: str, snippet: str, nth: int = 0) -> Span:
    """The span of the nth occurrence of `snippet` in `sql` not inside a longer word."""
    i = -1
    found = -1
    while found < nth:
        i = sql.index(snippet, i + 1)
        before = sql[i - 1] if i else " "
        after = sql[i + len(snippet)] if i + len(snippet) < len(sql) else " "
        if not (_is_word_char(snippet[0]) and _is_word_char(before)) and not (
            _is_word_char(snippet[-1]) and _is_word_char(after)
        ):
            found += 1
    return LineIndex(PATH, sql).span(i, i + len(snippet))


def N(sql: str, snippet: str, parts: tuple[str, ...] | None = None, nth: int = 0) -> Name:
    """A Name written as `snippet` (parts split on dots unless given)."""
    return Name(parts if parts is not None else tuple(snippet.split(".")), S(sql, snippet, nth))


def T(name: str, *params: int, **kw: object) -> SqlType:
    return SqlType(name, params=params, **kw)  # type: ignore[arg-type]


def parse(sql: str) -> ParsedFile:
    return parse_text(sql, PATH)


def one(sql: str):
    statements = parse(sql).statements
    assert len(statements) == 1, statements
    return statements[0]


def action(sql: str):
    st = one(sql)
    assert isinstance(st, AlterTable), st
    return st.action


def unparsed(sql: str) -> Unparsed:
    st = one(sql)
    assert isinstance(st, Unparsed), st
    return st


def pos(span: Span) -> tuple[int, int, int, int]:
    return (span.line, span.column, span.end_line, span.end_column)


# ---------------------------------------------------------------------------- ADD COLUMNS


def test_add_column_whole_node_with_spans():
    sql = "ALTER TABLE db.events ADD COLUMN c bigint COMMENT 'added' AFTER id"
    assert one(sql) == AlterTable(
        table=N(sql, "db.events"),
        action=AddColumns(
            (
                ColumnDef(
                    path=N(sql, "c"),
                    type=T("bigint"),
                    not_null=False,
                    comment="added",
                    position=Position(False, N(sql, "id"), S(sql, "AFTER id")),
                    default=None,
                    span=S(sql, "c bigint COMMENT 'added' AFTER id"),
                ),
            )
        ),
        span=S(sql, sql),
    )
    col = action(sql).columns[0]
    assert col.path.span.start == sql.index(" c ") + 1
    assert col.type.span == S(sql, "bigint")


def test_add_columns_parenthesised_nested_paths_and_clauses():
    sql = (
        "ALTER TABLE t ADD COLUMNS (point.z double NOT NULL, items.element.price decimal(10, 2) FIRST,\n"
        "  attrs.value.x string DEFAULT concat('a', 'b') COMMENT 'c')"
    )
    cols = action(sql).columns
    assert [c.path.parts for c in cols] == [("point", "z"), ("items", "element", "price"), ("attrs", "value", "x")]
    assert cols[0] == ColumnDef(
        N(sql, "point.z"), T("double"), True, None, None, None, S(sql, "point.z double NOT NULL")
    )
    assert cols[1].type == T("decimal", 10, 2)
    assert cols[1].position == Position(True, None, S(sql, "FIRST"))
    assert cols[2].default == "concat('a', 'b')"
    assert cols[2].comment == "c"
    assert pos(cols[2].span) == (2, 3, 2, 59)
    assert pos(cols[2].path.span) == (2, 3, 2, 15)


def test_add_columns_without_parentheses_and_clauses_in_any_order():
    sql = "ALTER TABLE t ADD COLUMNS a int COMMENT 'x' NOT NULL, b string FIRST COMMENT 'y'"
    cols = action(sql).columns
    assert [(c.path.dotted, c.type.name, c.not_null, c.comment, c.position is not None) for c in cols] == [
        ("a", "int", True, "x", False),
        ("b", "string", False, "y", True),
    ]


def test_add_column_if_not_exists_is_a_parse_error_as_in_spark():
    stmt = parse_text("ALTER TABLE t ADD COLUMN IF NOT EXISTS a int").statements[0]
    assert isinstance(stmt, Unparsed)
    assert stmt.error_span.column == 33  # at EXISTS, like Spark's PARSE_SYNTAX_ERROR
    assert "IF NOT EXISTS" in stmt.message
    assert isinstance(action("ALTER TABLE t ADD COLUMN a int"), AddColumns)


def test_two_changes_in_one_alter_column_fail_at_the_second_with_one_statement_each_as_help():
    # Spark 3.5 (differential case 625): [PARSE_SYNTAX_ERROR] Syntax error at or near 'COMMENT'
    stmt = parse_text("ALTER TABLE db.t ALTER COLUMN m TYPE double COMMENT 'x'").statements[0]
    assert isinstance(stmt, Unparsed) and stmt.error_span.column == 45
    assert stmt.message.startswith("[PARSE_SYNTAX_ERROR] Syntax error at or near 'COMMENT'.")
    assert stmt.help == "write one statement per change: `ALTER TABLE db.t ALTER COLUMN m TYPE double; ALTER TABLE db.t ALTER COLUMN m COMMENT 'x';`"
    # over lines, a comment between, a type with parentheses, three changes, a quoted name
    stmt = parse_text("ALTER TABLE db.t\n  CHANGE COLUMN `a b` TYPE decimal(12,2) /* w */ COMMENT 'x' FIRST").statements[0]
    assert stmt.help == (
        "write one statement per change: `` ALTER TABLE db.t CHANGE COLUMN `a b` TYPE decimal(12,2); "
        "ALTER TABLE db.t CHANGE COLUMN `a b` COMMENT 'x'; ALTER TABLE db.t CHANGE COLUMN `a b` FIRST; ``"
    )
    # not a second change: the end-of-statement error, no help
    stmt = parse_text("ALTER TABLE db.t ALTER COLUMN m TYPE double garbage").statements[0]
    assert isinstance(stmt, Unparsed) and stmt.help is None and "expected end of statement" in stmt.message
    stmt = parse_text("ALTER TABLE db.t ALTER COLUMN m TYPE double COMMENT 'x' garbage").statements[0]
    assert stmt.help is None and "found 'COMMENT'" in stmt.message


@pytest.mark.parametrize(
    "sql, command, partitions, words",
    [
        ("ALTER TABLE db.t ADD PARTITION (dt='2024-01-05')", "add partition", (), "ADD PARTITION"),
        ("ALTER TABLE db.t ADD IF NOT EXISTS PARTITION (dt='x') LOCATION '/tmp/x' PARTITION (dt='y')", "add partition", (), "ADD IF NOT EXISTS PARTITION"),
        ("ALTER TABLE db.t DROP IF EXISTS PARTITION (dt='a', n=-1), PARTITION (dt = 'b') PURGE", "drop partition",
         ((("dt", "'a'"), ("n", "-1")), (("dt", "'b'"),)), "DROP IF EXISTS PARTITION"),
        ("ALTER TABLE db.t PARTITION (dt='a') RENAME TO PARTITION (dt='b')", "rename partition", ((("dt", "'a'"),), (("dt", "'b'"),)), "PARTITION (dt='a')"),
        ("ALTER TABLE db.t PARTITION (dt='a') SET LOCATION '/x'", "partition location", ((("dt", "'a'"),),), "PARTITION (dt='a')"),
        ("ALTER TABLE db.t PARTITION (dt) SET SERDEPROPERTIES ('a'='b')", "serde", ((("dt", None),),), "PARTITION (dt)"),
        ("ALTER TABLE db.t SET SERDE 'org.x' WITH SERDEPROPERTIES ('a'='b')", "serde", (), "SET SERDE"),
        ("ALTER TABLE db.t RECOVER PARTITIONS", "recover partitions", (), "RECOVER PARTITIONS"),
        ("TRUNCATE TABLE db.t PARTITION (dt='a')", "truncate partition", ((("dt", "'a'"),),), "PARTITION (dt='a')"),
        ("ANALYZE TABLE db.t PARTITION (dt='a') COMPUTE STATISTICS NOSCAN", "analyze table", (), "ANALYZE TABLE"),
        ("MSCK REPAIR TABLE db.t SYNC PARTITIONS", "repair table", (), "MSCK REPAIR TABLE"),
        ("REPAIR TABLE db.t", "repair table", (), "REPAIR TABLE"),
    ],
)
def test_hive_table_commands_are_kept_for_the_replay_to_refuse(sql, command, partitions, words):
    stmt = one(sql)
    assert isinstance(stmt, AlterTable) and stmt.table.dotted == "db.t"
    a = stmt.action
    assert isinstance(a, HiveCommand) and (a.command, a.partitions) == (command, partitions)
    assert sql[a.span.start : a.span.end] == words  # where the finding points


def test_statements_near_the_hive_commands_stay_what_they_were():
    assert one("TRUNCATE TABLE db.t").keyword == "truncate"
    assert one("ANALYZE TABLES IN db COMPUTE STATISTICS").keyword == "analyze"
    assert isinstance(action("ALTER TABLE db.t ADD PARTITION FIELD dt"), AddPartitionField)
    assert isinstance(action("ALTER TABLE db.t DROP PARTITION FIELD dt"), DropPartitionField)
    assert isinstance(one("ALTER TABLE db.t PARTITION (dt='a') DROP COLUMN x"), Unparsed)


def test_delta_statements_fail_at_their_first_word_with_icebergs_procedure_as_help():
    # Spark 3.5 (differential case 627): [PARSE_SYNTAX_ERROR] Syntax error at or near 'OPTIMIZE'.(line 1, pos 0)
    stmt = one("OPTIMIZE db.t ZORDER BY (id, v)")
    assert isinstance(stmt, Unparsed) and stmt.error_span.column == 1
    assert stmt.message.startswith("[PARSE_SYNTAX_ERROR] Syntax error at or near 'OPTIMIZE'.")
    assert stmt.help.endswith("`CALL system.rewrite_data_files(table => 'db.t', strategy => 'sort', sort_order => 'zorder(id, v)')`")
    assert one("OPTIMIZE db.t WHERE dt >= '2024'").help.endswith("`CALL system.rewrite_data_files(table => 'db.t')`")
    assert one("OPTIMIZE").help is None
    stmt = one("VACUUM db.t RETAIN 168 HOURS")
    assert stmt.message.startswith("[PARSE_SYNTAX_ERROR] Syntax error at or near 'VACUUM'.")
    assert "`expire_snapshots` and `remove_orphan_files` procedures on 'db.t'" in stmt.help
    for k in ("GRANT", "REVOKE"):
        stmt = one(f"{k} SELECT ON TABLE db.t TO x")
        assert isinstance(stmt, Unparsed) and stmt.message == f"Operation not allowed: {k}."  # Spark's words


@pytest.mark.parametrize(
    "sql, command, words",
    [
        ("CREATE INDEX IF NOT EXISTS i ON TABLE db.t USING BTREE (id)", "create index", "CREATE INDEX"),
        ("CREATE INDEX i ON db.t (id, v)", "create index", "CREATE INDEX"),
        ("DROP INDEX IF EXISTS i ON db.t", "drop index", "DROP INDEX"),
    ],
)
def test_index_statements_name_their_table(sql, command, words):
    stmt = one(sql)
    assert isinstance(stmt, AlterTable) and stmt.table.dotted == "db.t"
    assert stmt.action.command == command and sql[stmt.action.span.start : stmt.action.span.end] == words


def test_hive_format_clauses_are_the_properties_spark_makes_of_them():
    # measured in Spark's Iceberg SparkCatalog (differential case 628): accepted, kept as properties
    st = one(
        "CREATE TABLE db.t (id bigint) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' ESCAPED BY '\\\\' "
        "COLLECTION ITEMS TERMINATED BY '|' MAP KEYS TERMINATED BY ':' LINES TERMINATED BY '\\n' NULL DEFINED AS 'N' "
        "STORED AS TEXTFILE TBLPROPERTIES ('a'='b')"
    )
    assert isinstance(st, CreateTable) and st.properties == (("a", "b"),)
    assert dict(st.hive_properties) == {
        "option.field.delim": ",", "option.serialization.format": ",", "option.escape.delim": "\\",
        "option.colelction.delim": "|", "option.mapkey.delim": ":", "option.line.delim": "\n", "hive.stored-as": "TEXTFILE",
    }
    st = one("CREATE TABLE db.t (id bigint) ROW FORMAT SERDE 'x.Y' WITH SERDEPROPERTIES ('k'='v') STORED AS INPUTFORMAT 'a' OUTPUTFORMAT 'c'")
    assert st.hive_properties == (("hive.serde", "x.Y"), ("option.k", "v"), ("hive.input-format", "a"), ("hive.output-format", "c"))
    assert one("CREATE TABLE db.t stored as orc AS SELECT 1 AS id").hive_properties == (("hive.stored-as", "orc"),)


@pytest.mark.parametrize(
    "sql, message",
    [
        ("CREATE TABLE db.t (id bigint) USING iceberg STORED AS PARQUET", "Operation not allowed: CREATE TABLE ... USING ... STORED AS PARQUET ."),
        ("CREATE TABLE db.t (id bigint) USING iceberg ROW FORMAT DELIMITED FIELDS TERMINATED BY ','",
         "Operation not allowed: CREATE TABLE ... USING ... ROW FORMAT DELIMITED."),
        ("CREATE TABLE db.t (id bigint) ROW FORMAT DELIMITED FIELDS TERMINATED BY ',' STORED AS PARQUET",
         "Operation not allowed: ROW FORMAT DELIMITED is only compatible with 'textfile', not 'parquet'."),
        ("CREATE TABLE db.t (id bigint) STORED BY 'x.y'", "Operation not allowed: STORED BY."),
    ],
)
def test_hive_format_clauses_spark_does_not_allow(sql, message):
    st = one(sql)
    assert isinstance(st, Unparsed) and st.message == message  # Spark's words (differential case 628)


def test_using_after_another_clause_fails_at_using_with_the_statement_reordered_as_help():
    st = one("CREATE TABLE db.t (id int, dt string) PARTITIONED BY (dt) COMMENT 'x' USING iceberg TBLPROPERTIES ('a'='b')")
    assert isinstance(st, Unparsed) and st.message.startswith("[PARSE_SYNTAX_ERROR] Syntax error at or near 'USING'.")
    assert st.help == (
        "write USING right after the column list: "
        "`CREATE TABLE db.t (id int, dt string) USING iceberg PARTITIONED BY (dt) COMMENT 'x' TBLPROPERTIES ('a'='b')`"
    )
    assert isinstance(one("CREATE TABLE db.t (id int) USING iceberg PARTITIONED BY (id)"), CreateTable)


def test_comment_on_column_fails_at_column_with_the_alter_column_as_help():
    # Spark 3.5 (differential case 626): [PARSE_SYNTAX_ERROR] Syntax error at or near 'COLUMN'.(line 1, pos 11)
    stmt = one("COMMENT ON COLUMN db.t.id IS 'the id'")
    assert isinstance(stmt, Unparsed) and stmt.error_span.column == 12
    assert stmt.message.startswith("[PARSE_SYNTAX_ERROR] Syntax error at or near 'COLUMN'.")
    assert stmt.help == "set it with ALTER COLUMN: `ALTER TABLE db.t ALTER COLUMN id COMMENT 'the id'`"
    assert one("COMMENT ON COLUMN db.`my t`.`a b` IS NULL").help == (
        "set it with ALTER COLUMN: `` ALTER TABLE db.`my t` ALTER COLUMN `a b` COMMENT '' ``"
    )
    assert one("COMMENT ON COLUMN id IS 'x'").help is None  # no table named
    assert one("COMMENT ON COLUMN db.t.id IS 'x' extra").help is None


def test_add_column_default_with_suffixed_number_keeps_the_text():
    col = action("ALTER TABLE t ADD COLUMN a bigint DEFAULT 10L COMMENT 'x'").columns[0]
    assert (col.default, col.comment) == ("10L", "x")


def test_add_column_names_that_are_keywords():
    sql = "ALTER TABLE t ADD COLUMNS (comment string, date date, key int, value int, first int, type int, `table` int)"
    assert [c.path.dotted for c in action(sql).columns] == ["comment", "date", "key", "value", "first", "type", "table"]


def test_backticked_names_keep_case_and_dots():
    sql = "ALTER TABLE `Cat`.db.`my t` ADD COLUMN `utm.source`.`My Col` int AFTER `a``b`"
    st = one(sql)
    assert st.table == N(sql, "`Cat`.db.`my t`", ("Cat", "db", "my t"))
    col = st.action.columns[0]
    assert col.path == N(sql, "`utm.source`.`My Col`", ("utm.source", "My Col"))
    assert col.position.after.parts == ("a`b",)


# ---------------------------------------------------------------------------- DROP / RENAME


@pytest.mark.parametrize(
    "sql, paths, if_exists",
    [
        ("ALTER TABLE t DROP COLUMN a", [("a",)], False),
        ("ALTER TABLE t DROP COLUMNS a, b.c", [("a",), ("b", "c")], False),
        ("ALTER TABLE t DROP COLUMNS (a, b.c)", [("a",), ("b", "c")], False),
        ("ALTER TABLE t DROP COLUMN IF EXISTS (a, b.c)", [("a",), ("b", "c")], True),
        ("alter table t drop column if exists a", [("a",)], True),
    ],
)
def test_drop_columns(sql, paths, if_exists):
    act = action(sql)
    assert isinstance(act, DropColumns)
    assert [p.parts for p in act.paths] == paths
    assert act.if_exists is if_exists


def test_drop_columns_spans():
    sql = "ALTER TABLE t DROP COLUMNS (a, b.c)"
    assert action(sql) == DropColumns((N(sql, "a"), N(sql, "b.c")))


def test_rename_column_and_table():
    sql = "ALTER TABLE t RENAME COLUMN location.lat TO latitude"
    assert action(sql) == RenameColumn(N(sql, "location.lat"), N(sql, "latitude"))
    sql = "ALTER TABLE t RENAME TO db.u"
    assert action(sql) == RenameTable(N(sql, "db.u"))


def test_rename_column_to_a_dotted_name_is_an_error():
    u = unparsed("ALTER TABLE t RENAME COLUMN a.b TO c.d")
    assert u.message == "expected end of statement after 'RENAME COLUMN a.b TO c', found '.'"


# ---------------------------------------------------------------------------- ALTER / CHANGE COLUMN


def test_alter_column_actions():
    sql = "ALTER TABLE t ALTER COLUMN a.b TYPE bigint"
    assert action(sql) == AlterColumnType(N(sql, "a.b"), T("bigint"))
    sql = "ALTER TABLE t ALTER COLUMN a SET NOT NULL"
    assert action(sql) == AlterColumnNullability(N(sql, "a"), True)
    sql = "ALTER TABLE t CHANGE COLUMN x DROP NOT NULL"
    assert action(sql) == AlterColumnNullability(N(sql, "x"), False)
    sql = "ALTER TABLE t ALTER COLUMN x COMMENT 'it\\'s'"
    assert action(sql) == AlterColumnComment(N(sql, "x"), "it's")
    sql = "ALTER TABLE t ALTER COLUMN x FIRST"
    assert action(sql) == AlterColumnPosition(N(sql, "x"), Position(True, None, S(sql, "FIRST")))
    sql = "ALTER TABLE t ALTER COLUMN p.x AFTER y"
    assert action(sql) == AlterColumnPosition(N(sql, "p.x"), Position(False, N(sql, "y"), S(sql, "AFTER y")))
    sql = "ALTER TABLE t ALTER COLUMN x SET DEFAULT current_date() + 1"
    assert action(sql) == AlterColumnDefault(N(sql, "x"), "current_date() + 1")
    sql = "ALTER TABLE t ALTER COLUMN x DROP DEFAULT"
    assert action(sql) == AlterColumnDefault(N(sql, "x"), None)


@pytest.mark.parametrize(
    "sql",
    [
        "ALTER TABLE t ALTER x TYPE int",
        "ALTER TABLE t CHANGE x TYPE int",
        "ALTER TABLE t CHANGE COLUMN x TYPE int",
        "alter table t alter column x type INT",
        "ALTER TABLE t CHANGE COLUMN x type int",
    ],
)
def test_column_word_is_optional_and_keywords_case_insensitive(sql):
    act = action(sql)
    assert isinstance(act, AlterColumnType)
    assert act.path.parts == ("x",)
    assert act.type.name == "int"


def test_hive_style_change_column():
    sql = "ALTER TABLE t CHANGE COLUMN price price decimal(12,2) NOT NULL COMMENT 'p' AFTER id"
    assert action(sql) == ChangeColumn(
        path=N(sql, "price"),
        new_name=N(sql, "price", nth=1),
        type=T("decimal", 12, 2),
        not_null=True,
        comment="p",
        position=Position(False, N(sql, "id"), S(sql, "AFTER id")),
    )
    act = action("ALTER TABLE t CHANGE a b int")
    assert (act.path.dotted, act.new_name.dotted, act.type.name, act.position) == ("a", "b", "int", None)


def test_change_column_action_words_win_over_a_new_name_as_in_spark():
    # `after int` moves the column after a column named `int`; `first int` is an error.
    act = action("ALTER TABLE t CHANGE COLUMN a after int")
    assert isinstance(act, AlterColumnPosition) and act.position.after.parts == ("int",)
    assert unparsed("ALTER TABLE t CHANGE COLUMN a first int").message == (
        "expected end of statement after 'CHANGE COLUMN a first', found 'int'"
    )


def test_replace_columns():
    sql = "ALTER TABLE t REPLACE COLUMNS (id bigint, data string COMMENT 'd')"
    assert action(sql) == ReplaceColumns(
        (
            ColumnDef(N(sql, "id"), T("bigint"), False, None, None, None, S(sql, "id bigint")),
            ColumnDef(N(sql, "data"), T("string"), False, "d", None, None, S(sql, "data string COMMENT 'd'")),
        )
    )


# ---------------------------------------------------------------------------- properties, location


def test_set_and_unset_tblproperties():
    sql = "ALTER TABLE t SET TBLPROPERTIES ('format-version'='2', write.target.size = 536870912, a.b true, 'c' 'd', e = 1.5)"
    got = action(sql)
    assert got.properties == (("format-version", "2"), ("write.target.size", "536870912"), ("a.b", "true"), ("c", "d"), ("e", "1.5"))
    # each key's span covers exactly the key as written (the token a finding about it points at)
    assert [sql[k.start : k.end] for k in got.key_spans] == ["'format-version'", "write.target.size", "a.b", "'c'", "e"]
    sql = "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', a.b, `x y`)"
    got = action(sql)
    assert (got.keys, got.if_exists) == (("k", "a.b", "x y"), True)
    assert [sql[k.start : k.end] for k in got.key_spans] == ["'k'", "a.b", "`x y`"]
    got = action("ALTER TABLE t UNSET TBLPROPERTIES ('k')")
    assert (got.keys, got.if_exists, len(got.key_spans)) == (("k",), False, 1)


def test_property_errors():
    assert unparsed("ALTER TABLE t SET TBLPROPERTIES (g)").message == (
        "expected a property value after 'SET TBLPROPERTIES (g', found ')'"
    )
    assert unparsed("ALTER TABLE t UNSET TBLPROPERTIES ('c' = 'd')").message.startswith(
        "expected ',' or ')' (UNSET TBLPROPERTIES takes keys only)"
    )


def test_set_location():
    assert action("ALTER TABLE t SET LOCATION 's3://b/t'") == SetLocation("s3://b/t")


# ---------------------------------------------------------------------------- Iceberg extensions


def test_add_partition_field_forms():
    sql = "ALTER TABLE t ADD PARTITION FIELD bucket(16, id) AS shard"
    assert action(sql) == AddPartitionField(Transform("bucket", (16, N(sql, "id")), S(sql, "bucket(16, id)")), "shard")
    sql = "ALTER TABLE t ADD PARTITION FIELD region"
    assert action(sql) == AddPartitionField(Transform(None, (N(sql, "region"),), S(sql, "region")), None)
    sql = "ALTER TABLE t ADD PARTITION FIELD truncate(4, s.x)"
    assert action(sql).transform.args == (4, N(sql, "s.x"))
    sql = "ALTER TABLE t ADD PARTITION FIELD truncate(s, 4)"
    assert action(sql).transform.args == (N(sql, "s"), 4)
    sql = "ALTER TABLE t ADD PARTITION FIELD Days(ts)"
    assert action(sql).transform == Transform("days", (N(sql, "ts", nth=0),), S(sql, "Days(ts)"))
    assert action("ALTER TABLE t ADD PARTITION FIELD years(ts)").transform.func == "years"
    assert action("ALTER TABLE t ADD PARTITION FIELD f('x', -1, a)").transform.args[:2] == ("x", -1)


def test_drop_and_replace_partition_field():
    sql = "ALTER TABLE t DROP PARTITION FIELD bucket(16, id)"
    assert action(sql) == DropPartitionField(Transform("bucket", (16, N(sql, "id")), S(sql, "bucket(16, id)")))
    sql = "ALTER TABLE t DROP PARTITION FIELD shard"
    assert action(sql) == DropPartitionField(Transform(None, (N(sql, "shard"),), S(sql, "shard")))
    sql = "ALTER TABLE t REPLACE PARTITION FIELD ts_day WITH hours(ts) AS ts_hour"
    assert action(sql) == ReplacePartitionField(
        Transform(None, (N(sql, "ts_day"),), S(sql, "ts_day")),
        Transform("hours", (N(sql, "ts"),), S(sql, "hours(ts)")),
        "ts_hour",
    )


@pytest.mark.parametrize(
    "clause, distributed, locally, unordered, order",
    [
        ("ORDERED BY a", False, False, False, [("a", False, None)]),
        ("ORDERED BY (a DESC, b ASC NULLS FIRST)", False, False, False, [("a", True, None), ("b", False, True)]),
        ("LOCALLY ORDERED BY days(ts) DESC NULLS LAST", False, True, False, [("days", True, False)]),
        ("DISTRIBUTED BY PARTITION", True, False, False, None),
        ("DISTRIBUTED BY PARTITION LOCALLY ORDERED BY a, b", True, True, False, [("a", False, None), ("b", False, None)]),
        ("DISTRIBUTED BY PARTITION ORDERED BY a", True, False, False, [("a", False, None)]),
        ("UNORDERED", False, False, True, None),
        ("DISTRIBUTED BY PARTITION UNORDERED", True, False, True, None),
    ],
)
def test_write_spec(clause, distributed, locally, unordered, order):
    act = action(f"ALTER TABLE t WRITE {clause}")
    assert isinstance(act, WriteSpec)
    assert (act.distributed, act.locally, act.unordered) == (distributed, locally, unordered)
    if order is None:
        assert act.order is None
    else:
        got = [(s.transform.func or s.transform.args[0].dotted, s.descending, s.nulls_first) for s in act.order]
        assert got == order


def test_sort_term_spans():
    sql = "ALTER TABLE t WRITE ORDERED BY bucket(4, id) DESC NULLS LAST, `utm.source`"
    act = action(sql)
    assert act.order == (
        SortTerm(
            Transform("bucket", (4, N(sql, "id")), S(sql, "bucket(4, id)")),
            True,
            False,
            S(sql, "bucket(4, id) DESC NULLS LAST"),
        ),
        SortTerm(
            Transform(None, (N(sql, "`utm.source`", ("utm.source",)),), S(sql, "`utm.source`")),
            False,
            None,
            S(sql, "`utm.source`"),
        ),
    )


def test_identifier_fields():
    sql = "ALTER TABLE t SET IDENTIFIER FIELDS a, b.c"
    assert action(sql) == SetIdentifierFields((N(sql, "a"), N(sql, "b.c")))
    sql = "ALTER TABLE t DROP IDENTIFIER FIELDS a"
    assert action(sql) == DropIdentifierFields((N(sql, "a"),))


@pytest.mark.parametrize(
    "clause, expected",
    [
        ("CREATE BRANCH b1", BranchOrTag("create", "branch", "b1")),
        ("CREATE BRANCH IF NOT EXISTS b1 AS OF VERSION 1234 RETAIN 7 DAYS", BranchOrTag("create", "branch", "b1", True, "1234")),
        ("CREATE OR REPLACE TAG `v1.0` AS OF VERSION 5", BranchOrTag("create_or_replace", "tag", "v1.0", False, "5")),
        ("REPLACE BRANCH audit WITH SNAPSHOT RETENTION 3 SNAPSHOTS", BranchOrTag("replace", "branch", "audit")),
        ("DROP TAG IF EXISTS t1", BranchOrTag("drop", "tag", "t1", True)),
        ("drop branch b", BranchOrTag("drop", "branch", "b")),
    ],
)
def test_branch_and_tag(clause, expected):
    assert action(f"ALTER TABLE db.t {clause}") == expected


# ---------------------------------------------------------------------------- CREATE / DROP TABLE


def test_create_table_full():
    sql = (
        "CREATE TABLE IF NOT EXISTS db.orders (\n"
        "  id bigint NOT NULL COMMENT 'key',\n"
        "  ts timestamp,\n"
        "  payload struct<a: int, b: array<string>>\n"
        ") USING iceberg\n"
        "PARTITIONED BY (days(ts), bucket(16, id))\n"
        "TBLPROPERTIES ('format-version'='2')\n"
        "LOCATION 's3://x/orders'\n"
        "COMMENT 'orders table'"
    )
    st = one(sql)
    assert isinstance(st, CreateTable)
    assert st.table == N(sql, "db.orders")
    assert st.columns[0] == ColumnDef(
        N(sql, "id"), T("bigint"), True, "key", None, None, S(sql, "id bigint NOT NULL COMMENT 'key'")
    )
    assert [c.path.dotted for c in st.columns] == ["id", "ts", "payload"]
    assert st.columns[2].type == SqlType(
        "struct",
        fields=(SqlField("a", T("int"), span=S(sql, "a: int")), SqlField("b", SqlType("array", element=T("string")), span=S(sql, "b: array<string>"))),
    )
    assert (st.or_replace, st.replace, st.if_not_exists, st.using) == (False, False, True, "iceberg")
    assert st.partitioned_by == (
        Transform("days", (N(sql, "ts", nth=1),), S(sql, "days(ts)")),
        Transform("bucket", (16, N(sql, "id", nth=1)), S(sql, "bucket(16, id)")),
    )
    assert st.properties == (("format-version", "2"),)
    assert (st.location, st.comment, st.as_select) == ("s3://x/orders", "orders table", False)
    assert pos(st.span) == (1, 1, 9, 22)


def test_create_table_clauses_in_any_order_after_using_and_replace_forms():
    # Spark's grammar: USING right after the columns, then the other clauses in any order (case 628)
    assert isinstance(one("CREATE OR REPLACE TABLE t (a int) TBLPROPERTIES ('k'='v') PARTITIONED BY (a) USING iceberg"), Unparsed)
    st = one("CREATE OR REPLACE TABLE t (a int) USING iceberg TBLPROPERTIES ('k'='v') PARTITIONED BY (a)")
    assert (st.or_replace, st.replace, st.using, st.properties) == (True, False, "iceberg", (("k", "v"),))
    assert st.partitioned_by[0].func is None
    st = one("REPLACE TABLE t (a int) USING iceberg")
    assert (st.or_replace, st.replace, st.columns[0].path.dotted) == (False, True, "a")


@pytest.mark.parametrize(
    "sql",
    [
        "CREATE TABLE t USING iceberg AS SELECT * FROM s",
        "CREATE TABLE t USING iceberg PARTITIONED BY (a) AS (SELECT 1 AS a)",
        "CREATE TABLE t USING iceberg SELECT 1",
        "CREATE OR REPLACE TABLE t AS WITH x AS (SELECT 1) SELECT * FROM x",
    ],
)
def test_create_table_as_select(sql):
    st = one(sql)
    assert isinstance(st, CreateTable) and st.as_select is True and st.columns == ()


def test_create_table_hive_style_partition_column_adds_the_column():
    sql = "CREATE TABLE t (a int) USING iceberg PARTITIONED BY (region string COMMENT 'r')"
    st = one(sql)
    assert [c.path.dotted for c in st.columns] == ["a", "region"]
    assert st.columns[1].comment == "r"
    assert st.partitioned_by == (Transform(None, (N(sql, "region"),), S(sql, "region")),)


def test_create_table_clustered_by_is_a_bucket_transform_after_the_partitions():
    sql = "CREATE TABLE t (a int, b string, ts timestamp) USING iceberg PARTITIONED BY (days(ts)) CLUSTERED BY (a) INTO 16 BUCKETS"
    st = one(sql)
    assert [t.func for t in st.partitioned_by] == ["days"]
    assert st.clustered_by == Transform("bucket", (16, N(sql, "a", nth=1)), S(sql, "CLUSTERED BY (a) INTO 16 BUCKETS"))
    sql = "create table t (a int, b string) using iceberg clustered by (a, b) sorted by (b desc, a) into 4 buckets"
    (t,) = [one(sql).clustered_by]
    assert t.func == "sorted_bucket" and [x if isinstance(x, int) else x.dotted for x in t.args] == ["a", "b", 4, "b", "a"]
    st = one("CREATE TABLE t USING iceberg CLUSTERED BY (a) INTO 4 BUCKETS AS SELECT 1 AS a")
    assert st.as_select and st.clustered_by is not None and st.clustered_by.args[0] == 4
    assert "BUCKETS" in unparsed("CREATE TABLE t (a int) USING iceberg CLUSTERED BY (a) INTO 4").message
    assert unparsed("CREATE TABLE t (a int) CLUSTERED BY (a) INTO 2 BUCKETS CLUSTERED BY (a) INTO 2 BUCKETS").message == (
        "duplicate CLUSTERED clause in CREATE TABLE"
    )


def test_create_table_position_clause_parses_harmlessly():
    st = one("CREATE TABLE t (a int, b int FIRST) USING iceberg")
    assert st.columns[1].position is not None and st.columns[1].position.first


def test_create_table_split_keywords_and_duplicates():
    # `PARTITIONED BY` is one sqlglot token when separated by whitespace only.
    st = one("CREATE TABLE t (a int)\nPARTITIONED\n   BY (a)")
    assert st.partitioned_by[0].args[0].parts == ("a",)
    st = one("CREATE TABLE t (a int) partitioned /* c */ by (a)")
    assert st.partitioned_by[0].args[0].parts == ("a",)
    assert unparsed("CREATE TABLE t (a int) COMMENT 'x' COMMENT 'y'").message == "duplicate COMMENT clause in CREATE TABLE"


def test_create_other_objects():
    # CREATE TABLE t LIKE s: a command on `s` (the table it reads) that Spark refuses for Iceberg (case 629)
    st = one("CREATE TABLE t LIKE db.s USING iceberg")
    assert isinstance(st, AlterTable) and st.table.dotted == "db.s"
    assert (st.action.command, st.action.target, pos(st.action.span)) == ("create table like", "t", (1, 16, 1, 19))
    assert one("CREATE OR REPLACE TEMP VIEW v AS SELECT 1").keyword == "create view"
    assert one("CREATE NAMESPACE IF NOT EXISTS db").keyword == "create namespace"
    assert one("CREATE DATABASE db").keyword == "create database"
    assert one("CREATE TEMPORARY TABLE x USING parquet").keyword == "create temporary table"


def test_drop_table():
    sql = "DROP TABLE IF EXISTS db.t PURGE"
    assert one(sql) == DropTable(N(sql, "db.t"), True, True, S(sql, sql))
    sql = "DROP TABLE t"
    assert one(sql) == DropTable(N(sql, "t"), False, False, S(sql, sql))
    assert one("DROP VIEW v").keyword == "drop view"


# ---------------------------------------------------------------------------- SET, CALL, other


@pytest.mark.parametrize(
    "sql, key, value",
    [
        ("SET spark.sql.caseSensitive=true", "spark.sql.caseSensitive", "true"),
        ("SET spark.sql.caseSensitive = false", "spark.sql.caseSensitive", "false"),
        ("SET `my.key` = 'a b'", "my.key", "a b"),
        ("SET spark.sql.x = a b c", "spark.sql.x", "a b c"),
        ("SET spark.sql.shuffle.partitions=200", "spark.sql.shuffle.partitions", "200"),
        ("SET k", "k", None),
        ("SET k =", "k", ""),
    ],
)
def test_set_config(sql, key, value):
    assert one(sql) == SetConfig(key, value, S(sql, sql))


def test_set_without_key_is_other_and_reset_sets_back():
    assert one("SET").keyword == "set"
    assert one("SET -v").keyword == "set"
    assert one("SET TIME ZONE 'UTC'").keyword == "set time zone"
    # RESET sets every key (or the one named) back to its default (case 636: spark.sql.caseSensitive, spark.wap.branch)
    assert one("RESET")[::3] == ("", True)
    assert one("RESET spark.sql.caseSensitive")[::3] == ("spark.sql.caseSensitive", True)
    assert one("RESET `spark.wap.branch`")[::3] == ("spark.wap.branch", True)


def test_call():
    sql = "CALL cat.system.rewrite_data_files(table => 'db.t', options => map('a', 'b'), 42, where => 'x > 1')"
    assert one(sql) == Call(
        N(sql, "cat.system.rewrite_data_files"),
        (("table", "'db.t'"), ("options", "map('a', 'b')"), (None, "42"), ("where", "'x > 1'")),
        S(sql, sql),
    )
    st = one("CALL system.expire_snapshots()")
    assert st.args == () and st.procedure_name == "expire_snapshots"


def test_call_is_retokenized_with_real_positions():
    # sqlglot swallows the text after CALL into one STRING token with bogus offsets.
    sql = "SELECT 1;\nCALL  cat.system.rollback_to_snapshot(\n  'db.t', -- the table\n  1234);"
    f = parse(sql)
    call = f.statements[1]
    assert call.procedure == N(sql, "cat.system.rollback_to_snapshot")
    assert call.args == ((None, "'db.t'"), (None, "1234"))
    assert pos(call.span) == (2, 1, 4, 7)
    assert f.comments == (Comment("the table", S(sql, "-- the table")),)


@pytest.mark.parametrize(
    "sql, keyword, table",
    [
        ("INSERT INTO db.t VALUES (1)", "insert", ("db", "t")),
        ("INSERT INTO TABLE db.t SELECT 1", "insert", ("db", "t")),
        ("INSERT OVERWRITE t SELECT 1", "insert", ("t",)),
        ("INSERT OVERWRITE DIRECTORY '/x' SELECT 1", "insert", None),
        ("UPDATE db.t SET a = 1 WHERE b", "update", ("db", "t")),
        ("DELETE FROM db.t WHERE a = 1", "delete", ("db", "t")),
        ("DELETE FROM db.t", "delete all", ("db", "t")),
        ("DELETE FROM db.t AS x WHERE x.a IN (SELECT 1)", "delete", ("db", "t")),
        ("MERGE INTO db.t USING s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *", "merge", ("db", "t")),
        ("TRUNCATE TABLE db.t", "truncate", ("db", "t")),
        ("SELECT * FROM t", "select", None),
        ("(SELECT 1) UNION (SELECT 2)", "select", None),
        ("WITH x AS (SELECT 1) SELECT * FROM x", "with", None),
        ("SHOW TABLES", "show", None),
        ("DESCRIBE TABLE EXTENDED t", "describe", None),
        ("DESC t", "desc", None),
        ("EXPLAIN SELECT 1", "explain", None),
        ("ANALYZE TABLES IN db COMPUTE STATISTICS", "analyze", None),
        ("CACHE TABLE t", "cache", None),
        ("ALTER VIEW v AS SELECT 1", "alter view", None),
        ("DROP NAMESPACE db CASCADE", "drop namespace", None),
        ("REFRESH TABLE t", "refresh", None),
    ],
)
def test_other_statements(sql, keyword, table):
    st = one(sql)
    assert isinstance(st, Other), st
    assert st.keyword == keyword
    assert (st.table.parts if st.table else None) == table
    assert st.span == S(sql, sql)


# ---------------------------------------------------------------------------- types


@pytest.mark.parametrize(
    "written, expected",
    [
        ("tinyint", T("tinyint")),
        ("SMALLINT", T("smallint")),
        ("Int", T("int")),
        ("integer", T("integer")),
        ("bigint", T("bigint")),
        ("long", T("long")),
        ("float", T("float")),
        ("real", T("real")),
        ("double", T("double")),
        ("decimal", T("decimal")),
        ("decimal(10)", T("decimal", 10)),
        ("DECIMAL(38, 18)", T("decimal", 38, 18)),
        ("dec(5,2)", T("dec", 5, 2)),
        ("numeric(5,2)", T("numeric", 5, 2)),
        ("string", T("string")),
        ("varchar(10)", T("varchar", 10)),
        ("char(2)", T("char", 2)),
        ("character(3)", T("character", 3)),
        ("binary", T("binary")),
        ("boolean", T("boolean")),
        ("date", T("date")),
        ("timestamp", T("timestamp")),
        ("timestamp_ntz", T("timestamp_ntz")),
        ("timestamp_ltz", T("timestamp_ltz")),
        ("void", T("void")),
        ("interval year", T("interval year")),
        ("INTERVAL DAY TO SECOND", T("interval day to second")),
        ("array<int>", SqlType("array", element=T("int"))),
        ("map<string, bigint>", SqlType("map", key=T("string"), value=T("bigint"))),
        ("map<string,array<int>>", SqlType("map", key=T("string"), value=SqlType("array", element=T("int")))),
        ("array<array<array<int>>>", SqlType("array", element=SqlType("array", element=SqlType("array", element=T("int"))))),
        ("struct<>", SqlType("struct")),
        (
            "struct<a: int NOT NULL COMMENT 'x', b string, comment: map<int, struct<c int>>>",
            SqlType(
                "struct",
                fields=(
                    SqlField("a", T("int"), True, "x"),
                    SqlField("b", T("string")),
                    SqlField("comment", SqlType("map", key=T("int"), value=SqlType("struct", fields=(SqlField("c", T("int")),)))),
                ),
            ),
        ),
    ],
)
def test_types(written, expected):
    col = action(f"ALTER TABLE t ADD COLUMN c {written}").columns[0]
    got = col.type

    def strip(t: SqlType) -> SqlType:  # SqlField spans take part in equality: drop them
        return SqlType(
            t.name,
            t.params,
            tuple(SqlField(f.name, strip(f.type), f.not_null, f.comment) for f in t.fields),
            strip(t.element) if t.element else None,
            strip(t.key) if t.key else None,
            strip(t.value) if t.value else None,
        )

    assert strip(got) == expected
    assert got.span == S(f"ALTER TABLE t ADD COLUMN c {written}", written)


def test_nested_type_spans():
    sql = "ALTER TABLE t ADD COLUMN c map<string, array<struct<x: int>>>"
    typ = action(sql).columns[0].type
    assert typ.span == S(sql, "map<string, array<struct<x: int>>>")
    assert typ.key.span == S(sql, "string")
    assert typ.value.span == S(sql, "array<struct<x: int>>")
    assert typ.value.element.span == S(sql, "struct<x: int>")
    assert typ.value.element.fields[0].span == S(sql, "x: int")


@pytest.mark.parametrize(
    "written, message",
    [
        ("foo", "expected a data type after 'ADD COLUMN c', found 'foo'"),
        ("`int`", "expected a data type after 'ADD COLUMN c', found '`int`'"),
        ("varchar", "expected '(' and a length after 'ADD COLUMN c varchar', found end of statement"),
        ("string(10)", "expected NOT NULL, DEFAULT, COMMENT, FIRST, AFTER, ',' or end of statement after 'ADD COLUMN c string', found '('"),
        ("array<int>>", "expected NOT NULL, DEFAULT, COMMENT, FIRST, AFTER, ',' or end of statement after 'ADD COLUMN c array<int>', found '>'"),
        ("array<int", "expected '>' after 'ADD COLUMN c array<int', found end of statement"),
        ("interval", "expected YEAR, MONTH, DAY, HOUR, MINUTE or SECOND after 'ADD COLUMN c interval', found end of statement"),
        ("COMMENT 'x'", "expected a data type after 'ADD COLUMN c', found 'COMMENT'"),
    ],
)
def test_type_errors(written, message):
    assert unparsed(f"ALTER TABLE t ADD COLUMN c {written}").message == message


# ---------------------------------------------------------------------------- spans and splitting


def test_statement_spans_lines_and_columns():
    sql = "-- header\n\nALTER TABLE t\n  DROP COLUMN a;\n   SELECT 1 ;\nDROP TABLE t"
    f = parse(sql)
    assert [type(s).__name__ for s in f.statements] == ["AlterTable", "Other", "DropTable"]
    assert pos(f.statements[0].span) == (3, 1, 4, 15)
    assert f.statements[0].span.start == sql.index("ALTER")
    assert f.statements[0].span.end == sql.index(";")  # without the semicolon
    assert pos(f.statements[1].span) == (5, 4, 5, 11)
    assert pos(f.statements[2].span) == (6, 1, 6, 12)
    assert all(s.span.path == PATH for s in f.statements)


def test_semicolons_in_strings_and_comments_do_not_split():
    sql = "ALTER TABLE t ALTER COLUMN a COMMENT 'x; y'; /* ; */ -- ;\nALTER TABLE t DROP COLUMN b"
    f = parse(sql)
    assert len(f.statements) == 2
    assert f.statements[0].action.comment == "x; y"


def test_empty_and_comment_only_files():
    assert parse("").statements == ()
    assert parse("   \n\n").statements == ()
    assert parse(";;\n;").statements == ()
    f = parse("-- just a comment\n/* and another */")
    assert f.statements == ()
    assert [c.text for c in f.comments] == ["just a comment", "and another"]


def test_parse_file():
    f = parse_file(SourceFile("dir/x.sql", "ALTER TABLE t DROP COLUMN a"))
    assert f.path == "dir/x.sql"
    assert f.statements[0].span.path == "dir/x.sql"


# ---------------------------------------------------------------------------- comments


def test_comments_with_exact_spans():
    sql = (
        "-- first\n"
        "ALTER TABLE t /* inline */ ADD COLUMN a int COMMENT '-- not a comment /* nor this */';  -- trailing  \n"
        "/* multi\n   line */\n"
        "/* outer /* nested */ still */ SELECT '--'; --end"
    )
    f = parse(sql)
    assert f.comments == (
        Comment("first", S(sql, "-- first")),
        Comment("inline", S(sql, "/* inline */")),
        Comment("trailing", S(sql, "-- trailing  ")),
        Comment("multi\n   line", S(sql, "/* multi\n   line */")),
        Comment("outer /* nested */ still", S(sql, "/* outer /* nested */ still */")),
        Comment("end", S(sql, "--end")),
    )
    assert pos(f.comments[3].span) == (3, 1, 4, 10)
    assert f.statements[0].action.columns[0].comment == "-- not a comment /* nor this */"


def test_comment_spans_exclude_crlf():
    sql = "-- a\r\nALTER TABLE t DROP COLUMN a -- b\r\n;"
    f = parse(sql)
    assert f.comments == (Comment("a", S(sql, "-- a")), Comment("b", S(sql, "-- b")))
    assert len(f.statements) == 1


def test_comments_inside_show_and_explain_bodies():
    sql = "SHOW TABLES -- list\n; EXPLAIN /* plan */ SELECT '--x'"
    f = parse(sql)
    assert [c.text for c in f.comments] == ["list", "plan"]
    assert [s.keyword for s in f.statements] == ["show", "explain"]


# ---------------------------------------------------------------------------- errors


def test_error_message_span_and_recovery():
    sql = "ALTER TABLE t ADD COLUMN a int;\nALTER TABLE db.t ALTER COLUMN qty WIDER;\nALTER TABLE t DROP COLUMN b"
    f = parse(sql)
    assert [type(s).__name__ for s in f.statements] == ["AlterTable", "Unparsed", "AlterTable"]
    u = f.statements[1]
    assert u == Unparsed(
        "expected TYPE, SET NOT NULL, DROP NOT NULL, SET DEFAULT, DROP DEFAULT, COMMENT, FIRST or AFTER "
        "after 'ALTER COLUMN qty', found 'WIDER'",
        S(sql, "ALTER TABLE db.t ALTER COLUMN qty WIDER"),
        S(sql, "WIDER"),
    )
    assert pos(u.error_span) == (2, 35, 2, 39)


@pytest.mark.parametrize(
    "sql, message, culprit",
    [
        ("ALTR TABLE t", "expected a statement, found 'ALTR'", "ALTR"),
        ("ALTER TABLE", "expected a table name after 'ALTER TABLE', found end of statement", "TABLE"),
        ("ALTER TABLE t", "expected an ALTER TABLE action after 'ALTER TABLE t', found end of statement", "t"),
        ("ALTER TABLE t FROB x", "expected ADD, DROP, RENAME, ALTER, CHANGE, REPLACE, SET, UNSET, WRITE or CREATE after 'ALTER TABLE t', found 'FROB'", "FROB"),
        ("ALTER TABLE t ADD x int", "expected COLUMN, COLUMNS or PARTITION FIELD after 'ADD', found 'x'", "x"),
        ("ALTER TABLE t ALTER COLUMN m TYPE double COMMENT 'x'", "[PARSE_SYNTAX_ERROR] Syntax error at or near 'COMMENT'. Spark 3.5 takes one change per ALTER COLUMN", "COMMENT"),
        ("ALTER TABLE t ALTER COLUMN a COMMENT 'it''s'", "expected end of statement after 'ALTER COLUMN a COMMENT 'it'', found ''s''", "'s'"),
        ("ALTER TABLE t ADD COLUMNS (a int, )", "expected a column name after 'ADD COLUMNS (a int,', found ')'", ")"),
        ("ALTER TABLE t ADD COLUMNS (a int, b bigint", "expected NOT NULL, DEFAULT, COMMENT, FIRST, AFTER, ',' or ')' after 'b bigint', found end of statement", "bigint"),
        ("ALTER TABLE t ADD COLUMN a int AFTER x.y", "expected NOT NULL, DEFAULT, COMMENT, FIRST, AFTER, ',' or end of statement after 'ADD COLUMN a int AFTER x', found '.'", "."),
        ("ALTER TABLE t WRITE", "expected DISTRIBUTED BY PARTITION, LOCALLY ORDERED BY, ORDERED BY or UNORDERED after 'WRITE', found end of statement", "WRITE"),
        ("ALTER TABLE t WRITE ORDERED BY a NULLS", "expected FIRST or LAST after 'WRITE ORDERED BY a NULLS', found end of statement", "NULLS"),
        ("ALTER TABLE t ADD PARTITION FIELD bucket(16, id", "expected ',' or ')' after 'ADD PARTITION FIELD bucket(16, id', found end of statement", "id"),
        ("CALL cat.system.f('a'", "expected ',' or ')' after 'CALL cat.system.f('a'', found end of statement", "'a'"),
        ("DROP TABLE t CASCADE", "expected end of statement after 'DROP TABLE t', found 'CASCADE'", "CASCADE"),
    ],
)
def test_error_messages(sql, message, culprit):
    u = unparsed(sql)
    assert u.message == message
    assert u.span == S(sql, sql)
    assert (u.error_span.start, u.error_span.end) == (sql.rindex(culprit), sql.rindex(culprit) + len(culprit))


def test_unterminated_string_keeps_earlier_statements():
    sql = "ALTER TABLE t DROP COLUMN a; -- ok\nALTER TABLE t DROP COLUMN b;\n-- next\nALTER TABLE t ALTER COLUMN c COMMENT 'oops;\nSELECT 1;"
    f = parse(sql)
    assert [type(s).__name__ for s in f.statements] == ["AlterTable", "AlterTable", "Unparsed"]
    u = f.statements[2]
    assert u.message == "unterminated string literal (the quote ' is never closed)"
    assert u.span == LineIndex(PATH, sql).span(sql.index("ALTER TABLE t ALTER"), len(sql))
    assert u.error_span == LineIndex(PATH, sql).span(sql.index("'oops"), sql.index("'oops") + 1)
    assert pos(u.error_span) == (4, 38, 4, 38)
    assert [c.text for c in f.comments] == ["ok", "next"]


def test_tokenizer_errors_never_raise():
    f = parse("SELECT `abc")
    assert len(f.statements) == 1
    assert f.statements[0].message == "unterminated quoted identifier (the backtick ` is never closed)"
    assert pos(f.statements[0].span) == (1, 1, 1, 11)

    sql = "DROP TABLE a;\nSELECT 1; /* never closed\n DROP TABLE b;"
    f = parse(sql)
    assert [type(s).__name__ for s in f.statements] == ["DropTable", "Other", "Unparsed"]
    u = f.statements[2]
    assert u.message == "unterminated comment (/* is never closed)"
    assert u.error_span == S(sql, "/*")
    assert u.span == LineIndex(PATH, sql).span(sql.index("/*"), len(sql))

    f = parse("CALL cat.system.f('x)")
    assert [type(s).__name__ for s in f.statements] == ["Unparsed"]
    assert f.statements[0].message.startswith("unterminated string literal")


def test_never_raises_on_any_prefix():
    sql = (
        "CREATE TABLE db.t (id bigint NOT NULL, s struct<a: int, `b c`: map<string, array<int>>>) USING iceberg "
        "PARTITIONED BY (bucket(16, id)) TBLPROPERTIES ('a'='b');\n"
        "ALTER TABLE db.t WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY (id DESC NULLS LAST);\n"
        "/* c */ CALL cat.system.f(a => 'x', 1); SET a.b = 'c'; ALTER TABLE t CHANGE COLUMN a a int -- x\n"
    )
    for end in range(len(sql) + 1):
        f = parse(sql[:end])
        assert isinstance(f, ParsedFile)
        for st in f.statements:
            assert st.span.start <= st.span.end <= end
