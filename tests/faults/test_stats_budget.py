"""`--stats-budget SECONDS` bounds the whole wait for a table's data counts: a manifest list behind
a FileIO that never answers (an unreachable `s3://` endpoint, its retries and back-offs) costs the
budget, not the FileIO's timeouts. No network: the FileIO is a stand-in that hangs."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("pyiceberg")

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "examples" / "snapshots" / "db.events.metadata.json"
HANG = 6.0  # seconds the stand-in FileIO waits on each open, then fails as a timeout would


class _Hanging:
    """A FileIO whose every read waits HANG seconds, then fails (a connection that never answers)."""

    def __init__(self) -> None:
        self.opened = 0

    def new_input(self, location: str):
        self.opened += 1
        time.sleep(HANG)
        raise OSError(f"{location}: connect timeout")


def _remote_metadata(tmp_path: Path) -> Path:
    meta = json.loads(SOURCE.read_text(encoding="utf-8"))
    for snap in meta["snapshots"]:
        snap["manifest-list"] = "s3://unreachable-bucket/db/events/metadata/" + snap["manifest-list"].rsplit("/", 1)[-1]
    path = tmp_path / "db.events.metadata.json"
    path.write_text(json.dumps(meta), encoding="utf-8")
    return path


@pytest.fixture
def hanging(monkeypatch) -> _Hanging:
    import pyiceberg.manifest  # loaded now: the budget is then spent waiting on the FileIO
    import pyiceberg.schema
    import pyiceberg.table.metadata  # noqa: F401 - loaded now, as the two above

    from icelint.sources import remote

    io = _Hanging()
    monkeypatch.setattr(remote, "_file_io", lambda uri, props: io)
    return io


def test_the_provider_gives_up_at_the_budget(tmp_path: Path, hanging: _Hanging) -> None:
    from icelint.sources import StateOptions, load_states
    from icelint.sources.table_stats import provider_for

    states = load_states(StateOptions(metadata=[str(_remote_metadata(tmp_path))]))
    resolved = states.resolve(["db.events"], [])
    provider = provider_for(states, resolved, 0.1)
    t0 = time.monotonic()
    got = provider.stats("db.events")
    took = time.monotonic() - t0
    assert got == "budget exceeded" and took < 1.5, (got, took)
    assert provider.stats("db.events") == "budget exceeded"  # asked again: no second wait


def test_check_with_a_budget_of_a_tenth_of_a_second(tmp_path: Path, hanging: _Hanging) -> None:
    from click.testing import CliRunner

    from icelint.cli.main import main

    meta = _remote_metadata(tmp_path)
    sql = tmp_path / "V2__drop.sql"
    sql.write_text("ALTER TABLE db.events DROP COLUMN payload;\nALTER TABLE db.events ADD COLUMN payload binary;\n",
                   encoding="utf-8")
    t0 = time.monotonic()
    r = CliRunner().invoke(main, ["check", str(sql), "--metadata", str(meta), "--stats-budget", "0.1",
                                  "--no-cache", "--format", "json", "-v"])
    took = time.monotonic() - t0
    assert r.exit_code == 1, r.output
    assert hanging.opened >= 1  # the counts were asked for
    assert took < HANG / 2, took  # the hanging open (6 s) was not waited for
    assert "budget exceeded" in r.output  # said under -v (stderr is mixed in here)
