"""Statements that name a branch, tag or snapshot after the table (`db.t.branch_audit`): where the
name is placed (`lower._place_refs`, `Replay._ref_key`), what the replay makes of each statement
(`replay/refs.py`; measured, differential case 633) and what the findings say."""

from __future__ import annotations

from icelint.values import changes as ch
from icelint.run.parallel import partition
from icelint.engine.pipeline import parse_sources
from icelint.values.source import SourceFile
from tests.rules.test_findings_detail import lint

SETUP = """CREATE TABLE db.t (id bigint, data string) USING iceberg;
INSERT INTO db.t VALUES (1, 'a');
ALTER TABLE db.t CREATE BRANCH audit;
ALTER TABLE db.t CREATE TAG v1;
"""


def _commits(sql: str) -> list[ch.Commit]:
    return [s for s in parse_sources([SourceFile("m.sql", sql)]).steps if isinstance(s, ch.Commit)]


def _found(sql: str, code: str | None = None) -> list:
    return [f for f in lint(SETUP + sql, code) if f.line > 4]


def test_a_three_part_name_is_a_ref_when_the_run_names_its_table() -> None:
    last = _commits(SETUP + "INSERT INTO db.t.branch_audit VALUES (2, 'b');")[-1]
    assert last.table == "db.t" and last.ref == ch.NamedRef("branch", "audit", "db.t.branch_audit", "db.t")


def test_a_three_part_name_is_a_table_when_the_run_names_that_table() -> None:
    sql = "CREATE TABLE prod.analytics.tag_events (id bigint) USING iceberg;\nINSERT INTO prod.analytics.tag_events VALUES (1);"
    last = _commits(sql)[-1]
    assert last.table == "prod.analytics.tag_events" and last.ref is None
    assert lint(sql) == []  # a table named tag_events in catalog `prod`, namespace `analytics`


def test_four_parts_are_catalog_table_and_ref() -> None:
    last = _commits(SETUP + "INSERT INTO local.db.t.branch_audit VALUES (2, 'b');")[-1]
    assert last.table == "local.db.t" and last.ref.kind == "branch"
    assert _found("INSERT INTO local.db.t.branch_audit VALUES (2, 'b');") == []


def test_a_name_the_run_cannot_place_is_decided_by_the_state_and_not_split_across_processes() -> None:
    steps = parse_sources([SourceFile("m.sql", "INSERT INTO db.t.branch_audit VALUES (2, 'b');\n" * 3
                                      + "INSERT INTO db.u VALUES (1);\n" * 3)]).steps
    assert steps[0].table == "db.t.branch_audit" and steps[0].ref is not None
    import icelint.run.parallel as par

    old, par.MIN_STEPS = par.MIN_STEPS, 1
    try:
        assert partition(steps, 2) is None
        placed = parse_sources([SourceFile("m.sql", SETUP + "INSERT INTO db.t.branch_audit VALUES (2, 'b');\nINSERT INTO db.u VALUES (1);")]).steps
        assert partition(placed, 2) is not None  # placed by the run: split as usual
    finally:
        par.MIN_STEPS = old


def test_a_branch_write_is_checked_against_the_tables_schema() -> None:
    assert _found("INSERT INTO db.t.branch_audit VALUES (2, 'b');\nUPDATE db.t.branch_audit SET data = 'c' WHERE id = 2;") == []
    (f,) = _found("INSERT INTO db.t.branch_audit VALUES (2, 'b', 3);")
    assert f.rule == "ICE005" and "Cannot write to `db`.`t`" in f.message and f.table == "db.t"
    (f,) = _found("DELETE FROM db.t.branch_audit WHERE nope = 1;")
    assert "`nope` cannot be resolved" in f.message


def test_a_missing_branch_a_tag_and_a_snapshot_take_no_writes() -> None:
    (f,) = _found("INSERT INTO db.t.branch_gone VALUES (3, 'c');")
    assert f.message.endswith("Cannot use branch (does not exist): gone") and (f.line, f.column) == (5, 13)
    assert "`ALTER TABLE db.t CREATE BRANCH gone; INSERT INTO db.t.branch_gone VALUES (3, 'c')`" in f.help
    assert "its branches here: audit" in f.help
    (f,) = _found("INSERT INTO db.t.tag_v1 VALUES (7, 'h');")
    assert "at a specific snapshot (tag `v1`)" in f.message and "`INSERT INTO db.t VALUES (7, 'h')`" in f.help
    (f,) = _found("INSERT INTO db.t.branch_v1 VALUES (7, 'h');")
    assert "v1 is a tag, not a branch" in f.message
    (f,) = _found("INSERT INTO db.t.tag_nope VALUES (7, 'h');")
    assert "[TABLE_OR_VIEW_NOT_FOUND]" in f.message and "`db`.`t`.`tag_nope`" in f.message
    (f,) = _found("INSERT INTO db.t.snapshot_id_2 VALUES (7, 'h');")
    assert "snapshot id 2" in f.message
    assert _found("UPDATE db.t.tag_v1 SET data = 'i' WHERE id = 1;", "ICE005") == []  # accepted by Spark (case 633)


def test_ddl_on_a_ref_name_finds_no_table_and_the_help_changes_the_table() -> None:
    (f,) = _found("ALTER TABLE db.t.branch_audit ADD COLUMN z int;")
    assert "The table or view db.t.branch_audit cannot be found" in f.message
    assert f.help.endswith("`ALTER TABLE db.t ADD COLUMN z int`")


def test_drop_table_of_a_ref_drops_nothing() -> None:
    (f,) = _found("DROP TABLE db.t.branch_audit;")
    assert (f.rule, f.severity.value) == ("ICE019", "warning") and "does nothing" in f.message
    assert f.help == "to drop branch `audit`, `ALTER TABLE db.t DROP BRANCH audit`"
    (f,) = _found("DROP TABLE IF EXISTS db.t.branch_gone;")
    assert f.rule == "ICE005" and "Cannot use branch (does not exist): gone" in f.message
    assert _found("DROP TABLE IF EXISTS db.t.tag_nope;") == []
    # the table is still there: a later statement on it is checked as usual
    assert _found("DROP TABLE db.t.branch_audit;\nALTER TABLE db.t ADD COLUMN z int;", "ICE005") == []


def test_emptying_a_branch_leaves_the_tables_rows() -> None:
    (f,) = _found("TRUNCATE TABLE db.t.branch_audit;")
    assert f.rule == "ICE019" and "on branch `audit`" in f.message
    found = _found("TRUNCATE TABLE db.t.branch_audit;\nALTER TABLE db.t DROP COLUMN data;", "ICE011")
    assert len(found) == 1 and "rows were written at m.sql:2" in found[0].message  # not emptied by the branch's TRUNCATE


def test_a_query_reads_a_branch_with_the_tables_schema() -> None:
    sql = "CREATE TABLE db.u (id bigint, n int) USING iceberg;\nINSERT INTO db.u SELECT id, data FROM db.t.branch_audit;"
    (f,) = _found(sql, "ICE005")
    assert "Cannot safely cast `n` \"STRING\" to \"INT\"" in f.message
    assert _found("CREATE TABLE db.u (id bigint, n string) USING iceberg;\nINSERT INTO db.u SELECT id, data FROM db.t.branch_audit;") == []


def test_fast_forward_needs_refs_and_makes_the_branch() -> None:
    (f,) = _found("CALL system.fast_forward('db.t', 'main', 'nope');", "ICE005")
    assert f.message.endswith("Ref does not exist: nope") and "SELECT name, type FROM db.t.refs" in f.help
    (f,) = _found("CALL system.fast_forward('db.t', 'v1', 'audit');", "ICE005")
    assert f.message.endswith("Ref v1 is a tag not a branch")
    assert _found("CALL system.fast_forward(table => 'db.t', branch => 'audit', to => 'v1');", "ICE005") == []
    # a branch that does not exist is made: writes to it work, creating it again fails
    found = _found("CALL system.fast_forward('db.t', 'newb', 'main');\nINSERT INTO db.t.branch_newb VALUES (7, 'n');\n"
                   "ALTER TABLE db.t CREATE BRANCH newb;", "ICE005")
    assert [(f.line, f.message.split(": ")[-1]) for f in found] == [(7, "Ref newb already exists")]


def test_a_name_nothing_places_says_both_readings() -> None:
    (f,) = lint("INSERT INTO db.t.branch_audit VALUES (1);")
    assert "table `db.t.branch_audit` is not known here (nor table `db.t`, of which the name would be branch `audit`)" in f.message
    assert "`--metadata db.t=PATH/TO/metadata.json`" in f.help and "`--metadata db.t.branch_audit=PATH/TO/metadata.json`" in f.help


WAP = """CREATE TABLE db.w (id bigint, data string) USING iceberg TBLPROPERTIES ('write.wap.enabled'='true');
CREATE TABLE db.plain (id bigint) USING iceberg;
SET spark.wap.branch = audit;
"""


def test_a_wap_session_writes_the_branch_and_makes_it() -> None:
    found = [f for f in lint(WAP + "INSERT INTO db.w VALUES (1, 'a');\nALTER TABLE db.w CREATE BRANCH audit;\n"
                             "INSERT INTO db.plain VALUES (1);\nRESET spark.wap.branch;\nCALL system.fast_forward('db.w', 'main', 'audit');\n"
                             "CALL system.fast_forward('db.plain', 'main', 'audit');", "ICE005")]
    # the WAP write made `audit` on db.w (CREATE BRANCH fails, fast_forward works); db.plain has no WAP: its write went to main
    assert [(f.line, f.message.split("change: ")[-1]) for f in found] == [(5, "Ref audit already exists"), (9, "Ref does not exist: audit")]


def test_a_branch_by_name_is_refused_while_the_session_writes_a_wap_branch() -> None:
    sql = WAP + "ALTER TABLE db.w CREATE BRANCH side;\nINSERT INTO db.w.branch_side VALUES (1, 'a');\n"
    (f,) = lint(sql, "ICE005")
    assert "Cannot write to both branch and WAP branch, but got branch [side] and WAP branch [audit]" in f.message
    assert lint(sql.replace("SET spark.wap.branch = audit;", "SET spark.wap.branch = audit;\nRESET;"), "ICE005") == []


def test_reset_makes_names_case_insensitive_again() -> None:
    sql = ("CREATE TABLE db.c (id bigint) USING iceberg;\nSET spark.sql.caseSensitive = true;\nRESET spark.sql.caseSensitive;\n"
           "ALTER TABLE db.c ADD COLUMN ID2 int;\nALTER TABLE db.c ADD COLUMN id2 int;\n")
    (f,) = lint(sql, "ICE005")
    assert f.line == 5 and "[FIELDS_ALREADY_EXISTS]" in f.message


def test_the_helps_of_a_wap_session() -> None:
    sql = WAP + "INSERT INTO db.w VALUES (1, 'a');\nALTER TABLE db.w CREATE BRANCH audit;\nINSERT INTO db.w.branch_audit VALUES (2, 'b');\n"
    made, both = lint(sql, "ICE005")
    assert made.help == "the ref exists already: keep it with `ALTER TABLE db.w CREATE BRANCH IF NOT EXISTS audit`, or remove the statement"
    assert both.help.endswith("write to the table itself, `INSERT INTO db.w VALUES (2, 'b')`")
