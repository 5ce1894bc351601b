"""What pyiceberg's import would cost `icelint check`, and proof that a metadata file does not pay it.

Measures whole processes (start-up included), repeated, and prints the median and spread of each:

- `python -c pass`: the interpreter alone;
- `python -c "import pyiceberg.catalog"`: what the catalog path pays on top;
- `icelint check one.sql --metadata db.events=FILE`: a check with a local metadata file;
- `icelint check one.sql --warehouse DIR`: a check with a Hadoop-layout warehouse;
- `icelint check one.sql --catalog bench`: the same table through a pyiceberg SQL catalog on SQLite
  (only when sqlalchemy is installed).

It also says whether pyiceberg was imported in each icelint run (`-X importtime`). It asserts nothing.

    python bench/bench_imports.py [--runs 15]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIX = ROOT / "fixtures" / "sources"
MIGRATION = "ALTER TABLE db.events ADD COLUMN bench_col string;\n"


def run_once(cmd: list[str], cwd: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    out = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - start
    if out.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr.strip()[-500:]}")
    return elapsed


def imports_pyiceberg(cmd: list[str], cwd: Path, env: dict[str, str]) -> bool:
    out = subprocess.run([cmd[0], "-X", "importtime", *cmd[1:]], cwd=cwd, env=env, capture_output=True, text=True)
    return any(line.rsplit("|", 1)[-1].strip().startswith("pyiceberg") for line in out.stderr.splitlines())


def measure(label: str, cmd: list[str], cwd: Path, env: dict[str, str], runs: int) -> tuple[str, float]:
    run_once(cmd, cwd, env)  # warm the file cache and .pyc files
    times = sorted(run_once(cmd, cwd, env) for _ in range(runs))
    med = statistics.median(times)
    note = ""
    if "icelint" in cmd:
        note = "  (imports pyiceberg)" if imports_pyiceberg(cmd, cwd, env) else "  (no pyiceberg import)"
    print(f"{label:<44} median {med * 1000:7.1f} ms   min {times[0] * 1000:7.1f}   max {times[-1] * 1000:7.1f}{note}")
    return label, med


def make_catalog(work: Path) -> str | None:
    try:
        import sqlalchemy  # noqa: F401
        from pyiceberg.catalog.sql import SqlCatalog
    except ImportError:
        return None
    uri = f"sqlite:///{work / 'catalog.db'}"
    cat = SqlCatalog("bench", uri=uri, warehouse=f"file://{work / 'cwh'}", **{"py-io-impl": "pyiceberg.io.fsspec.FsspecFileIO"})
    cat.create_namespace("db")
    cat.register_table("db.events", str(FIX / "warehouse/db/events/metadata/v3.metadata.json"))
    cat.engine.dispose()
    return uri


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    py = sys.executable
    with tempfile.TemporaryDirectory(prefix="icelint-bench-") as tmp:
        work = Path(tmp)
        (work / "one.sql").write_text(MIGRATION)
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYICEBERG_")}
        env["PYICEBERG_HOME"] = str(work)
        env["PYTHONPATH"] = str(ROOT)
        icelint = [py, "-m", "icelint", "check", "one.sql"]
        meta = FIX / "warehouse/db/events/metadata/v3.metadata.json"
        print(f"{args.runs} runs each, whole processes ({shutil.which('python') or py})")
        results = dict([
            measure("python -c pass", [py, "-c", "pass"], work, env, args.runs),
            measure('python -c "import pyiceberg.catalog"', [py, "-c", "import pyiceberg.catalog"], work, env, args.runs),
            measure("icelint check --metadata FILE", [*icelint, "--metadata", f"db.events={meta}"], work, env, args.runs),
            measure("icelint check --warehouse DIR", [*icelint, "--warehouse", str(FIX / "warehouse")], work, env, args.runs),
        ])  # fmt: skip
        uri = make_catalog(work)
        if uri is not None:
            cat_env = dict(env, PYICEBERG_CATALOG__BENCH__URI=uri)
            label, med = measure("icelint check --catalog NAME (SQLite)", [*icelint, "--catalog", "bench"], work, cat_env, args.runs)
            results[label] = med
        else:
            print("icelint check --catalog: skipped (sqlalchemy not installed)")
        base = results["python -c pass"]
        print()
        print(f"pyiceberg.catalog import on top of the interpreter: {(results[next(k for k in results if 'pyiceberg' in k)] - base) * 1000:.0f} ms")
        print(f"icelint check --metadata on top of the interpreter: {(results['icelint check --metadata FILE'] - base) * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
