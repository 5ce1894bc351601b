"""`--add-suppressions` accepts legacy findings, never a statement that fails when deployed."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_commands import run

MIGRATION = (
    "CREATE TABLE db.orders (order_id bigint NOT NULL, quantity bigint, note string) USING iceberg;\n"
    "INSERT INTO db.orders VALUES (1, 5, 'a');\n"
    "ALTER TABLE db.orders DROP COLUMN note;\n"  # ICE011: accepted, legacy to accept
    "ALTER TABLE db.orders ALTER COLUMN quantity TYPE int;\n"  # ICE002: Spark rejects it
    "ALTER TABLE db.orders ALTER COLUMN quantity SET NOT NULL;\n"  # ICE004: Spark rejects it
    "ALTER TABLE db.orders DROP COLUMN nope;\n"  # ICE005: Spark rejects it
)


def test_statements_spark_rejects_are_not_suppressed(tmp_path: Path) -> None:
    (tmp_path / "m.sql").write_text(MIGRATION)
    r = run("check", "m.sql", "--add-suppressions", "legacy", cwd=tmp_path)
    text = (tmp_path / "m.sql").read_text()
    assert "-- icelint: ignore ICE011 -- legacy\nALTER TABLE db.orders DROP COLUMN note;" in text, text
    assert text.count("icelint: ignore") == 1, text
    assert r.stderr.splitlines() == [
        "icelint: added 1 suppression to 1 file",
        "icelint: left 3 findings unsuppressed: their statements fail when deployed (Spark or Iceberg rejects them), "
        "so they are not legacy to accept; fix them",
    ], r.stderr
    assert r.returncode == 1
    rep = json.loads(run("check", "m.sql", "--format", "json", cwd=tmp_path).stdout)
    assert sorted(f["rule"] for f in rep["findings"]) == ["ICE002", "ICE004", "ICE005"], rep["findings"]
