"""Standard input that cannot be read is one clear line and exit 2; a readable one gives the same
report as the same text from a file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_commands import _env

SQL = ("CREATE TABLE db.t (id bigint, a int, b string) USING iceberg;\n"
       "ALTER TABLE db.t DROP COLUMN a;\nALTER TABLE db.t ADD COLUMN a string;\n"
       "ALTER TABLE db.t ALTER COLUMN b TYPE int;\nALTER TABLE db.t RENAME COLUMN b TO c;\n")


def icelint(args: list[str], cwd: Path, stdin) -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, "-m", "icelint", *args], cwd=cwd, stdin=stdin, capture_output=True,
                       text=True, env=_env(), timeout=120)
    return r.returncode, r.stdout, r.stderr


def _closed_stdin():
    os.close(0)


@pytest.mark.parametrize("args", [["check", "-"], ["check", "--stdin-filename", "V1__a.sql"], ["check", "--fix", "-"]])
def test_closed_stdin_is_one_line(tmp_path: Path, args: list[str]) -> None:
    r = subprocess.run([sys.executable, "-m", "icelint", *args], cwd=tmp_path, capture_output=True, text=True,
                       env=_env(), timeout=120, preexec_fn=_closed_stdin, close_fds=True)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("icelint: error: ") and "standard input is closed" in r.stderr


@pytest.mark.parametrize("args", [["check", "-"], ["check", "--stdin-filename", "V1__a.sql"]])
def test_write_only_stdin_is_one_line(tmp_path: Path, args: list[str]) -> None:
    with open(tmp_path / "sink", "wb") as wo:  # `0>/dev/null`: open, but for writing
        code, out, err = icelint(args, tmp_path, wo)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("icelint: error: ") and "not open for reading" in err


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_stdin_gives_the_same_report_as_the_file(tmp_path: Path, fmt: str) -> None:
    f = tmp_path / "V1__a.sql"
    f.write_text(SQL * 20, encoding="utf-8")
    from_file = icelint(["check", "--format", fmt, "V1__a.sql"], tmp_path, subprocess.DEVNULL)
    with open(f, "rb") as fh:
        from_stdin = icelint(["check", "--format", fmt, "--stdin-filename", "V1__a.sql"], tmp_path, fh)
    assert from_file[0] == 1 and from_stdin == from_file
