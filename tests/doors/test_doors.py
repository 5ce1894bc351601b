"""Every door, the same verdict: each differential case goes through every way a user reaches icelint,
and every door reports the same (file, line, rule, severity) as the folder door on the files it
reports on. Only the wording of data provenance may differ, so messages are not compared.

The project of a case, as a team keeps it: a git repository whose root holds the pre-commit
configuration, and a `data/` folder with the configuration beside the migrations
(`data/pyproject.toml`, `migrations = "migrations"`). `V0__setup.sql` (the case's setup without
its INSERTs: what an applied migration holds) is committed; the case's migration files,
`V1__<name>.sql`, ... are new (staged), as in a pull request. So V0 is applied and its own
deployment; the new files deploy together, as one batch.

Doors, in this process (every case; the icelint side only: Spark's verdicts are checked on the
folder door by the differential suite):

- folder: `icelint check migrations` from `data/` (the expected verdict);
- named: every file named, as `pre-commit run --all-files` and `migrations/*.sql` pass them;
- since: `icelint check --since base` (the configured folder's files changed since the tag `base`);
- stdin: each new file through standard input with `--stdin-filename`;
- parent: `icelint check data/migrations` from the repository root (configuration beside the
  migrations, found from the files' folder);
- api: `icelint.lint("data/migrations")`;
- state: the whole folder with the state of every table after V0 (`--metadata db.t=FILE`): the
  applied prefix (V0) is inferred from the state, and the statements the state holds are not
  checked again (their findings are not compared; none may be new);
- partial-state: the same, with the state of one table only (the others are replayed from V0);
- cache: the folder door twice with the run cache on; the second run is served from the cache;
- fix: `icelint check --fix` (last: it rewrites the files); what it reports after its passes is
  what the folder door reports on the fixed files.

Doors through real processes, on a representative subset (`HOOK_CASES`; a pre-commit run costs
about a second): the staged hook (`pre-commit run`, a `repo: local` hook with `entry: python -m
icelint check`, `require_serial: true` as docs/ci.md advises, so that one process writes the one
report the test reads) and `pre-commit run --all-files`.

Doors that cannot take part in a case say why (`_cannot`): the state doors for cases judged in the
state mode only (their verdicts depend on the snapshots Spark wrote, which a replayed state does not
have) and for cases whose setup leaves a table icelint cannot know the schema of (a CTAS).

Besides: no statement of an applied file (V0) is reported as an error in any door.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]
CASES_DIR = ROOT / "tests" / "differential" / "cases"
CASES = sorted(p for p in CASES_DIR.iterdir() if p.is_dir() and (p / "setup.sql").is_file())
HOOK_CASES = {"001_drop_then_add_same_file", "002_drop_then_add_across_files", "010_drop_if_exists_then_add",
              "018_drop_then_add_three_files", "081_realistic_multi_file_release"}
CONFIG = '[tool.icelint]\nmigrations = "migrations"\n'
HOOK = """repos:
- repo: local
  hooks:
  - id: icelint
    name: icelint
    entry: {python} -m icelint check --format json --output-file {out}
    language: system
    files: \\.sql$
    require_serial: true
"""


def _setup_ddl(case: Path) -> str:
    from tests.oracle.spark import split_statements

    kept = [t for _, t in split_statements((case / "setup.sql").read_text()) if not t.lstrip().upper().startswith("INSERT")]
    return "".join(f"{t};\n" for t in kept)


def _migration_files(case: Path) -> list[Path]:
    if (case / "migration.sql").is_file():
        return [case / "migration.sql"]
    from icelint.plan.discovery import discover

    return [Path(p) for p in discover([str(case / "migrations")])]


def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                          capture_output=True, text=True).stdout


def _project(case: Path, root: Path) -> list[str]:
    """The case's project (see the module docstring); the names of its new files."""
    data = root / "data"
    (data / "migrations").mkdir(parents=True)
    (data / "pyproject.toml").write_text(CONFIG)
    (data / "migrations" / "V0__setup.sql").write_text(_setup_ddl(case))
    (root / ".pre-commit-config.yaml").write_text(HOOK.format(python=sys.executable, out=root.parent / "hook.json"))
    _git(root, "init", "-q")
    _git(root, "add", "-A")
    _git(root, "commit", "-q", "-m", "applied")
    _git(root, "tag", "base")
    new = []
    for i, src in enumerate(_migration_files(case), start=1):
        name = f"V{i}__{src.stem.replace('.', '_')}.sql"
        shutil.copyfile(src, data / "migrations" / name)
        new.append(name)
    _git(root, "add", "-A")
    return new


def _key(f: dict) -> tuple:
    return (Path(f["path"]).name, f["line"], f["rule"], f["severity"])


def _cli(args: list[str], cwd: Path, monkeypatch, stdin: str | None = None, env: dict | None = None) -> set[tuple]:
    from icelint.cli.main import main

    monkeypatch.chdir(cwd)
    for k, v in (env or {}).items():
        monkeypatch.setenv(k, v)
    result = CliRunner().invoke(main, ["check", *args, "--format", "json"], input=stdin)
    assert result.exit_code in (0, 1), f"icelint check {' '.join(args)} (in {cwd}) exited {result.exit_code}: {result.output}"
    return {_key(f) for f in json.loads(result.stdout)["findings"]}


def _states(data: Path, out: Path) -> dict[str, Path]:
    """The state of every table after V0 (a replayed metadata.json, with a snapshot of rows)."""
    from icelint.engine.pipeline import replay_paths

    run = replay_paths([data / "migrations" / "V0__setup.sql"])
    states = {}
    for key, meta in run.result.tables.items():
        if meta is None or key in run.result.unknown:
            continue
        doc = meta.to_json()
        if "icelint-unknown" in json.dumps(doc):
            continue  # a column icelint cannot know the type of (a CTAS): no metadata.json to write
        doc.update({"table-uuid": "00000000-0000-0000-0000-000000000001", "last-updated-ms": 1, "last-sequence-number": 1,
                    "current-snapshot-id": 1, "snapshot-log": [], "metadata-log": [],
                    "refs": {"main": {"snapshot-id": 1, "type": "branch"}},
                    "snapshots": [{"snapshot-id": 1, "sequence-number": 1, "timestamp-ms": 1, "manifest-list": "m.avro",
                                   "summary": {"operation": "append", "total-records": "3"},
                                   "schema-id": meta.current_schema_id}]})
        path = out / f"{key}.metadata.json"
        path.write_text(json.dumps(doc))
        states[key] = path
    return states


SNAPSHOTS = re.compile(r"(?i)\b(snapshot\w*|branch|tag|rollback\w*|cherrypick\w*|version\s+as\s+of|timestamp\s+as\s+of|wap)\b")


def _cannot(case: Path, door: str) -> str | None:
    """Why `door` cannot take part in `case` (None: it can)."""
    first = (case / "setup.sql").read_text().split("\n", 1)[0]
    if door in ("state", "partial-state"):
        if first.startswith("-- modes:") and "folder" not in first:
            return "judged in the state mode only: its verdicts depend on the snapshots Spark wrote, which a replayed state lacks"
        if any(SNAPSHOTS.search(f.read_text()) for f in _migration_files(case)):
            return ("its migration names snapshots, branches or tags: their verdicts depend on the snapshots Spark "
                    "wrote, which a replayed state lacks (the folder door knows no snapshots either and says nothing)")
    return None


def _doors(case: Path, tmp: Path, monkeypatch) -> tuple[set, dict[str, set], list[str]]:
    root = tmp / "repo"
    new = _project(case, root)
    data = root / "data"
    expected = _cli(["migrations"], data, monkeypatch)
    got: dict[str, set] = {}
    names = ["migrations/V0__setup.sql", *(f"migrations/{n}" for n in new)]
    got["named"] = _cli(names, data, monkeypatch)
    got["since"] = _cli(["--since", "base"], data, monkeypatch)
    stdin: set = set()
    for n in new:
        stdin |= _cli(["--stdin-filename", f"migrations/{n}"], data, monkeypatch, stdin=(data / "migrations" / n).read_text())
    got["stdin"] = stdin
    got["parent"] = _cli(["data/migrations"], root, monkeypatch)
    import icelint

    monkeypatch.chdir(root)
    got["api"] = {(Path(f.path).name, f.line, f.rule, f.severity.value) for f in icelint.lint("data/migrations")}
    reasons = []
    states = _states(data, tmp)
    for door in ("state", "partial-state"):
        why = _cannot(case, door) or (None if states else "no table of the setup has a schema icelint can know")
        if why:
            reasons.append(f"{door}: {why}")
            continue
        chosen = states if door == "state" else dict(list(states.items())[:1])
        args = [a for k, p in chosen.items() for a in ("--metadata", f"{k}={p}")]
        got[door] = _cli(["migrations", *args], data, monkeypatch)
    cache_env = {"ICELINT_NO_CACHE": "0"}
    _cli(["migrations"], data, monkeypatch, env=cache_env)
    got["cache"] = _cli(["migrations"], data, monkeypatch, env=cache_env)
    monkeypatch.setenv("ICELINT_NO_CACHE", "1")
    assert any((data / ".icelint_cache").rglob("*")), "the run cache wrote nothing: the cache door was not tested"
    fixed = _cli(["migrations", "--fix"], data, monkeypatch)
    after = _cli(["migrations"], data, monkeypatch)
    assert fixed == after, f"{case.name}: --fix's report differs from a check of the fixed files"
    return expected, got, reasons


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_every_door_gives_the_folder_verdict(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICELINT_NO_CACHE", "1")
    expected, got, reasons = _doors(case, tmp_path, monkeypatch)
    new = {k for k in expected if k[0] != "V0__setup.sql"}
    for door, found in got.items():
        assert not [k for k in found if k[0] == "V0__setup.sql" and k[3] == "error"], \
            f"{case.name}: {door}: an error on a statement of an applied file: {sorted(found)}"
        if door in ("stdin", "since"):  # they report on the new files only
            assert found == new, f"{case.name}: door {door} differs from the folder door:\n{sorted(found ^ new)}"
        elif door in ("state", "partial-state"):
            # the statements of V0 on a table with a state are held by the state (its inferred applied
            # prefix): they are not replayed, so not checked again; the new files are compared
            assert not {k for k in found if k[0] == "V0__setup.sql"} - expected, f"{case.name}: {door}: a finding on V0 the folder has not"
            mine = {k for k in found if k[0] != "V0__setup.sql"}
            assert mine == new, f"{case.name}: door {door} differs from the folder door:\n{sorted(found ^ new)}"
        else:
            assert found == expected, f"{case.name}: door {door} differs from the folder door:\n{sorted(found ^ expected)}"
    assert not [k for k in expected if k[0] == "V0__setup.sql" and k[3] == "error"], f"{case.name}: folder: an error on V0"
    for line in reasons:  # said, not skipped silently: the door could not take part in this case
        print(f"{case.name}: {line}")


@pytest.mark.parametrize("case", sorted(c for c in CASES if c.name in HOOK_CASES), ids=lambda c: c.name)
def test_the_pre_commit_hook_gives_the_folder_verdict(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("pre-commit") is None:
        pytest.fail("pre-commit is not installed: the hook doors cannot be tested")
    root = tmp_path / "repo"
    new = _project(case, root)
    expected = _cli(["migrations"], root / "data", monkeypatch)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "ICELINT_NO_CACHE": "1", "PRE_COMMIT_HOME": str(tmp_path / "pc")}
    out = tmp_path / "hook.json"
    for args, wanted in ((["run"], {k for k in expected if k[0] in new}), (["run", "--all-files"], expected)):
        out.unlink(missing_ok=True)
        proc = subprocess.run(["pre-commit", *args], cwd=root, env=env, capture_output=True, text=True)
        assert proc.returncode in (0, 1), proc.stdout + proc.stderr
        assert out.is_file(), f"the hook did not run: {proc.stdout}{proc.stderr}"
        found = {_key(f) for f in json.loads(out.read_text())["findings"]}
        assert found == wanted, f"pre-commit {' '.join(args)}: {sorted(found ^ wanted)}"
        assert (proc.returncode == 1) == any(k[3] == "error" for k in found)
        assert not [k for k in found if k[0] == "V0__setup.sql" and k[3] == "error"]
