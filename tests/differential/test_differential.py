"""Differential suite: every case's verdicts and replayed state checked against real Spark + Iceberg.

See tests/differential/harness.py for what is executed and asserted, and
docs/iceberg-behaviour.md for the Spark behaviour the cases pin down.
"""

from __future__ import annotations

import pytest

from tests.differential.harness import VERDICTS, Case, SetupError, load_cases
from tests.differential.modes import run_case_modes

CASES = load_cases()

pytestmark = pytest.mark.spark


def test_corpus_is_big_enough() -> None:
    assert len(CASES) >= 80, f"only {len(CASES)} differential cases"


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_icelint_agrees_with_spark(case: Case, spark_oracle, tmp_path) -> None:
    """Spark runs once; icelint runs in the three workflow modes (tests/differential/modes.py), and each
    mode must agree with Spark."""
    try:
        _, modes = run_case_modes(spark_oracle, case, tmp_path)
    except SetupError as exc:
        pytest.fail(
            f"{case.name}: broken case setup (a harness/case bug, not an icelint verdict): {exc}", pytrace=False
        )
    lines = []
    for _, verdict in modes.values():
        VERDICTS.append(verdict)
        if verdict.disagreements:
            lines.append(f"{verdict.case}: {len(verdict.disagreements)} disagreement(s) between icelint and Spark:")
            lines += ["  " + str(d) for d in verdict.disagreements]
    if lines:
        pytest.fail("\n".join(lines), pytrace=False)
