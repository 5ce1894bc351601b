"""Fixed migrations in real Spark 3.5.9 + Iceberg 1.10.2.

For every differential case that offers a fix `--fix --unsafe-fixes` applies (safe and unsafe, never
display-only), the fixes are applied exactly as `tests/rules/test_fix_replay.py` applies them (the
setup replayed as SQL, pass after pass, one fix per table per pass), the fixed migration is written
next to a copy of the case's `setup.sql` (same file names, so a `migrations/` folder keeps its order),
and the harness runs it in Spark (`SparkOracle.run`: the same counts of non-null values per field id,
the same health checks). Then:

- Spark accepts every statement a fix wrote (`fix-rejected`), and none of them loses data: no field
  reads fewer values, no new field takes the name of a gone field with fewer values, no rows vanish,
  no health check breaks (`fix-lost-data`); dropping a column that holds data is allowed only where
  the fix itself says `DROP COLUMN` (REPLACE COLUMNS drops the columns it does not list);
- no statement of the fixed migration loses a value that was visible before the migration
  (`data-loss`): the harness's per-statement data-loss check, for every statement;
- icelint's verdict on the fixed migration still agrees with Spark (`harness.judge`, in the `state`
  mode): what the fixes leave is still reported correctly.
"""

from __future__ import annotations

import difflib
import shutil
from pathlib import Path

import pytest

from tests.differential.harness import Case, SetupError, judge, load_cases, run_in_icelint
from tests.oracle.spark import split_statements
from tests.rules.test_fix_replay import INPUTS, apply_fix_passes

pytestmark = pytest.mark.spark

_BY_NAME = {c.name: c for c in load_cases()}


def _fixed_cases() -> list[tuple[Case, dict[str, str]]]:
    """(case, {migration path: fixed text}) for each case with a fix that --unsafe-fixes applies."""
    out = []
    for inp in INPUTS:
        if not inp.id.startswith("differential/"):
            continue
        case = _BY_NAME.get(inp.id.split("/", 1)[1])
        files, applied, problems = apply_fix_passes(inp)
        if case is None or not applied or problems:  # problems: test_fix_replay fails on them
            continue
        out.append((case, {p: t for p, t in files if p in (inp.reviewed or ())}))
    return out


FIXED = _fixed_cases()


def _norm(text: str) -> str:
    return " ".join(text.split()).lower()


def write_fixed_case(case: Case, fixed: dict[str, str], where: Path) -> Case:
    """A copy of `case` whose migration files hold the fixed text (same names, same folder layout)."""
    d = where / case.name
    d.mkdir(parents=True)
    shutil.copyfile(case.setup, d / "setup.sql")
    for path in case.migration_files:
        rel = path.relative_to(case.dir)
        (d / rel).parent.mkdir(parents=True, exist_ok=True)
        (d / rel).write_text(fixed.get(str(path), path.read_text()))
    return Case(case.name, d)


def from_fixes(original: list[str], fixed: list[str]) -> set[int]:
    """Indexes of the fixed migration's statements that a fix wrote: those not aligned with an original
    statement (a fix may repeat an original statement's text, e.g. a DROP IDENTIFIER FIELDS that a later
    statement runs again, so statements are aligned in order, not counted)."""
    out: set[int] = set()
    for op, _, _, j1, j2 in difflib.SequenceMatcher(a=original, b=fixed, autojunk=False).get_opcodes():
        if op in ("insert", "replace"):
            out.update(range(j1, j2))
    return out


def test_statements_written_by_fixes_are_found() -> None:
    a = ["set id", "drop col x", "drop nn x", "drop idf x"]
    b = ["set id", "drop idf x", "drop nn x", "drop nn x", "drop idf x"]
    assert from_fixes(a, b) == {1, 2}


def test_fixes_reach_spark() -> None:
    """Not vacuous: many cases offer fixes, of several applicabilities' rules."""
    assert len(FIXED) >= 20, [c.name for c, _ in FIXED]


@pytest.mark.parametrize("case,fixed", FIXED, ids=[c.name for c, _ in FIXED])
def test_fixed_migration_in_spark(case: Case, fixed: dict[str, str], spark_oracle, tmp_path) -> None:
    original = [_norm(t) for p in case.migration_files for _, t in split_statements(p.read_text())]
    fixed_case = write_fixed_case(case, fixed, tmp_path / "case")
    try:
        spark = spark_oracle.run(fixed_case, tmp_path / "work")
    except SetupError as exc:
        pytest.fail(f"{case.name}: broken case setup: {exc}", pytrace=False)
    fix_text = _norm(" ; ".join(t for t in fixed.values()))
    problems = []
    written = from_fixes(original, [_norm(st.text) for st in spark.statements])
    for i, st in enumerate(spark.statements):
        if i in written:
            if not st.accepted:
                problems.append(f"[fix-rejected] {st.where}: {st.first_line}\n      Spark: {st.error}")
                continue
            dropped = st.dropped_with_data and "drop column" not in _norm(st.text)
            if st.data_loss or st.rows_removed or st.health_failures or dropped:
                problems.append(f"[fix-lost-data] {st.where}: {st.first_line}\n      Spark: {st.spark_outcome}")
                continue
        if st.accepted and st.data_loss:
            problems.append(f"[data-loss] {st.where}: {st.first_line}\n      Spark: {st.spark_outcome}")
    assert fix_text  # the fixed files were written
    verdict = judge(fixed_case, spark, run_in_icelint(fixed_case, spark.setup_metadata))
    problems += [str(d) for d in verdict.disagreements]
    assert not problems, f"{case.name}, fixed migration:\n" + "\n".join(problems)
