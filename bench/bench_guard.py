"""What `icelint.spark.guard` adds to a Spark job, without Spark (its own time only):

- a query (`SELECT 1`) through the `spark.sql` stand-in with a guard active, against the bare call:
  the cost every non-DDL statement pays (one context-variable read and one regular-expression match);
- one DDL statement checked inside a `with` block, with 0, 10 and 100 statements of history (the
  state of `db.events` from fixtures/replay/36_realistic_events_repartition, as Spark left it).

Spark's own `spark.sql("SELECT 1")` takes milliseconds (tests/spark_guard/test_guard_spark.py prints
both figures on real Spark). It asserts nothing.

    python bench/bench_guard.py [--calls 100000]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from icelint.sources import read_metadata_state
from icelint.spark.guarding import Guard, _Dispatch

META = ROOT / "fixtures/replay/36_realistic_events_repartition/expected/db.events.metadata.json"


def noop(q, args=None, **kw):
    return q


def per_call(fn, calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        fn("SELECT 1")
    return (time.perf_counter() - start) / calls


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=100_000)
    ap.add_argument("--runs", type=int, default=7)
    a = ap.parse_args()
    state = read_metadata_state(str(META), "spark")
    guard = Guard(object(), lambda spark, table: state, config=ROOT / "bench")
    dispatch = _Dispatch(noop, None)
    token = dispatch.active.set((guard,))
    wrapped = min(per_call(dispatch.sql, a.calls) for _ in range(a.runs))
    dispatch.active.reset(token)
    bare = min(per_call(noop, a.calls) for _ in range(a.runs))
    print(f"query through the guard: {(wrapped - bare) * 1e9:,.0f} ns per call over the bare call ({a.calls:,} calls, best of {a.runs})")
    for n in (0, 10, 100):
        g = Guard(object(), lambda spark, table: state, config=ROOT / "bench")
        for i in range(n):
            g.record(f"ALTER TABLE db.events ADD COLUMN c{i} int", "bench")
        times = []
        for _ in range(a.runs):
            start = time.perf_counter()
            g.check_statement("ALTER TABLE db.events ADD COLUMN extra string", "bench")
            times.append(time.perf_counter() - start)
        print(f"DDL statement checked, {n:>3} statements of history: {statistics.median(times) * 1e3:.1f} ms (median of {a.runs})")


if __name__ == "__main__":
    main()
