"""Large metadata files: the `schemas` array is cut out of the text and older versions decoded lazily.

Every cut is verified; these tests pin that the fast path yields exactly the state a full decode
gives, and that anything unexpected falls back to decoding the whole file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.model import metadata

from icelint.model.storage import fastload
from icelint.model.metadata import parse_metadata_bytes

FIXTURES = Path(__file__).parents[2] / "fixtures" / "replay"
MULTI_SCHEMA = sorted(
    p for p in FIXTURES.glob("*/expected/*.metadata.json") if len(json.loads(p.read_text())["schemas"]) >= 3
)


@pytest.fixture
def always_fast(monkeypatch):
    monkeypatch.setattr(fastload, "THRESHOLD", 0)


@pytest.mark.parametrize("path", MULTI_SCHEMA[:8], ids=[f"{p.parent.parent.name}" for p in MULTI_SCHEMA[:8]])
def test_fast_path_gives_the_same_state_as_a_full_decode(path: Path, always_fast, monkeypatch) -> None:
    data = path.read_bytes()
    fast = parse_metadata_bytes(data, str(path))
    assert any(isinstance(s, fastload.TextSchema) for s in fast.schemas), "the fast path was not taken"
    monkeypatch.setattr(fastload, "THRESHOLD", 1 << 62)
    full = parse_metadata_bytes(data, str(path))
    assert [s._identity for s in fast.schemas] == [s._identity for s in full.schemas]
    assert fast.to_json() == full.to_json()
    assert [s.fields for s in fast.schemas] == [s.fields for s in full.schemas]


def test_pyiceberg_key_order_is_cut_too(always_fast) -> None:
    """pyiceberg writes `current-schema-id` after `schemas`; Java writes `default-spec-id` there."""
    raw = json.loads(MULTI_SCHEMA[0].read_text())
    order = ["location", "table-uuid", "last-updated-ms", "last-column-id", "schemas", "current-schema-id"]
    reordered = {k: raw[k] for k in order if k in raw} | {k: v for k, v in raw.items() if k not in order}
    text = json.dumps(reordered)
    cut = fastload.split(text, metadata.field_from_json)
    assert cut is not None
    head, schemas = cut
    assert len(schemas) == len(raw["schemas"])


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t.replace('"schemas"', '"schemata"'),  # no schemas array
        lambda t: t.replace('"default-spec-id"', '"x-default-spec-id"').replace('"partition-specs"', '"x-ps"').replace('"last-partition-id"', '"x-lp"'),
    ],
    ids=["no-schemas-key", "no-known-follower"],
)
def test_anything_unexpected_falls_back_to_a_full_decode(mangle) -> None:
    text = mangle(MULTI_SCHEMA[0].read_text())
    assert fastload.split(text, metadata.field_from_json) is None


def test_a_column_named_like_a_top_level_key_does_not_fool_the_cut(always_fast) -> None:
    raw = json.loads(MULTI_SCHEMA[0].read_text())
    for s in raw["schemas"]:
        s["fields"].append({"id": 999, "name": "default-spec-id", "required": False, "type": "string", "doc": '"schema-id": 7'})
    raw["last-column-id"] = max(raw["last-column-id"], 999)
    text = json.dumps(raw, indent=2)
    fast = parse_metadata_bytes(text.encode(), "x")
    assert fast.schema.find(("default-spec-id",)) is not None
    assert [s.schema_id for s in fast.schemas] == sorted(s["schema-id"] for s in raw["schemas"])


def test_history_rules_read_text_schemas(always_fast) -> None:
    """ICE001 against history works when older schemas are still undecoded text."""
    from icelint.engine.checker import lint_run
    from icelint.engine.pipeline import replay_text
    from icelint.rules import BY_CODE

    path = FIXTURES / "38_setup_dropped_columns" / "before" / "db.users.metadata.json"
    meta = parse_metadata_bytes(path.read_bytes(), str(path))
    assert any(isinstance(s, fastload.TextSchema) for s in meta.schemas)
    raw = json.loads(path.read_text())
    current = {f["name"] for f in next(s for s in raw["schemas"] if s["schema-id"] == raw["current-schema-id"])["fields"]}
    dropped = sorted({f["name"] for s in raw["schemas"] for f in s["fields"]} - current)
    assert dropped, "fixture 38 must hold a column dropped in its history"
    run = replay_text(f"ALTER TABLE db.users ADD COLUMN {dropped[0]} string;", {"db.users": meta})
    findings = lint_run(run, [BY_CODE["ICE001"]])
    assert [f.rule for f in findings] == ["ICE001"]
