"""Differential suite: every case's verdicts and replayed state checked against real Spark + Iceberg.

Each case runs on every Iceberg runtime it names (all of them by default: 1.10.2, then 1.9.2; see
tests/differential/modes.py) and is judged against the run on that runtime, with icelint targeting it
(`iceberg-version`). See tests/differential/harness.py for what is executed and asserted, and
docs/iceberg-behaviour.md and docs/iceberg-versions.md for the Spark behaviour the cases pin down.
"""

from __future__ import annotations

import pytest

from tests.differential.harness import VERDICTS, Case, SetupError, load_cases
from tests.differential.modes import case_runtimes, run_case_modes
from tests.oracle.runtimes import RUNTIMES

CASES = load_cases()
# every runtime's cases together (one Spark session per runtime, started once), the default runtime first
RUNS = [(runtime, case) for runtime in RUNTIMES for case in CASES if runtime in case_runtimes(case)]

pytestmark = pytest.mark.spark


def test_corpus_is_big_enough() -> None:
    assert len(CASES) >= 80, f"only {len(CASES)} differential cases"
    for runtime in RUNTIMES:
        assert sum(r == runtime for r, _ in RUNS) >= 80, f"only {sum(r == runtime for r, _ in RUNS)} cases on Iceberg {runtime}"


# ids: the case's name on the default runtime, `<name>-iceberg-1.9` on another (`-k iceberg-1.9` selects that pass)
@pytest.mark.parametrize(("runtime", "case"), RUNS, ids=[c.name if r == "1.10" else f"{c.name}-iceberg-{r}" for r, c in RUNS])
def test_icelint_agrees_with_spark(runtime: str, case: Case, spark_oracles, tmp_path) -> None:
    """Spark runs once on `runtime`; icelint runs in the three workflow modes (tests/differential/modes.py)
    with `iceberg-version` set to that runtime, and each mode must agree with Spark."""
    try:
        _, modes = run_case_modes(spark_oracles.get(runtime), case, tmp_path)
    except SetupError as exc:
        pytest.fail(
            f"{case.name} on Iceberg {runtime}: broken case setup (a harness/case bug, not an icelint verdict): {exc}",
            pytrace=False,
        )
    lines = []
    for _, verdict in modes.values():
        VERDICTS.append(verdict)
        if verdict.disagreements:
            lines.append(f"{verdict.case}: {len(verdict.disagreements)} disagreement(s) between icelint and Spark:")
            lines += ["  " + str(d) for d in verdict.disagreements]
    if lines:
        pytest.fail("\n".join(lines), pytrace=False)
