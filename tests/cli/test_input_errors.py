"""Malformed input through the CLI: one line on stderr naming the file, exit code 2, never a traceback."""

from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Callable

import pytest

ROOT = Path(__file__).resolve().parents[2]
GOOD_META = ROOT / "fixtures" / "replay" / "37_setup_old_partition_spec" / "before" / "db.sales.metadata.json"
ONE_STATEMENT = "ALTER TABLE db.sales ADD COLUMN channel string;\n"


def run(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_DEBUG", "GITHUB_ACTIONS")}
    return subprocess.run([sys.executable, "-m", "icelint", *args], cwd=cwd, capture_output=True, text=True, env=env, timeout=120)


def assert_input_error(r: subprocess.CompletedProcess, names: str) -> None:
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    lines = r.stderr.splitlines()
    assert len(lines) == 1, f"expected exactly one line on stderr, got {len(lines)}:\n{r.stderr}"
    assert names in lines[0], f"the error line does not name {names!r}: {lines[0]}"
    assert "internal error" not in lines[0], lines[0]


# --------------------------------------------------------------------------- SQL inputs


@pytest.mark.parametrize("command", ["check", "schema"])
def test_missing_sql_file(tmp_path: Path, command: str) -> None:
    assert_input_error(run([command, "nope.sql"], tmp_path), "nope.sql")


@pytest.mark.parametrize("command", ["check", "schema"])
def test_sql_file_not_utf8(tmp_path: Path, command: str) -> None:
    (tmp_path / "latin1.sql").write_bytes("ALTER TABLE db.t ADD COLUMN straße string; -- \xe9\n".encode("latin-1"))
    assert_input_error(run([command, "latin1.sql"], tmp_path), "latin1.sql")


def test_sql_file_binary(tmp_path: Path) -> None:
    (tmp_path / "blob.sql").write_bytes(bytes(range(256)))
    assert_input_error(run(["check", "blob.sql"], tmp_path), "blob.sql")


def test_sql_file_with_bom_is_fine(tmp_path: Path) -> None:
    (tmp_path / "bom.sql").write_bytes("\ufeffCREATE TABLE db.t (id bigint) USING iceberg;\n".encode("utf-8"))
    r = run(["check", "bom.sql"], tmp_path)
    assert r.returncode == 0 and "1 statement" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("command", ["check", "schema"])
@pytest.mark.parametrize("content", ["", "\n\n", "   \t\n"])
def test_empty_sql_file_is_an_input_error(tmp_path: Path, command: str, content: str) -> None:
    """An empty (or whitespace-only) file is a mistake, not a migration (commit 503c4dd)."""
    (tmp_path / "empty.sql").write_text(content)
    assert_input_error(run([command, "empty.sql"], tmp_path), "empty.sql")


@pytest.mark.parametrize("content", ["-- only a comment\n", "/* block */\n", "-- a\n\n-- b\n"])
def test_comment_only_sql_file_has_0_statements(tmp_path: Path, content: str) -> None:
    (tmp_path / "comments.sql").write_text(content)
    r = run(["check", "comments.sql"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""
    assert "0 statements" in r.stdout


def test_comment_only_sql_file_json(tmp_path: Path) -> None:
    (tmp_path / "comments.sql").write_text("-- nothing yet\n")
    r = run(["check", "comments.sql", "--format", "json"], tmp_path)
    obj = json.loads(r.stdout)
    assert r.returncode == 0 and obj["findings"] == [] and obj["summary"]["statements"] == 0


@pytest.mark.parametrize("command", ["check", "schema"])
def test_directory_without_sql(tmp_path: Path, command: str) -> None:
    d = tmp_path / "migrations"
    d.mkdir()
    (d / "README.md").write_text("no SQL here\n")
    (d / "V1__x.sql.bak").write_text("ALTER TABLE db.t ADD COLUMN x int;\n")
    assert_input_error(run([command, "migrations"], tmp_path), "migrations")


def test_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "empty_dir").mkdir()
    assert_input_error(run(["check", "empty_dir"], tmp_path), "empty_dir")


# --------------------------------------------------------------------------- metadata inputs


def _write(name: str, data: bytes) -> Callable[[Path], str]:
    def make(d: Path) -> str:
        (d / name).write_bytes(data)
        return name

    return make


def _truncated_gzip(d: Path) -> str:
    blob = gzip.compress(GOOD_META.read_bytes())
    (d / "db.sales.metadata.json.gz").write_bytes(blob[: len(blob) // 2])
    return "db.sales.metadata.json.gz"


def _meta_dir(d: Path) -> str:
    (d / "meta_dir").mkdir()
    return "meta_dir"


def _without(key: str) -> bytes:
    obj = json.loads(GOOD_META.read_text())
    del obj[key]
    return json.dumps(obj).encode()


def _bad_type() -> bytes:
    obj = json.loads(GOOD_META.read_text())
    obj["schemas"][0]["fields"][0]["type"] = "varchar(8)"
    return json.dumps(obj).encode()


def _dangling_current_schema() -> bytes:
    obj = json.loads(GOOD_META.read_text())
    obj["current-schema-id"] = 42
    return json.dumps(obj).encode()


METADATA_CASES = {
    "not_json": _write("broken.metadata.json", b'{"format-version": 2, "schemas": [\n'),
    "not_json_text": _write("notes.json", b"this is not json\n"),
    "empty": _write("empty.json", b""),
    "not_utf8": _write("binary.json", bytes(range(128, 256))),
    "json_array": _write("list.json", b"[1, 2, 3]\n"),
    "json_string": _write("string.json", b'"metadata"\n'),
    "not_iceberg": _write("package.json", b'{"name": "left-pad", "version": "1.3.0"}\n'),
    "format_version_9": _write("v9.json", json.dumps({**json.loads(GOOD_META.read_text()), "format-version": 9}).encode()),
    "format_version_string": _write("vstr.json", json.dumps({**json.loads(GOOD_META.read_text()), "format-version": "two"}).encode()),
    "missing_schemas": _write("noschemas.json", _without("schemas")),
    "missing_last_column_id": _write("nolast.json", _without("last-column-id")),
    "bad_field_type": _write("badtype.json", _bad_type()),
    "dangling_current_schema": _write("dangling.json", _dangling_current_schema()),
    "truncated_gzip": _truncated_gzip,
    "gzip_of_garbage": _write("garbage.metadata.json.gz", gzip.compress(b"\x00\x01 not json")),
    "missing_file": lambda d: "absent.metadata.json",
    "a_directory": _meta_dir,
}  # fmt: skip


@pytest.mark.parametrize("command", ["check", "schema"])
@pytest.mark.parametrize("case", sorted(METADATA_CASES))
def test_malformed_metadata(tmp_path: Path, case: str, command: str) -> None:
    (tmp_path / "m.sql").write_text(ONE_STATEMENT)
    name = METADATA_CASES[case](tmp_path)
    assert_input_error(run([command, "m.sql", "--metadata", f"db.sales={name}"], tmp_path), name)


@pytest.mark.parametrize("case", ["not_json", "format_version_9", "truncated_gzip"])
def test_malformed_metadata_without_table_name(tmp_path: Path, case: str) -> None:
    (tmp_path / "m.sql").write_text(ONE_STATEMENT)
    name = METADATA_CASES[case](tmp_path)
    assert_input_error(run(["check", "m.sql", "--metadata", name], tmp_path), name)


def test_good_gzip_metadata_is_read(tmp_path: Path) -> None:
    (tmp_path / "m.sql").write_text("ALTER TABLE db.sales DROP COLUMN region;\n")
    (tmp_path / "db.sales.metadata.json.gz").write_bytes(gzip.compress(GOOD_META.read_bytes()))
    r = run(["check", "m.sql", "--metadata", "db.sales.metadata.json.gz", "--select", "ICE003"], tmp_path)
    assert r.returncode == 1 and "ICE003 [error]" in r.stdout, r.stdout + r.stderr


def test_metadata_for_unknown_table_name_is_explained(tmp_path: Path) -> None:
    """An anonymous state that fits no table is used by nothing: the check runs, and -v says so."""
    (tmp_path / "m.sql").write_text("CREATE TABLE db.a (id bigint) USING iceberg;\n")
    (tmp_path / "state.json").write_bytes(GOOD_META.read_bytes())
    r = run(["check", "m.sql", "--metadata", "state.json", "-v"], tmp_path)
    assert r.returncode == 0, r.stderr
    assert "state.json" in r.stderr and "not used" in r.stderr
