"""Tables replayed in parallel processes give exactly what one process gives."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from icelint.values import changes as ch
from icelint.run import parallel
from icelint.engine.pipeline import parse_sources
from icelint.values.source import SourceFile
from tests.ci.conftest import clean_env, icelint, write

ROOT = Path(__file__).resolve().parents[2]


def _bench_migration(statements: int) -> str:
    spec = importlib.util.spec_from_file_location("make_inputs", ROOT / "bench" / "make_inputs.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclasses look their module up
    spec.loader.exec_module(mod)
    return mod.make_migration(statements)


def _steps(sql: str) -> list[ch.Step]:
    return parse_sources([SourceFile("m.sql", sql)]).steps


MANY = "".join(
    f"ALTER TABLE db.{t} ADD COLUMN c{i} string;\n" for i in range(parallel.MIN_STEPS) for t in ("a", "b", "c")
)
CREATES = "".join(f"CREATE TABLE db.{t} (id bigint) USING iceberg;\n" for t in ("a", "b", "c"))


def test_groups_keep_each_table_whole_and_in_order() -> None:
    steps = _steps(CREATES + "SET spark.sql.caseSensitive=true;\n" + MANY)
    parts = parallel.partition(steps, 2)
    assert parts is not None and len(parts) == 2
    for part in parts:
        assert [s.index for s in part] == sorted(s.index for s in part)
        assert any(isinstance(s, ch.SessionConfig) for s in part)  # statements on no table: in every group
    tables = [{s.table for s in part if isinstance(s, ch.Commit)} for part in parts]
    assert not tables[0] & tables[1]
    assert tables[0] | tables[1] == {"db.a", "db.b", "db.c"}
    counted = sum(len(p) for p in parts) - len(parts) + 1  # the SET is in both
    assert counted == len(steps)


@pytest.mark.parametrize(
    "extra, why",
    [
        ("ALTER TABLE a ADD COLUMN x int;\n", "an unqualified name resolves against every known table"),
        ("ALTER TABLE db.a RENAME TO db.z;\n", "a rename moves a state between names"),
    ],
)
def test_runs_that_must_not_be_split(extra: str, why: str) -> None:
    assert parallel.partition(_steps(CREATES + MANY + extra), 2) is None, why


def test_use_qualifies_one_part_names_before_the_split() -> None:
    """After `USE db`, `ALTER TABLE a` is `db.a` (lowering qualifies it), so the run splits by table;
    a one-part name before any USE still keeps the run in one process."""
    many = "".join(f"ALTER TABLE {t} ADD COLUMN c{i} string;\n" for i in range(parallel.MIN_STEPS) for t in ("a", "b"))
    parts = parallel.partition(_steps("USE db;\n" + CREATES + many + "USE other;\nALTER TABLE a ADD COLUMN z int;\n"), 2)
    assert parts is not None
    tables = [{s.table for s in part if isinstance(s, ch.Commit)} for part in parts]
    assert set().union(*tables) == {"db.a", "db.b", "db.c", "other.a"}
    assert all(any(isinstance(s, ch.UseNamespace) for s in part) for part in parts)
    assert parallel.partition(_steps(CREATES + many + "USE db;\n"), 2) is None  # `a` before any USE


def test_small_runs_and_single_tables_are_not_split() -> None:
    assert parallel.partition(_steps(CREATES + "ALTER TABLE db.a ADD COLUMN x int;\n"), 2) is None
    one_table = "".join(f"ALTER TABLE db.a ADD COLUMN c{i} string;\n" for i in range(parallel.MIN_STEPS + 10))
    assert parallel.partition(_steps("CREATE TABLE db.a (id bigint) USING iceberg;\n" + one_table), 2) is None
    assert parallel.partition(_steps(CREATES + MANY), 1) is None


def test_jobs_follow_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICELINT_JOBS", "1")
    assert parallel.jobs() == 1
    monkeypatch.setenv("ICELINT_JOBS", "3")
    assert parallel.jobs() == 3
    monkeypatch.setenv("ICELINT_JOBS", "many")
    assert parallel.jobs() == 1
    monkeypatch.delenv("ICELINT_JOBS")
    assert parallel.jobs() >= 1


WORKER = """
import os
from icelint.run import parallel
from icelint.engine.pipeline import parse_sources
from icelint.values.source import SourceFile

steps = parse_sources([SourceFile("m.sql", open("m.sql").read())]).steps
parent = os.getpid()
calls = []

def work(part):
    if os.getpid() != parent:
        {failure}
    calls.append(len(part))
    return []

assert parallel.lint_partitioned(steps, work, allowed=True) == []
print(len(calls))
"""


@pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")
@pytest.mark.parametrize("failure", [
    'raise RuntimeError("worker broke")',
    # a result that cannot be pickled whole: the worker pickles straight into the pipe (no copy of
    # its findings in memory), so half of it is there already; a stream cut short is not a result
    "return [str(i) * 100 for i in range(5000)] + [lambda: None]",
])
def test_a_failing_worker_is_redone_by_the_parent(tmp_path: Path, failure: str) -> None:
    # in a fresh interpreter: never fork the test process, which may run other threads (Spark's)
    write(tmp_path, "m.sql", CREATES + MANY)
    script = write(tmp_path, "worker_fails.py", WORKER.replace("{failure}", failure))
    r = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=clean_env(ICELINT_JOBS="2"),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "2"  # its own group, then the failed worker's


def test_the_cli_gives_the_same_output_in_one_process_and_in_several(tmp_path: Path) -> None:
    write(tmp_path, "migration.sql", _bench_migration(1200))
    results = {}
    for jobs in ("1", "2", "4"):
        for fmt in ("json", "text"):
            r = icelint("check", "migration.sql", "--format", fmt, cwd=tmp_path, env=clean_env(ICELINT_JOBS=jobs))
            assert r.code == 0, r.err  # warnings and infos only
            results[jobs, fmt] = r.out
    for fmt in ("json", "text"):
        assert results["1", fmt] == results["2", fmt] == results["4", fmt]
    assert '"rule": "ICE011"' in results["1", "json"]  # the run has findings to compare


def test_deployments_between_files_give_the_same_output_in_one_process_and_in_several(tmp_path: Path) -> None:
    """A folder checked without a state: each file boundary is a deployment (replay/deploy.py), which every
    group of tables must see at the same point of its own statements."""
    lines = _bench_migration(1200).splitlines(keepends=True)
    cuts = [i for i, line in enumerate(lines) if line.rstrip().endswith(";")]
    a, b = cuts[len(cuts) // 3], cuts[2 * len(cuts) // 3]
    write(tmp_path, "m/V1__a.sql", "CREATE TABLE db.fresh (id bigint, note string) USING iceberg;\n" + "".join(lines[: a + 1]))
    write(tmp_path, "m/V2__b.sql", "".join(lines[a + 1 : b + 1]))
    write(tmp_path, "m/V3__c.sql", "".join(lines[b + 1 :]) + "ALTER TABLE db.fresh DROP COLUMN note;\n")
    results = {jobs: icelint("check", "m", "--format", "json", cwd=tmp_path, env=clean_env(ICELINT_JOBS=jobs)) for jobs in ("1", "2")}
    assert results["1"].code in (0, 1), results["1"].err
    assert results["1"].out == results["2"].out
    assert "presumed to hold data" in results["1"].out  # the run has deployments to compare
