"""`icelint schema --format json` writes each table's schema versions one at a time, and the text is the
one `json.dumps` of the whole state gives (8,000 `ADD COLUMN`s needed 10 GB to print 1.9 GB)."""

from __future__ import annotations

import io
import json

import pytest

from icelint.engine.pipeline import parse_sources, replay, replay_text
from icelint.cli.schema_view import _dumps, render_json, states
from icelint.values.source import SourceFile
from icelint.sources import StateOptions, load_states
from tests.corpus import corpus_runs, run_id


def whole(run) -> str:
    """The text as it was written before: the whole object built, then dumped."""
    tables = states(run)
    obj = next(iter(tables.values())).to_json() if len(tables) == 1 else {k: v.to_json() for k, v in tables.items()}
    return _dumps(obj) + "\n"


def differs_at(a: str, b: str) -> int | None:
    """Where two texts first differ (None: equal), without pytest's diff of megabytes of text."""
    if a == b:
        return None
    return next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


class Writes(io.StringIO):
    def __init__(self) -> None:
        super().__init__()
        self.largest = 0

    def write(self, s: str) -> int:
        self.largest = max(self.largest, len(s))
        return super().write(s)


@pytest.mark.parametrize("files", corpus_runs(), ids=run_id)
def test_same_text_as_the_whole_object(files) -> None:
    parsed = parse_sources(SourceFile.read(p) for p in files)
    run = replay(parsed, load_states(StateOptions()).assign(parsed.referenced_tables, parsed.created_tables))
    out = io.StringIO()
    render_json(run, out)
    assert differs_at(out.getvalue(), whole(run)) is None


@pytest.mark.parametrize("tables", [1, 3])
def test_placeholder_text_in_names_and_properties(tables: int) -> None:
    sql = "".join(
        f"CREATE TABLE db.t{i} (id bigint, `\"schemas\":[]` string) USING iceberg "
        f"LOCATION '/w/\"schemas\":[]' TBLPROPERTIES ('\"schemas\":[]' = '\"schemas\":[]');\n"
        f"ALTER TABLE db.t{i} ADD COLUMN c string;\n"
        for i in range(tables)
    )
    run = replay_text(sql, path="V1__x.sql")
    out = io.StringIO()
    render_json(run, out)
    assert differs_at(out.getvalue(), whole(run)) is None
    got = json.loads(out.getvalue())
    meta = got if tables == 1 else got["db.t0"]
    assert [len(s["fields"]) for s in meta["schemas"]] == [2, 3] and meta["properties"]['"schemas":[]'] == '"schemas":[]'


def test_versions_are_written_one_at_a_time() -> None:
    n = 300
    sql = "CREATE TABLE db.t (id bigint) USING iceberg;\n" + "".join(f"ALTER TABLE db.t ADD COLUMN c{i} string;\n" for i in range(n))
    run = replay_text(sql, path="V1__x.sql")
    out = Writes()
    render_json(run, out)
    text = out.getvalue()
    assert differs_at(text, whole(run)) is None and len(json.loads(text)["schemas"]) == n + 1
    assert out.largest * 100 < len(text)  # the newest version is 1/150 of the text: no write holds them all
