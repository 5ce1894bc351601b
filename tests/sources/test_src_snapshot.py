"""`icelint snapshot`: offline copies of the current metadata, and `--check`."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from .conftest import FIX
from .helpers import columns, icelint, one_error_line


@pytest.fixture(autouse=True)
def _cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


def test_writes_the_source_json_as_read(tmp_path):
    r = icelint("snapshot", "db.events", "local.db.legacy", "--warehouse", FIX / "warehouse", "--out", "snaps")
    assert r.code == 0, r.stderr
    for table, src in (("db.events", "warehouse/db/events/metadata/v3.metadata.json"),
                       ("db.legacy", "warehouse/db/legacy/metadata/v2.metadata.json")):
        out = tmp_path / "snaps" / f"{table}.metadata.json"
        original = json.loads((FIX / src).read_text())
        saved = json.loads(out.read_text())
        assert saved == original
        assert list(saved) == list(original)  # key order kept
        assert out.read_text() == json.dumps(original, indent=2, ensure_ascii=False) + "\n"
        assert f"{out.relative_to(tmp_path)}: written from" in r.stdout


def test_deterministic_and_idempotent(tmp_path):
    args = ("snapshot", "db.zipped", "--warehouse", FIX / "warehouse", "--out", "s")
    assert icelint(*args).code == 0
    first = (tmp_path / "s/db.zipped.metadata.json").read_bytes()
    r = icelint(*args)
    assert r.code == 0 and "up to date" in r.stdout
    assert (tmp_path / "s/db.zipped.metadata.json").read_bytes() == first
    # gzip sources are stored decompressed, as JSON
    src = gzip.decompress((FIX / "warehouse/db/zipped/metadata/v2.gz.metadata.json").read_bytes())
    assert json.loads(first) == json.loads(src)


def test_check_equal_then_differs_then_missing(tmp_path):
    wh = tmp_path / "wh"
    shutil.copytree(FIX / "warehouse", wh)
    assert icelint("snapshot", "db.events", "--warehouse", wh, "--out", "snaps").code == 0
    snap = tmp_path / "snaps/db.events.metadata.json"

    # reformatted and keys reordered: semantically equal
    obj = json.loads(snap.read_text())
    snap.write_text(json.dumps(dict(reversed(list(obj.items()))), separators=(",", ":")))
    r = icelint("snapshot", "db.events", "--warehouse", wh, "--out", "snaps", "--check")
    assert r.code == 0, r.stdout
    assert "matches" in r.stdout

    # the table moves on (a newer metadata file): the committed snapshot is stale
    v4 = json.loads((wh / "db/events/metadata/v3.metadata.json").read_text())
    v4["properties"]["comment"] = "changed"
    v4["last-updated-ms"] += 1
    (wh / "db/events/metadata/v4.metadata.json").write_text(json.dumps(v4))
    (wh / "db/events/metadata/version-hint.text").write_text("4")
    before = snap.read_bytes()
    r = icelint("snapshot", "db.events", "--warehouse", wh, "--out", "snaps", "--check")
    assert r.code == 1
    assert "differs from" in r.stdout and "(last-updated-ms, properties)" in r.stdout
    assert snap.read_bytes() == before  # --check writes nothing

    snap.unlink()
    r = icelint("snapshot", "db.events", "--warehouse", wh, "--out", "snaps", "--check")
    assert r.code == 1 and "missing" in r.stdout
    assert not snap.exists()


def test_offline_lint_against_committed_snapshots(tmp_path):
    assert icelint("snapshot", "db.events", "db.readings", "--warehouse", FIX / "warehouse", "--out", "snapshots").code == 0
    (tmp_path / "m.sql").write_text("ALTER TABLE db.events ADD COLUMN a int;\nALTER TABLE db.readings ADD COLUMN b int;\n")
    files = sorted(str(p) for p in (tmp_path / "snapshots").iterdir())
    r = icelint("schema", "m.sql", "--format", "json", *[a for f in files for a in ("--metadata", f)])
    assert r.code == 0, r.stderr
    assert columns(r.stdout, "db.events")[-1] == "a" and columns(r.stdout, "db.readings")[-1] == "b"


def test_snapshot_from_metadata_and_table_dir(tmp_path):
    r = icelint("snapshot", "db.a", "db.b", "--out", "o",
                "--metadata", f"db.a={FIX / 'gz-suffix/db/legacy/metadata/v2.metadata.json.gz'}",
                "--table-dir", f"db.b={FIX / 'orphan/db/events'}")  # fmt: skip
    assert r.code == 0, r.stderr
    assert json.loads((tmp_path / "o/db.b.metadata.json").read_text())["schemas"][-1]["fields"][-1]["name"] == "b"


def test_errors(tmp_path):
    assert "no table state source" in one_error_line(icelint("snapshot", "db.events"))
    line = one_error_line(icelint("snapshot", "db.events", "db.nope", "--warehouse", FIX / "warehouse"))
    assert "db.nope: no such table in the given state sources" in line
    (tmp_path / "blocked").write_text("a file where the folder should be")
    line = one_error_line(icelint("snapshot", "db.events", "--warehouse", FIX / "warehouse", "--out", "blocked"))
    assert "cannot write" in line


def test_snapshot_from_the_configuration(tmp_path):
    (tmp_path / "pyproject.toml").write_text(f'[tool.icelint]\nwarehouse = "{FIX / "warehouse"}"\n')
    r = icelint("snapshot", "db.readings")
    assert r.code == 0, r.stderr
    assert (tmp_path / "snapshots/db.readings.metadata.json").is_file()
