"""The executable turns the cyclic garbage collector off before it imports the CLI (icelint/_start.py)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Runs icelint one way or the other; an import hook prints the collector's state at the moment
# `icelint.cli.main` starts loading (the process ends with os._exit, so it is printed there and then).
_CODE = textwrap.dedent(
    """
    import gc, os, sys
    class Hook:
        def find_spec(self, name, path=None, target=None):
            if name == "icelint.cli.main":
                sys.stderr.write(f"collector on when icelint.cli.main loads: {gc.isenabled()}\\n")
                sys.stderr.flush()
            return None
    sys.meta_path.insert(0, Hook())
    sys.argv = ["icelint", "--version"]
    if os.environ["HOW"] == "python -m":
        import runpy
        runpy.run_module("icelint", run_name="__main__")
    else:  # the console script: `module:function` from pyproject.toml
        from importlib import import_module
        module, _, func = os.environ["TARGET"].partition(":")
        getattr(import_module(module), func)()
    """
)


def test_the_executable_turns_the_collector_off_before_importing_the_cli() -> None:
    target = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["scripts"]["icelint"]
    for how in ("python -m", "console script"):
        r = subprocess.run([sys.executable, "-c", _CODE], cwd=ROOT, capture_output=True, text=True, timeout=60,
                           env={"PATH": "/usr/bin:/bin", "HOW": how, "TARGET": target, "PYTHONPATH": str(ROOT)})  # fmt: skip
        assert "collector on when icelint.cli.main loads: False" in r.stderr, (how, r.stderr[-500:])
        assert r.stdout.startswith("icelint, version"), (how, r.stdout, r.stderr[-500:])
