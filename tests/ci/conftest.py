"""Helpers for the CI-integration tests: the real CLI in a subprocess, files, and real git repositories."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "examples" / "snapshots" / "db.events.metadata.json"
# beside the repository (or, for a git worktree in a folder of worktrees, beside that folder)
SARIF_SCHEMA = next(
    (p for p in (ROOT.parent / "shared" / "reference" / "sarif-schema-2.1.0.json",
                 ROOT.parent.parent / "shared" / "reference" / "sarif-schema-2.1.0.json") if p.is_file()),
    ROOT.parent / "shared" / "reference" / "sarif-schema-2.1.0.json",
)

# SQL that triggers known rules (the table holds data, so drops and re-adds are errors/warnings)
CREATE = "CREATE TABLE db.events (id bigint, payload string, account_id bigint) USING iceberg;\nINSERT INTO db.events VALUES (1, 'a', 2);\n"
DROP = "ALTER TABLE db.events DROP COLUMN payload;\n"  # ICE011 drop-column-with-data (warning)
READD = "ALTER TABLE db.events ADD COLUMN payload binary;\n"  # ICE001 drop-then-add (error) after DROP
NARROW = "ALTER TABLE db.events ALTER COLUMN account_id TYPE int;\n"  # ICE002 illegal-type-change (error)
CLEAN = "ALTER TABLE db.events ADD COLUMN source string;\n"

# variables of the CI environment that change icelint's defaults: never inherited by these tests
_SCRUB = ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA", "ICELINT_DEBUG")


@dataclass
class Result:
    code: int
    out: str
    err: str

    def json(self):
        return json.loads(self.out)


def clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in _SCRUB}
    env.update(extra)
    return env


def icelint(*args: str, cwd: Path, env: dict[str, str] | None = None) -> Result:
    p = subprocess.run(
        [sys.executable, "-m", "icelint", *args],
        cwd=cwd,
        env=env if env is not None else clean_env(),
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    return Result(p.returncode, p.stdout, p.stderr)


def write(base: Path, rel: str, text: str) -> Path:
    p = base / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


GIT_ENV = {
    "GIT_AUTHOR_NAME": "icelint tests",
    "GIT_AUTHOR_EMAIL": "tests@example.invalid",
    "GIT_COMMITTER_NAME": "icelint tests",
    "GIT_COMMITTER_EMAIL": "tests@example.invalid",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(cwd: Path, *args: str) -> str:
    env = dict(os.environ, **GIT_ENV)
    p = subprocess.run(["git", "-c", "init.defaultBranch=main", "-c", "commit.gpgsign=false", *args],
                       cwd=cwd, env=env, capture_output=True, text=True)
    assert p.returncode == 0, f"git {' '.join(args)} failed: {p.stderr}"
    return p.stdout


def recipe(name: str) -> str:
    """The YAML block after `<!-- recipe: NAME -->` in docs/ci.md."""
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    m = re.search(r"<!-- recipe: " + re.escape(name) + r" -->\s*```yaml\n(.*?)```", text, re.S)
    assert m, f"docs/ci.md has no `{name}` recipe"
    return m.group(1)


def codes(result: Result) -> list[tuple[str, str, int]]:
    """(rule, file name, line) of every reported finding of a JSON run."""
    return [(f["rule"], Path(f["path"]).name, f["line"]) for f in result.json()["findings"]]


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """A project with `[tool.icelint] migrations = "migrations"` and a three-file history."""
    write(tmp_path, "pyproject.toml", '[project]\nname = "demo"\n\n[tool.icelint]\nmigrations = "migrations"\n')
    write(tmp_path, "migrations/V1__create.sql", CREATE)
    write(tmp_path, "migrations/V2__drop_payload.sql", DROP)
    return tmp_path
