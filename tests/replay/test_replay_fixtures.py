"""Replay every fixture case and compare with the metadata.json real Spark 3.5.9 + Iceberg 1.10.2 wrote.

Cases live in fixtures/replay/<case>/: migration.sql, optional before/<db.table>.metadata.json (the
state Spark wrote after setup.sql) and expected/<db.table>.metadata.json (the state after the
migration). Regenerate with `python scripts/generate_replay_fixtures.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.model.metadata import parse_metadata_bytes
from icelint.engine.pipeline import replay_paths

CASES = sorted(p for p in (Path(__file__).parents[2] / "fixtures" / "replay").iterdir() if p.is_dir())

# What the replay must reproduce exactly. Volatile keys (uuid, location, timestamps, snapshots) and
# the `owner` property (the OS user who ran Spark) are not part of a schema's evolution.
COMPARED = (
    "format-version", "schemas", "current-schema-id", "last-column-id", "partition-specs", "default-spec-id",
    "last-partition-id", "sort-orders", "default-sort-order-id", "properties",
)  # fmt: skip


def comparable(meta: dict) -> dict:
    out = {k: meta.get(k) for k in COMPARED}
    out["properties"] = {k: v for k, v in (meta.get("properties") or {}).items() if k != "owner"}
    return out


def table_name(path: Path) -> str:
    return path.name[: -len(".metadata.json")]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_replay_matches_spark(case: Path) -> None:
    initial = {
        table_name(p): parse_metadata_bytes(p.read_bytes(), str(p)) for p in sorted((case / "before").glob("*.metadata.json"))
    }
    run = replay_paths([case / "migration.sql"], initial)
    rejected = [(o.step.span.line, o.error.message) for o in run.result.outcomes if o.error]
    assert rejected == [], "the replay rejected statements Spark accepted"
    expected_files = sorted((case / "expected").glob("*.metadata.json"))
    assert expected_files, "case has no expected state"
    for exp in expected_files:
        name = table_name(exp)
        if name in run.result.unknown:
            continue  # CREATE TABLE ... AS SELECT: icelint says the schema is unknown rather than guess
        state = run.result.tables.get(name)
        assert state is not None, f"{name} missing after replay"
        want = comparable(json.loads(exp.read_text()))
        got = comparable(state.to_json())
        assert got == want, name
