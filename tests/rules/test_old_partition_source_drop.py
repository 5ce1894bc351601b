"""Dropping the source of an older identity partition spec: judged by the files the state holds.

With a state that proves no snapshot holds a file written with the old spec, Spark reads and
time-travels fine (differential case 526): a warning, not ICE003's error. Without a state, or with
one whose manifests cannot be read, the spec is presumed written, as before (case 500)."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_commands import run

DDL = (
    "CREATE TABLE db.sales (id bigint NOT NULL, region string, sold_at timestamp) USING iceberg PARTITIONED BY (region);\n"
    "ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);\n"
)
DROP = "ALTER TABLE db.sales DROP COLUMN region;\n"


def _state(tmp_path: Path, snapshot: bool) -> Path:
    (tmp_path / "ddl.sql").write_text(DDL)
    meta = json.loads(run("schema", "ddl.sql", "--format", "json", cwd=tmp_path).stdout)
    if snapshot:  # a snapshot whose manifest list is not there: what it holds is unknown
        meta["snapshots"] = [{"snapshot-id": 7, "timestamp-ms": 1, "sequence-number": 1, "schema-id": meta["current-schema-id"],
                              "manifest-list": str(tmp_path / "snap-7.avro"), "summary": {"operation": "append"}}]
        meta["current-snapshot-id"] = 7
        meta["refs"] = {"main": {"snapshot-id": 7, "type": "branch"}}
    path = tmp_path / "db.sales.metadata.json"
    path.write_text(json.dumps(meta))
    return path


def _codes(tmp_path: Path, *args: str) -> list[tuple[str, str]]:
    (tmp_path / "m.sql").write_text(DROP)
    out = json.loads(run("check", "m.sql", "--format", "json", *args, cwd=tmp_path).stdout)
    return sorted((f["rule"], f["severity"]) for f in out["findings"])


def test_no_snapshot_ever_wrote_the_old_spec_is_a_warning(tmp_path: Path) -> None:
    meta = _state(tmp_path, snapshot=False)
    assert _codes(tmp_path, "--metadata", f"db.sales={meta}") == [("ICE025", "warning")]


def test_unknown_files_presume_the_old_spec_was_written(tmp_path: Path) -> None:
    meta = _state(tmp_path, snapshot=True)
    assert ("ICE003", "error") in _codes(tmp_path, "--metadata", f"db.sales={meta}")


def test_without_a_state_the_old_spec_is_presumed_written(tmp_path: Path) -> None:
    (tmp_path / "V1__ddl.sql").write_text(DDL)
    (tmp_path / "V2__drop.sql").write_text(DROP)
    out = json.loads(run("check", ".", "--format", "json", cwd=tmp_path).stdout)
    assert ("ICE003", "error") in [(f["rule"], f["severity"]) for f in out["findings"]]
