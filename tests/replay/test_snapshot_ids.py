"""Snapshot ids named in DDL are checked against the snapshots a state source lists (Spark's words).

The metadata is one Spark wrote (`fixtures/replay/37_setup_old_partition_spec`, two snapshots);
differential case 207 runs the same statements in real Spark.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.model.metadata import parse_metadata_bytes
from icelint.engine.pipeline import replay_text

META = Path(__file__).resolve().parents[2] / "fixtures/replay/37_setup_old_partition_spec/before/db.sales.metadata.json"


def _state():
    return {"db.sales": parse_metadata_bytes(META.read_bytes(), str(META))}


def _ids() -> list[int]:
    return [s["snapshot-id"] for s in json.loads(META.read_text())["snapshots"]]


def _errors(sql: str) -> list[str | None]:
    run = replay_text(sql, _state())
    return [o.error.message if o.error else None for o in run.result.outcomes]


@pytest.mark.parametrize(
    ("sql", "message"),
    [
        ("ALTER TABLE db.sales CREATE BRANCH audit AS OF VERSION 12345", "Cannot set audit to unknown snapshot: 12345"),
        ("ALTER TABLE db.sales CREATE OR REPLACE TAG v1 AS OF VERSION 12345 RETAIN 7 DAYS", "Cannot set v1 to unknown snapshot: 12345"),
        ("CALL local.system.rollback_to_snapshot('db.sales', 12345)", "Cannot roll back to unknown snapshot id: 12345"),
        ("CALL local.system.set_current_snapshot(table => 'db.sales', snapshot_id => 12345)", "Cannot roll back to unknown snapshot id: 12345"),
        ("CALL local.system.cherrypick_snapshot('db.sales', 12345)", "Cannot cherry-pick unknown snapshot ID: 12345"),
        ("CALL local.system.set_current_snapshot(table => 'db.sales', ref => 'nope')", "Cannot find matching snapshot ID for ref nope"),
        ("ALTER TABLE db.sales SET TBLPROPERTIES ('current-snapshot-id' = '12345')", "Cannot roll back to unknown snapshot id: 12345"),
        ("ALTER TABLE db.sales SET TBLPROPERTIES ('cherry-pick-snapshot-id' = '12345')", "Cannot cherry-pick unknown snapshot ID: 12345"),
    ],
)
def test_unknown_snapshot_ids_are_rejected(sql: str, message: str) -> None:
    assert _errors(sql + ";") == [message]


def test_known_snapshot_ids_pass() -> None:
    first, second = _ids()
    sql = (
        f"ALTER TABLE db.sales CREATE BRANCH audit AS OF VERSION {first};\n"
        f"CALL local.system.rollback_to_snapshot('db.sales', {first});\n"
        f"CALL local.system.set_current_snapshot('db.sales', {second});\n"
        "CALL local.system.set_current_snapshot(table => 'db.sales', ref => 'main');\n"
        f"ALTER TABLE db.sales SET TBLPROPERTIES ('current-snapshot-id' = '{second}');\n"
    )
    assert _errors(sql) == [None] * 5


def test_without_a_snapshot_list_nothing_is_judged() -> None:
    sql = (
        "CREATE TABLE db.t (id bigint) USING iceberg;\nINSERT INTO db.t VALUES (1);\n"
        "ALTER TABLE db.t CREATE BRANCH audit AS OF VERSION 12345;\n"
        "CALL local.system.rollback_to_snapshot('db.t', 12345);\n"
    )
    assert _errors(sql) == [None] * 4
