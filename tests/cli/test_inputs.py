"""Inputs named on the command line: a file that is not a migration is one line, exit 2 (with a hint
for a metadata.json); `--metadata` takes a quoted glob, on the command line and in configuration;
a non-UTF-8 file is reported by line and column; configuration errors name paths relative to the
working directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.plan.discovery import MIGRATION_SUFFIXES
from tests.cli.test_commands import run

ROOT = Path(__file__).resolve().parents[2]
CREATE = "CREATE TABLE db.events (id bigint, kind string) USING iceberg;\n"


def one_line_error(r) -> str:
    assert r.returncode == 2 and r.stdout == "", (r.returncode, r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("icelint: error: "), r.stderr
    return lines[0]


def test_the_migration_suffixes_are_one_constant() -> None:
    assert ".sql" in MIGRATION_SUFFIXES


def test_a_metadata_json_named_as_a_migration_is_a_usage_error_with_a_hint(tmp_path: Path) -> None:
    (tmp_path / "v3.metadata.json").write_text(json.dumps({"format-version": 2}))
    line = one_line_error(run("check", "v3.metadata.json", cwd=tmp_path))
    assert "v3.metadata.json" in line and "not a migration file" in line and "pass it with --metadata" in line
    assert "ICE006" not in line


def test_another_file_named_as_a_migration_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello\n")
    (tmp_path / "V1__a.sql").write_text(CREATE)
    line = one_line_error(run("check", "V1__a.sql", "notes.txt", cwd=tmp_path))
    assert "notes.txt" in line and "not a migration file" in line and "--metadata" not in line
    # an upper-case suffix is still SQL
    (tmp_path / "V2__B.SQL").write_text(CREATE.replace("events", "other"))
    assert run("check", "V2__B.SQL", cwd=tmp_path).returncode == 0


def _state(tmp_path: Path) -> Path:
    d = tmp_path / "state"
    d.mkdir()
    meta = {
        "format-version": 2, "table-uuid": "00000000-0000-0000-0000-000000000001", "location": "/tmp/x",
        "last-sequence-number": 0, "last-updated-ms": 0, "last-column-id": 2, "current-schema-id": 0,
        "schemas": [{"type": "struct", "schema-id": 0, "fields": [
            {"id": 1, "name": "id", "required": False, "type": "long"},
            {"id": 2, "name": "kind", "required": False, "type": "string"}]}],
        "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}], "last-partition-id": 999,
        "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}], "properties": {},
        "current-snapshot-id": -1, "snapshots": [], "snapshot-log": [], "metadata-log": [],
    }  # fmt: skip
    (d / "db.events.metadata.json").write_text(json.dumps(meta))
    (d / "db.other.metadata.json").write_text(json.dumps(meta))
    return d


MIGRATION = "ALTER TABLE db.events DROP COLUMN kind;\nALTER TABLE db.other ADD COLUMN kind2 string;\n"


def test_metadata_accepts_a_quoted_glob(tmp_path: Path) -> None:
    _state(tmp_path)
    (tmp_path / "m.sql").write_text(MIGRATION)
    r = run("check", "m.sql", "--metadata", "state/*.metadata.json", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    findings = json.loads(r.stdout)["findings"]
    # with both states known, nothing is "unknown table": the drop is judged against the state
    assert not any(f["rule"] == "ICE005" for f in findings), findings
    nothing = run("check", "m.sql", "--metadata", "state/*.nope.json", cwd=tmp_path)
    assert "state/*.nope.json" in one_line_error(nothing)


def test_metadata_glob_in_configuration(tmp_path: Path) -> None:
    _state(tmp_path)
    (tmp_path / "m.sql").write_text(MIGRATION)
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nmetadata = ["state/*.metadata.json"]\n')
    r = run("check", "m.sql", "--format", "json", cwd=tmp_path)
    assert r.returncode in (0, 1), r.stderr
    assert not any(f["rule"] == "ICE005" for f in json.loads(r.stdout)["findings"])


def test_configuration_errors_name_paths_relative_to_the_working_directory(tmp_path: Path) -> None:
    (tmp_path / "m.sql").write_text(CREATE)
    (tmp_path / "pyproject.toml").write_text("[tool.icelint]\nbogus = 1\n")
    line = one_line_error(run("check", "m.sql", cwd=tmp_path))
    assert line.startswith("icelint: error: pyproject.toml: unknown key `tool.icelint.bogus`"), line
    assert str(tmp_path) not in line
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nmetadata = ["state/x.metadata.json"]\n')
    line = one_line_error(run("check", "m.sql", cwd=tmp_path))
    assert str(tmp_path) not in line and "state/x.metadata.json" in line, line
    (tmp_path / "pyproject.toml").write_text("[tool.icelint\n")
    line = one_line_error(run("check", "m.sql", cwd=tmp_path))
    assert line.startswith("icelint: error: pyproject.toml: invalid TOML"), line


def test_a_non_utf8_file_is_reported_by_line_and_column(tmp_path: Path) -> None:
    (tmp_path / "m.sql").write_bytes(CREATE.encode() + "-- café ".encode() + b"\xe9t\xe9\n")
    line = one_line_error(run("check", "m.sql", cwd=tmp_path))
    assert line.startswith("icelint: error: m.sql:2:9: not UTF-8 text"), line  # after `-- café ` (8 characters)
    assert "offset" not in line and "0xe9" in line


def test_the_line_and_column_of_a_bad_byte() -> None:
    from icelint.values.source import InputError, decode_utf8

    assert decode_utf8(b"\xef\xbb\xbfselect 1", "x") == "select 1"
    with pytest.raises(InputError, match=r"^x:1:3: not UTF-8 text \(byte 0xff"):
        decode_utf8(b"\xef\xbb\xbfab\xff", "x")
    with pytest.raises(InputError, match=r"^x:3:2: "):
        decode_utf8("a\r\n\u00e9\n\u00e9".encode("utf-8") + b"\xff", "x")


def test_a_configuration_found_above_the_working_directory_is_named_relative_to_it(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.icelint]\nbogus = 1\n")
    sub = tmp_path / "migrations"
    sub.mkdir()
    (sub / "m.sql").write_text(CREATE)
    line = one_line_error(run("check", "m.sql", cwd=sub))
    assert line.startswith("icelint: error: ../pyproject.toml: unknown key"), line
