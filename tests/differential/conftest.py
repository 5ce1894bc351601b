"""Fixtures of the differential suite: one Spark + Iceberg session for the whole run, and the summary line.

Without Spark (``pip install -e ".[spark]"``, Java 17) the suite is skipped with the reason, unless
``ICELINT_REQUIRE_SPARK=1`` is set (CI sets it): then every test fails with the reason instead.
"""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from tests.differential.harness import CATEGORIES, VERDICTS, SparkOracle
from tests.oracle.runtimes import DEFAULT as DEFAULT_RUNTIME
from tests.oracle.runtimes import RUNTIMES
from tests.oracle.spark import REQUIRE_SPARK as REQUIRE_ENV
from tests.oracle.spark import SuiteSession, spark_available
from tests.oracle.spark import required as spark_required

_started: list[float] = []
_session = SuiteSession("spark_oracles")
_finished: list[float] = []


class Oracles:
    """One SparkOracle per Iceberg runtime (tests/oracle/runtimes.py), only one of them running at a time
    (one SparkContext per process): an oracle about to start its session stops the others first."""

    def __init__(self, base: Path) -> None:
        self.base = base
        self.by_runtime: dict[str, SparkOracle] = {}

    def get(self, runtime: str) -> SparkOracle:
        oracle = self.by_runtime.get(runtime)
        if oracle is None:
            ok, reason = spark_available(runtime)
            if not ok:
                message = f"Spark + Iceberg {runtime} oracle unavailable: {reason}"
                if spark_required():
                    pytest.fail(f"{REQUIRE_ENV}=1 but {message}", pytrace=False)
                pytest.skip(f"{message} (install with: pip install -e '.[spark]'; Java 17 on PATH)")
            oracle = SparkOracle(self.base / runtime.replace(".", "_") / "warehouse", runtime, before_start=self._stop_others)
            self.by_runtime[runtime] = oracle
        return oracle

    def _stop_others(self, runtime: str) -> None:
        for other, oracle in self.by_runtime.items():
            if other != runtime:
                oracle.stop()

    def stop(self) -> None:
        for oracle in self.by_runtime.values():
            oracle.stop()


@pytest.fixture(scope="session")
def spark_oracles(tmp_path_factory: pytest.TempPathFactory):
    """The oracles of every runtime the suite judges against (each started on first use)."""
    oracles = Oracles(tmp_path_factory.mktemp("differential"))
    _started.append(time.monotonic())
    with _session.hold(oracles):
        yield oracles


@pytest.fixture(scope="session")
def spark_oracle(spark_oracles: Oracles):
    """A SparkOracle over one SparkSession (local[1], Hadoop catalog ``local``, temp warehouse) on
    Iceberg 1.10.2, the default runtime."""
    oracle = spark_oracles.get(DEFAULT_RUNTIME)
    oracle.spark  # start now, so that the first case's time is its own  # noqa: B018
    return oracle


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop Spark after the last differential case, so later tests of the run can start their own."""
    if _session.teardown(item, nextitem):
        _finished.append(time.monotonic())


def summary_line(runtime: str | None = None) -> str | None:
    verdicts = [v for v in VERDICTS if runtime is None or v.runtime == runtime]
    if not verdicts:
        return None
    statements = sum(v.statements for v in verdicts)
    accepted = sum(v.accepted for v in verdicts)
    agreements = sum(v.agreements for v in verdicts)
    by_category = Counter(d.category for v in verdicts for d in v.disagreements)
    total = sum(by_category.values())
    cats = ", ".join(f"{c}={by_category[c]}" for c in CATEGORIES if by_category[c]) or "none"
    spent = sum({v.case.split(" [")[0]: v.seconds for v in verdicts}.values())  # each case's Spark run, once
    elapsed = f", {spent:.0f}s in Spark" if spent else ""
    cases = len({v.case.split(" [")[0] for v in verdicts})
    label = f"Iceberg {RUNTIMES[runtime].iceberg}: " if runtime else ""
    return (
        f"{label}differential: {cases} cases ({len(verdicts)} verdicts: one per workflow mode), {statements} statements ({accepted} accepted, "
        f"{statements - accepted} rejected), {agreements} agreements, {total} disagreements "
        f"({cats}){elapsed}"
    )


def pytest_terminal_summary(terminalreporter, exitstatus, config) -> None:
    runtimes = [r for r in RUNTIMES if any(v.runtime == r for v in VERDICTS)]
    if runtimes:
        end = _finished[-1] if _finished else time.monotonic()
        total = f" ({end - _started[0]:.0f}s in all)" if _started else ""
        names = " and ".join(f"Iceberg {RUNTIMES[r].iceberg}" for r in runtimes)
        terminalreporter.write_sep("=", f"icelint vs Spark 3.5.9 + {names}{total}")
        for r in runtimes:
            terminalreporter.write_line(summary_line(r) or "")
        failed = [v for v in VERDICTS if v.disagreements]
        for v in failed:
            cats = Counter(d.category for d in v.disagreements)
            terminalreporter.write_line(f"  {v.case}: " + ", ".join(f"{c}={n}" for c, n in cats.items()))
