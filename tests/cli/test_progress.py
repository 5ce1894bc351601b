"""The progress bar: on a terminal for long runs only; never in a pipe, a file or a CI log."""

from __future__ import annotations

import os
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.ci.conftest import CLEAN, CREATE, clean_env, write

pty = pytest.importorskip("pty", reason="needs a POSIX pseudo-terminal")

MARK = "icelint: parsing"


@pytest.fixture
def many(tmp_path: Path) -> Path:
    write(tmp_path, "m/V1__create.sql", CREATE)
    for i in range(2, 41):
        write(tmp_path, f"m/V{i}__step.sql", CLEAN.replace("source", f"c{i}"))
    return tmp_path


def run_with_tty_stderr(cwd: Path, env: dict[str, str], *args: str) -> tuple[int, str, str]:
    """Run icelint with stderr on a pseudo-terminal (stdout a pipe); returns (code, stdout, terminal output)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "icelint", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=slave, stdin=subprocess.DEVNULL)
    os.close(slave)
    chunks: list[bytes] = []
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.1)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    out = proc.stdout.read().decode() if proc.stdout else ""
    code = proc.wait(timeout=60)
    os.close(master)
    return code, out, b"".join(chunks).decode(errors="replace")


def test_progress_bar_on_a_terminal(many: Path) -> None:
    env = clean_env(TERM="xterm-256color")
    env.pop("CI", None)
    code, out, tty = run_with_tty_stderr(many, env, "check", "m")
    assert code == 0
    assert MARK in tty
    assert MARK not in out and "Checked 40 files" in out


def test_no_progress_bar_in_ci_or_pipes_or_for_short_runs(many: Path) -> None:
    env = clean_env(TERM="xterm-256color", CI="true")
    code, out, tty = run_with_tty_stderr(many, env, "check", "m")
    assert code == 0 and MARK not in tty
    piped = subprocess.run([sys.executable, "-m", "icelint", "check", "m"], cwd=many, capture_output=True, text=True,
                           env={k: v for k, v in clean_env().items() if k != "CI"})
    assert piped.returncode == 0 and piped.stderr == "" and MARK not in piped.stdout
    env.pop("CI")
    code, out, tty = run_with_tty_stderr(many, env, "check", "m/V1__create.sql", "m/V2__step.sql")
    assert code == 0 and MARK not in tty
