"""The pre-commit hook, run by the real `pre-commit` against a temporary repository.

pre-commit installs hooks from a git repository at a commit. The work tree of this repository is
copied into a temporary git repository and committed there; the project under test uses the
`.pre-commit-config.yaml` recipe of docs/ci.md with `repo:` pointing at that copy. pre-commit then
builds its virtualenv and `pip install`s icelint from the copy, as it would from GitHub.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import CREATE, DROP, READD, ROOT, clean_env, git, recipe, write

yaml = pytest.importorskip("yaml", reason="PyYAML comes with pre-commit, in the `test` extra")

pytestmark = pytest.mark.skipif(shutil.which("pre-commit") is None, reason="pre-commit is not installed (it is in the `test` extra)")

IGNORED = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", "*.egg-info", ".pytest_cache", "build", "dist", ".venv", "bench")


def test_hook_definition() -> None:
    (hook,) = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    assert hook["id"] == "icelint" and hook["entry"] == "icelint check" and hook["language"] == "python"
    assert hook["require_serial"] is True
    files = re.compile(hook["files"])  # as pre-commit matches it: `re.search` on the path
    for path in ("migrations/V1__init.sql", "adhoc.sql", "migrations/V2__drop.py", "nb/V3.1__readd.ipynb"):
        assert files.search(path), path
    for path in ("jobs/run.py", "src/app/v1_util.py", "notebooks/explore.ipynb", "README.md"):
        assert not files.search(path), path


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory) -> tuple[Path, str]:
    src = tmp_path_factory.mktemp("icelint-src") / "icelint"
    shutil.copytree(ROOT, src, ignore=IGNORED)
    git(src, "init", "-q")
    git(src, "add", "-A")
    git(src, "commit", "-q", "-m", "icelint snapshot for the pre-commit test")
    return src, git(src, "rev-parse", "HEAD").strip()


def pre_commit(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = clean_env(PRE_COMMIT_HOME=str(home), PRE_COMMIT_COLOR="never", GIT_CONFIG_GLOBAL=os.devnull, GIT_CONFIG_NOSYSTEM="1",
                    GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.invalid", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.invalid")
    env.pop("CI", None)
    return subprocess.run(["pre-commit", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900)


def test_pre_commit_fails_on_a_bad_migration_and_passes_with_a_suppression(hook_repo, tmp_path: Path) -> None:
    src, rev = hook_repo
    project = tmp_path / "project"
    config = yaml.safe_load(recipe("pre-commit"))
    assert config["repos"][0]["hooks"] == [{"id": "icelint"}]
    config["repos"][0]["repo"] = str(src)
    config["repos"][0]["rev"] = rev
    write(project, ".pre-commit-config.yaml", yaml.safe_dump(config, sort_keys=False))
    write(project, "pyproject.toml", '[project]\nname = "lake"\n\n[tool.icelint]\nmigrations = "migrations"\n')
    write(project, "migrations/V1__create.sql", CREATE)
    write(project, "migrations/V2__drop.sql", DROP)
    write(project, "README.md", "not sql\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "history")
    home = tmp_path / "pre-commit-home"

    # a new migration that re-adds the dropped column: staged, the hook fails with icelint's message
    write(project, "migrations/V3__readd.sql", READD)
    git(project, "add", "migrations/V3__readd.sql")
    r = pre_commit(project, home, "run")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert re.search(r"^icelint\.+Failed$", out, re.M), out
    assert "migrations/V3__readd.sql:1:34: ICE001 [error]" in out
    assert "ICE011" not in out  # V2 is context: replayed, not reported
    assert "Checked 1 file (and 2 as context), 1 statement: 1 error, 0 warnings." in out

    # with a suppression comment it passes
    write(project, "migrations/V3__readd.sql", "-- icelint: ignore ICE001 -- backfilled by job 42\n" + READD)
    git(project, "add", "migrations/V3__readd.sql")
    r = pre_commit(project, home, "run")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert re.search(r"^icelint\.+Passed$", out, re.M), out

    # no .sql file staged: the hook is skipped
    write(project, "README.md", "still not sql\n")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "V3", "--no-verify")
    write(project, "README.md", "changed\n")
    git(project, "add", "README.md")
    r = pre_commit(project, home, "run")
    assert r.returncode == 0 and re.search(r"^icelint\.+\(no files to check\)Skipped$", r.stdout, re.M), r.stdout


def test_pre_commit_fails_when_an_applied_migration_without_insert_gets_a_column_re_added(hook_repo, tmp_path: Path) -> None:
    """The README's headline trap as users meet it: V1 only creates the table (pipelines write it), V2 drops
    and re-adds a column. The applied V1 is a deployment, so the table is presumed to hold data: an error."""
    src, rev = hook_repo
    project = tmp_path / "project"
    config = yaml.safe_load(recipe("pre-commit"))
    config["repos"][0]["repo"] = str(src)
    config["repos"][0]["rev"] = rev
    write(project, ".pre-commit-config.yaml", yaml.safe_dump(config, sort_keys=False))
    write(project, "pyproject.toml", '[project]\nname = "lake"\n\n[tool.icelint]\nmigrations = "migrations"\n')
    write(project, "migrations/V1__create.sql", "CREATE TABLE db.events (id bigint, payload string) USING iceberg;\n")
    git(project, "init", "-q")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "V1")
    write(project, "migrations/V2__payload_as_binary.sql", DROP + READD)
    git(project, "add", "migrations/V2__payload_as_binary.sql")
    r = pre_commit(project, tmp_path / "pre-commit-home", "run")
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert re.search(r"^icelint\.+Failed$", out, re.M), out
    assert "migrations/V2__payload_as_binary.sql:2:34: ICE001 [error]" in out, out
    assert "presumed to hold data: it was created by an applied migration migrations/V1__create.sql" in out
    assert "Checked 1 file (and 1 as context), 2 statements: 1 error, 1 warning." in out, out
