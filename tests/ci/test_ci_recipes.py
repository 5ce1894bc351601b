"""The GitHub Actions and GitLab CI recipes of docs/ci.md, run as far as this machine allows.

Each recipe's YAML is read from the docs; its `icelint` commands run, as the CI runner would run them,
in a clone of a temporary "origin" repository, on a branch that adds a bad migration. The pre-commit
recipe is run by the real pre-commit in test_ci_precommit.py.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CREATE, DROP, READD, SARIF_SCHEMA, clean_env, git, recipe, write

yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit, in the `test` extra")


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A clone of `origin` (main: V1, V2), on branch `feature` that adds V3, which re-adds a dropped column."""
    seed = tmp_path / "seed"
    write(seed, "pyproject.toml", '[project]\nname = "lake"\n\n[tool.icelint]\nmigrations = "migrations"\n')
    write(seed, "migrations/V1__create.sql", CREATE)
    write(seed, "migrations/V2__drop.sql", DROP)
    git(seed, "init", "-q")
    git(seed, "add", "-A")
    git(seed, "commit", "-q", "-m", "history")
    git(tmp_path, "clone", "-q", "--bare", str(seed), "origin.git")
    git(tmp_path, "clone", "-q", "origin.git", "work")
    work = tmp_path / "work"
    git(work, "checkout", "-q", "-b", "feature")
    write(work, "migrations/V3__readd.sql", READD)
    git(work, "add", "-A")
    git(work, "commit", "-q", "-m", "V3")
    return work


def sh(script: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    """Run a CI `run:`/`script:` line with bash, `icelint` being this checkout's."""
    prelude = f'icelint() {{ "{sys.executable}" -m icelint "$@"; }}\n'
    return subprocess.run(["bash", "-c", prelude + script], cwd=cwd, env=env, capture_output=True, text=True)


def test_github_actions_recipe(clone: Path, tmp_path: Path) -> None:
    wf = yaml.safe_load(recipe("github"))
    steps = wf["jobs"]["icelint"]["steps"]
    assert wf["permissions"]["security-events"] == "write"
    assert steps[0]["uses"].startswith("actions/checkout@") and steps[0]["with"]["fetch-depth"] == 0
    upload = next(s for s in steps if s.get("uses", "").startswith("github/codeql-action/upload-sarif@"))
    runs = [s for s in steps if "run" in s and "icelint check" in s["run"]]
    assert len(runs) == 2 and runs[1].get("if") == "always()" and upload.get("if") == "always()"

    summary = tmp_path / "step_summary.md"
    env = clean_env(CI="true", GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    results = []
    for step in runs:
        script = step["run"].replace("${{ github.base_ref }}", "main")
        results.append(sh(script, clone, env))

    annotate, sarif = results
    assert annotate.returncode == 1, annotate.stderr
    assert annotate.stdout.startswith("::error file=migrations/V3__readd.sql,line=1,col=34,endLine=1,endColumn=48,title=ICE001 drop-then-add::")
    assert "file=migrations/V2__drop.sql" not in annotate.stdout  # context only: not changed by the branch
    assert "## icelint" in summary.read_text(encoding="utf-8")

    assert sarif.returncode == 0, sarif.stderr
    report = clone / upload["with"]["sarif_file"]
    doc = json.loads(report.read_text(encoding="utf-8"))
    assert [r["ruleId"] for r in doc["runs"][0]["results"]] == ["ICE001"]
    if SARIF_SCHEMA.is_file():
        jsonschema = pytest.importorskip("jsonschema")
        schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
        jsonschema.validators.validator_for(schema)(schema).validate(doc)


def test_gitlab_ci_recipe(clone: Path) -> None:
    job = yaml.safe_load(recipe("gitlab"))["icelint"]
    assert job["variables"]["GIT_DEPTH"] == 0 and job["artifacts"]["when"] == "always"
    report_name = job["artifacts"]["reports"]["codequality"]
    env = clean_env(CI="true", GITLAB_CI="true", CI_MERGE_REQUEST_TARGET_BRANCH_NAME="main")
    results = [sh(line, clone, env) for line in job["script"] if not line.startswith("pip ")]
    assert [r.returncode for r in results] == [0, 0, 1], [r.stderr for r in results]  # fetch, report, gate
    assert "migrations/V3__readd.sql:1:34: ICE001 [error]" in results[2].stdout
    issues = json.loads((clone / report_name).read_text(encoding="utf-8"))
    assert [(i["check_name"], i["severity"], i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("ICE001", "critical", "migrations/V3__readd.sql", 1)]
    assert len(issues[0]["fingerprint"]) == 64 and issues[0]["description"].startswith("ICE001 drop-then-add: ")
