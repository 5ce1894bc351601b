"""Dropping the source of an older identity spec, judged by the files the table state holds (in Spark).

The differential judge accepts an error on a statement that drops data, so it cannot tell ICE003's
error from a warning there. These cases can: Spark accepts the drop and every read, write and time
travel works (the harness's health checks pass), and icelint, given the state Spark wrote, must say
so with warnings only (ICE025 for older runtimes, ICE011 for the dropped values). Case 500, whose old
spec holds files, stays an error (time travel fails: `test_differential.py` judges it)."""

from __future__ import annotations

import pytest

import json

from tests.differential.harness import SetupError, load_cases
from tests.cli.test_commands import run

pytestmark = pytest.mark.spark

CASES = load_cases(["526_drop_old_identity_source_spec_never_written", "528_drop_old_identity_source_after_rewrite_and_expire"])


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_unwritten_old_spec_is_a_warning(case, spark_oracle, tmp_path) -> None:
    try:
        spark = spark_oracle.run(case, tmp_path)
    except SetupError as exc:
        pytest.fail(f"{case.name}: broken case setup: {exc}", pytrace=False)
    (st,) = spark.statements
    assert st.accepted and not st.health_failures and st.dropped_with_data, st.spark_outcome
    # as a user runs it: the state Spark wrote after the setup (its manifests are read for the specs that hold files)
    meta = [f"--metadata={t}={p}" for t, p in spark.setup_metadata.items()]
    out = run("check", *map(str, case.migration_files), "--format", "json", *meta, cwd=tmp_path)
    found = sorted((f["rule"], f["severity"]) for f in json.loads(out.stdout)["findings"])
    assert found == [("ICE011", "warning"), ("ICE025", "warning")], found
