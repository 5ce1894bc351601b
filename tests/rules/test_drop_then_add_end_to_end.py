"""The drop-then-add trap, end to end through the real CLI, on a table real Spark wrote.

See fixtures/story/README.md.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STORY = ROOT / "fixtures" / "story"
META = ROOT / "fixtures" / "replay" / "36_realistic_events_repartition" / "expected" / "db.events.metadata.json"


def icelint(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "ICELINT_DEBUG")}
    return subprocess.run([sys.executable, "-m", "icelint", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)


def test_the_table_is_spark_written_and_payload_held_data() -> None:
    meta = json.loads(META.read_text())
    assert meta["snapshots"], "the story needs a table with data"
    current = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    payload = next(f for f in current["fields"] if f["name"] == "payload")
    assert payload["id"] == 5 and payload["type"] == "string"
    assert meta["last-column-id"] == 12
    assert all(s.get("schema-id") is not None for s in meta["snapshots"])
    summary = meta["snapshots"][0]["summary"]
    assert (summary["engine-name"], summary["engine-version"]) == ("spark", "3.5.9")
    assert summary["iceberg-version"].startswith("Apache Iceberg 1.10.2")
    assert int(meta["snapshots"][-1]["summary"]["total-records"]) > 0


def _trap(tmp_path: Path, *extra: str) -> subprocess.CompletedProcess:
    return icelint("check", str(STORY / "trap"), "--metadata", str(META), *extra, cwd=tmp_path)


def test_trap_is_an_error_naming_both_field_ids(tmp_path: Path) -> None:
    r = _trap(tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    heads = [ln for ln in r.stdout.splitlines() if ": ICE001 [error]" in ln]
    assert len(heads) == 1, r.stdout
    head = heads[0]
    assert head.startswith(f"{STORY / 'trap' / 'V3__payload_as_binary.sql'}:3:")
    assert "field id 5" in head and "field id 13" in head
    assert "NULL" in head and "time travel" in head


def test_trap_json(tmp_path: Path) -> None:
    r = _trap(tmp_path, "--format", "json")
    assert r.returncode == 1
    (f,) = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "ICE001"]
    assert (f["severity"], f["line"], f["table"], f["column_path"], f["field_id"]) == ("error", 3, "db.events", "payload", 13)
    assert re.search(r"\bfield id 5\b", f["message"]) and re.search(r"\bfield id 13\b", f["message"])


def _help_recipe(tmp_path: Path) -> str:
    """The SQL the ICE001 help gives for the DROP statement (line 2), with the real names."""
    from icelint.rules.kit.help import proposals

    r = _trap(tmp_path, "--format", "json", "--select", "ICE001")
    (f,) = json.loads(r.stdout)["findings"]
    found = [sql for target, sql in proposals(f["help"]) if target is not None and target[1] == 2]
    assert len(found) == 1 and found[0].startswith("ALTER TABLE"), f["help"]
    return found[0]


def test_help_first_keeps_the_values_then_proposes_another_name(tmp_path: Path) -> None:
    """The drop is in the same file: it has not run yet, so the help first renames `payload` aside
    instead of dropping it; the SQL for the flagged statement, adding under a free name, comes second."""
    from icelint.rules.kit.help import proposals

    r = _trap(tmp_path, "--format", "json", "--select", "ICE001")
    (f,) = json.loads(r.stdout)["findings"]
    first, second = proposals(f["help"])
    assert first[0] is not None and first[1] == "ALTER TABLE db.events RENAME COLUMN payload TO payload_old"
    assert second == (None, "ALTER TABLE db.events ADD COLUMN payload_v2 binary")


def test_help_gives_the_rename_aside_recipe_with_real_names(tmp_path: Path) -> None:
    assert _help_recipe(tmp_path) == "ALTER TABLE db.events RENAME COLUMN payload TO payload_old"


def test_committed_recipe_is_the_help_recipe(tmp_path: Path) -> None:
    recipe = (STORY / "rename_aside" / "V3__payload_as_binary.sql").read_text()
    assert _help_recipe(tmp_path) + ";" in recipe


def test_recipe_built_from_help_passes(tmp_path: Path) -> None:
    sql = _help_recipe(tmp_path) + ";\nALTER TABLE db.events ADD COLUMN payload binary;\n"
    (tmp_path / "V3__fix.sql").write_text(sql)
    r = icelint("check", "V3__fix.sql", "--metadata", str(META), "--fail-on", "error", cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    assert "[error]" not in r.stdout


@pytest.mark.parametrize("recipe", ["rename_aside", "new_column"])
def test_safe_recipes_have_no_error(tmp_path: Path, recipe: str) -> None:
    r = icelint("check", str(STORY / recipe), "--metadata", str(META), "--fail-on", "error", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    found = json.loads(r.stdout)["findings"]
    assert not [f for f in found if f["severity"] == "error"]
    assert not [f for f in found if f["rule"] == "ICE001"]


def test_rename_aside_final_state_keeps_old_values_reachable(tmp_path: Path) -> None:
    """After V3 of the recipe, the old values are still in the current schema under field id 5."""
    r = icelint("schema", str(STORY / "rename_aside" / "V3__payload_as_binary.sql"), "--metadata", str(META),
                "--format", "json", cwd=tmp_path)  # fmt: skip
    meta = json.loads(r.stdout)
    current = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    by_name = {f["name"]: f for f in current["fields"]}
    assert by_name["payload_old"]["id"] == 5
    assert by_name["payload"]["id"] == 13 and by_name["payload"]["type"] == "binary"
