"""`${name}` / `${hivevar:name}` placeholders: substituted from `--var` and `[tool.icelint.vars]`,
positions still in the original file, and ICE060 (not a parse error) for one without a value."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.engine.placeholders import FileMap, substitute
from icelint.values.source import SourceFile
from tests.cli.test_commands import put, run

SQL = (
    "CREATE TABLE ${schema}.events (id bigint, payload string) USING iceberg;\n"
    "INSERT INTO ${schema}.events VALUES (1, 'a');\n"
    "ALTER TABLE ${schema}.events DROP COLUMN payload; ALTER TABLE ${hivevar:schema}.events ADD COLUMN payload binary;\n"
    "ALTER TABLE ${schema}.events ADD COLUMN ${col} int;\n"
)
LINE3 = SQL.splitlines()[2]
LINE4 = SQL.splitlines()[3]


def findings(r) -> list[dict]:
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)["findings"]


@pytest.mark.parametrize("value", ["x", "a_much_longer_schema_name"])
def test_positions_point_into_the_original_file(tmp_path: Path, value: str) -> None:
    put(tmp_path, "m.sql", SQL)
    fs = {f["rule"]: f for f in findings(run("check", "m.sql", "--format", "json", "--var", f"schema={value}", "--var", "col=c", cwd=tmp_path))}
    assert set(fs) == {"ICE011", "ICE001"}
    # a placeholder before the finding on the same line
    drop, add = fs["ICE011"], fs["ICE001"]
    assert drop["line"] == 3 and LINE3[drop["column"] - 1 :].startswith("payload;")
    assert LINE3[drop["end_column"] - 2] == "d"  # the last character of `payload` (end_column is exclusive)
    assert add["line"] == 3 and LINE3[add["column"] - 1 :].startswith("payload binary")
    assert LINE3[add["end_column"] - 2] == "y"
    assert f"`{value}.events`" in add["message"], "messages show the SQL that runs"
    # the text report's snippet is the original line, the caret under the original columns
    text = run("check", "m.sql", "--var", f"schema={value}", "--var", "col=c", cwd=tmp_path).stdout
    assert f"3 | {LINE3}" in text
    caret = next(line for line in text.splitlines() if line.strip().startswith("|") and "^" in line)
    assert caret.index("^") - caret.index("|") - 2 == drop["column"] - 1


def test_later_line_and_config_vars(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", SQL + "ALTER TABLE db_x.events DROP COLUMN nothing;\n")
    (tmp_path / "pyproject.toml").write_text('[tool.icelint.vars]\nschema = "db_x"\ncol = "c"\n')
    fs = findings(run("check", "m.sql", "--format", "json", cwd=tmp_path))
    last = [f for f in fs if f["line"] == 5]
    assert [f["rule"] for f in last] == ["ICE005"] and last[0]["column"] == len("ALTER TABLE db_x.events DROP COLUMN ") + 1
    # the flag wins over the file
    fs = findings(run("check", "m.sql", "--format", "json", "--var", "schema=other", cwd=tmp_path))
    assert any("`other.events`" in f["message"] for f in fs)


def test_unresolved_is_ice060_not_a_parse_error(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", SQL)
    fs = findings(run("check", "m.sql", "--format", "json", "--var", "schema=db", cwd=tmp_path))
    assert [(f["rule"], f["line"]) for f in fs if f["rule"] in ("ICE060", "ICE006")] == [("ICE060", 4)]
    f = next(f for f in fs if f["rule"] == "ICE060")
    assert "`${col}`" in f["message"] and "--var col=VALUE" in f["help"]
    assert LINE4[f["column"] - 1 : f["end_column"] - 1] == "${col}"
    # without any value: every placeholder is named, the statements are not checked
    fs = findings(run("check", "m.sql", "--format", "json", cwd=tmp_path))
    assert {f["rule"] for f in fs} == {"ICE060"} and len(fs) == 6
    assert any("`${hivevar:schema}`" in f["message"] for f in fs)
    # suppressible and selectable like any rule
    assert findings(run("check", "m.sql", "--format", "json", "--ignore", "ICE060", cwd=tmp_path)) == []
    put(tmp_path, "s.sql", "-- icelint: ignore-file ICE060 -- templated in CI\n" + SQL)
    assert findings(run("check", "s.sql", "--format", "json", cwd=tmp_path)) == []


@pytest.mark.parametrize("arg, message", [
    ("noequals", "--var 'noequals': expected NAME=VALUE"),
    ("=x", "--var '=x': expected NAME=VALUE"),
])
def test_bad_var_is_one_line_exit_2(tmp_path: Path, arg: str, message: str) -> None:
    put(tmp_path, "m.sql", SQL)
    r = run("check", "m.sql", "--var", arg, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == "" and r.stderr.strip() == f"icelint: error: {message} (NAME: letters, digits, _ . : -)"


def test_multiline_value_in_config_is_exit_2(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", SQL)
    (tmp_path / "pyproject.toml").write_text('[tool.icelint.vars]\nschema = "a\\nb"\n')
    r = run("check", "m.sql", cwd=tmp_path)
    assert r.returncode == 2 and "`tool.icelint.vars`: the value of `schema` spans several lines" in r.stderr


def test_map_offsets() -> None:
    m = substitute(SourceFile("f", "a ${x} b ${y} c\n${x}d"), {"x": "LONGER", "y": ""})
    assert isinstance(m, FileMap)
    assert m.substituted.text == "a LONGER b  c\nLONGERd"
    assert m.position(1, 1) == (1, 1)
    assert m.position(1, 3) == (1, 3) and m.position(1, 5) == (1, 3)  # inside the value: the placeholder
    assert m.position(1, 8, end=True) == (1, 6)  # the value's last character: the placeholder's
    assert m.position(1, 10) == (1, 8)  # `b`
    assert m.position(1, 13) == (1, 15)  # `c`, after an empty value
    assert m.position(2, 7) == (2, 5)  # `d`, on a later line
    assert substitute(SourceFile("f", "no placeholders"), {}) is None
