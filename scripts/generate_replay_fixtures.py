"""Generate the expected metadata of the replay fixtures with real Spark + Iceberg.

Usage::

    python scripts/generate_replay_fixtures.py [CASE ...]

``CASE`` is a folder name under ``fixtures/replay/`` (e.g. ``01_create_basic``); by
default every folder holding a ``migration.sql`` is processed.

Each case folder holds

* ``setup.sql`` (optional): statements run first, to build history; afterwards the
  current metadata of every table in namespace ``db`` is written to
  ``before/db.<table>.metadata.json``;
* ``migration.sql``: the statements under test (tables are named ``db.<name>``),
  run one by one; afterwards every table's current metadata is written to
  ``expected/db.<table>.metadata.json``.

The metadata files are Iceberg's own ``v<N>.metadata.json`` (Hadoop catalog),
re-indented with ``json.dumps(indent=2)`` and otherwise unchanged (key order kept;
``location``, ``table-uuid``, timestamps, snapshot ids and ``owner`` therefore
differ from run to run).

One Spark session (local[1], Hadoop catalog ``local`` in a temporary warehouse)
is started for the whole run; namespace ``db`` is dropped and recreated for each
case.  Every statement must be accepted by Spark: the first rejected statement
stops the script with an error naming the case, the statement's line and Spark's
first error line (rejections belong in the differential suite, not here).

Needs pyspark==3.5.9, snowpark-connect-deps-iceberg==1.0.2 and Java 17; see
``tests/oracle/spark.py`` and /work/shared/reference/spark-oracle.md.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.oracle.spark import (  # noqa: E402
    error_line,
    metadata_path,
    reset_namespace,
    spark_available,
    split_statements,
    start_session,
)

REPLAY_DIR = ROOT / "fixtures" / "replay"
NAMESPACE = "db"


class CaseError(Exception):
    """A statement of a case was rejected by Spark."""


def list_cases(names: list[str]) -> list[Path]:
    if not names:
        return sorted(p.parent for p in REPLAY_DIR.glob("*/migration.sql"))
    cases = []
    for name in names:
        path = REPLAY_DIR / Path(name).name
        if not (path / "migration.sql").is_file():
            raise SystemExit(f"error: no case {name!r} ({path / 'migration.sql'} missing)")
        cases.append(path)
    return cases


def run_file(spark, case: Path, sql_file: Path) -> int:
    """Run every statement of ``sql_file``; return how many ran."""
    statements = split_statements(sql_file.read_text())
    for line, statement in statements:
        try:
            spark.sql(statement).collect()
        except Exception as exc:  # Spark/Iceberg rejections arrive as many types
            raise CaseError(
                f"{case.name}: {sql_file.name}:{line}: Spark rejected the statement: {error_line(exc)}\n"
                f"    statement: {statement.splitlines()[0]}"
            ) from None
    return len(statements)


def snapshot_tables(spark, warehouse: Path, out_dir: Path) -> list[str]:
    """Write the current metadata of every table in ``db`` to ``out_dir``."""
    if out_dir.exists():
        shutil.rmtree(out_dir)
    tables = sorted(row["tableName"] for row in spark.sql(f"SHOW TABLES IN {NAMESPACE}").collect())
    if tables:
        out_dir.mkdir(parents=True)
    for table in tables:
        qualified = f"{NAMESPACE}.{table}"
        data = json.loads(metadata_path(warehouse, qualified).read_text())
        text = json.dumps(data, indent=2, sort_keys=False, ensure_ascii=False) + "\n"
        (out_dir / f"{qualified}.metadata.json").write_text(text)
    return tables


def generate_case(spark, warehouse: Path, case: Path) -> str:
    reset_namespace(spark, NAMESPACE)
    setup = case / "setup.sql"
    summary = []
    if setup.is_file():
        n = run_file(spark, case, setup)
        before = snapshot_tables(spark, warehouse, case / "before")
        summary.append(f"setup {n} stmts -> before/{','.join(before)}")
    elif (case / "before").exists():
        shutil.rmtree(case / "before")
    n = run_file(spark, case, case / "migration.sql")
    expected = snapshot_tables(spark, warehouse, case / "expected")
    summary.append(f"migration {n} stmts -> expected/{','.join(expected)}")
    return "; ".join(summary)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("cases", nargs="*", metavar="CASE", help="case folder names (default: all)")
    args = parser.parse_args(argv)
    cases = list_cases(args.cases)
    ok, reason = spark_available()
    if not ok:
        print(f"error: Spark oracle unavailable: {reason}", file=sys.stderr)
        return 2
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="icelint-replay-") as tmp:
        warehouse = Path(tmp) / "warehouse"
        spark = start_session(warehouse)
        try:
            for case in cases:
                t0 = time.monotonic()
                try:
                    summary = generate_case(spark, warehouse, case)
                except CaseError as exc:
                    print(f"error: {exc}", file=sys.stderr)
                    return 1
                print(f"{case.name}: {summary} ({time.monotonic() - t0:.1f}s)", flush=True)
        finally:
            spark.stop()
    print(f"{len(cases)} case(s) in {time.monotonic() - started:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
