"""The three workflow modes of the differential suite: one Spark run, icelint run three ways.

Users run icelint in three ways, and each must reach the same *error* verdicts as Spark:

* ``state``: the metadata.json Spark wrote after ``setup.sql`` is the table state (``--metadata``);
  this is :func:`tests.differential.harness.run_in_icelint`.
* ``pre-commit``: no state. A project with ``[tool.icelint] migrations = "migrations"`` holds the
  setup as an *applied* migration, ``migrations/V0__setup.sql``: ``setup.sql`` with its INSERT
  statements removed (migrations rarely write rows; pipelines do, between deployments). The case's
  migration files are the pending files named on the command line, as pre-commit passes them.
* ``folder``: no state. The whole folder is named: ``V0__setup.sql`` (the same DDL) followed by the
  case's migration files, copied as ``V1__<name>.sql``, ``V2__<name>.sql``, ... (same lines), so
  that every file boundary is a deployment.

Every case runs on each Iceberg runtime of ``tests/oracle/runtimes.py`` (1.10.2, then 1.9.2) unless its
setup opens with ``-- runtimes: 1.9`` (or ``1.10``), and icelint is judged against each run with that
runtime as its target (``iceberg-version`` in the project's configuration, or the ``state`` mode's replay).
The icelint side runs the way a user runs it: ``icelint check ... --config <project>/pyproject.toml
--format json`` through click in this process (the code path of the command line, findings as the
JSON report gives them). The findings are then judged against the one Spark run exactly as in the
``state`` mode (:func:`tests.differential.harness.judge`). What a mode legitimately cannot know,
and so is not judged there:

* findings on ``V0__setup.sql`` in the ``folder`` mode: the setup is not under review in any mode
  (Spark accepted every setup statement by construction), so they are dropped before judging;
* in the two modes without a state, Spark's rejections of a snapshot id the table does not have
  (:data:`SNAPSHOT_ID_UNKNOWN`): the setup's snapshot ids are random numbers that exist only in the
  metadata Spark wrote, so a file that names one cannot be judged without that metadata (the
  ``state`` mode judges them);
* the final state is compared in every mode on the keys of :data:`harness.COMPARED`, none of which
  depends on snapshots; in the two modes without a state it is the replay of the same plan the
  command builds (``icelint.engine.plan_run``: the same plan and deployments as ``run``), since
  ``icelint check`` prints findings, not states;
* a case whose verdicts depend on the table's snapshots (snapshot ids named in branch/tag DDL and
  snapshot procedures: Spark checks them against the snapshots the pipelines wrote, which DDL
  files do not hold) declares ``-- modes: state`` on the first line of its ``setup.sql`` and is
  judged in the ``state`` mode only. icelint checks snapshot ids only against a state source
  (README, "Which tables hold data"); without one it cannot know them and says nothing.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from tests.differential.harness import Case, IcelintRun, SparkOracle, SparkRun, Verdict, judge, run_in_icelint
from tests.oracle.spark import split_statements

MODES = ("state", "pre-commit", "folder")
SETUP_NAME = "V0__setup.sql"
CONFIG = '[project]\nname = "lake"\n\n[tool.icelint]\nmigrations = "migrations"\n'


def _header(case: Case, key: str) -> tuple[str, ...] | None:
    """The values of a ``-- key: a, b`` line among the comment lines that open the case's setup.sql."""
    for line in case.setup.read_text().splitlines():
        line = line.strip()
        if not line.startswith("--"):
            return None
        if line.startswith(f"-- {key}:"):
            return tuple(v.strip() for v in line[len(key) + 4:].split(",") if v.strip())
    return None


def case_modes(case: Case) -> tuple[str, ...]:
    """The modes a case is judged in: every mode, unless its setup opens with ``-- modes: a, b``."""
    modes = _header(case, "modes")
    if modes is None:
        return MODES
    assert modes and all(m in MODES for m in modes), f"{case.name}: unknown mode in `-- modes: {', '.join(modes)}`"
    return modes


def case_runtimes(case: Case) -> tuple[str, ...]:
    """The Iceberg runtimes a case is run and judged on: every one (tests/oracle/runtimes.py), unless its
    setup opens with ``-- runtimes: 1.9`` (a case about a behaviour only one runtime has)."""
    from tests.oracle.runtimes import RUNTIMES

    runtimes = _header(case, "runtimes")
    if runtimes is None:
        return tuple(RUNTIMES)
    assert runtimes and all(r in RUNTIMES for r in runtimes), f"{case.name}: unknown runtime in `-- runtimes: {', '.join(runtimes)}`"
    return runtimes


def setup_ddl(case: Case) -> str:
    """``setup.sql`` without its INSERT statements: what an applied migration file holds."""
    kept = [text for _, text in split_statements(case.setup.read_text()) if not text.lstrip().upper().startswith("INSERT")]
    return "".join(f"{text};\n" for text in kept)


def _project(root: Path, case: Case, iceberg_version: str) -> Path:
    if root.exists():
        shutil.rmtree(root)
    (root / "migrations").mkdir(parents=True)
    (root / "pyproject.toml").write_text(CONFIG + f'iceberg-version = "{iceberg_version}"\n')
    (root / "migrations" / SETUP_NAME).write_text(setup_ddl(case))
    return root


def _real(p: str | Path) -> str:
    return os.path.normcase(os.path.realpath(p))


def icelint_check(args: list[str], config: Path) -> list[Any]:
    """`icelint check ARGS --config CONFIG --format json`, in this process; the reported findings."""
    from click.testing import CliRunner

    from icelint.cli.main import main
    from icelint.values.findings import Severity

    result = CliRunner().invoke(main, ["check", *args, "--config", str(config), "--format", "json"])
    if result.exit_code not in (0, 1):
        raise AssertionError(f"icelint check {' '.join(args)} exited {result.exit_code}: {result.output}{result.exception!r}")
    report = json.loads(result.stdout)
    return [
        SimpleNamespace(
            rule=f["rule"], severity=Severity(f["severity"]), path=f["path"], line=f["line"], message=f["message"]
        )
        for f in report["findings"]
    ]


def _replayed(args: list[str], config: Path) -> tuple[dict[str, dict | None], set[str]]:
    """The final states of the plan `icelint check ARGS` builds, replayed without a state."""
    from icelint.config import load_config
    from icelint.engine import CheckRequest, plan_run

    run = plan_run(CheckRequest(paths=tuple(args), config=load_config(explicit=str(config))))
    return {k: (v.to_json() if v is not None else None) for k, v in run.result.tables.items()}, set(run.result.unknown)


def run_pre_commit(case: Case, workdir: Path, iceberg_version: str = "1.10") -> IcelintRun:
    project = _project(workdir / "pre-commit", case, iceberg_version)
    args = [str(p) for p in case.migration_files]
    findings = icelint_check(args, project / "pyproject.toml")
    tables, unknown = _replayed(args, project / "pyproject.toml")
    return IcelintRun(findings, tables, unknown)


def run_folder(case: Case, workdir: Path, iceberg_version: str = "1.10") -> IcelintRun:
    project = _project(workdir / "folder", case, iceberg_version)
    originals: dict[str, str] = {}
    for i, src in enumerate(case.migration_files, start=1):
        copy = project / "migrations" / f"V{i}__{src.stem.replace('.', '_')}.sql"
        shutil.copyfile(src, copy)
        originals[_real(copy)] = str(src)
    args = [str(project / "migrations")]
    findings = []
    for f in icelint_check(args, project / "pyproject.toml"):
        original = originals.get(_real(f.path))
        if original is not None:  # V0__setup.sql is not under review (see the module docstring)
            f.path = original
            findings.append(f)
    tables, unknown = _replayed(args, project / "pyproject.toml")
    return IcelintRun(findings, tables, unknown)


# Spark's words for a snapshot id the table does not have (branch/tag DDL, rollback procedures).
SNAPSHOT_ID_UNKNOWN = ("to unknown snapshot: ", "Cannot roll back to unknown snapshot id: ", "Cannot cherry-pick unknown snapshot ID: ")


def _snapshot_id_unknown(d: Any) -> bool:
    return d.category == "rejected-no-error" and any(s in d.spark for s in SNAPSHOT_ID_UNKNOWN)


def run_case_modes(oracle: SparkOracle, case: Case, workdir: Path) -> tuple[SparkRun, dict[str, tuple[IcelintRun, Verdict]]]:
    """Spark once (on the oracle's Iceberg runtime), then icelint in each mode with that runtime as its
    `iceberg-version`, each judged against the same Spark run."""
    spark = oracle.run(case, workdir)
    version = oracle.runtime
    out: dict[str, tuple[IcelintRun, Verdict]] = {}
    wanted = case_modes(case)
    for mode, lint in (
        ("state", lambda: run_in_icelint(case, spark.setup_metadata, version)),
        ("pre-commit", lambda: run_pre_commit(case, workdir, version)),
        ("folder", lambda: run_folder(case, workdir, version)),
    ):
        if mode not in wanted:
            continue
        run = lint()
        verdict = judge(case, spark, run)
        if mode != "state":
            verdict.disagreements = [d for d in verdict.disagreements if not _snapshot_id_unknown(d)]
        verdict.case = f"{case.name} [{mode}]" if version == "1.10" else f"{case.name} [{mode}, Iceberg {version}]"
        out[mode] = (run, verdict)
    return spark, out
