"""Fixtures of the differential suite: one Spark + Iceberg session for the whole run, and the summary line.

Without Spark (``pip install -e ".[spark]"``, Java 17) the suite is skipped with the reason, unless
``ICELINT_REQUIRE_SPARK=1`` is set (CI sets it): then every test fails with the reason instead.
"""

from __future__ import annotations

import time
from collections import Counter

import pytest

from tests.differential.harness import CATEGORIES, VERDICTS, SparkOracle
from tests.oracle.spark import REQUIRE_SPARK as REQUIRE_ENV
from tests.oracle.spark import SuiteSession, spark_available
from tests.oracle.spark import required as spark_required

_started: list[float] = []
_session = SuiteSession("spark_oracle")
_finished: list[float] = []


@pytest.fixture(scope="session")
def spark_oracle(tmp_path_factory: pytest.TempPathFactory):
    """A SparkOracle over one SparkSession (local[1], Hadoop catalog ``local``, temp warehouse)."""
    ok, reason = spark_available()
    if not ok:
        message = f"Spark + Iceberg oracle unavailable: {reason}"
        if spark_required():
            pytest.fail(f"{REQUIRE_ENV}=1 but {message}", pytrace=False)
        pytest.skip(f"{message} (install with: pip install -e '.[spark]'; Java 17 on PATH)")
    oracle = SparkOracle(tmp_path_factory.mktemp("differential") / "warehouse")
    _started.append(time.monotonic())
    oracle.spark  # start now, so that the first case's time is its own  # noqa: B018
    with _session.hold(oracle):
        yield oracle


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop Spark after the last differential case, so later tests of the run can start their own."""
    if _session.teardown(item, nextitem):
        _finished.append(time.monotonic())


def summary_line() -> str | None:
    if not VERDICTS:
        return None
    statements = sum(v.statements for v in VERDICTS)
    accepted = sum(v.accepted for v in VERDICTS)
    agreements = sum(v.agreements for v in VERDICTS)
    by_category = Counter(d.category for v in VERDICTS for d in v.disagreements)
    total = sum(by_category.values())
    cats = ", ".join(f"{c}={by_category[c]}" for c in CATEGORIES if by_category[c]) or "none"
    end = _finished[-1] if _finished else time.monotonic()
    elapsed = f" in {end - _started[0]:.0f}s" if _started else ""
    cases = len({v.case.split(" [")[0] for v in VERDICTS})
    return (
        f"differential: {cases} cases ({len(VERDICTS)} verdicts: one per workflow mode), {statements} statements ({accepted} accepted, "
        f"{statements - accepted} rejected), {agreements} agreements, {total} disagreements "
        f"({cats}){elapsed}"
    )


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    line = summary_line()
    if line:
        terminalreporter.write_sep("=", "icelint vs Spark 3.5.9 + Iceberg 1.10.2")
        terminalreporter.write_line(line)
        failed = [v for v in VERDICTS if v.disagreements]
        for v in failed:
            cats = Counter(d.category for d in v.disagreements)
            terminalreporter.write_line(f"  {v.case}: " + ", ".join(f"{c}={n}" for c, n in cats.items()))
