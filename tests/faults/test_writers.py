"""The writers (`--fix`, `--add-suppressions`; icelint.util.writing) change the file's text and nothing else:
through a symbolic link the target is written, hard links stay one file, owner and mode are kept,
and an interrupted or failing write leaves the file as it was and no temporary file behind."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from icelint.util import writing
from tests.cli.test_commands import run

CREATE = "CREATE TABLE db.logs (id bigint, logged_at timestamp) USING iceberg PARTITIONED BY (days(logged_at));\n"
MISSPELT = "ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;\n"  # ICE003, a safe fix
SQL = CREATE + MISSPELT
FIXED = CREATE + "ALTER TABLE db.logs DROP PARTITION FIELD logged_at_day;\n"
# ICE008, a warning `--add-suppressions` accepts as legacy (a statement Spark rejects is never suppressed)
SUPPRESSIBLE = CREATE + "SET spark.sql.caseSensitive=true;\n"


def leftovers(*folders: Path) -> list[str]:
    return [p.name for d in folders for p in d.iterdir() if p.name.endswith((".icelint-tmp", ".tmp"))]


def linked(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "shared").mkdir()
    (tmp_path / "migs").mkdir()
    target = tmp_path / "shared" / "V1__a.sql"
    target.write_text(SQL, encoding="utf-8")
    link = tmp_path / "migs" / "V1__a.sql"
    link.symlink_to(Path("..") / "shared" / "V1__a.sql")
    return target, link


def test_fix_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    target, link = linked(tmp_path)
    r = run("check", "migs", "--fix", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == os.path.join("..", "shared", "V1__a.sql")
    assert target.read_text(encoding="utf-8") == FIXED
    assert leftovers(tmp_path / "shared", tmp_path / "migs") == []


def test_add_suppressions_through_a_symlink_writes_its_target(tmp_path: Path) -> None:
    target, link = linked(tmp_path)
    target.write_text(SUPPRESSIBLE, encoding="utf-8")
    r = run("check", "migs", "--add-suppressions", "legacy", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink()
    assert "-- icelint: ignore ICE008 -- legacy" in target.read_text(encoding="utf-8")
    assert run("check", "migs", "--no-cache", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(("flag", "sql"), [(("--fix",), SQL), (("--add-suppressions", "legacy"), SUPPRESSIBLE)])
def test_hard_links_stay_one_file(tmp_path: Path, flag: tuple[str, ...], sql: str) -> None:
    (tmp_path / "migs").mkdir()
    f = tmp_path / "migs" / "V1__a.sql"
    f.write_text(sql, encoding="utf-8")
    other = tmp_path / "other.sql"
    os.link(f, other)
    inode = f.stat().st_ino
    r = run("check", "migs", *flag, "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f.stat().st_ino == inode and f.stat().st_nlink == 2
    assert other.read_text(encoding="utf-8") == f.read_text(encoding="utf-8") != sql
    assert leftovers(tmp_path / "migs") == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="only root can own another user's file")
def test_run_as_root_keeps_the_owner_and_mode(tmp_path: Path) -> None:
    f = tmp_path / "V1__a.sql"
    f.write_text(SQL, encoding="utf-8")
    os.chown(f, 65534, 65534)
    os.chmod(f, 0o640)
    r = run("check", "V1__a.sql", "--fix", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    st = f.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o640)
    assert f.read_text(encoding="utf-8") == FIXED


def _dead_pid() -> int:
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


def test_a_killed_writes_leftover_is_removed_only_when_provably_ours(tmp_path: Path, monkeypatch) -> None:
    f = tmp_path / "V1__a.sql"
    f.write_text(SQL, encoding="utf-8")
    dead = _dead_pid()
    monkeypatch.setattr(os, "getpid", lambda: dead)
    ours = writing.temp_name(f)  # what a run killed by SIGKILL leaves
    monkeypatch.undo()
    ours.write_text("half", encoding="utf-8")
    forged = tmp_path / f".V1__a.sql.{dead}-0123456789abcdef.0123456789abcdef.icelint-tmp"  # the pattern, not our tag
    forged.write_text("a user's file", encoding="utf-8")
    alive = writing.temp_name(f)  # a run writing now (this process): never touched
    alive.write_text("being written", encoding="utf-8")
    r = run("check", "V1__a.sql", "--fix", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f.read_text(encoding="utf-8") == FIXED
    assert not ours.exists() and forged.exists() and alive.exists()


@pytest.mark.parametrize("fault", [OSError(errno.ENOSPC, "No space left on device"), KeyboardInterrupt()])
def test_a_failed_write_leaves_the_file_and_no_temporary(tmp_path: Path, monkeypatch, fault: BaseException) -> None:
    f = tmp_path / "V1__a.sql"
    f.write_text(SQL, encoding="utf-8")

    def fail(fd, data):
        os.write(fd, data[:5])
        raise fault

    monkeypatch.setattr(writing, "_write_all", fail)
    with pytest.raises(type(fault)):
        writing.write_file(f, FIXED.encode("utf-8"))
    assert f.read_text(encoding="utf-8") == SQL and leftovers(tmp_path) == []


def test_a_full_disk_in_place_fails_before_touching_the_file(tmp_path: Path, monkeypatch) -> None:
    f = tmp_path / "V1__a.sql"
    f.write_text(SQL, encoding="utf-8")
    os.link(f, tmp_path / "again.sql")

    def full(fd, offset, size):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full, raising=False)
    with pytest.raises(OSError):
        writing.write_file(f, FIXED.encode("utf-8"))
    assert f.read_text(encoding="utf-8") == SQL


def test_a_new_file_gets_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o022)
    try:
        writing.write_file(tmp_path / "new.json", b"{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o644 and leftovers(tmp_path) == []
