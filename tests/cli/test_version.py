"""`icelint.__version__` is a constant (reading the installed distribution's metadata would import
`importlib.metadata` at every start-up): it must follow pyproject.toml's version."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

import icelint

ROOT = Path(__file__).resolve().parents[2]


def test_version_constant_matches_pyproject() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert "version" not in project.get("dynamic", [])
    assert icelint.__version__ == project["version"]


def test_version_option_prints_it() -> None:
    r = subprocess.run([sys.executable, "-m", "icelint", "--version"], capture_output=True, text=True, timeout=60)
    assert r.returncode == 0 and r.stdout.split()[-1] == icelint.__version__, r.stdout + r.stderr
