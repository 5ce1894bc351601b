"""Ctrl-C at any moment of a run, start-up included: exit 130 (or the run's own code when it was
already done), at most one line on stderr, never a traceback.

The moments tried start once the interpreter itself is up: Ctrl-C during CPython's own
initialisation (its `site` import, before any icelint code runs) is CPython's to report, and so is
one that lands in the launcher's few lines before the first line of icelint runs (a traceback with
no frame in icelint's code)."""

from __future__ import annotations

import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.cli.test_commands import _env

# the interpreter is up (site imported): say so, then start icelint exactly as `python -m icelint` does
_LAUNCH = """import os, runpy, sys
os.write(int(sys.argv[1]), b"up")
os.close(int(sys.argv[1]))
sys.argv = ["icelint", *sys.argv[2:]]
runpy.run_module("icelint", run_name="__main__", alter_sys=True)
"""
ICELINT_FRAME = re.compile(r'File "[^"]*[/\\]icelint[/\\]')  # a frame in icelint's own code
SQL = ("CREATE TABLE db.t (id bigint, a int) USING iceberg;\n"
       "ALTER TABLE db.t DROP COLUMN a;\nALTER TABLE db.t ADD COLUMN a string;\n")


def interrupted_at(cwd: Path, delay: float, *args: str) -> tuple[int, str]:
    r, w = os.pipe()
    p = subprocess.Popen([sys.executable, "-c", _LAUNCH, str(w), *args], cwd=cwd, pass_fds=(w,), env=_env(),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(w)
    os.read(r, 2)
    os.close(r)
    time.sleep(delay)
    p.send_signal(signal.SIGINT)
    _, err = p.communicate(timeout=120)
    return p.returncode, err.decode("utf-8", "replace")


def test_ctrl_c_at_random_moments_of_start_up_and_run(tmp_path: Path) -> None:
    (tmp_path / "V1__a.sql").write_text(SQL, encoding="utf-8")
    t0 = time.monotonic()
    full = subprocess.run([sys.executable, "-m", "icelint", "check", "--no-cache", "V1__a.sql"], cwd=tmp_path,
                          capture_output=True, env=_env(), timeout=120)
    span = time.monotonic() - t0
    assert full.returncode == 0, full.stderr
    rng = random.Random(int(os.environ.get("ICELINT_SIGNAL_SEED", "39")))
    seen = set()
    for _ in range(16):
        code, err = interrupted_at(tmp_path, rng.uniform(0, span), "check", "--no-cache", "V1__a.sql")
        if "Traceback" in err and not ICELINT_FRAME.search(err):
            continue  # the launcher's own lines, before the first line of icelint ran (a stalled child)
        assert "Traceback" not in err and "Error" not in err, err
        assert code in (130, 0), (code, err)  # 0: the run was done before the signal came
        assert len(err.splitlines()) <= 1, err
        if code == 130:
            assert err == "icelint: interrupted\n", err
        seen.add(code)
    assert 130 in seen
