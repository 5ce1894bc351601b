"""The run cache (icelint.run.cache) under faults: it deletes only what it wrote, writes its `.gitignore`
only into a folder it created, and a planted or corrupt entry is a miss (the uncached output), never
a failure or a hang; an unreadable state file is the same clean error with the cache on as off."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from icelint.run import cache
from tests.equivalence.test_cache import SNAPSHOT, icelint, project


def proj(path: Path, extra: str = "") -> Path:
    path.mkdir(parents=True, exist_ok=True)
    return project(path, extra)


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.json"))


def test_a_cache_dir_with_other_files_keeps_them(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(cache, "MAX_ENTRIES", 2)  # in-process only; the runs below prune at the real limit
    mine = tmp_path / "mine"
    mine.mkdir()
    for i in range(200):
        (mine / f"{i:03d}.json").write_text("{}", encoding="utf-8")
        os.utime(mine / f"{i:03d}.json", (1, 1))  # older than any entry
    (mine / ("a" * 64 + ".json")).write_text("{}", encoding="utf-8")  # a name like an entry's
    before = sorted(p.name for p in mine.iterdir())
    root = proj(tmp_path / "p", extra=f'cache-dir = "{mine}"\n')
    for fmt in ("text", "json", "junit", "sarif"):
        code, out, err = icelint(root, "--format", fmt)
        assert code == 1 and "Traceback" not in err
        assert icelint(root, "--format", fmt)[:2] == (code, out)
    assert not (mine / ".gitignore").exists()
    gone = sorted(set(before) - {p.name for p in mine.iterdir()})
    assert not gone, f"{len(gone)} of the user's files deleted: {gone[:5]}"
    # and a prune, run in-process over the folder
    own = mine / cache.SUBDIR
    cache._prune(mine)
    cache._prune(own)
    assert sorted(p.name for p in mine.iterdir()) == sorted(before + [cache.SUBDIR])
    assert len(entries(own)) == 2 and (own / ".gitignore").read_bytes() == cache.MARKER


def test_a_folder_not_the_caches_gets_no_gitignore(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir()
    root = proj(tmp_path / "p", extra=f'cache-dir = "{mine}"\n')
    assert icelint(root)[0] == 1
    assert not (mine / ".gitignore").exists() and (mine / cache.SUBDIR / ".gitignore").read_bytes() == cache.MARKER
    # a subfolder of that name that is not the cache's: not cached, nothing written
    shutil.rmtree(mine / cache.SUBDIR)
    (mine / cache.SUBDIR).mkdir()
    (mine / cache.SUBDIR / "notes.json").write_text("{}", encoding="utf-8")
    assert icelint(root)[0] == 1
    assert [p.name for p in (mine / cache.SUBDIR).iterdir()] == ["notes.json"]


def test_the_default_folder_is_created_marked_and_pruned(tmp_path: Path, monkeypatch) -> None:
    root = project(tmp_path)
    assert icelint(root)[0] == 1
    folder = root / ".icelint_cache"
    assert (folder / ".gitignore").read_bytes() == cache.MARKER and len(entries(folder)) == 1
    (folder / "notes.txt").write_text("x", encoding="utf-8")
    for fmt in ("json", "junit"):
        icelint(root, "--format", fmt)
    monkeypatch.setattr(cache, "MAX_ENTRIES", 1)
    cache._prune(folder)
    assert len(entries(folder)) == 1 and (folder / "notes.txt").exists()


def _planted(root: Path, how: str) -> None:
    folder = root / ".icelint_cache"
    for e in entries(folder):
        e.unlink()
        if how == "nested":
            e.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
        elif how == "nested-object":
            e.write_text('{"format": ' + "[" * 200_000 + "]" * 200_000 + "}", encoding="utf-8")
        elif how == "fifo":
            os.mkfifo(e)
        elif how == "zero":
            e.symlink_to("/dev/zero")
        elif how == "link":
            other = root / "elsewhere.json"
            other.write_text(json.dumps({"format": 1, "key": e.stem, "output": "forged\n", "code": 0}), encoding="utf-8")
            e.symlink_to(other)
        elif how == "folder":
            e.mkdir()
        elif how == "not-json":
            e.write_bytes(b"\xff\xfe garbage")
        elif how == "wrong-types":
            e.write_text(json.dumps({"format": 1, "key": e.stem, "output": ["x"], "code": "1"}), encoding="utf-8")
        elif how == "list":
            e.write_text("[1, 2, 3]", encoding="utf-8")


@pytest.mark.parametrize("how", ["nested", "nested-object", "fifo", "zero", "link", "folder", "not-json", "wrong-types", "list"])
def test_a_planted_entry_is_a_miss(tmp_path: Path, how: str) -> None:
    root = project(tmp_path)
    plain = icelint(root, "--no-cache")
    assert icelint(root) == plain
    _planted(root, how)
    got = icelint(root)  # the subprocess has a timeout: a FIFO must not hang it
    assert got == plain, got[2][-400:]


def _unreadable(path: Path) -> None:
    """`path` becomes a file that cannot be read, for root too (a link to /proc/self/mem reads as EIO)."""
    if os.geteuid() == 0:
        if not os.path.exists("/proc/self/mem"):
            pytest.skip("no file that root cannot read")
        path.unlink(missing_ok=True)
        path.symlink_to("/proc/self/mem")
    else:
        os.chmod(path, 0)


@pytest.mark.parametrize("which", ["metadata", "sidecar"])
def test_an_unreadable_state_file_is_the_same_clean_error_with_the_cache(tmp_path: Path, which: str) -> None:
    root = project(tmp_path)
    meta = root / "db.events.metadata.json"
    shutil.copy(SNAPSHOT, meta)
    side = root / "db.events.stats.json"
    side.write_text("{}", encoding="utf-8")
    _unreadable(meta if which == "metadata" else side)
    off = icelint(root, "--metadata", str(meta), "--no-cache")
    on = icelint(root, "--metadata", str(meta))
    assert on == off
    code, out, err = on
    assert "internal error" not in err and "Traceback" not in err
    if which == "metadata":
        assert code == 2 and out == "" and len(err.splitlines()) == 1 and err.startswith("icelint: error: ") and f"{meta.name}: cannot read" in err
    else:  # the data counts are unknown (said under -v), the check goes on
        assert code == 1 and "ICE001" in out
