"""`icelint snapshot` writes with a temporary name of its own run: concurrent runs into one folder all
succeed, and a full disk or an interrupted write leaves no temporary file behind."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_commands import _env

ROOT = Path(__file__).resolve().parents[2]
SOURCE = ROOT / "examples" / "snapshots" / "db.events.metadata.json"


# each run loads icelint and the state first, then waits for the others: the writes race
_RACER = """import os, sys, time
from icelint.sources import StateOptions, load_states
from icelint.sources.snapshot import run_snapshot
from icelint.cli import main as cli
open(sys.argv[1] + ".ready." + str(os.getpid()), "w").close()
while not os.path.exists(sys.argv[1] + ".go"):
    time.sleep(0.002)
sys.argv = ["icelint", *sys.argv[2:]]
cli.entry()
"""


def test_twenty_concurrent_snapshots_into_one_folder(tmp_path: Path) -> None:
    import json

    meta = json.loads(SOURCE.read_text(encoding="utf-8"))
    meta.setdefault("properties", {}).update({f"owner.note.{i}": "x" * 40 for i in range(20_000)})  # a longer write
    source = tmp_path / "db.events.metadata.json"
    source.write_text(json.dumps(meta), encoding="utf-8")
    out = tmp_path / "snaps"
    out.mkdir()
    (out / "db.events.metadata.json").write_text("{}\n", encoding="utf-8")  # out of date: every run writes
    args = ["snapshot", "db.events", "--metadata", str(source), "--out", str(out)]
    cmd = [sys.executable, "-m", "icelint", *args]
    flag = str(tmp_path / "flag")
    procs = [subprocess.Popen([sys.executable, "-c", _RACER, flag, *args], cwd=tmp_path, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, env=_env()) for _ in range(20)]
    import time

    deadline = time.monotonic() + 240
    while len(list(tmp_path.glob("flag.ready.*"))) < 20 and time.monotonic() < deadline:
        time.sleep(0.05)
    (tmp_path / "flag.go").touch()
    results = [(p.wait(timeout=300), p.stdout.read().decode(), p.stderr.read().decode()) for p in procs]
    for p in procs:
        p.stdout.close()
        p.stderr.close()
    failed = [r for r in results if r[0] != 0]
    assert not failed, failed[:2]
    names = sorted(p.name for p in out.iterdir())
    assert "db.events.metadata.json" in names and not [n for n in names if n.endswith((".tmp", ".icelint-tmp"))], names
    again = subprocess.run(cmd + ["--check"], cwd=tmp_path, capture_output=True, text=True, env=_env(), timeout=120)
    assert again.returncode == 0, again.stdout + again.stderr


@pytest.mark.parametrize("fault", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_snapshot_write_leaves_no_temporary(tmp_path: Path, monkeypatch, fault: BaseException) -> None:
    from icelint.values.source import InputError
    from icelint.sources import StateOptions
    from icelint.sources.snapshot import run_snapshot

    def fail(src, dst):  # the rename into place fails (or Ctrl-C arrives then): the temporary goes
        raise fault

    monkeypatch.setattr(os, "replace", fail)
    out = tmp_path / "snaps"
    with pytest.raises(InputError if isinstance(fault, OSError) else KeyboardInterrupt):
        run_snapshot(["db.events"], out, StateOptions(metadata=[str(SOURCE)]), echo=lambda s: None)
    assert list(out.iterdir()) == []
