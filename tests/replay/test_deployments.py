"""Applied history holds data: the verdicts of the three ways users run icelint (`replay/deploy.py`).

Migrations rarely INSERT; pipelines write tables between deployments. So a table created by an
applied migration, or by an earlier file of a folder checked without a state, is presumed to hold
data, and dropping then re-adding a column there is ICE001 (an error), whatever INSERTs the files
contain. Only a table proven empty (created in the same pending batch and never written, or a state
whose current snapshot is absent or holds 0 records) gets ICE015 (a warning).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.ci.conftest import SNAPSHOT, git, icelint, write

DDL = "CREATE TABLE db.events (id bigint, payload string) USING iceberg;\n"  # no INSERT: pipelines write it
DROP_READD = "ALTER TABLE db.events DROP COLUMN payload;\nALTER TABLE db.events ADD COLUMN payload binary;\n"


def run(cwd: Path, *args: str):
    r = icelint("check", *args, "--format", "json", cwd=cwd)
    assert r.code in (0, 1), r.err
    return r


def verdicts(r) -> list[tuple[str, str, str, int]]:
    return [(f["rule"], f["severity"], Path(f["path"]).name, f["line"]) for f in r.json()["findings"]]


def message(r, rule: str) -> str:
    return next(f["message"] for f in r.json()["findings"] if f["rule"] == rule)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "pyproject.toml", '[project]\nname = "lake"\n\n[tool.icelint]\nmigrations = "migrations"\n')
    write(tmp_path, "migrations/V1__init.sql", DDL)
    return tmp_path


def test_pending_file_over_applied_history_without_insert_is_an_error(project: Path) -> None:
    write(project, "migrations/V2__payload_as_binary.sql", DROP_READD)
    r = run(project, "migrations/V2__payload_as_binary.sql")
    assert r.code == 1
    assert verdicts(r) == [("ICE011", "warning", "V2__payload_as_binary.sql", 1), ("ICE001", "error", "V2__payload_as_binary.sql", 2)]
    assert "presumed to hold data: it was created by an applied migration migrations/V1__init.sql" in message(r, "ICE001")


def test_whole_folder_without_state_presumes_data_after_each_file(project: Path) -> None:
    write(project, "migrations/V2__payload_as_binary.sql", DROP_READD)
    for args in (("migrations",), ()):  # the folder named, or the configured folder with nothing named
        r = run(project, *args)
        assert r.code == 1
        assert ("ICE001", "error", "V2__payload_as_binary.sql", 2) in verdicts(r)
        assert "created by a migration deployed before this file, migrations/V1__init.sql" in message(r, "ICE001")


def test_since_presumes_data_in_tables_of_the_applied_history(project: Path) -> None:
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "V1")
    git(project, "checkout", "-q", "-b", "feature")
    write(project, "migrations/V2__payload_as_binary.sql", DROP_READD)
    r = run(project, "--since", "main")
    assert r.code == 1
    assert verdicts(r) == [("ICE011", "warning", "V2__payload_as_binary.sql", 1), ("ICE001", "error", "V2__payload_as_binary.sql", 2)]


def test_since_batch_creating_its_own_table_proves_it_empty(project: Path) -> None:
    git(project, "init", "-q")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "V1")
    write(project, "migrations/V2__orders.sql", DDL.replace("events", "orders"))
    write(project, "migrations/V3__orders_payload.sql", DROP_READD.replace("events", "orders"))
    r = run(project, "--since", "HEAD")  # V2 and V3 are one batch, deployed together
    assert r.code == 0
    assert verdicts(r) == [("ICE015", "warning", "V3__orders_payload.sql", 2)]
    assert "the table was created at migrations/V2__orders.sql:1 and nothing has written it since" in message(r, "ICE015")


def test_named_files_are_deployed_as_a_folder_is(tmp_path: Path) -> None:
    # naming files decides what is reported on, never what has run: outside git each file is a deployment
    write(tmp_path, "a.sql", DDL)
    write(tmp_path, "b.sql", DROP_READD)
    assert ("ICE001", "error", "b.sql", 2) in verdicts(run(tmp_path, "a.sql", "b.sql"))
    # the same two files as a folder: each is a deployment
    write(tmp_path, "m/V1__a.sql", DDL)
    write(tmp_path, "m/V2__b.sql", DROP_READD)
    assert ("ICE001", "error", "V2__b.sql", 2) in verdicts(run(tmp_path, "m"))


def test_single_script_with_its_own_create_is_empty(tmp_path: Path) -> None:
    write(tmp_path, "migrate.sql", DDL + DROP_READD)
    r = run(tmp_path, "migrate.sql")
    assert r.code == 0 and verdicts(r) == [("ICE015", "warning", "migrate.sql", 3)]


def _state(tmp_path: Path, summary_records: str | None, current: bool = True) -> Path:
    meta = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    if not current:
        meta["current-snapshot-id"] = -1
        meta["refs"] = {}
    for s in meta["snapshots"]:
        if summary_records is None:
            s["summary"].pop("total-records", None)
        else:
            s["summary"]["total-records"] = summary_records
    return write(tmp_path, "state/db.events.metadata.json", json.dumps(meta))


@pytest.mark.parametrize(
    ("records", "current", "rule", "why"),
    [
        ("2", True, "ICE001", "the table held rows at snapshot 3917483417774458873 (2 records)"),
        (None, True, "ICE001", "the table's current snapshot 3917483417774458873 has data files"),
        ("0", True, "ICE015", "the table's current snapshot 3917483417774458873 holds 0 records"),
        ("2", False, "ICE015", "the table's metadata has no current snapshot"),
    ],
)
def test_state_decides_from_the_current_snapshot(tmp_path: Path, records, current, rule, why) -> None:
    state = _state(tmp_path, records, current)
    write(tmp_path, "V9__x.sql", DROP_READD)
    r = run(tmp_path, "V9__x.sql", "--metadata", f"db.events={state}")
    assert [v[0] for v in verdicts(r) if v[0] in ("ICE001", "ICE015")] == [rule]
    assert why in message(r, rule)
    assert r.code == (1 if rule == "ICE001" else 0)
    assert ("ICE011" in [v[0] for v in verdicts(r)]) == (rule == "ICE001")  # nothing to hide in an empty table

