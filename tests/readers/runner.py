"""Run one reader case: Spark runs the statements, the real readers read every table after each one.

A reader case is a differential case folder (``setup.sql`` + ``migration.sql`` or ``migrations/``):
the existing ones under ``tests/differential/cases/`` and the reader-specific ones under
``tests/readers/cases/``. Spark runs the setup, the current metadata of every table is copied aside
(what icelint gets, as with ``--metadata``), then every migration statement runs on its own. After
each statement Spark accepts, every table whose metadata changed is read with Spark (the reference),
chDB and pyiceberg, and each reader's reading is compared with Spark's (:meth:`Reading.differs`).

icelint lints the same migration files against the copied setup metadata with every rule and every
built-in reader profile; its reader findings (ICE040–ICE059) must match the readings exactly, per
table and reader (:func:`judge`): a warning where the reader failed or read other values than Spark,
no warning where it read the same, the warning on or before the first statement after which the
reader misreads, and quoting the reader's exact error line when it fails.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.differential.harness import CASES_DIR, Case, SparkOracle, natural_key, read_statements, run_in_icelint, spark_error
from tests.readers.readers import READERS, Reading, current_schema, field_names, read_clickhouse, read_pyiceberg, read_spark

READER_CASES_DIR = Path(__file__).parent / "cases"
READER_CODES = tuple(f"ICE{n:03d}" for n in range(40, 60))
TITLES = {"clickhouse": "ClickHouse", "pyiceberg": "pyiceberg"}

# The existing differential cases the reader suite also runs (every kind of schema change), then its own.
DIFFERENTIAL_CASES = (
    "001_drop_then_add_same_file", "005_drop_then_add_nested_struct_field", "006_drop_then_add_list_element_field",
    "007_drop_then_add_map_value_field", "011_drop_then_add_v1_table", "012_rename_into_dropped_name",
    "013_drop_then_add_whole_struct", "014_replace_columns_unpartitioned", "017_rename_away_then_add_same_name",
    "023_legal_type_promotions", "037_drop_partition_field_then_column_v2", "038_drop_partition_field_then_column_v1",
    "039_rename_partition_source", "042_partition_evolution_v2", "043_partition_drop_readd_v1_and_v2",
    "047_nullability_changes", "050_identifier_fields", "053_sort_orders", "063_column_moves",
    "065_add_column_positions", "066_nested_adds", "067_nested_renames", "068_nested_drops",
    "077_format_version_properties", "079_merge_on_read_v1", "083_realistic_widening_release",
    "091_realistic_v1_table", "092_all_types_added",
)


def load_reader_cases(names: list[str] | None = None) -> list[Case]:
    cases = [Case(n, CASES_DIR / n) for n in DIFFERENTIAL_CASES]
    own = sorted((p for p in READER_CASES_DIR.iterdir() if (p / "setup.sql").is_file()), key=natural_key)
    cases += [Case(p.name, p) for p in own]
    if names:
        cases = [c for c in cases if any(c.name.startswith(n) for n in names)]
    return cases


@dataclass
class Observation:
    index: int  # statement index in the migration (0-based, over all migration files)
    where: str  # file:line
    table: str
    reader: str
    problem: str | None  # None: reads as Spark does


@dataclass
class ReaderRun:
    statements: list[Any] = field(default_factory=list)
    observations: list[Observation] = field(default_factory=list)
    setup_metadata: dict[str, Path] = field(default_factory=dict)


def _versions(oracle: SparkOracle) -> dict[str, int]:
    return {t: oracle.version(t) for t in oracle.table_dirs()}


def _read_all(oracle: SparkOracle, table: str) -> tuple[Reading, dict[str, Reading], dict[int, str]]:
    meta_file = oracle.metadata_file(table)
    meta = json.loads(meta_file.read_text())
    spark = read_spark(oracle.spark, table, meta)
    readings = {
        "clickhouse": read_clickhouse(oracle.warehouse, table, meta),
        "pyiceberg": read_pyiceberg(meta_file, meta),
    }
    return spark, readings, field_names(current_schema(meta))


def run_readers(oracle: SparkOracle, case: Case, workdir: Path) -> ReaderRun:
    oracle.reset()
    out = ReaderRun()
    for st in read_statements(case.setup):
        oracle.sql(st.text)
    before = workdir / "before"
    shutil.rmtree(before, ignore_errors=True)
    before.mkdir(parents=True)
    for table in oracle.table_dirs():
        dst = before / f"{table}.metadata.json"
        shutil.copy(oracle.metadata_file(table), dst)
        out.setup_metadata[table] = dst
    versions = _versions(oracle)
    index = 0
    for path in case.migration_files:
        for st in read_statements(path):
            out.statements.append(st)
            try:
                oracle.sql(st.text)
                st.accepted = True
            except Exception as exc:  # noqa: BLE001 - Spark's rejection is the observation
                st.accepted, st.error = False, spark_error(exc)
            if st.accepted:
                now = _versions(oracle)
                for table in sorted(t for t, v in now.items() if versions.get(t) != v):
                    spark, readings, names = _read_all(oracle, table)
                    if spark.error is not None:
                        continue  # Spark itself cannot read it: nothing to compare with
                    for reader in READERS:
                        problem = readings[reader].differs(spark, names)
                        out.observations.append(Observation(index, st.where, table, reader, problem))
                versions = now
            index += 1
    return out


def reader_of(finding: Any) -> str | None:
    for reader, title in TITLES.items():
        if finding.message.startswith(title + " "):
            return reader
    return None


def judge(case: Case, run: ReaderRun, findings: list[Any]) -> list[str]:
    """Every disagreement between the readers' readings and icelint's reader findings (empty: agree)."""
    mine = [f for f in findings if f.rule in READER_CODES]
    problems: list[str] = []
    failed: dict[tuple[str, str], Observation] = {}
    for o in run.observations:
        if o.problem is not None and (o.table, o.reader) not in failed:
            failed[(o.table, o.reader)] = o
    warned: dict[tuple[str, str], Any] = {}
    for f in sorted(mine, key=lambda f: f.statement_index):
        reader = reader_of(f)
        if reader is None:
            problems.append(f"{case.name}: {f.rule} names no known reader: {f.message}")
            continue
        table = next((t for t in run.setup_metadata if f.table and t.lower() == f.table.lower()), f.table or "?")
        warned.setdefault((table, reader), f)
    for key, o in failed.items():
        f = warned.get(key)
        if f is None:
            problems.append(f"{case.name}: {o.where}: {TITLES[o.reader]} {o.problem} on {o.table}, and icelint has no reader warning")
        elif f.statement_index > o.index:
            problems.append(f"{case.name}: {o.where}: {TITLES[o.reader]} {o.problem} on {o.table}, icelint warns later ({f.path}:{f.line})")
        elif o.problem.startswith("fails: ") and o.problem[len("fails: "):] not in f.message:
            problems.append(f"{case.name}: {o.where}: {TITLES[o.reader]} {o.problem}, but icelint quotes another error: {f.message}")
    for key, f in warned.items():
        if key not in failed:
            problems.append(f"{case.name}: {f.path}:{f.line}: icelint warns {f.rule} ({f.message}), but {TITLES[key[1]]} reads {key[0]} as Spark does")
    return problems


def run_case(oracle: SparkOracle, case: Case, workdir: Path) -> tuple[ReaderRun, list[str]]:
    run = run_readers(oracle, case, workdir)
    lint = run_in_icelint(case, run.setup_metadata)
    return run, judge(case, run, lint.findings)


def main(argv: list[str]) -> int:
    """`python -m tests.readers.runner [CASE ...]`: run cases, print every reading and the verdict."""
    import tempfile

    tmp = Path(tempfile.mkdtemp(prefix="icelint-readers-"))
    oracle = SparkOracle(tmp / "warehouse")
    bad = 0
    try:
        for case in load_reader_cases(argv):
            run, problems = run_case(oracle, case, tmp / case.name)
            print(f"== {case.name}")
            for o in run.observations:
                if o.problem:
                    print(f"  {o.where} {o.table} {o.reader}: {o.problem}")
            for p in problems:
                print(f"  DISAGREE {p}")
            bad += bool(problems)
    finally:
        oracle.stop()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
