"""One test per door that gave another verdict than the folder: each is a user's command on a small
project (the Flyway-style layout of `data/migrations/V<n>__*.sql` with `data/pyproject.toml`)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

CREATE = "CREATE TABLE db.events (id bigint, payload string) USING iceberg;\n"
CREATE_USERS = "CREATE TABLE db.users (id bigint, name string) USING iceberg;\n"
READD = "ALTER TABLE db.events DROP COLUMN payload;\nALTER TABLE db.events ADD COLUMN payload binary;\n"


def _project(root: Path, files: dict[str, str], config: str = "") -> Path:
    data = root / "data"
    (data / "migrations").mkdir(parents=True)
    (data / "pyproject.toml").write_text('[tool.icelint]\nmigrations = "migrations"\n' + config)
    for name, text in files.items():
        (data / "migrations" / name).write_text(text)
    return data


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)


def _check(cwd: Path, monkeypatch, *args: str, stdin: str | None = None):
    from icelint.cli.main import main

    monkeypatch.chdir(cwd)
    r = CliRunner().invoke(main, ["check", *args, "--format", "json"], input=stdin)
    findings = json.loads(r.stdout)["findings"] if r.exit_code in (0, 1) else []
    return r, {(Path(f["path"]).name, f["line"], f["rule"], f["severity"]) for f in findings}, findings


def _state(sql: str, out: Path, table: str = "db.events", rows: int = 3) -> Path:
    """The metadata.json of `table` after `sql`, holding `rows` rows."""
    from icelint.engine.pipeline import replay_text

    meta = replay_text(sql).result.tables[table]
    doc = meta.to_json()
    doc.update({"table-uuid": "00000000-0000-0000-0000-000000000002", "last-updated-ms": 1, "last-sequence-number": 1,
                "location": f"s3://lake/warehouse/{table.replace('.', '/')}",
                "current-snapshot-id": 1, "refs": {"main": {"snapshot-id": 1, "type": "branch"}},
                "snapshots": [{"snapshot-id": 1, "sequence-number": 1, "timestamp-ms": 1, "manifest-list": "m.avro",
                               "summary": {"operation": "append", "total-records": str(rows)}, "schema-id": meta.current_schema_id}]})
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(doc))
    return out


@pytest.fixture(autouse=True)
def _no_cache(monkeypatch):
    monkeypatch.setenv("ICELINT_NO_CACHE", "1")


def test_files_named_one_by_one_get_the_folder_verdict(tmp_path, monkeypatch):
    data = _project(tmp_path, {"V1__create.sql": CREATE, "V2__readd.sql": READD})
    _, folder, _ = _check(data, monkeypatch, "migrations")
    _, named, _ = _check(data, monkeypatch, "migrations/V1__create.sql", "migrations/V2__readd.sql")
    assert ("V2__readd.sql", 2, "ICE001", "error") in folder and named == folder


def test_all_files_in_git_committed_history_and_a_staged_file(tmp_path, monkeypatch):
    data = _project(tmp_path, {"V1__create.sql": CREATE})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    (data / "migrations" / "V2__readd.sql").write_text(READD)
    _git(tmp_path, "add", "-A")
    r, all_files, _ = _check(data, monkeypatch, "migrations/V1__create.sql", "migrations/V2__readd.sql")
    _, staged, _ = _check(data, monkeypatch, "migrations/V2__readd.sql")
    assert r.exit_code == 1 and ("V2__readd.sql", 2, "ICE001", "error") in all_files and staged == all_files


def test_configuration_beside_the_migrations_is_found_from_the_repository_root(tmp_path, monkeypatch):
    _project(tmp_path, {"V1__create.sql": CREATE, "V2__readd.sql": READD})
    r, found, _ = _check(tmp_path, monkeypatch, "data/migrations/V2__readd.sql")
    assert r.exit_code == 1 and ("V2__readd.sql", 2, "ICE001", "error") in found  # V1 is its history


def test_a_configured_state_holds_the_applied_files(tmp_path, monkeypatch):
    state = _state(CREATE, tmp_path / "state" / "db.events.metadata.json")
    data = _project(tmp_path, {"V1__create.sql": CREATE, "V2__readd.sql": READD},
                    config=f'metadata = {{ "db.events" = "{state}" }}\n')
    r, found, _ = _check(data, monkeypatch, "migrations")
    assert not [f for f in found if f[0] == "V1__create.sql"], found  # no "already exists"
    assert ("V2__readd.sql", 2, "ICE001", "error") in found
    from icelint.cli.main import main

    text = CliRunner().invoke(main, ["check", "migrations", "--format", "text", "--color", "never"]).stdout
    assert "State: V1__create.sql already in the state of db.events" in text


def test_a_state_for_one_table_of_several_replays_the_others(tmp_path, monkeypatch):
    state = _state(CREATE, tmp_path / "state" / "db.events.metadata.json")
    data = _project(tmp_path, {"V1__create.sql": CREATE + CREATE_USERS,
                               "V2__users.sql": "ALTER TABLE db.users ADD COLUMN email string;\n"})
    r, found, _ = _check(data, monkeypatch, "migrations/V2__users.sql", "--metadata", f"db.events={state}")
    assert r.exit_code == 0 and not [f for f in found if f[2] == "ICE005"], found


def test_a_state_of_another_table_is_one_input_error(tmp_path, monkeypatch):
    other = _state("CREATE TABLE analytics.events (id bigint) USING iceberg;", tmp_path / "s" / "x.metadata.json",
                   table="analytics.events")
    data = _project(tmp_path, {"V1__alter.sql": "ALTER TABLE sales.orders ADD COLUMN c int;\n"})
    r, _, _ = _check(data, monkeypatch, "migrations", "--metadata", f"sales.orders={other}")
    assert r.exit_code == 2 and "sales.orders" in r.output and "analytics.events" in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_an_unnamed_state_and_a_misspelt_table_is_ice005_there(tmp_path, monkeypatch):
    state = _state("CREATE TABLE db.products (id bigint) USING iceberg;", tmp_path / "s" / "products.json",
                   table="db.products")
    data = _project(tmp_path, {"V1__alter.sql": "ALTER TABLE db.product ADD COLUMN c int;\n",
                               "V2__view.sql": "CREATE VIEW db.v AS SELECT 1 AS x;\n"})
    r, found, raw = _check(data, monkeypatch, "migrations", "--metadata", str(state))
    assert r.exit_code == 1, r.output
    assert ("V1__alter.sql", 1, "ICE005", "error") in found
    assert any("db.products" in (f.get("help") or "") for f in raw if f["rule"] == "ICE005")
    # a view change only: the state is used by nothing, a note under -v, not exit 2
    data2 = _project(tmp_path / "b", {"V1__view.sql": "CREATE VIEW db.v AS SELECT 1 AS x;\n"})
    r, found, _ = _check(data2, monkeypatch, "migrations", "--metadata", str(state), "-v")
    assert r.exit_code == 0 and "not used" in r.output


def test_an_applied_migration_named_ad_hoc_is_not_out_of_order(tmp_path, monkeypatch):
    data = _project(tmp_path, {"V1__create.sql": CREATE, "V5__x.sql": "ALTER TABLE db.events ADD COLUMN a int;\n",
                               "V6__y.sql": "ALTER TABLE db.events ADD COLUMN b int;\n"})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    _, found, _ = _check(data, monkeypatch, "migrations/V5__x.sql")
    assert not [f for f in found if f[2] == "ICE022"], found
    text = (data / "migrations" / "V5__x.sql").read_text()
    _, found, _ = _check(data, monkeypatch, "--stdin-filename", "migrations/V5__x.sql", stdin=text)
    assert not [f for f in found if f[2] == "ICE022"], found
    # a new file below the newest applied version still is
    (data / "migrations" / "V4__new.sql").write_text("ALTER TABLE db.events ADD COLUMN c int;\n")
    _, found, _ = _check(data, monkeypatch, "migrations/V4__new.sql")
    assert ("V4__new.sql", 1, "ICE022", "error") in {(a, b, c, "error") for a, b, c, _ in found}


def test_the_api_reports_what_the_cli_reports(tmp_path, monkeypatch):
    import icelint

    data = _project(tmp_path, {"V1__create.sql": CREATE, "V2__readd.sql": READD + "ALTER TABLE db.${t} ADD COLUMN z int;\n"})
    _, cli, _ = _check(data, monkeypatch, "migrations")
    api = {(Path(f.path).name, f.line, f.rule, f.severity.value) for f in icelint.lint(str(data / "migrations"))}
    assert api == cli


def test_metadata_flags_add_to_the_configured_states_and_schema_uses_the_plan(tmp_path, monkeypatch):
    events = _state(CREATE, tmp_path / "state" / "db.events.metadata.json")
    users = _state(CREATE_USERS, tmp_path / "state" / "db.users.metadata.json", table="db.users")
    data = _project(tmp_path, {"V2__alter.sql": "ALTER TABLE db.events DROP COLUMN payload;\n"
                                                "ALTER TABLE db.users DROP COLUMN name;\n"},
                    config=f'metadata = {{ "db.events" = "{events}" }}\n')
    r, found, _ = _check(data, monkeypatch, "migrations", "--metadata", f"db.users={users}")
    assert not [f for f in found if f[2] == "ICE005"], found  # both states used
    assert {f[2] for f in found} >= {"ICE011"}
    from icelint.cli.main import main

    monkeypatch.chdir(data)
    _project(tmp_path / "h", {"V1__create.sql": CREATE, "V2__add.sql": "ALTER TABLE db.events ADD COLUMN c int;\n"})
    out = CliRunner().invoke(main, ["schema", str(tmp_path / "h" / "data" / "migrations" / "V2__add.sql")]).stdout
    assert "2: payload string" in out and "3: c int" in out  # V1, its history, is replayed as `check` replays it


def test_files_under_two_configurations_are_each_checked_with_their_own(tmp_path, monkeypatch):
    a = _project(tmp_path / "a", {"V1__create.sql": CREATE, "V2__readd.sql": READD})
    b = _project(tmp_path / "b", {"V1__create.sql": CREATE, "V2__readd.sql": READD}, config='ignore = ["ICE001"]\n')
    r, found, raw = _check(tmp_path, monkeypatch, "a/data/migrations/V2__readd.sql", "b/data/migrations/V2__readd.sql")
    rules = {(Path(f["path"]).parts[0], f["rule"]) for f in raw}
    assert ("a", "ICE001") in rules and ("b", "ICE001") not in rules, rules
    assert a and b


def test_an_editor_buffer_is_an_input_of_the_engine(tmp_path, monkeypatch):
    from icelint.engine import CheckRequest, run

    data = _project(tmp_path, {"V1__create.sql": CREATE})
    monkeypatch.chdir(tmp_path)
    report = run(CheckRequest(texts={str(data / "migrations" / "V2__readd.sql"): READD}))
    assert [(f.line, f.rule, f.severity.value) for f in report.findings if f.rule == "ICE001"] == [(2, "ICE001", "error")]
    assert [s.path for s in report.sources] == [str(data / "migrations" / "V2__readd.sql")]


def test_a_buffer_stands_in_for_its_file_however_its_path_is_spelt(tmp_path, monkeypatch):
    from icelint.engine import CheckRequest, run

    data = _project(tmp_path, {"V1__create.sql": CREATE, "V2__readd.sql": "ALTER TABLE db.events ADD COLUMN x int;\n"})
    monkeypatch.chdir(data)
    buffer = {str(data / "migrations" / "V2__readd.sql"): READD}  # the editor's absolute path, unsaved text
    report = run(CheckRequest(paths=("migrations",), texts=buffer))
    assert ("V2__readd.sql", 2, "ICE001") in {(Path(f.path).name, f.line, f.rule) for f in report.findings}


def test_what_a_state_holds_is_said_and_a_state_no_prefix_matches_is_named(tmp_path, monkeypatch):
    from icelint.cli.main import main

    state = _state(CREATE, tmp_path / "state" / "db.events.metadata.json")
    data = _project(tmp_path, {"V1__create.sql": CREATE, "V2__readd.sql": READD})
    monkeypatch.chdir(data)
    r = CliRunner().invoke(main, ["check", "migrations", "--metadata", f"db.events={state}", "-v", "--color", "never"])
    assert "icelint: note: V1__create.sql already in the state of db.events" in r.stderr
    assert "State: V1__create.sql already in the state of db.events" in r.stdout
    # a CREATE with a column the state never had: no prefix matches; the summary names the file and how
    (data / "migrations" / "V1__create.sql").write_text("CREATE TABLE db.events (id bigint, payload string, extra int) USING iceberg;\n")
    r = CliRunner().invoke(main, ["check", "migrations", "--metadata", f"db.events={state}", "--color", "never"])
    assert r.exit_code in (0, 1), r.output
    assert ("State: the state of db.events matches no prefix of the migrations (migrations/V1__create.sql: it has "
            "column `extra` (field id 3), which the state does not)") in r.stdout


def test_an_edited_applied_migration_is_never_advised_a_rename(tmp_path, monkeypatch):
    data = _project(tmp_path, {"V1__create.sql": CREATE, "V5__x.sql": "ALTER TABLE db.events ADD COLUMN a int;\n",
                               "V6__y.sql": "ALTER TABLE db.events ADD COLUMN b int;\n"})
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    _git(tmp_path, "tag", "base")
    edited = "ALTER TABLE db.events ADD COLUMN a bigint;\n"
    _, found, _ = _check(data, monkeypatch, "--stdin-filename", "migrations/V5__x.sql", stdin=edited)
    assert not [f for f in found if f[2] == "ICE022"], found
    (data / "migrations" / "V5__x.sql").write_text(edited)
    _, found, _ = _check(data, monkeypatch, "--since", "base")
    assert {f[2] for f in found} >= {"ICE023"} and not [f for f in found if f[2] == "ICE022"], found


def test_a_state_of_a_table_created_elsewhere_holds_the_committed_files(tmp_path, monkeypatch):
    # the table was created outside the migrations; V1 (committed) already ran, V2 (staged) is new
    state = _state(CREATE + "ALTER TABLE db.events ADD COLUMN a int;\n", tmp_path / "state" / "db.events.metadata.json")
    data = _project(tmp_path, {"V1__a.sql": "ALTER TABLE db.events ADD COLUMN a int;\n"},
                    config=f'metadata = {{ "db.events" = "{state}" }}\n')
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "-A")
    _git(tmp_path, "commit", "-qm", "x")
    (data / "migrations" / "V2__drop.sql").write_text("ALTER TABLE db.events DROP COLUMN payload;\n")
    _git(tmp_path, "add", "-A")
    r, found, _ = _check(data, monkeypatch, "migrations")
    assert not [f for f in found if f[0] == "V1__a.sql"], found  # not "column a already exists"
    assert ("V2__drop.sql", 1, "ICE011", "warning") in found
