"""Look for inputs that make icelint super-linear: every rule fixture, repeated N and 4N times.

    python bench/scale_hunt.py [--n 60] [--only TEXT ...]

For each `fixtures/rules/*/*.sql` without a `-- metadata:` line, two inputs are built into
bench/out/hunt/: the file repeated with its tables renamed per copy (`db.t` → `db.t_7`: many
tables), and the file once followed by its statements other than CREATE/REPLACE/DROP TABLE repeated
(one table, a long history). Each is checked at N and 4N copies as a whole process (`ICELINT_JOBS=1`,
no cache, CPU time) and the ratio of the two times, start-up taken off, is printed: about 4 is
linear, about 16 quadratic. Lines marked `<<<` (ratio over 5.5 and over a second at 4N) are worth a
profile at a larger N (`--n 240`). Times under half a second are mostly start-up noise.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = HERE / "out" / "hunt"
TABLE = re.compile(r"\b(db\.[A-Za-z_][A-Za-z0-9_]*)")
START_UP = 0.13  # seconds of CPU of a one-statement check on the development machine


def cpu(path: Path) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "icelint", "check", "--no-cache", str(path)], stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, env={**os.environ, "ICELINT_JOBS": "1"}, cwd=OUT)  # fmt: skip
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def build(text: str, n: int, mode: str) -> str | None:
    body = "\n".join(re.sub(r"--\s*expect:.*$", "", line) for line in text.splitlines())
    if mode == "tables":
        return "\n".join(TABLE.sub(lambda m: f"{m.group(1)}_{i}", body) for i in range(n)) + "\n"
    stmts = [s.strip() for s in body.split(";") if s.strip()]
    rest = [s for s in stmts if not s.upper().lstrip("( ").startswith(("CREATE", "REPLACE", "DROP TABLE"))]
    return ";\n".join(stmts + rest * n) + ";\n" if rest else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=60, help="copies of the small input (the large has 4x; the history mode 2.5x more)")
    ap.add_argument("--only", nargs="*", help="fixtures whose path contains one of these")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    for f in sorted((ROOT / "fixtures" / "rules").glob("*/*.sql")):
        if args.only and not any(o in str(f) for o in args.only):
            continue
        text = f.read_text(encoding="utf-8")
        if "-- metadata:" in text:
            continue
        for mode, n in (("tables", args.n), ("same", args.n * 5 // 2)):
            small, large = build(text, n, mode), build(text, 4 * n, mode)
            if small is None or large is None:
                continue
            a, b = OUT / "small.sql", OUT / "large.sql"
            a.write_text(small, encoding="utf-8")
            b.write_text(large, encoding="utf-8")
            ta, tb = cpu(a), cpu(b)
            ratio = (tb - START_UP) / max(ta - START_UP, 0.01)
            flag = "  <<<" if ratio > 5.5 and tb > 1.0 else ""
            print(f"{ratio:5.1f}x {ta:6.2f} s {tb:6.2f} s {mode:6} {f.parent.name}/{f.name}{flag}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
