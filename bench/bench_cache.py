"""The run cache and start-up, as whole processes (the cold, warm and 2,000-statement targets).

    python bench/bench_cache.py [--runs 15]

Rows (median CPU time user+sys of the process, and wall time, runs interleaved; a target's ratio is
the median over the rounds of the row's CPU time over its yardstick's in the same round):

- `python -c "import click"`, the yardstick of a warm re-run;
- `icelint check` re-run on an unchanged folder of 4,000 statements (40 files, 10 tables) whose
  report is in the cache (target: at most 2x `import click`);
- `python -c "import sqlglot"`, the yardstick of a cold check;
- `icelint check --no-cache` of one small file (target: at most 1.15x `import sqlglot`);
- the same check with the cache on and empty (the default run, the first time);
- `sqlglot.parse(text, read="spark")` of `bench/out/migration.sql` (2,000 statements, from
  `make_inputs.py`) in its own process, the yardstick of
- `icelint check --no-cache` of that file (target: at most 1.3x sqlglot's parse).

The inputs are written to `bench/out/cache/` (gitignored); icelint is byte-compiled first, as
`pip install` does for a wheel.
"""

from __future__ import annotations

import argparse
import compileall
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench_cli import require_this_tree, time_process  # noqa: E402
from scale import SQLGLOT  # noqa: E402

OUT = HERE / "out" / "cache"
PY = sys.executable


def make_folder() -> Path:
    """40 files of 100 statements over 10 tables: each table created in its first file, then columns
    added, commented and renamed."""
    root = OUT / "project"
    if root.exists():
        shutil.rmtree(root)
    m = root / "migrations"
    m.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.icelint]\nmigrations = "migrations"\n', encoding="utf-8")
    for k in range(40):
        t = k % 10
        lines = []
        if k < 10:
            lines.append(f"CREATE TABLE db.t{t} (id bigint, kind string) USING iceberg PARTITIONED BY (kind);")
        while len(lines) < 100:
            i = len(lines)
            c = f"c{k}_{i}"
            if i % 3 == 2:
                lines.append(f"ALTER TABLE db.t{t} ALTER COLUMN c{k}_{i - 1} COMMENT 'note {i}';")
            else:
                lines.append(f"ALTER TABLE db.t{t} ADD COLUMN {c} {'string' if i % 2 else 'int'};")
        (m / f"V{k + 1}__step_{k + 1}.sql").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    compileall.compile_dir(str(HERE.parent / "icelint"), quiet=1)
    root = make_folder()
    one = OUT / "one.sql"
    one.write_text("CREATE TABLE db.e (id bigint, p string) USING iceberg;\nALTER TABLE db.e DROP COLUMN p;\n", encoding="utf-8")
    migration = HERE / "out" / "migration.sql"
    if not migration.exists():
        subprocess.run([PY, str(HERE / "make_inputs.py")], check=True, stdout=subprocess.DEVNULL)
    cold = OUT / "cold"  # no configuration: the cache is cold/.icelint_cache/, emptied before every run
    cold.mkdir(parents=True, exist_ok=True)
    empty = cold / ".icelint_cache"
    env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_NO_CACHE", "GITHUB_ACTIONS")}
    os.environ.clear()
    os.environ.update(env)
    statements = sum(f.read_text().count(";") for f in (root / "migrations").glob("*.sql"))
    rows = {
        "python -c 'import click'": ([PY, "-c", "import click"], root),
        f"icelint check, warm re-run, {statements:,} statements / 40 files / 10 tables": ([PY, "-m", "icelint", "check"], root),
        "python -c 'import sqlglot'": ([PY, "-c", "import sqlglot"], root),
        "icelint check --no-cache, one file (cold)": ([PY, "-m", "icelint", "check", "--no-cache", str(one)], cold),
        "icelint check, one file, empty cache (cold)": ([PY, "-m", "icelint", "check", str(one)], cold),
        "sqlglot.parse(read='spark'), 2,000 statements": ([*SQLGLOT, str(migration)], OUT),
        "icelint check --no-cache, 2,000 statements": ([PY, "-m", "icelint", "check", "--no-cache", str(migration)], OUT),
    }
    limits = {1: (2.0, 0), 3: (1.15, 2), 4: (1.15, 2), 6: (1.3, 5)}  # row: (limit, yardstick row)
    cache_on = {"ICELINT_NO_CACHE": "0"}  # time_process turns the cache off for bench_cli.py; these rows need it
    for cwd in {cwd for _, cwd in rows.values()}:
        require_this_tree(cwd)
    time_process([PY, "-m", "icelint", "check"], (0, 1), root, cache_on)  # fills the cache
    samples: dict[str, list[tuple[float, float]]] = {k: [] for k in rows}
    for _ in range(args.runs):
        for name, (cmd, cwd) in rows.items():
            shutil.rmtree(empty, ignore_errors=True)
            samples[name].append(time_process(cmd, (0, 1), cwd, cache_on))
    med = {k: (statistics.median(w for w, _ in v), statistics.median(c for _, c in v)) for k, v in samples.items()}
    names = list(rows)
    print("| Benchmark | Wall (median) | CPU user+sys (median) | Runs | Target | Met |")
    print("| --- | ---: | ---: | ---: | --- | --- |")
    for i, name in enumerate(names):
        wall, cpu = med[name]
        target = met = ""
        if i in limits:
            limit, base = limits[i]
            # the median of the rounds' own ratios: a row and its yardstick run next to each other in
            # each round, so a burst of load elsewhere slows both (a ratio of medians taken over
            # different rounds moved by ±0.1 between runs of this script on the shared machine)
            ratio = statistics.median(c / y for (_, c), (_, y) in zip(samples[name], samples[names[base]]))
            yardstick = names[base].split(chr(39))[1] if names[base].startswith("python") else "sqlglot.parse"
            target = f"<= {limit}x `{yardstick}` CPU"
            met = f"{'yes' if ratio <= limit else 'no'} ({ratio:.2f}x)"
        print(f"| {name} | {wall:.3f} s | {cpu:.3f} s | {args.runs} | {target} | {met} |")


if __name__ == "__main__":
    main()
