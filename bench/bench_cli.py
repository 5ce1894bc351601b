"""Time icelint as whole processes (start-up included) on the inputs of bench/make_inputs.py.

    python bench/make_inputs.py        # once: writes bench/out/
    python bench/bench_cli.py [--runs 5] [--sqlfluff-runs 1] [--no-sqlfluff]

Prints a Markdown table: the median wall-clock time of N runs and the median CPU time (user+sys of
the child, less sensitive to other load on the machine), against the targets in bench/README.md.
sqlfluff (`pip install sqlfluff==4.5.0`) is timed on the same migration when it is installed.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"
ICELINT = [sys.executable, "-m", "icelint"]


@dataclass
class Row:
    name: str
    command: list[str]
    target: str
    limit: float | None  # seconds; None: judged against another row
    ok_codes: tuple[int, ...] = (0, 1)
    env: dict[str, str] | None = None  # added to the environment
    wall: float = 0.0
    cpu: float = 0.0
    runs: int = 0


def require_this_tree(cwd: Path) -> None:
    """Stop unless `python -m icelint`, run from `cwd`, is the icelint of this checkout: an editable
    install pointing elsewhere (or none) makes every run exit 1 at once with "No module named
    icelint", which the exit-code check accepts and the table would report as a fast run."""
    r = subprocess.run([sys.executable, "-c", "import icelint; print(icelint.__file__)"], cwd=cwd,
                       capture_output=True, text=True)  # fmt: skip
    mine = HERE.parent / "icelint"
    if r.returncode != 0 or Path(r.stdout.strip()).resolve().parent != mine.resolve():
        got = r.stdout.strip() or r.stderr.strip().splitlines()[-1:]
        raise SystemExit(f"bench: `python -m icelint` from {cwd} is not {mine} (got {got}); run `pip install -e .` here first")


def time_process(cmd: list[str], ok_codes: tuple[int, ...], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU time (user+sys of the process and of the workers it waited for)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    r = subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                       env={**os.environ, "ICELINT_NO_CACHE": "1", **(env or {})})  # every run does the work
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if r.returncode not in ok_codes:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.decode(errors='replace')[-500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(rows: list[Row], runs: int, cwd: Path, sparse: Row | None = None, sparse_runs: int = 0) -> None:
    """Median of `runs` runs of each row, the rows interleaved, and `sparse_runs` runs of `sparse`
    spread among them: a burst of load elsewhere on the machine then slows every row a little
    rather than one row a lot, and the slow sqlfluff runs happen over the same time as icelint's."""
    samples: dict[int, list[tuple[float, float]]] = {id(r): [] for r in rows}
    slots = {round(k * runs / sparse_runs) for k in range(sparse_runs)} if sparse is not None and sparse_runs else set()
    sparse_samples: list[tuple[float, float]] = []
    for i in range(runs):
        if sparse is not None and i in slots:
            sparse_samples.append(time_process(sparse.command, sparse.ok_codes, cwd, sparse.env))
        for row in rows:
            samples[id(row)].append(time_process(row.command, row.ok_codes, cwd, row.env))
    for row, got in [(r, samples[id(r)]) for r in rows] + ([(sparse, sparse_samples)] if sparse_samples else []):
        walls, cpus = zip(*got)
        row.wall, row.cpu, row.runs = statistics.median(walls), statistics.median(cpus), len(got)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--sqlfluff-runs", type=int, default=1)
    ap.add_argument("--no-sqlfluff", action="store_true")
    args = ap.parse_args(argv)

    if not (OUT / "migration.sql").exists() or not (OUT / "big.metadata.json").exists():
        subprocess.run([sys.executable, str(HERE / "make_inputs.py")], check=True)
    env_note = f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}"

    # Byte-compile icelint as `pip install` does for a wheel: an editable install never does, and with
    # PYTHONDONTWRITEBYTECODE set (as on some CI images) every run would compile every module again.
    import icelint

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(icelint.__file__).parent)], check=True)
    require_this_tree(OUT)
    subprocess.run([*ICELINT, "--version"], cwd=OUT, stdout=subprocess.DEVNULL, check=True)  # warm the caches
    rows = [
        Row("schema, 2,000 statements", [*ICELINT, "schema", "migration.sql"], "< 1 s", 1.0),
        Row("schema, load 5,000 cols × 500 schemas", [*ICELINT, "schema", "one_alter.sql", "--metadata", "db.big=big.metadata.json"], "< 1 s", 1.0),
        Row("schema, one statement (start-up)", [*ICELINT, "schema", "one.sql"], "< 0.3 s", 0.3),
        Row("check, 2,000 statements", [*ICELINT, "check", "migration.sql"], "< 1 s", 1.0),
        Row("check, 2,000 statements, one process (`ICELINT_JOBS=1`)", [*ICELINT, "check", "migration.sql"], "< 1 s",
            1.0, env={"ICELINT_JOBS": "1"}),
    ]  # fmt: skip
    check = rows[3]
    sqlfluff = shutil.which("sqlfluff")
    fluff = None
    if sqlfluff and not args.no_sqlfluff:
        # sqlfluff skips files over 20,000 bytes unless told otherwise: make it really lint the file
        (OUT / "sqlfluff.cfg").write_text("[sqlfluff]\ndialect = sparksql\nlarge_file_skip_byte_limit = 0\n")
        fluff = Row("sqlfluff lint --dialect sparksql, 2,000 statements",
                    [sqlfluff, "lint", "--dialect", "sparksql", "--config", "sqlfluff.cfg", "--nofail", "migration.sql"],
                    "icelint check ≥ 30× faster", None, ok_codes=(0, 1))  # fmt: skip
    measure(rows, args.runs, OUT, fluff, args.sqlfluff_runs)

    print(f"Whole processes, median of runs ({env_note}).\n")
    print("| Benchmark | Wall (median) | CPU user+sys | Runs | Target | Met |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for row in rows:
        met = "yes" if row.wall < row.limit else ("CPU only" if row.cpu < row.limit else "**no**")  # type: ignore[operator]
        if fluff is not None and row.name.startswith("check"):
            met += f" ({fluff.wall / row.wall:.0f}× faster than sqlfluff)"
        print(f"| {row.name} | {row.wall:.3f} s | {row.cpu:.3f} s | {row.runs} | {row.target} | {met} |")
    if fluff is not None:
        ratio_wall, ratio_cpu = fluff.wall / check.wall, fluff.cpu / max(check.cpu, 1e-9)
        met = "yes" if ratio_wall >= 30 else ("CPU only" if ratio_cpu >= 30 else "**no**")
        print(f"| {fluff.name} | {fluff.wall:.3f} s | {fluff.cpu:.3f} s | {fluff.runs} | {fluff.target} "
              f"| {met} ({ratio_wall:.0f}× wall, {ratio_cpu:.0f}× CPU) |")  # fmt: skip
    else:
        print("| sqlfluff lint --dialect sparksql | skipped (`--no-sqlfluff`, or not installed: `pip install sqlfluff==4.5.0`) | | | | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
