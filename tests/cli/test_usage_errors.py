"""Every usage error is one line in icelint's style (`icelint: error: ...`) on stderr, exit code 2:
click's three-line usage block (`Usage: ...`, `Try ... --help`, `Error: ...`) never shows."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_commands import run

CASES = [
    (["explain", "ICE999"], "unknown rule 'ICE999'"),
    (["check", "--format", "xml", "x.sql"], "'xml' is not one of"),
    (["check", "--nope"], "No such option '--nope'"),
    (["nope"], "No such command 'nope'"),
    (["check", "--metadata"], "'--metadata' requires an argument"),
    (["explain"], "Missing argument 'RULE'"),
    (["check", "--color", "pink", "x.sql"], "'pink' is not one of"),
]


@pytest.mark.parametrize(("args", "needle"), CASES, ids=[" ".join(a) for a, _ in CASES])
def test_usage_error_is_one_line_exit_2(args: list[str], needle: str, tmp_path: Path) -> None:
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert r.stdout == ""
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("icelint: error: ") and needle in lines[0], r.stderr
    assert "Usage:" not in r.stderr and "Try '" not in r.stderr


def test_help_and_version_still_print(tmp_path: Path) -> None:
    assert run("--version", cwd=tmp_path).returncode == 0
    h = run("check", "--help", cwd=tmp_path)
    assert h.returncode == 0 and h.stdout.startswith("Usage:")
    bare = run(cwd=tmp_path)  # no command: the group's help, as before
    assert (bare.stdout + bare.stderr).startswith("Usage:")
