"""A short run of bench/fault_fuzz.py: `--fix`, `--add-suppressions` and `snapshot` killed at random
moments, and bad cache entries planted (see its docstring for what each round requires). The seed
is fixed, so a failure reproduces: `python bench/fault_fuzz.py --seconds 25 --seed 39`."""

from __future__ import annotations

import importlib.util
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_a_short_fault_fuzz() -> None:
    spec = importlib.util.spec_from_file_location("fault_fuzz", ROOT / "bench" / "fault_fuzz.py")
    fuzz = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(fuzz)
    said: list[str] = []
    seconds = float(os.environ.get("ICELINT_FAULT_FUZZ_SECONDS", "25"))
    assert fuzz.run(seconds, int(os.environ.get("ICELINT_FAULT_FUZZ_SEED", "39")), say=said.append) == 0, said
