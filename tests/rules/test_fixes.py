"""The fix generators, one by one: exact content, applicability, and the schema the fixed file reaches.

`test_fix_replay.py` applies every fix over the whole corpus; this file pins what each kind of fix
writes, on small migrations whose intent is known.
"""

from __future__ import annotations

import pytest

from icelint.engine.checker import lint_run
from icelint.values.fix import Applicability, apply_fixes
from icelint.engine.pipeline import replay_sources, replay_text
from icelint.rules import ALL_RULES
from icelint.values.source import SourceFile

TABLE = "CREATE TABLE db.t (id bigint, note string, s struct<a: int>) USING iceberg;\nINSERT INTO db.t VALUES (1, 'a', named_struct('a', 1));\n"


def fixes_of(sql: str, rule: str):
    return [f.fix for f in lint_run(replay_text(sql, path="V1__x.sql"), ALL_RULES) if f.rule == rule and f.fix is not None]


def fixed(sql: str, unsafe: bool = True) -> str:
    """`sql` after --fix (--unsafe-fixes), one fix per pass until none is left."""
    for _ in range(10):
        fixes = [f.fix for f in lint_run(replay_text(sql, path="V1__x.sql"), ALL_RULES) if f.fix and f.fix.applies(unsafe)]
        if not fixes:
            return sql
        sql, _ = apply_fixes(sql, fixes[:1])
    raise AssertionError("fixes do not converge")


def columns(sql: str) -> list[tuple]:
    meta = replay_text(sql, path="V1__x.sql").result.tables["db.t"]
    return [(".".join(p), f.id, str(f.type), f.required, f.doc) for p, f in meta.schema.all_fields()]


def test_hive_change_column_becomes_rename_then_alter() -> None:
    sql = TABLE + "ALTER TABLE db.t CHANGE COLUMN note memo string COMMENT 'memo' FIRST;\n"
    (fix,) = fixes_of(sql, "ICE005")
    assert fix.applicability is Applicability.SAFE
    assert fix.edits[0].content == (
        "ALTER TABLE db.t RENAME COLUMN note TO memo;\n"
        "ALTER TABLE db.t ALTER COLUMN memo COMMENT 'memo';\n"
        "ALTER TABLE db.t ALTER COLUMN memo FIRST"
    )
    after = fixed(sql)
    assert after.endswith("ALTER TABLE db.t ALTER COLUMN memo FIRST;\n")
    assert columns(after)[0] == ("memo", 2, "string", False, "memo")  # note's field id, renamed, commented, first


def test_hive_change_column_with_a_legal_promotion() -> None:
    sql = "CREATE TABLE db.t (id bigint, n int) USING iceberg;\nALTER TABLE db.t CHANGE COLUMN n m bigint AFTER id;\n"
    (fix,) = fixes_of(sql, "ICE005")
    assert fix.edits[0].content == (
        "ALTER TABLE db.t RENAME COLUMN n TO m;\nALTER TABLE db.t ALTER COLUMN m TYPE bigint;\nALTER TABLE db.t ALTER COLUMN m AFTER id"
    )
    assert columns(fixed(sql)) == [("id", 1, "long", False, None), ("m", 2, "long", False, None)]


@pytest.mark.parametrize(
    "statement,content",
    [
        ("ALTER TABLE db.t ADD COLUMN c int NOT NULL COMMENT 'c'", "ALTER TABLE db.t ADD COLUMN c int COMMENT 'c'"),
        ("ALTER TABLE db.t ADD COLUMN s.b int NOT NULL", "ALTER TABLE db.t ADD COLUMN s.b int"),
        ("ALTER TABLE db.t ADD COLUMNS (p string, q int NOT NULL)", "ALTER TABLE db.t ADD COLUMNS p string, q int"),
    ],
)
def test_required_add_becomes_optional_add(statement: str, content: str) -> None:
    sql = TABLE + statement + ";\n"
    (fix,) = fixes_of(sql, "ICE004")
    assert fix.applicability is Applicability.UNSAFE
    assert fix.edits[0].content == content
    assert fixed(sql, unsafe=False) == sql  # unsafe: --fix alone leaves it
    assert not [f for f in lint_run(replay_text(fixed(sql), path="V1__x.sql"), ALL_RULES) if f.rule in ("ICE004", "ICE005")]


def test_drop_then_add_renames_the_old_column_aside() -> None:
    sql = TABLE + "ALTER TABLE db.t DROP COLUMN note; -- gone\nALTER TABLE db.t ADD COLUMN note binary;\n"
    (fix,) = fixes_of(sql, "ICE001")
    assert fix.applicability is Applicability.UNSAFE
    assert fix.edits[0].content == "ALTER TABLE db.t RENAME COLUMN note TO note_old"
    assert (fix.edits[0].row, fix.edits[0].column) == (3, 1)  # the DROP, not the flagged ADD
    after = fixed(sql)
    assert "RENAME COLUMN note TO note_old; -- gone\n" in after
    cols = columns(after)
    assert ("note_old", 2, "string", False, None) in cols and ("note", 5, "binary", False, None) in cols


def test_drop_then_add_names_a_quoted_column_aside_whole() -> None:
    """The fix's message names the new name as SQL, whatever the name holds (it was cut at " TO ")."""
    sql = "CREATE TABLE db.t (id bigint, `a TO b` string) USING iceberg;\nINSERT INTO db.t VALUES (1, 'x');\n"
    sql += "ALTER TABLE db.t DROP COLUMN `a TO b`;\nALTER TABLE db.t ADD COLUMN `a TO b` binary;\n"
    (fix,) = fixes_of(sql, "ICE001")
    assert fix.edits[0].content == "ALTER TABLE db.t RENAME COLUMN `a TO b` TO `a TO b_old`"
    assert fix.message.startswith("Rename `a TO b` aside to `a TO b_old` instead of dropping it")
    assert ("a TO b_old", 2, "string", False, None) in columns(fixed(sql))


def test_drop_then_add_with_rows_written_between_is_display_only() -> None:
    sql = TABLE + (
        "ALTER TABLE db.t DROP COLUMN note;\nINSERT INTO db.t VALUES (2, named_struct('a', 2));\n"
        "ALTER TABLE db.t ADD COLUMN note binary;\n"
    )
    (fix,) = fixes_of(sql, "ICE001")
    assert fix.applicability is Applicability.DISPLAY_ONLY
    assert fixed(sql) == sql


def test_drop_in_an_earlier_file_offers_a_new_name_for_display_only() -> None:
    files = [SourceFile("V1__a.sql", TABLE + "ALTER TABLE db.t DROP COLUMN note;\n"), SourceFile("V2__b.sql", "ALTER TABLE db.t ADD COLUMN note binary;\n")]
    (finding,) = [f for f in lint_run(replay_sources(files), ALL_RULES) if f.rule == "ICE001"]
    assert finding.fix.applicability is Applicability.DISPLAY_ONLY
    assert finding.fix.edits[0].content == "ALTER TABLE db.t ADD COLUMN note_v2 binary"


def test_replace_columns_by_name_is_safe_and_exact() -> None:
    sql = TABLE + "ALTER TABLE db.t REPLACE COLUMNS (id bigint COMMENT 'key', s struct<a: bigint>, extra string);\n"
    fixes = fixes_of(sql, "ICE001")
    assert fixes and all(f == fixes[0] for f in fixes)  # one fix, on every re-added column's finding
    assert fixes[0].applicability is Applicability.SAFE
    assert fixes[0].edits[0].content == (
        "ALTER TABLE db.t DROP COLUMN note;\n"
        "ALTER TABLE db.t ALTER COLUMN id COMMENT 'key';\n"
        "ALTER TABLE db.t ALTER COLUMN s.a TYPE bigint;\n"
        "ALTER TABLE db.t ADD COLUMN extra string"
    )
    listed = [(p, t, r, d) for p, _, t, r, d in columns(sql)]
    after = fixed(sql, unsafe=False)
    assert [(p, t, r, d) for p, _, t, r, d in columns(after)] == listed  # the listed schema, exactly
    assert [i for _, i, *_ in columns(after)][:3] == [1, 3, 4]  # id, s, s.a keep their field ids


def test_replace_columns_with_a_guessed_rename_is_unsafe() -> None:
    sql = TABLE + "ALTER TABLE db.t REPLACE COLUMNS (id bigint, memo string, s struct<a: int>);\n"
    (fix, *_) = fixes_of(sql, "ICE001")
    assert fix.applicability is Applicability.UNSAFE
    assert "note → memo" in fix.message
    assert fix.edits[0].content == "ALTER TABLE db.t RENAME COLUMN note TO memo"


def test_replace_columns_with_case_twins_in_a_struct_is_display_only() -> None:
    # the ALTERs would add `t struct<y, Y>`, which Spark accepts and then cannot read (ICE029): not applied
    sql = TABLE + "ALTER TABLE db.t REPLACE COLUMNS (id bigint, note string, t struct<y: int, Y: int>);\n"
    fixes = fixes_of(sql, "ICE001")
    assert fixes and fixes[0].applicability is Applicability.DISPLAY_ONLY
    assert "ADD COLUMN t struct<y: int, Y: int>" in fixes[0].edits[0].content
    assert "ICE029" in {f.rule for f in lint_run(replay_text(sql, path="V1__x.sql"), ALL_RULES)}


def test_replace_columns_with_the_current_columns_is_deleted() -> None:
    sql = TABLE + "ALTER TABLE db.t REPLACE COLUMNS (id bigint, note string, s struct<a: int>); -- same\n"
    assert fixed(sql, unsafe=False) == TABLE + "; -- same\n"


def test_illegal_type_change_is_display_only() -> None:
    sql = TABLE + "ALTER TABLE db.t ALTER COLUMN note TYPE int;\n"
    (fix,) = fixes_of(sql, "ICE002")
    assert fix.applicability is Applicability.DISPLAY_ONLY
    assert fix.edits[0].content == (  # a string → int backfill copies only the values that convert unchanged
        "ALTER TABLE db.t ADD COLUMN note_v2 int;\n"
        "UPDATE db.t SET note_v2 = CASE WHEN CAST(CAST(note AS int) AS string) = note THEN CAST(note AS int) END"
    )
    assert fixed(sql) == sql


def test_varchar_becomes_string_safely() -> None:
    sql = TABLE + "ALTER TABLE db.t ADD COLUMN v varchar(10);\n"
    (fix,) = fixes_of(sql, "ICE020")
    assert fix.applicability is Applicability.SAFE and fix.edits[0].content == "ALTER TABLE db.t ADD COLUMN v string"
    assert columns(fixed(sql, unsafe=False)) == columns(sql)
