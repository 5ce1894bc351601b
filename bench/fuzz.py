"""The long fuzz run: `python bench/fuzz.py --minutes 30`.

Runs the properties of `tests/faults/test_fuzz.py` (generated Spark/Iceberg DDL, mutated metadata.json
files through both loaders) with fresh random examples, batch after batch, until the time is up.
Stops at the first input that breaks a property, or that takes longer than `--hang` seconds, prints it shrunk to a minimal example (hypothesis
does that), saves it under `bench/out/fuzz-failure.*` and exits 1; exits 0 when nothing was found.
"""

from __future__ import annotations

import argparse
import collections
import signal
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from tests.faults.fuzz_inputs import check_metadata_file, check_sql_file, metadata_files, sql_files  # noqa: E402

OUT = ROOT / "bench" / "out"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=30.0, help="how long to fuzz (default 30)")
    ap.add_argument("--batch", type=int, default=100, help="examples per batch and kind (default 100)")
    ap.add_argument("--hang", type=float, default=60.0, help="seconds one input may take before it counts as a hang (default 60)")
    args = ap.parse_args()
    deadline = time.monotonic() + args.minutes * 60
    counts: collections.Counter = collections.Counter()
    last: dict[str, object] = {}
    common = dict(max_examples=args.batch, deadline=None, database=None, suppress_health_check=list(HealthCheck),
                  phases=[Phase.generate, Phase.shrink], print_blob=True)

    def watched(check):
        """`check()`, failing the property when it runs longer than --hang seconds (a loop that never
        ends is a failure too: a field id used twice once made a walk up the schema loop for ever)."""
        def timeout(*_):
            raise TimeoutError(f"one input took more than {args.hang:.0f} s (a hang?)")

        old = signal.signal(signal.SIGALRM, timeout)
        signal.setitimer(signal.ITIMER_REAL, args.hang)
        try:
            return check()
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)

    @settings(**common)
    @given(text=sql_files(), with_state=st.booleans())
    def fuzz_sql(text: str, with_state: bool) -> None:
        last["sql"] = text
        with tempfile.TemporaryDirectory() as tmp:
            counts[f"sql exit {watched(lambda: check_sql_file(Path(tmp), text, with_state)).code}"] += 1

    @settings(**common)
    @given(file=metadata_files(), fast=st.booleans())
    def fuzz_metadata(file: tuple[str, bytes], fast: bool) -> None:
        last["metadata"] = file[1]
        with tempfile.TemporaryDirectory() as tmp:
            counts[f"metadata exit {watched(lambda: check_metadata_file(Path(tmp), file[1], fast)).code}"] += 1

    batches = 0
    while time.monotonic() < deadline:
        for kind, prop in (("sql", fuzz_sql), ("metadata", fuzz_metadata)):
            try:
                prop()
            except Exception as e:  # noqa: BLE001 - a broken property: report it and stop
                import traceback

                traceback.print_exc()
                OUT.mkdir(parents=True, exist_ok=True)
                target = OUT / ("fuzz-failure.sql" if kind == "sql" else "fuzz-failure.metadata.json")
                data = last.get(kind)
                if isinstance(data, str):
                    target.write_text(data)
                elif isinstance(data, bytes):
                    target.write_bytes(data)
                print(f"FAILED ({kind}) after {sum(counts.values())} inputs: {e}\n(the last input tried is in {target})")
                return 1
        batches += 1
        done = sum(counts.values())
        left = max(0.0, deadline - time.monotonic())
        print(f"batch {batches}: {done} inputs checked, {left / 60:.1f} min left; " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())),
              flush=True)
    print(f"no failure in {sum(counts.values())} inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
