"""The README's quick start is what icelint prints: its command, run from the repository's root,
finds the trap of the example folder (the finding the README shows, word for word) and exits 1."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_quick_start_prints_the_readme_example_and_exits_1() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"pip install -e \. && (icelint check [^\n]+)", readme)[1]
    shown = re.search(r"```text\n(.*?)```", readme, re.S)[1]
    r = subprocess.run([sys.executable, "-m", "icelint", *command.split()[1:], "--no-cache"], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stdout + r.stderr
    assert shown in r.stdout
    assert "Checked 3 files, 4 statements: 2 errors, 1 warning." in r.stdout
    assert "two\nerrors and one warning" in readme or "two errors and one warning" in " ".join(readme.split())
    assert "V1__create_events.sql already in the state of db.events" in r.stdout
