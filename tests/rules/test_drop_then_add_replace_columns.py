"""REPLACE COLUMNS: one finding per statement that says what it does (every column re-added under a new
field id), with the net change that keeps every field id, nullability and the row key as its fix."""

from __future__ import annotations

import json
import time
from pathlib import Path

from icelint.rules.kit.help import proposals
from tests.advice.test_recipes import _findings
from tests.cli.test_commands import run

CUSTOMERS = (
    "V1__customers.sql",
    "CREATE TABLE db.customers (customer_id bigint NOT NULL, email string, full_name string, signup_date date) USING iceberg;\n"
    "ALTER TABLE db.customers SET IDENTIFIER FIELDS customer_id;\n"
    "INSERT INTO db.customers VALUES (1, 'a@x', 'Ann', DATE'2024-01-01');\n",
)
REPLACE = "ALTER TABLE db.customers REPLACE COLUMNS (customer_id bigint, email string, full_name string, signup_date date, tier string);\n"
NET = "ALTER TABLE db.customers ADD COLUMN tier string"


def test_replace_columns_on_a_keyed_table_offers_the_net_add() -> None:
    (f,) = _findings(CUSTOMERS, ("V2__tier.sql", REPLACE))
    assert f.severity.value == "error"
    assert "REPLACE COLUMNS" in f.message and "new field id" in f.message and "NULL" in f.message, f.message
    assert proposals(f.help)[0] == (None, NET), f.help
    assert f.fix is not None and f.fix.applicability.value == "safe" and f.fix.edits[0].content == NET, f.fix


def test_replace_columns_without_a_key_is_one_finding_per_statement() -> None:
    setup = (CUSTOMERS[0], CUSTOMERS[1].replace("ALTER TABLE db.customers SET IDENTIFIER FIELDS customer_id;\n", ""))
    found = _findings(setup, ("V2__tier.sql", REPLACE))
    assert [g.rule for g in found] == ["ICE001"], [(g.rule, g.message) for g in found]
    (f,) = found
    assert "customer_id" in f.message and "signup_date" in f.message, f.message
    assert proposals(f.help)[0] == (None, NET), f.help  # the required column stays required


def test_fixable_count_matches_the_fix_and_the_row_key_stays(tmp_path: Path) -> None:
    (tmp_path / "V1__customers.sql").write_text(CUSTOMERS[1])
    (tmp_path / "V2__tier.sql").write_text(REPLACE)
    r = run("check", ".", cwd=tmp_path)
    assert "[*] 1 fixable with the `--fix` option." in r.stdout, r.stdout
    r = run("check", ".", "--fix", cwd=tmp_path)
    assert (tmp_path / "V2__tier.sql").read_text() == NET + ";\n"
    r = run("check", ".", "--format", "json", cwd=tmp_path)
    assert json.loads(r.stdout)["findings"] == [], r.stdout
    r = run("schema", ".", "--format", "json", cwd=tmp_path)
    meta = json.loads(r.stdout)
    (schema,) = [s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"]]
    assert schema["identifier-field-ids"] == [1] and [f["id"] for f in schema["fields"]] == [1, 2, 3, 4, 5], schema


def test_wide_replace_columns_is_one_finding_and_fast(tmp_path: Path) -> None:
    cols = ", ".join(f"c{i} bigint" for i in range(3000))
    (tmp_path / "w.sql").write_text(f"CREATE TABLE db.w ({cols}) USING iceberg;\nALTER TABLE db.w REPLACE COLUMNS ({cols});\n")
    start = time.process_time()
    found = _findings(("w.sql", (tmp_path / "w.sql").read_text()))
    assert len(found) == 1, len(found)
    assert time.process_time() - start < 10  # it was ~40 s at 3,000 columns: the help once per column


def test_the_net_change_never_drops_the_row_key() -> None:
    replace = "ALTER TABLE db.customers REPLACE COLUMNS (email string, full_name string, signup_date date, tier string);\n"
    (f,) = _findings(CUSTOMERS, ("V2__tier.sql", replace))
    assert "row key" in f.help and not any("DROP COLUMN customer_id" in s for _, s in proposals(f.help)), f.help
    assert f.fix is None or "customer_id" not in f.fix.edits[0].content, f.fix
