"""Fixtures of the reader suite: one Spark session for all reader cases, stopped after the last one.

Needs Spark (as the differential suite) and the readers (``pip install -e ".[readers]"``: chDB,
pyarrow). Without them the suite is skipped with the reason, unless ``ICELINT_REQUIRE_READERS=1``
(or ``ICELINT_REQUIRE_SPARK=1`` for Spark) is set, as CI does: then every test fails instead.
Only one SparkContext can live in a process: the differential suite stops its session after its
last case, this suite starts its own on its first case and stops it after its last one.
"""

from __future__ import annotations

import pytest

from tests.differential.harness import SparkOracle
from tests.oracle.spark import REQUIRE_SPARK, SuiteSession, required, spark_available
from tests.readers.readers import readers_available

REQUIRE_READERS = "ICELINT_REQUIRE_READERS"

_session = SuiteSession("reader_oracle")


@pytest.fixture(scope="session")
def reader_oracle(tmp_path_factory: pytest.TempPathFactory):
    ok, reason = readers_available()
    if not ok:
        if required(REQUIRE_READERS):
            pytest.fail(f"{REQUIRE_READERS}=1 but the readers are unavailable: {reason}", pytrace=False)
        pytest.skip(f"readers unavailable: {reason} (install with: pip install -e '.[readers]')")
    ok, reason = spark_available()
    if not ok:
        if required(REQUIRE_SPARK) or required(REQUIRE_READERS):
            pytest.fail(f"the reader suite needs Spark + Iceberg: {reason}", pytrace=False)
        pytest.skip(f"Spark + Iceberg oracle unavailable: {reason}")
    with _session.hold(SparkOracle(tmp_path_factory.mktemp("readers") / "warehouse")) as oracle:
        yield oracle


def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None) -> None:
    """Stop Spark after the last reader case, so that later tests of the run can start their own."""
    _session.teardown(item, nextitem)
