"""What findings say: field ids, engine words, concrete help with the real names.

The case files (test_rule_cases.py) pin *where* findings are; these tests pin *what* they say.
Known icelint bugs are `xfail(strict=True)`: they start failing (XPASS) once fixed.
"""

from __future__ import annotations

import re
from pathlib import Path


from icelint.values.findings import Finding
from icelint.engine.checker import lint_run
from icelint.model.metadata import parse_metadata_bytes
from icelint.engine.pipeline import replay_text
from icelint.rules import ALL_RULES, get

ROOT = Path(__file__).resolve().parents[2]
USERS_38 = ROOT / "fixtures" / "replay" / "38_setup_dropped_columns" / "before" / "db.users.metadata.json"


def lint(sql: str, code: str | None = None, initial: dict | None = None) -> list[Finding]:
    rules = [get(code)] if code else list(ALL_RULES)
    return lint_run(replay_text(sql, initial, path="m.sql"), rules)


def one(sql: str, code: str, initial: dict | None = None) -> Finding:
    found = lint(sql, code, initial)
    assert len(found) == 1, [f.message for f in found]
    return found[0]


PAYLOAD = """CREATE TABLE db.events (id bigint NOT NULL, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;
"""

NESTED = """CREATE TABLE db.payments (id bigint NOT NULL, info struct<code: string, note: string>) USING iceberg;
INSERT INTO db.payments VALUES (1, named_struct('code', 'c', 'note', 'n'));
ALTER TABLE db.payments DROP COLUMN info.note;
ALTER TABLE db.payments ADD COLUMN info.note string;
"""


# --------------------------------------------------------------------------- ICE001
def test_drop_then_add_names_both_field_ids_and_time_travel() -> None:
    f = one(PAYLOAD, "ICE001")
    assert (f.line, f.column, f.severity.value) == (4, 34, "error")
    assert "field id 2" in f.message and "field id 3" in f.message
    assert "time travel" in f.message and "NULL" in f.message
    assert (f.table, f.column_path, f.field_id) == ("db.events", "payload", 3)


def test_drop_then_add_help_gives_both_recipes_with_real_names() -> None:
    f = one(PAYLOAD, "ICE001")
    assert f.help is not None
    assert "ALTER TABLE db.events RENAME COLUMN payload TO payload_old" in f.help
    assert "backfill" in f.help and "later migration" in f.help


def test_drop_then_add_against_history_names_the_old_id() -> None:
    meta = parse_metadata_bytes(USERS_38.read_bytes(), str(USERS_38))
    f = one("ALTER TABLE db.users ADD COLUMN legacy_score bigint;", "ICE001", {"db.users": meta})
    assert "field id 4" in f.message and "field id 8" in f.message


def test_drop_then_add_against_history_says_where_it_was_dropped() -> None:
    meta = parse_metadata_bytes(USERS_38.read_bytes(), str(USERS_38))
    f = one("ALTER TABLE db.users ADD COLUMN legacy_score bigint;", "ICE001", {"db.users": meta})
    assert "dropped at schema 0" not in f.message


def test_drop_then_add_help_for_nested_field_is_runnable() -> None:
    f = one(NESTED, "ICE001")
    assert "RENAME COLUMN info.note TO note_old" in (f.help or "")


def test_drop_column_help_for_nested_field_is_runnable() -> None:
    f = one(NESTED, "ICE011")
    assert "RENAME COLUMN info.note TO note_deprecated" in (f.help or "")


def test_replace_columns_help_warns_against_replace_columns() -> None:
    sql = """CREATE TABLE db.s (id bigint, name string) USING iceberg;
INSERT INTO db.s VALUES (1, 'a');
ALTER TABLE db.s REPLACE COLUMNS (id bigint, name string);
"""
    (f,) = lint(sql, "ICE001")  # one finding for the statement, not one per column
    assert "`id` 1→3, `name` 2→4" in f.message and "REPLACE COLUMNS" in (f.help or "")


# --------------------------------------------------------------------------- ICE002
def test_type_change_rejected_by_spark_says_so() -> None:
    f = one("CREATE TABLE db.m (id bigint NOT NULL, n bigint) USING iceberg;\nALTER TABLE db.m ALTER COLUMN n TYPE int;", "ICE002")
    assert "Spark" in f.message and "NOT_SUPPORTED_CHANGE_COLUMN" in f.message
    assert f.field_id == 2 and f.column_path == "n"


def test_type_change_rejected_by_iceberg_says_so() -> None:
    f = one("CREATE TABLE db.o (id bigint NOT NULL, quantity int) USING iceberg;\nALTER TABLE db.o ALTER COLUMN quantity TYPE string;", "ICE002")
    assert "Iceberg" in f.message
    assert "Cannot change column type: quantity: int -> string" in f.message


def test_type_change_rejected_by_iceberg_names_the_column() -> None:
    f = one("CREATE TABLE db.o (id bigint NOT NULL, quantity int) USING iceberg;\nALTER TABLE db.o ALTER COLUMN quantity TYPE string;", "ICE002")
    assert "`the column`" not in f.message
    assert f.column_path == "quantity"
    assert "ADD COLUMN quantity_v2" in (f.help or "") and "the column" not in (f.help or "")


def test_map_key_help() -> None:
    f = one("CREATE TABLE db.c (id bigint NOT NULL, m map<int, string>) USING iceberg;\nALTER TABLE db.c ALTER COLUMN m.key TYPE bigint;", "ICE002")
    assert "Cannot update map keys" in f.message
    assert "map keys can never change type" in (f.help or "")


# --------------------------------------------------------------------------- ICE003
def test_older_identity_drop_explains_time_travel_failure() -> None:
    sql = """CREATE TABLE db.s (id bigint NOT NULL, region string, at timestamp) USING iceberg PARTITIONED BY (region);
INSERT INTO db.s VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.s REPLACE PARTITION FIELD region WITH days(at);
ALTER TABLE db.s DROP COLUMN region;
"""
    f = one(sql, "ICE003")
    assert f.severity.value == "error" and "ClassCastException" in f.message
    assert "rewrite_data_files(table => 'db.s', options => map('rewrite-all', 'true'))" in (f.help or "")
    assert "not in a migration" in (f.help or "")


def test_current_spec_drop_quotes_iceberg() -> None:
    f = one("CREATE TABLE db.s (id bigint, region string) USING iceberg PARTITIONED BY (region);\nALTER TABLE db.s DROP COLUMN region;", "ICE003")
    assert "Cannot find source column for partition field: 1000: region: identity(2)" in f.message
    assert "DROP PARTITION FIELD" in (f.help or "")


def test_partition_rename_help_names_the_partition_field() -> None:
    f = one("CREATE TABLE db.s (id bigint, region string) USING iceberg PARTITIONED BY (region);\nALTER TABLE db.s RENAME COLUMN region TO area;", "ICE027")
    assert f.severity.value == "warning"
    assert "REPLACE PARTITION FIELD region WITH area AS area" in (f.help or "")


# --------------------------------------------------------------------------- ICE004 / ICE005
def test_identifier_drop_not_null_quotes_iceberg() -> None:
    sql = """CREATE TABLE db.a (account_id bigint NOT NULL) USING iceberg;
ALTER TABLE db.a SET IDENTIFIER FIELDS account_id;
ALTER TABLE db.a ALTER COLUMN account_id DROP NOT NULL;
"""
    f = one(sql, "ICE004")
    assert "Cannot add field account_id as an identifier field: not a required field" in f.message


def test_runtime_failure_quotes_engine_first_line_only() -> None:
    sql = """CREATE TABLE db.o (order_id bigint NOT NULL) USING iceberg;
ALTER TABLE db.o SET IDENTIFIER FIELDS order_id;
ALTER TABLE db.o DROP COLUMN order_id;
"""
    f = one(sql, "ICE005")
    assert "Cannot delete identifier field 1: order_id: required long" in f.message
    assert "\n" not in f.message
    assert "DROP IDENTIFIER FIELDS" in (f.help or "")


def test_runtime_failure_duplicate_says_case_insensitive() -> None:
    f = one("CREATE TABLE db.u (id bigint, email string) USING iceberg;\nALTER TABLE db.u ADD COLUMN Email string;", "ICE005")
    assert "FIELDS_ALREADY_EXISTS" in f.message and "case-insensitively" in (f.help or "")


def test_field_not_found_in_struct_lists_the_siblings() -> None:
    f = one("CREATE TABLE db.l (id bigint, s struct<a: int, c: int>) USING iceberg;\nALTER TABLE db.l ADD COLUMN s.b int AFTER z;", "ICE005")
    assert "in a, c." in f.message


def test_unknown_table_help_names_metadata_option() -> None:
    f = one("ALTER TABLE db.ghost ADD COLUMN x int;", "ICE005")
    assert "--metadata db.ghost=" in (f.help or "")


# --------------------------------------------------------------------------- replay regressions seen through the rules
def test_add_into_emptied_struct_is_applied() -> None:
    run = replay_text(
        "CREATE TABLE db.s (id bigint, p struct<w: int>) USING iceberg;\n"
        "ALTER TABLE db.s DROP COLUMN p.w;\n"
        "ALTER TABLE db.s ADD COLUMN p.v bigint;\n"
    )
    schema = run.result.tables["db.s"].schema
    assert schema.find(("p", "v"), case_sensitive=False) is not None


def test_every_finding_message_is_one_line_and_help_has_no_placeholder() -> None:
    """Across every case file: one-line messages, and help text without unfilled placeholders."""
    from tests.rules.test_rule_cases import CASES, lint_case

    bad = []
    for case in CASES:
        for f in lint_case(case):
            if "\n" in f.message or (f.help and "\n" in f.help):
                bad.append((case.id, f.line, "multi-line"))
            if re.search(r"(?<!\$)\{\w+\}|None\b", f.message + (f.help or "")):  # `${name}`: ICE060 names a placeholder
                bad.append((case.id, f.line, f.message[:80]))
    assert not bad, bad


def test_identifier_failures_name_the_identifier_field_in_their_help() -> None:
    sql = (
        "CREATE TABLE db.acc (account_id bigint NOT NULL, legacy_key string NOT NULL) USING iceberg;\n"
        "ALTER TABLE db.acc SET IDENTIFIER FIELDS account_id, legacy_key;\n"
        "ALTER TABLE db.acc ALTER COLUMN account_id DROP NOT NULL;\n"
        "ALTER TABLE db.acc DROP COLUMN legacy_key;\n"
    )
    optional = one(sql, "ICE004")
    assert optional.column_path == "account_id" and optional.field_id == 1
    assert "`ALTER TABLE db.acc DROP IDENTIFIER FIELDS account_id; ALTER TABLE db.acc ALTER COLUMN account_id DROP NOT NULL`" in optional.help
    dropped = one(sql, "ICE005")
    assert dropped.column_path == "legacy_key" and dropped.field_id == 2
    assert "`ALTER TABLE db.acc SET IDENTIFIER FIELDS account_id; ALTER TABLE db.acc DROP COLUMN legacy_key`" in dropped.help


def test_duplicate_name_help_names_the_existing_field() -> None:
    sql = "CREATE TABLE db.u (id bigint, Email string) USING iceberg;\nALTER TABLE db.u ADD COLUMN email string;\n"
    f = one(sql, "ICE005")
    assert "field id 2" in f.help and "`email`" in f.help


# ---------------------------------------------------------------- ICE017 on wide tables

def _wide(n: int) -> str:
    cols = ", ".join(f"c{i} int" for i in range(1, n + 1))
    return f"CREATE TABLE db.wide (id bigint, {cols}) USING iceberg;\n"


def test_column_reorder_names_every_shift_and_the_whole_order_on_a_narrow_table():
    f = one(_wide(4) + "ALTER TABLE db.wide ALTER COLUMN c3 FIRST;\n", "ICE017")
    assert "`c3` (4 → 1), `id` (1 → 2), `c1` (2 → 3), `c2` (3 → 4) shift position" in f.message
    assert f.help.endswith("as the order is now c3, id, c1, c2, c4")


def test_column_reorder_on_a_wide_table_names_a_few_shifts_and_a_window_of_the_order():
    """A 4,000-column table must not print 4,000 names per finding: the first shifts with a count,
    and the new order around the moved column with its positions and the total."""
    f = one(_wide(300) + "ALTER TABLE db.wide ALTER COLUMN c150 AFTER c10;\n", "ICE017")
    # c11 ... c149 shift right by one: 139 columns plus c150 itself
    assert "`c150` (151 → 12), `c11` (12 → 13)" in f.message
    assert "and 132 more columns shift position" in f.message
    assert f.message.count("→") == 8
    assert f.help.endswith(
        "as the order is now …, 9. c8, 10. c9, 11. c10, 12. c150, 13. c11, 14. c12, 15. c13, … "
        "(301 columns; `icelint schema` on the migrations prints them all)"
    )
    assert len(f.message) + len(f.help) < 1200
