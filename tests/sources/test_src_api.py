"""`icelint.lint(sql_or_paths, state=...)`: the Python API."""

from __future__ import annotations

import subprocess
import sys

import pytest

import icelint
from icelint.model.metadata import parse_metadata_bytes
from icelint.values.source import InputError

from .conftest import FIX

EVENTS = FIX / "warehouse/db/events/metadata/v3.metadata.json"
DROP = "ALTER TABLE db.events DROP COLUMN payload"


@pytest.fixture(scope="module")
def events():
    return parse_metadata_bytes(EVENTS.read_bytes(), str(EVENTS))


def codes(findings) -> list[str]:
    return [f.rule for f in findings]


def test_sql_text_with_a_state_dict(events):
    findings = icelint.lint(DROP, state={"local.db.events": events})
    assert codes(findings) == ["ICE011"]
    assert findings[0].path == "<string>" and findings[0].line == 1


def test_single_state_and_path_state(events):
    assert codes(icelint.lint(DROP, state=events)) == ["ICE011"]
    assert codes(icelint.lint(DROP, state=str(EVENTS))) == ["ICE011"]
    assert codes(icelint.lint(DROP, state={"db.events": EVENTS})) == ["ICE011"]


def test_no_state_reports_unknown_table():
    assert codes(icelint.lint(DROP)) == ["ICE005"]


def test_paths(tmp_path, events):
    (tmp_path / "m").mkdir()
    (tmp_path / "m/001_drop.sql").write_text(DROP + ";\n")
    (tmp_path / "m/002_add.sql").write_text("ALTER TABLE db.events ADD COLUMN payload string;\n")
    one = tmp_path / "m/001_drop.sql"
    assert codes(icelint.lint(str(one), state=events)) == ["ICE011"]
    assert codes(icelint.lint(one, state=events)) == ["ICE011"]
    both = icelint.lint([one, tmp_path / "m/002_add.sql"], state={"db.events": events})
    assert "ICE001" in codes(both)  # drop then add: the new column gets a new id
    assert codes(icelint.lint(tmp_path / "m", state={"db.events": events})) == codes(both)


def test_select_and_ignore(events):
    assert icelint.lint(DROP, state=events, ignore=["ICE011"]) == []
    assert codes(icelint.lint(DROP, state=events, select=["drop-column-with-data"])) == ["ICE011"]
    with pytest.raises(InputError, match="unknown rule"):
        icelint.lint(DROP, state=events, select=["NOPE"])


def test_input_errors(events):
    with pytest.raises(InputError, match="migrations/missing.sql: no such file"):
        icelint.lint("migrations/missing.sql")
    with pytest.raises(InputError, match="its location .*/db/events is table db.events, which the scripts do not touch"):
        icelint.lint("ALTER TABLE db.a ADD COLUMN x int; ALTER TABLE db.b ADD COLUMN y int", state=events)
    from dataclasses import replace

    with pytest.raises(InputError, match="cannot tell which table"):  # no location: the one altered table, if one
        icelint.lint("ALTER TABLE db.a ADD COLUMN x int; ALTER TABLE db.b ADD COLUMN y int", state=replace(events, location=None))
    with pytest.raises(TypeError):
        icelint.lint(DROP, state={"db.events": 42})


def test_lint_attribute_is_both_the_api_and_the_engine_module():
    code = (
        "import sys, icelint\n"
        "assert 'sqlglot' not in sys.modules and 'pyiceberg' not in sys.modules\n"
        "from icelint.engine.checker import lint_run\n"  # the engine module imported first
        "import icelint.engine.checker as engine\n"
        "assert engine.lint_run is lint_run and icelint.engine.checker.lint_run is lint_run\n"
        "f = icelint.lint('ALTER TABLE db.t ADD COLUMN c int')\n"
        "assert [x.rule for x in f] == ['ICE005'], f\n"
        "assert 'pyiceberg' not in sys.modules\n"
        "print('ok')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=FIX.parent.parent)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def test_a_folder_without_state_is_deployed_file_by_file(tmp_path):
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "V1__create.sql").write_text("CREATE TABLE db.e (id bigint, p string) USING iceberg;\n")
    (tmp_path / "m" / "V2__readd.sql").write_text("ALTER TABLE db.e DROP COLUMN p;\nALTER TABLE db.e ADD COLUMN p binary;\n")
    by_rule = {f.rule: f for f in icelint.lint(tmp_path / "m")}
    assert by_rule["ICE001"].severity.value == "error" and "presumed to hold data" in by_rule["ICE001"].message
    # the same files named one by one: naming files never decides what has run (outside git, every
    # file is its own deployment), so the verdict is the folder's
    files = [tmp_path / "m" / "V1__create.sql", tmp_path / "m" / "V2__readd.sql"]
    assert sorted(f.rule for f in icelint.lint(files)) == sorted(f.rule for f in icelint.lint(tmp_path / "m"))
