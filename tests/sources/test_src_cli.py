"""`--metadata`, `--table-dir`, `--warehouse`, `-v` and their errors, through the real CLI."""

from __future__ import annotations

import json
import shutil

import pytest

from .conftest import EXPECTED, FIX, REPLAY
from .helpers import icelint, one_error_line

MIGRATION = """\
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.legacy ADD COLUMN nickname string;
CREATE TABLE db.fresh (id bigint) USING iceberg;
"""


@pytest.fixture
def sql(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no pyproject.toml of the repository applies
    p = tmp_path / "m.sql"
    p.write_text(MIGRATION)
    return p


def findings(r) -> list[tuple[str, int]]:
    return [(f["rule"], f["line"]) for f in json.loads(r.stdout)["findings"]]


def test_no_state_reports_unknown_tables(sql):
    r = icelint("check", sql, "--format", "json")
    assert r.code == 1
    assert findings(r) == [("ICE005", 1), ("ICE005", 2)]


def test_warehouse_loads_every_table_the_scripts_touch(sql):
    r = icelint("check", sql, "--format", "json", "--warehouse", FIX / "warehouse", "-v")
    assert findings(r) == [("ICE011", 1)]  # db.events has data: dropping payload hides it
    assert "warehouse/db/events: using v3.metadata.json: version-hint.text says 3" in r.stderr
    assert "warehouse/db/legacy: using v2.metadata.json" in r.stderr
    assert "db.fresh: no table in" in r.stderr  # created by the scripts: no state needed


def test_drop_table_of_a_table_not_there_says_what_is_known(tmp_path, monkeypatch):
    """DROP TABLE of a table that is not there: never known (no state, no CREATE: it may exist in the
    catalog), absent from the warehouse asked, or dropped earlier in the run. Each says what icelint
    knows; each help's `DROP TABLE IF EXISTS`, pasted, leaves no ICE005."""
    monkeypatch.chdir(tmp_path)
    text = "DROP TABLE db.nothere;\nCREATE TABLE db.a (id int) USING iceberg;\nDROP TABLE db.a;\nDROP TABLE db.a PURGE;\n"
    (tmp_path / "m.sql").write_text(text)

    def ice005(*extra):
        r = icelint("check", "m.sql", "--format", "json", *extra)
        assert r.code in (0, 1), r.stderr
        return {f["line"]: f for f in json.loads(r.stdout)["findings"] if f["rule"] == "ICE005"}

    found = ice005()
    assert sorted(found) == [1, 4]
    assert found[1]["message"].startswith("table `db.nothere` is not known here: no state was given for it")
    assert "Spark rejects" not in found[1]["message"] and "`--metadata db.nothere=" in found[1]["help"]
    assert found[1]["help"].endswith("write `DROP TABLE IF EXISTS db.nothere`")
    assert found[4]["message"].startswith("`db.a`: Spark rejects this statement: [TABLE_OR_VIEW_NOT_FOUND]")
    assert "an earlier statement dropped or renamed it" in found[4]["help"]
    assert found[4]["help"].endswith("write `DROP TABLE IF EXISTS db.a PURGE`")
    absent = ice005("--warehouse", FIX / "warehouse")
    assert absent[1]["message"].startswith(f"table `db.nothere` does not exist in warehouse `{FIX / 'warehouse'}`: Spark fails here")
    assert absent[1]["help"].endswith("write `DROP TABLE IF EXISTS db.nothere`")
    assert absent[4] == found[4]  # made and dropped by the run: that is what it says, whatever the warehouse lacks
    followed = text.replace("DROP TABLE db.nothere;", "DROP TABLE IF EXISTS db.nothere;")
    (tmp_path / "m.sql").write_text(followed.replace("DROP TABLE db.a PURGE;", "DROP TABLE IF EXISTS db.a PURGE;"))
    assert ice005() == {} and ice005("--warehouse", FIX / "warehouse") == {}


def test_warehouse_without_the_table_says_so(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.sql").write_text("ALTER TABLE db.nothere ADD COLUMN c int;\n")
    r = icelint("check", "m.sql", "--format", "json", "--warehouse", FIX / "warehouse")
    [f] = json.loads(r.stdout)["findings"]
    assert f["rule"] == "ICE005" and r.code == 1
    assert f["message"].startswith(f"table `db.nothere` does not exist in warehouse `{FIX / 'warehouse'}`")


def test_warehouse_with_the_created_table_present_reports_it_exists(sql, tmp_path):
    wh = tmp_path / "wh"
    shutil.copytree(FIX / "warehouse", wh)
    shutil.copytree(FIX / "warehouse/db/readings", wh / "db/fresh")
    r = icelint("check", sql, "--format", "json", "--warehouse", wh)
    assert ("ICE005", 3) in findings(r)  # CREATE TABLE of a table that exists: Spark would fail


def test_schema_command_takes_the_state_options(sql):
    r = icelint("schema", sql, "--format", "json", "--table-dir", f"db.events={FIX / 'nohint/db/events'}")
    assert r.code == 0, r.stderr
    assert "country" in r.stdout


def test_table_dir_named_and_anonymous(sql):
    r = icelint(
        "check", sql, "--format", "json",
        "--table-dir", f"db.events={FIX / 'orphan/db/events'}",  # orphan layout, named
        "--table-dir", FIX / "gz-suffix/db/legacy",  # .../db/legacy: named by its directory
        "-v",
    )  # fmt: skip
    # the orphan's winner has no `payload` column: Spark would reject the DROP
    assert findings(r) == [("ICE005", 1)]
    assert "orphans of failed commits" in r.stderr
    assert "v2.metadata.json.gz" in r.stderr


def test_anonymous_table_dir_named_by_its_location(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.sql").write_text("ALTER TABLE db.events ADD COLUMN c int;\n")
    (tmp_path / "w.sql").write_text("ALTER TABLE db.whatever ADD COLUMN c int;\n")
    shutil.copytree(FIX / "warehouse/db/events", tmp_path / "somewhere")
    r = icelint("check", "m.sql", "--format", "json", "--table-dir", tmp_path / "somewhere")
    assert r.code == 0, r.stdout + r.stderr
    # the state of db.events (its location says so) is never applied to another table: db.whatever
    # exists nowhere, an error at its statement (as Spark's TABLE_OR_VIEW_NOT_FOUND); -v says the state is unused
    r = icelint("check", "w.sql", "--format", "json", "--table-dir", tmp_path / "somewhere", "-v")
    assert r.code == 1 and [f["rule"] for f in json.loads(r.stdout)["findings"]] == ["ICE005"]
    assert "the state of db.events, which no statement touches: not used" in r.stderr


def test_table_uuid_flag(sql, tmp_path):
    t = tmp_path / "events"
    shutil.copytree(FIX / "nohint/db/events", t)
    shutil.copyfile(FIX / "warehouse/db/readings/metadata/v2.metadata.json", t / "metadata/v9.metadata.json")
    uuid = EXPECTED["nohint/db/events"]["table-uuid"]
    r = icelint("check", sql, "--format", "json", "--table-dir", f"db.events={t}", "--table-uuid", uuid, "-v")
    assert ("ICE011", 1) in findings(r)
    assert "skipped 1 file(s) of another table-uuid" in r.stderr


@pytest.mark.parametrize(
    "path",
    [
        "warehouse/db/legacy/metadata/v2.metadata.json",  # v1
        "warehouse/db/events/metadata/v3.metadata.json",  # v2
        "warehouse/db/readings/metadata/v2.metadata.json",  # v3
        "warehouse/db/zipped/metadata/v2.gz.metadata.json",  # gzip, Iceberg's name
        "gz-suffix/db/legacy/metadata/v2.metadata.json.gz",  # gzip, the other name
    ],
)
def test_metadata_file_forms(tmp_path, monkeypatch, path):
    monkeypatch.chdir(tmp_path)
    table = f"db.{path.split('/')[2]}"  # the table the file's `location` names (.../warehouse/db/<t>)
    (tmp_path / "m.sql").write_text(f"ALTER TABLE {table} ADD COLUMN added_here string;\n")
    (tmp_path / "t.sql").write_text("ALTER TABLE db.t ADD COLUMN added_here string;\n")
    for sql, arg in (("m.sql", str(FIX / path)), ("t.sql", f"db.t={FIX / path}"), ("m.sql", (FIX / path).as_uri())):
        r = icelint("schema", sql, "--format", "json", "--metadata", arg)
        assert r.code == 0, (arg, r.stderr)
        assert "added_here" in r.stdout


def test_metadata_named_file_in_replay_fixtures(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    before = REPLAY / "42_setup_multi_table/before"
    (tmp_path / "m.sql").write_text("ALTER TABLE db.customers ADD COLUMN c int;\nALTER TABLE db.invoices ADD COLUMN c int;\n")
    args = [a for p in sorted(before.glob("*.json")) for a in ("--metadata", str(p))]
    r = icelint("check", "m.sql", "--format", "json", *args)
    assert r.code == 0, r.stdout + r.stderr


def test_the_same_table_twice_is_an_error(sql):
    f = FIX / "warehouse/db/events/metadata/v3.metadata.json"
    line = one_error_line(icelint("check", sql, "--metadata", f"db.events={f}", "--table-dir", f"DB.Events={FIX / 'nohint/db/events'}"))
    assert "a state for db.events was already given" in line


@pytest.mark.parametrize(
    "args, expected",
    [
        (["--metadata", "db.events=/nonexistent/x.metadata.json"], "/nonexistent/x.metadata.json: no such metadata file"),
        (["--metadata", "db.events=" + str(FIX / "warehouse/db/events")], "is a directory; use --table-dir"),
        (["--table-dir", "db.events=/nonexistent/dir"], "/nonexistent/dir: no such table directory"),
        (["--table-dir", "db.events=" + str(FIX)], "no Iceberg metadata (no metadata/ directory)"),
        (["--warehouse", "/nonexistent/wh"], "/nonexistent/wh: no such warehouse directory"),
        (["--table-dir", "db.events=s3://bucket/db/events"], "remote table directories cannot be listed"),
    ],
)
def test_one_line_errors(sql, args, expected):
    assert expected in one_error_line(icelint("check", sql, *args))


def test_corrupt_metadata_files(sql, tmp_path):
    bad = tmp_path / "bad.metadata.json"
    bad.write_text('{"format-version": 2, "schemas": [')
    assert "bad.metadata.json: not valid JSON" in one_error_line(icelint("check", sql, "--metadata", f"db.events={bad}"))
    bad.write_text('{"format-version": 2}')
    assert "bad.metadata.json: invalid Iceberg metadata" in one_error_line(icelint("check", sql, "--metadata", f"db.events={bad}"))
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    assert "bad.metadata.json: corrupt gzip" in one_error_line(icelint("check", sql, "--metadata", f"db.events={bad}"))
    t = tmp_path / "t"
    shutil.copytree(FIX / "warehouse/db/events", t)
    (t / "metadata/v3.metadata.json").write_text("")
    line = one_error_line(icelint("check", sql, "--table-dir", f"db.events={t}"))
    assert "v3.metadata.json: empty file" in line


def test_anonymous_metadata_ambiguous(sql, tmp_path):
    f = tmp_path / "v3.metadata.json"
    meta = json.loads((FIX / "warehouse/db/events/metadata/v3.metadata.json").read_text())
    del meta["location"]  # else its location names db.events
    f.write_text(json.dumps(meta))
    r = icelint("check", sql, "--metadata", f, "--format", "json", "-v")
    assert r.code in (0, 1) and "not used" in r.stderr and "db.events, db.legacy" in r.stderr  # never guessed


def test_two_files_for_one_table_by_name_is_an_error(sql, tmp_path):
    a = tmp_path / "a" / "db.events.metadata.json"
    a.parent.mkdir()
    shutil.copyfile(FIX / "warehouse/db/events/metadata/v3.metadata.json", a)
    line = one_error_line(icelint("check", sql, "--metadata", a, "--metadata", f"db.events={a}"))
    assert "a state for db.events was already given" in line
