"""`icelint check --diff / --fix / --unsafe-fixes` and the fix in every report (icelint/fixes/apply.py).

The two fixes used here are the first ones built end to end: ICE003 respells a partition field
that `DROP/REPLACE PARTITION FIELD` names in the wrong case (safe; Spark's verdict on both spellings:
tests/differential/cases/620_partition_field_name_case), and ICE008 removes a
`SET spark.sql.caseSensitive=true` (unsafe).
"""

from __future__ import annotations

import json
import os
import stat
from importlib import resources
from pathlib import Path

import pytest

from tests.cli.test_commands import run

CREATE = "CREATE TABLE db.logs (id bigint NOT NULL, Level string, logged_at timestamp) USING iceberg PARTITIONED BY (days(logged_at), bucket(4, id));\n"
MISSPELT = "ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;\n"  # ICE003, safe fix
FIXED = "ALTER TABLE db.logs DROP PARTITION FIELD logged_at_day;\n"
SET = "SET spark.sql.caseSensitive=true;\n"  # ICE008 warning, unsafe fix
OTHER = "ALTER TABLE db.logs ADD COLUMN host string;\n"
SQL = CREATE + "-- the daily partition goes\n" + MISSPELT + "\n-- session setting, kept by mistake\n" + SET + OTHER


def put(base: Path, name: str, text: str, newline: str = "\n", bom: bool = False) -> Path:
    p = base / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(("\ufeff" if bom else "").encode() + text.replace("\n", newline).encode("utf-8"))
    return p


def stamp(p: Path) -> tuple[bytes, int]:
    return p.read_bytes(), p.stat().st_mtime_ns


def old_mtime(*paths: Path) -> None:
    for p in paths:  # a second in the past, so that a rewrite shows even on a coarse clock
        os.utime(p, ns=(p.stat().st_atime_ns, p.stat().st_mtime_ns - 2_000_000_000))


# --------------------------------------------------------------------------- --diff


def test_diff_prints_the_safe_fixes_and_changes_nothing(tmp_path: Path) -> None:
    f = put(tmp_path, "V2__x.sql", SQL)
    old_mtime(f)
    before = stamp(f)
    r = run("check", "V2__x.sql", "--diff", "--no-cache", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert r.stdout.splitlines()[:2] == ["--- a/V2__x.sql", "+++ b/V2__x.sql"]
    assert "-" + MISSPELT in r.stdout and "+" + FIXED in r.stdout
    assert "SET spark" not in r.stdout.replace(" " + SET, "")  # the unsafe fix is not offered without --unsafe-fixes
    assert r.stderr.strip() == "Would fix 1 finding."
    assert stamp(f) == before
    r = run("check", "V2__x.sql", "--diff", "--unsafe-fixes", "--no-cache", cwd=tmp_path)
    assert r.returncode == 1 and "-" + SET in r.stdout and "Would fix 2 findings." in r.stderr
    assert stamp(f) == before


def test_diff_exits_0_when_nothing_is_fixable(tmp_path: Path) -> None:
    put(tmp_path, "V2__x.sql", CREATE + OTHER + SET)  # only an unsafe fix
    r = run("check", "V2__x.sql", "--diff", cwd=tmp_path)
    assert (r.returncode, r.stdout, r.stderr.strip()) == (0, "", "No fixes to apply.")


# --------------------------------------------------------------------------- --fix


def test_fix_applies_safe_fixes_reports_the_rest_and_is_idempotent(tmp_path: Path) -> None:
    f = put(tmp_path, "V2__x.sql", SQL)
    os.chmod(f, 0o640)
    old_mtime(f)
    r = run("check", "V2__x.sql", "--fix", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr  # what is left is a warning
    assert f.read_text(encoding="utf-8") == SQL.replace(MISSPELT, FIXED)
    assert stat.S_IMODE(f.stat().st_mode) == 0o640
    assert "ICE003" not in r.stdout and "V2__x.sql:6:1: ICE008" in r.stdout
    assert "0 errors, 1 warning (1 fixed, 1 remaining)." in r.stdout
    assert "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option)." in r.stdout
    assert not [p.name for p in tmp_path.iterdir() if "icelint-tmp" in p.name]
    old_mtime(f)
    before = stamp(f)
    r = run("check", "V2__x.sql", "--fix", cwd=tmp_path)
    assert "(0 fixed, 1 remaining)" in r.stdout
    assert stamp(f) == before  # a second --fix changes nothing, not even the mtime


def test_unsafe_fixes_remove_the_set_with_its_line_and_keep_the_comments(tmp_path: Path) -> None:
    f = put(tmp_path, "V2__x.sql", SQL)
    r = run("check", "V2__x.sql", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f.read_text(encoding="utf-8") == SQL.replace(MISSPELT, FIXED).replace(SET, "")
    assert "(2 fixed, 0 remaining)" in r.stdout


def test_crlf_and_bom_are_kept(tmp_path: Path) -> None:
    f = put(tmp_path, "V2__x.sql", SQL, newline="\r\n", bom=True)
    r = run("check", "V2__x.sql", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    data = f.read_bytes()
    assert data.startswith("\ufeff".encode())
    text = data[3:].decode("utf-8")
    assert text == SQL.replace(MISSPELT, FIXED).replace(SET, "").replace("\n", "\r\n")
    assert text.count("\n") == text.count("\r\n")


def test_files_without_applicable_fixes_and_context_files_are_untouched(tmp_path: Path) -> None:
    put(tmp_path, "pyproject.toml", '[tool.icelint]\nmigrations = "migrations"\n')
    v1 = put(tmp_path, "migrations/V1__create.sql", CREATE + SET.replace("true", "false"))
    v2 = put(tmp_path, "migrations/V2__clean.sql", OTHER + SET)  # only an unsafe fix
    v3 = put(tmp_path, "migrations/V3__drop.sql", MISSPELT)
    old_mtime(v1, v2, v3)
    before = stamp(v1), stamp(v2)
    r = run("check", "migrations/V2__clean.sql", "migrations/V3__drop.sql", "--fix", cwd=tmp_path)
    assert "(1 fixed, 1 remaining)" in r.stdout, r.stdout + r.stderr
    assert (stamp(v1), stamp(v2)) == before
    assert v3.read_text(encoding="utf-8") == FIXED


def test_fix_on_stdin_prints_the_fixed_sql(tmp_path: Path) -> None:
    import subprocess
    import sys

    from tests.cli.test_commands import _env

    p = subprocess.run([sys.executable, "-m", "icelint", "check", "-", "--fix"], input=CREATE + MISSPELT, cwd=tmp_path,
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.stdout == CREATE + FIXED and p.returncode == 0
    assert "(1 fixed, 0 remaining)" in p.stderr
    p = subprocess.run([sys.executable, "-m", "icelint", "check", "-", "--diff"], input=CREATE + MISSPELT, cwd=tmp_path,
                       capture_output=True, text=True, env=_env(), timeout=120)
    assert p.returncode == 1 and "+" + FIXED in p.stdout and p.stdout.startswith("--- a/-\n")



# --------------------------------------------------------------------------- configuration


def test_configuration_keys_and_the_flags_that_win(tmp_path: Path) -> None:
    f = put(tmp_path, "V2__x.sql", SQL)
    put(tmp_path, "pyproject.toml", "[tool.icelint]\nfix = true\n")
    old_mtime(f)
    before = stamp(f)
    r = run("check", "V2__x.sql", "--no-fix", cwd=tmp_path)
    assert stamp(f) == before and "[*] 1 fixable with the `--fix` option" in r.stdout
    r = run("check", "V2__x.sql", "--show-config", cwd=tmp_path)
    assert "fix = true" in r.stdout and "unsafe-fixes = false" in r.stdout
    run("check", "V2__x.sql", cwd=tmp_path)
    assert f.read_text(encoding="utf-8") == SQL.replace(MISSPELT, FIXED)
    put(tmp_path, "pyproject.toml", "[tool.icelint]\nfix = true\nunsafe-fixes = true\n")
    r = run("check", "V2__x.sql", "--no-unsafe-fixes", cwd=tmp_path)
    assert SET in f.read_text(encoding="utf-8")
    run("check", "V2__x.sql", cwd=tmp_path)
    assert f.read_text(encoding="utf-8") == SQL.replace(MISSPELT, FIXED).replace(SET, "")
    put(tmp_path, "pyproject.toml", '[tool.icelint]\nfix = "yes"\n')
    r = run("check", "V2__x.sql", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "`tool.icelint.fix` must be a boolean" in r.stderr


def test_the_cache_never_serves_a_report_for_diff_or_fix(tmp_path: Path) -> None:
    f = put(tmp_path, "V2__x.sql", SQL)
    first = run("check", "V2__x.sql", cwd=tmp_path, ICELINT_NO_CACHE="0")
    assert first.returncode == 1 and (tmp_path / ".icelint_cache").is_dir()
    r = run("check", "V2__x.sql", "--diff", cwd=tmp_path, ICELINT_NO_CACHE="0")
    assert r.stdout.startswith("--- a/V2__x.sql")
    r = run("check", "V2__x.sql", "--unsafe-fixes", cwd=tmp_path, ICELINT_NO_CACHE="0")
    assert "fix available (unsafe): remove the SET" in r.stdout
    run("check", "V2__x.sql", "--fix", cwd=tmp_path, ICELINT_NO_CACHE="0")
    assert FIXED in f.read_text(encoding="utf-8")
    assert run("check", "V2__x.sql", cwd=tmp_path, ICELINT_NO_CACHE="0").returncode == 0


def test_add_suppressions_and_fix_are_refused_together(tmp_path: Path) -> None:
    put(tmp_path, "V2__x.sql", SQL)
    r = run("check", "V2__x.sql", "--fix", "--add-suppressions", "old", cwd=tmp_path)
    assert r.returncode == 2 and r.stderr.startswith("icelint: error: --add-suppressions cannot be combined with --fix")


# --------------------------------------------------------------------------- reports


def test_text_report_shows_each_fix_under_its_help(tmp_path: Path) -> None:
    put(tmp_path, "V2__x.sql", SQL)
    out = run("check", "V2__x.sql", "--color", "never", cwd=tmp_path).stdout
    assert (
        "  = fix available: name the partition field exactly: `logged_at_day`\n"
        "    3 - ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;\n"
        "      + ALTER TABLE db.logs DROP PARTITION FIELD logged_at_day;\n"
    ) in out
    assert "  = fix available (unsafe, use --unsafe-fixes): remove the SET\n    6 - SET spark.sql.caseSensitive=true;\n" in out
    assert out.endswith(
        "[*] 1 fixable with the `--fix` option (1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    assert "fix available" not in run("check", "V2__x.sql", "-q", cwd=tmp_path).stdout


def test_json_reports_carry_the_fix_and_validate(tmp_path: Path) -> None:
    import jsonschema

    schema = json.loads(resources.files("icelint").joinpath("schemas", "check-report.json").read_text(encoding="utf-8"))
    put(tmp_path, "V2__x.sql", SQL + "ALTER TABLE db.logs DROP COLUMN nope;\n")
    report = json.loads(run("check", "V2__x.sql", "--format", "json", cwd=tmp_path).stdout)
    jsonschema.validate(report, schema, cls=jsonschema.Draft202012Validator)
    by_rule = {f["rule"] + ":" + str(f["line"]): f["fix"] for f in report["findings"]}
    assert by_rule["ICE003:3"] == {
        "applicability": "safe",
        "message": "name the partition field exactly: `logged_at_day`",
        "edits": [{"content": "logged_at_day", "location": {"row": 3, "column": 42}, "end_location": {"row": 3, "column": 55}}],
    }
    assert by_rule["ICE008:6"]["applicability"] == "unsafe"
    assert by_rule["ICE008:6"]["edits"] == [{"content": "", "location": {"row": 6, "column": 1}, "end_location": {"row": 7, "column": 1}}]
    assert None in by_rule.values()  # the finding without a fix says so: "fix": null
    broken = json.loads(json.dumps(report))
    broken["findings"][0]["fix"] = {"applicability": "maybe", "message": "x", "edits": []}
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema, cls=jsonschema.Draft202012Validator)
    lines = run("check", "V2__x.sql", "--format", "json-lines", cwd=tmp_path).stdout.splitlines()
    assert [json.loads(x)["fix"] for x in lines] == [f["fix"] for f in report["findings"]]


def test_sarif_carries_safe_and_unsafe_fixes(tmp_path: Path) -> None:
    put(tmp_path, "V2__x.sql", SQL)
    doc = json.loads(run("check", "V2__x.sql", "--format", "sarif", cwd=tmp_path).stdout)
    fixes = {r["ruleId"]: r.get("fixes") for r in doc["runs"][0]["results"]}
    assert fixes["ICE003"] == [{
        "description": {"text": "name the partition field exactly: `logged_at_day` (safe fix)"},
        "artifactChanges": [{
            "artifactLocation": {"uri": "V2__x.sql", "uriBaseId": "%SRCROOT%"},
            "replacements": [{"deletedRegion": {"startLine": 3, "startColumn": 42, "endLine": 3, "endColumn": 55},
                              "insertedContent": {"text": "logged_at_day"}}],
        }],
    }]
    assert fixes["ICE008"][0]["description"]["text"] == "remove the SET (unsafe fix)"


# --------------------------------------------------------------------------- the module, in-process


def test_adapt_writes_crlf_and_takes_a_deleted_statements_terminator() -> None:
    from icelint.values.findings import Finding, Severity
    from icelint.values.fix import Applicability, Edit, Fix
    from icelint.fixes.apply import adapt

    text = "A;\r\nSET x=true ; -- why\r\nB;\r\n"
    start = text.index("SET")
    end = start + len("SET x=true")
    insert = Fix(Applicability.SAFE, "two lines", (Edit.at(text, 0, 1, "C;\nD"),))
    delete = Fix(Applicability.UNSAFE, "drop", (Edit.at(text, start, end, ""),))
    f = Finding("ICE008", "x", Severity.WARNING, "a.sql", 1, 1, 1, 1, "m")
    a, d, gone = adapt([f.__class__(**{**f.__dict__, "fix": insert}), f.__class__(**{**f.__dict__, "fix": delete}),
                        f.__class__(**{**f.__dict__, "fix": insert, "path": "b.sql"})], {"a.sql": text, "b.sql": text}, {"b.sql"})
    assert a.fix.edits[0].content == "C;\r\nD"
    e = d.fix.edits[0]
    assert text[e.start : e.end] == "SET x=true ; " and (e.row, e.column, e.end_row, e.end_column) == (2, 1, 2, 14)
    assert gone.fix is None  # placeholders substituted in b.sql: offsets would not be the file's


def test_iterate_reaches_overlapping_fixes_on_a_later_pass() -> None:
    from types import SimpleNamespace

    from icelint.values.findings import Finding, Severity
    from icelint.values.fix import Applicability, Edit, Fix
    from icelint.fixes.apply import iterate
    from icelint.values.source import SourceFile

    def check(texts):
        text = (texts or {}).get("a.sql", "aaaa")
        found = []
        for i, ch in enumerate(text):
            if ch == "a":  # each finding's fix rewrites its `a` and the character after it: neighbours overlap
                fix = Fix(Applicability.SAFE, "b", (Edit.at(text, i, min(i + 2, len(text)), "b" + text[i + 1 : i + 2]),))
                found.append(Finding("ICE001", "x", Severity.ERROR, "a.sql", 1, i + 1, 1, i + 1, "m", fix=fix))
        return SimpleNamespace(sources=[SourceFile("a.sql", text)], findings=found)

    res = iterate(check, unsafe=False)
    assert res.texts == {"a.sql": "bbbb"} and res.originals == {"a.sql": "aaaa"} and res.fixed == 4
    assert res.report.findings == [] and res.converged


@pytest.mark.parametrize("text, deleted, kept", [
    ("A;\nSET x=true;\nB;\n", "SET x=true", "A;\nB;\n"),  # a statement on its own line: the line goes
    ("A; SET x=true; B;\n", "SET x=true", "A; B;\n"),  # sharing its line: the statement and its `;`
    ("A; -- a\n\n-- why\nSET x=true;", "SET x=true", "A; -- a\n\n-- why\n"),  # after comments, at the end
    ("ALTER TABLE t ADD COLUMN c int NOT NULL;\n", " NOT NULL", "ALTER TABLE t ADD COLUMN c int;\n"),  # inside one
    ("ALTER TABLE t ADD COLUMN c int\n  NOT NULL;\n", "  NOT NULL", "ALTER TABLE t ADD COLUMN c int\n;\n"),
])
def test_a_deletion_takes_the_terminator_only_of_a_whole_statement(text: str, deleted: str, kept: str) -> None:
    from icelint.values.findings import Finding, Severity
    from icelint.values.fix import Applicability, Edit, Fix, apply_fixes
    from icelint.fixes.apply import adapt

    start = text.index(deleted)
    fix = Fix(Applicability.UNSAFE, "drop", (Edit.at(text, start, start + len(deleted), ""),))
    (f,) = adapt([Finding("ICE008", "x", Severity.WARNING, "a.sql", 1, 1, 1, 1, "m", fix=fix)], {"a.sql": text})
    assert apply_fixes(text, [f.fix])[0] == kept


def test_fixes_on_one_table_are_applied_one_per_pass(tmp_path: Path) -> None:
    """Both fixes below are computed against the unfixed replay. Applied together, the REPLACE COLUMNS fix
    (written when `id` had not been renamed) would rename `id` a second time; one fix per table per pass
    lets the second pass compute it against the renamed column."""
    f = put(
        tmp_path,
        "V3__ev.sql",
        "CREATE TABLE db.ev (id bigint, name string) USING iceberg;\n"
        "ALTER TABLE db.ev CHANGE COLUMN id event_id bigint;\n"
        "ALTER TABLE db.ev REPLACE COLUMNS (event_id bigint, name string, extra int);\n",
    )
    r = run("check", "V3__ev.sql", "--fix", "--unsafe-fixes", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f.read_text() == (
        "CREATE TABLE db.ev (id bigint, name string) USING iceberg;\n"
        "ALTER TABLE db.ev RENAME COLUMN id TO event_id;\n"
        "ALTER TABLE db.ev ADD COLUMN extra int;\n"
    )
    assert "2 fixed" in r.stdout
