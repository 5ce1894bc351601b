"""Where a long check spends its time and keeps its memory, phase by phase.

    python bench/phases.py FILE.sql [--top 12]

Runs `icelint check FILE.sql` in this process, phase after phase as `icelint.engine.check` chains them (parse
and lower, then replay and rules together: each outcome linted as the replay makes it, as
`checker.lint_replay` does; `--apart` replays the whole file first, then lints it, to time the two
apart), with the garbage collector off (as `icelint check` runs a long file), and
prints for each phase its CPU time, the process's max RSS after it, and, with `--top N`, what the
phase added to the live Python heap by source line (tracemalloc: slower, and it counts only what
Python allocates). Divide by the statement count for "per statement": the README's "Scaling"
table is made this way, on a slice of `bench/scale.py`'s `big-50mb` input:

    python -c "import sys; sys.path.insert(0, 'bench'); import scale; open('/tmp/big2.sql', 'w').write(scale.big(2_000_000))"
    python bench/phases.py /tmp/big2.sql --top 12

CPU figures of one run on a shared machine move by 10-20 %: compare versions with interleaved
whole-process runs (`bench/scale.py`), not with this script.
"""

from __future__ import annotations

import argparse
import gc
import resource
import sys
import time
import tracemalloc


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("--top", type=int, default=0, help="show the N source lines that kept the most memory in each phase")
    ap.add_argument("--apart", action="store_true", help="replay the whole file, then lint it (two phases)")
    args = ap.parse_args(argv)

    from icelint.engine.checker import lint_replay, lint_run
    from icelint.config import load_config
    from icelint.engine.pipeline import parse_sources, replay
    from icelint.replay.engine import Replay
    from icelint.values.source import SourceFile

    rules = load_config().rules()
    gc.disable()
    if args.top:
        tracemalloc.start(1)
    rows: list[tuple[str, float, float, float]] = []
    snap = tracemalloc.take_snapshot() if args.top else None

    def phase(name: str, work):
        nonlocal snap
        t = time.process_time()
        out = work()
        cpu = time.process_time() - t
        heap = tracemalloc.get_traced_memory()[0] / 1e6 if args.top else float("nan")
        rows.append((name, cpu, _rss_mb(), heap))
        if args.top:
            now = tracemalloc.take_snapshot()
            print(f"\n{name}: kept by source line")
            for st in now.compare_to(snap, "lineno")[: args.top]:
                print(f"  {st}")
            snap = now
        return out

    source = phase("read", lambda: SourceFile.read(args.file))
    parsed = phase("parse + lower", lambda: parse_sources([source], trees=False, pack=lambda s: True))  # as `icelint check`
    source = None  # noqa: F841 - the parsed run keeps the packed text, not this one
    if args.apart:
        run = phase("replay", lambda: replay(parsed))
        findings = phase("rules", lambda: lint_run(run, rules))
    else:
        findings, _ = phase("replay + rules", lambda: lint_replay(Replay(), parsed.steps, rules))
    n = max(len(parsed.steps), 1)
    print(f"\n{args.file}: {len(parsed.steps):,} statements, {len(findings):,} findings")
    print("| Phase | CPU | Max RSS after | Python heap after (cumulative) |")
    print("| --- | ---: | ---: | ---: |")
    for name, cpu, rss, heap in rows:
        heap_txt = f"{heap:,.0f} MB ({heap * 1e6 / n:,.0f} B per statement)" if heap == heap else "(with --top)"
        print(f"| {name} | {cpu:.2f} s | {rss:,.0f} MB | {heap_txt} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
