"""`icelint check` on PySpark code: `.py` migration files and notebooks beside `.sql` ones, end to end
(fixtures/pyspark/: a migrations folder `V1__init.sql`, `V2__drop_payload.py`,
`V3__readd_payload.ipynb`, and a notebook of mixed cells `country_codes.ipynb`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.cli.test_commands import run

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures" / "pyspark"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(FIXTURES, tmp_path, dirs_exist_ok=True)
    return tmp_path


def findings_json(r) -> list[dict]:
    return [{k: f[k] for k in ("rule", "path", "line", "column", "end_line", "end_column")} for f in json.loads(r.stdout)["findings"]]


# --------------------------------------------------------------------------- a folder of .sql, .py and .ipynb


def test_drop_in_python_then_re_add_in_notebook_is_the_error(project: Path) -> None:
    (project / "migrations" / "helpers.py").write_text("def broken(:\n")  # not a V file: not a migration, not read
    r = run("check", "migrations/", "--no-cache", cwd=project)
    assert r.returncode == 1, r.stderr
    lines = r.stdout.splitlines()
    # the drop, in the triple-quoted literal of the .py file: line 10 of the file, column 21
    assert lines[0].startswith("migrations/V2__drop_payload.py:10:21: ICE011 [warning] `db.events`: dropping `payload`")
    assert "rows were written at migrations/V1__init.sql:2" in lines[0]
    # the re-add, in the notebook's %%sql cell (the third cell, markdown counted): line 4 of the cell
    readd = next(line for line in lines if " ICE001 " in line)
    assert readd.startswith("migrations/V3__readd_payload.ipynb:cell 3:4:14: ICE001 [error] `db.events`: this re-adds `payload`")
    assert "(dropped at migrations/V2__drop_payload.py:9)" in readd  # the drop's place, in the .py file
    assert "4 |   ADD COLUMN payload string" in r.stdout  # the cell's own line under the finding
    assert lines[-1] == "Checked 3 files, 5 statements: 1 error, 1 warning."


def test_the_order_is_the_migration_order_across_suffixes(project: Path) -> None:
    """V3's notebook re-adds what V2's Python drops: renamed so the notebook runs first, nothing is re-added."""
    m = project / "migrations"
    (m / "V3__readd_payload.ipynb").rename(m / "V2_1__readd_payload.ipynb")
    (m / "V2__drop_payload.py").rename(m / "V10__drop_payload.py")
    r = run("check", "migrations/", "--no-cache", "--format", "json", cwd=project)
    got = [(f["rule"], f["path"]) for f in json.loads(r.stdout)["findings"]]
    # V2_1 runs before V10 (versions compared as numbers, whatever the suffix): the re-add comes first
    # and Spark rejects it (the column is still there); the drop comes last, and nothing re-adds it;
    # the report lists them in that order too
    assert got == [("ICE005", "migrations/V2_1__readd_payload.ipynb:cell 3"), ("ICE011", "migrations/V10__drop_payload.py")]
    assert "[FIELDS_ALREADY_EXISTS]" in r.stdout


def test_json_positions(project: Path) -> None:
    r = run("check", "migrations/", "--no-cache", "--format", "json", cwd=project)
    assert r.returncode == 1, r.stderr
    assert findings_json(r) == [
        {"rule": "ICE011", "path": "migrations/V2__drop_payload.py", "line": 10, "column": 21, "end_line": 10, "end_column": 28},
        {"rule": "ICE001", "path": "migrations/V3__readd_payload.ipynb:cell 3", "line": 4, "column": 14, "end_line": 4, "end_column": 28},
    ]
    data = json.loads(r.stdout)
    assert data["summary"]["files"] == 3
    readd = data["findings"][1]
    assert readd["fix"]["applicability"] == "display-only"  # a notebook is never rewritten


def test_only_the_named_notebook_is_reported_with_the_folder_as_history(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.icelint]\nmigrations = "migrations"\n')
    r = run("check", "migrations/V3__readd_payload.ipynb", "--no-cache", "--format", "json", cwd=project)
    assert [(f["rule"], f["path"]) for f in json.loads(r.stdout)["findings"]] == [("ICE001", "migrations/V3__readd_payload.ipynb:cell 3")]


def test_the_other_formats_name_the_cell(project: Path) -> None:
    for fmt, needle in (("github", "file=migrations/V3__readd_payload.ipynb%3Acell 3,line=4"), ("json-lines", '"path": "migrations/V3__readd_payload.ipynb:cell 3"'),
                        ("sarif", "V3__readd_payload.ipynb%3Acell%203"), ("gitlab", '"path": "migrations/V3__readd_payload.ipynb:cell 3"'),
                        ("junit", "migrations/V3__readd_payload.ipynb:cell 3:4:14")):  # fmt: skip
        r = run("check", "migrations/", "--no-cache", "--format", fmt, cwd=project)
        assert needle in r.stdout.replace('":"', '": "'), (fmt, r.stdout[:2000])
    # JUnit: a test case per statement, a notebook's under the cell it is in
    r = run("check", "migrations/", "--no-cache", "--format", "junit", cwd=project)
    suites = [line.split('"')[1] for line in r.stdout.splitlines() if "<testsuite " in line]
    assert suites == ["migrations/V1__init.sql", "migrations/V2__drop_payload.py", "migrations/V3__readd_payload.ipynb:cell 3",
                      "migrations/V3__readd_payload.ipynb:cell 4"]  # fmt: skip
    assert '<testcase name="migrations/V3__readd_payload.ipynb:cell 4:1:12"' in r.stdout


# --------------------------------------------------------------------------- a notebook of mixed cells


def test_notebook_of_mixed_cells(project: Path) -> None:
    r = run("check", "country_codes.ipynb", "--no-cache", "--format", "json", "--var", "db=db", cwd=project)
    got = findings_json(r)
    nb = "country_codes.ipynb"
    assert got == [
        # the f-string's `{db}` placeholder, given `db`: `db.events_log` is not created anywhere
        {"rule": "ICE005", "path": f"{nb}:cell 5", "line": 9, "column": 25, "end_line": 9, "end_column": 40},
        # the %%sql cell: drop then re-add, each at its line in the cell
        {"rule": "ICE011", "path": f"{nb}:cell 6", "line": 2, "column": 35, "end_line": 2, "end_column": 42},
        {"rule": "ICE001", "path": f"{nb}:cell 6", "line": 3, "column": 34, "end_line": 3, "end_column": 48},
        # `spark.sql(query)`: named, not skipped silently
        {"rule": "ICE063", "path": f"{nb}:cell 9", "line": 2, "column": 11, "end_line": 2, "end_column": 16},
    ]
    # the raw cell and the %%bash cell hold `DROP TABLE` text: neither is SQL that runs
    assert "ICE0" in r.stdout and "DROP TABLE" not in r.stdout
    # without --var, the placeholder is named (and the statement it breaks is not a parse error)
    r = run("check", "country_codes.ipynb", "--no-cache", "--format", "json", cwd=project)
    found = json.loads(r.stdout)["findings"]
    assert [f["rule"] for f in found] == ["ICE060", "ICE011", "ICE001", "ICE063"]
    assert found[0]["message"].startswith("the f-string field `{db}` is filled in when the code runs")
    assert found[0]["help"].startswith("give it the value it has when the migration runs: `icelint check --var db=VALUE`")


# --------------------------------------------------------------------------- --fix


CREATE = 'spark.sql("CREATE TABLE db.logs (id bigint NOT NULL, logged_at timestamp) USING iceberg PARTITIONED BY (days(logged_at), bucket(4, id))")\n'


def test_fix_edits_the_literal(tmp_path: Path) -> None:
    code = CREATE + "\n\ndef drop_day(spark):\n    spark.sql('ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day')  # the daily field\n"
    f = tmp_path / "V2__logs.py"
    f.write_text(code)
    r = run("check", "V2__logs.py", "--no-cache", "--format", "json", cwd=tmp_path)
    (finding,) = json.loads(r.stdout)["findings"]
    assert (finding["rule"], finding["line"], finding["column"]) == ("ICE003", 5, 57)
    assert finding["fix"]["applicability"] == "safe"
    assert finding["fix"]["edits"] == [{"content": "logged_at_day", "location": {"row": 5, "column": 57}, "end_location": {"row": 5, "column": 70}}]
    r = run("check", "V2__logs.py", "--no-cache", "--fix", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f.read_text() == code.replace("Logged_At_Day", "logged_at_day")
    assert run("check", "V2__logs.py", "--no-cache", cwd=tmp_path).returncode == 0


@pytest.mark.parametrize(
    "call",
    [
        'spark.sql(f"ALTER TABLE {db}.logs DROP PARTITION FIELD Logged_At_Day")',  # an f-string
        'spark.sql("ALTER TABLE db.logs " "DROP PARTITION FIELD Logged_At_Day")',  # concatenated
        'spark.sql("ALTER TABLE db.logs " + "DROP PARTITION FIELD Logged_At_Day")',
        'spark.sql("ALTER TABLE db.logs DROP PARTITION FIELD Logged\\x5fAt_Day")',  # an escape in the edited range
    ],
)
def test_fix_outside_one_plain_literal_is_display_only(tmp_path: Path, call: str) -> None:
    f = tmp_path / "V2__logs.py"
    f.write_text(CREATE + call + "\n")
    r = run("check", "V2__logs.py", "--no-cache", "--format", "json", "--var", "db=db", cwd=tmp_path)
    (finding,) = json.loads(r.stdout)["findings"]
    assert finding["rule"] == "ICE003" and finding["fix"]["applicability"] == "display-only"
    before = f.read_bytes()
    r = run("check", "V2__logs.py", "--no-cache", "--fix", "--var", "db=db", cwd=tmp_path)
    assert r.returncode == 1 and f.read_bytes() == before
    assert "fix suggestion (display-only, never applied)" in run("check", "V2__logs.py", "--no-cache", "--var", "db=db", cwd=tmp_path).stdout


@pytest.mark.parametrize("call", ['spark.sql("SET spark.sql.caseSensitive=true")', 'spark.sql("""-- kept by mistake\nSET spark.sql.caseSensitive=true""")'])
def test_a_fix_that_would_empty_the_call_is_display_only(tmp_path: Path, call: str) -> None:
    """ICE008's unsafe fix deletes the SET: a call left with no statement (`spark.sql("")`, or only a
    comment) would fail, so it is shown, not applied."""
    f = tmp_path / "V2__x.py"
    f.write_text(CREATE + call + "\n")
    before = f.read_bytes()
    r = run("check", "V2__x.py", "--no-cache", "--format", "json", cwd=tmp_path)
    (finding,) = json.loads(r.stdout)["findings"]
    assert finding["rule"] == "ICE008" and finding["fix"]["applicability"] == "display-only"
    run("check", "V2__x.py", "--no-cache", "--fix", "--unsafe-fixes", cwd=tmp_path)
    assert f.read_bytes() == before


def test_suppression_inside_the_sql_string(tmp_path: Path) -> None:
    f = tmp_path / "V2__x.py"
    f.write_text(CREATE + 'spark.sql("""\n-- icelint: ignore ICE003 -- the field was renamed by hand\nALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day\n""")\n')
    r = run("check", "V2__x.py", "--no-cache", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout)["findings"] == [] and len(json.loads(r.stdout)["suppressed"]) == 1
    r = run("check", "V2__x.py", "--no-cache", "--add-suppressions", "x", cwd=tmp_path)
    assert r.returncode == 0  # nothing to add: no finding left


def test_add_suppressions_refuses_python(project: Path) -> None:
    before = {p: p.read_bytes() for p in (project / "migrations").iterdir()}
    r = run("check", "migrations/", "--no-cache", "--add-suppressions", "reviewed", cwd=project)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [
        "icelint: error: migrations/V2__drop_payload.py: --add-suppressions cannot write into a Python file or notebook; "
        "put `-- icelint: ignore ICE011 -- REASON` inside the SQL string before the statement"
    ]
    assert {p: p.read_bytes() for p in (project / "migrations").iterdir()} == before


# --------------------------------------------------------------------------- bad input, no SQL, configuration


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("bad.py", 'spark.sql("ALTER TABLE db.e ADD COLUMN x int"\n', "bad.py:1:10: Python syntax error: '(' was never closed"),
        ("bad.ipynb", '{"cells": 3}', "bad.ipynb: not a Jupyter notebook (no `cells` list; nbformat 4 expected)"),
        ("bad.ipynb", "{", "bad.ipynb: not a Jupyter notebook (invalid JSON: Expecting property name enclosed in double quotes: line 1 column 2 (char 1))"),
        ("cell.ipynb", json.dumps({"nbformat": 4, "cells": [{"cell_type": "markdown", "source": "x"}, {"cell_type": "code", "source": ["x = 1\n", "def (\n"]}]}),
         "cell.ipynb:cell 2:2:5: Python syntax error: invalid syntax"),
        ("latin1.py", b"x = '\xe9'\n", "latin1.py: not UTF-8 text (invalid byte at offset 5)"),
    ],
)
def test_bad_input_is_one_line_exit_2(tmp_path: Path, name: str, text, message: str) -> None:
    p = tmp_path / name
    p.write_bytes(text if isinstance(text, bytes) else text.encode())
    r = run("check", name, "--no-cache", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.strip().splitlines() == [f"icelint: error: {message}"]


def test_python_without_sql_gives_nothing(tmp_path: Path) -> None:
    (tmp_path / "util.py").write_text("import os\n\nprint(os.sep)\n")
    (tmp_path / "empty.py").write_text("")
    (tmp_path / "empty.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}))
    r = run("check", "util.py", "empty.py", "empty.ipynb", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "Checked 3 files, 0 statements: 0 errors, 0 warnings."


def test_sql_callables_setting(tmp_path: Path) -> None:
    code = CREATE.replace("spark.sql", "jobs.run_sql") + "jobs.run_sql('ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day')\n"
    (tmp_path / "V1__x.py").write_text(code)
    r = run("check", "V1__x.py", "--no-cache", cwd=tmp_path)
    assert r.returncode == 0 and "0 statements" in r.stdout  # not a SQL callable by default
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nsql-callables = ["jobs.run_sql"]\n')
    r = run("check", "V1__x.py", "--no-cache", "--format", "json", cwd=tmp_path)
    assert [(f["rule"], f["line"]) for f in json.loads(r.stdout)["findings"]] == [("ICE003", 2)]
    shown = json.loads(run("check", "--show-config", "--format", "json", cwd=tmp_path).stdout)
    assert shown["sql-callables"] == ["spark.sql", "session.sql", "self.spark.sql", "self.session.sql", "jobs.run_sql"]
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nsql-callables = ["jobs.run_sql()"]\n')
    r = run("check", "V1__x.py", "--no-cache", cwd=tmp_path)
    assert r.returncode == 2 and "`tool.icelint.sql-callables`: 'jobs.run_sql()' is not a dotted Python name" in r.stderr


def test_cache_sees_a_changed_python_file(tmp_path: Path) -> None:
    f = tmp_path / "V1__x.py"
    f.write_text(CREATE)
    assert run("check", "V1__x.py", cwd=tmp_path).returncode == 0
    f.write_text(CREATE + "spark.sql('ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day')\n")
    assert run("check", "V1__x.py", cwd=tmp_path).returncode == 1


def test_docs_literals_block_is_read_as_documented(tmp_path: Path) -> None:
    """docs/pyspark.md's block of literal kinds: six statements, each checked (no parse error, no ICE063)."""
    import re

    doc = (ROOT / "docs" / "pyspark.md").read_text(encoding="utf-8")
    block = next(b for b in re.findall(r"```python\n(.*?)```", doc, flags=re.S) if "# f-string" in b)
    create = 'spark.sql("CREATE TABLE db.events (id int, payload string, a int) USING iceberg")\nspark.sql("INSERT INTO db.events VALUES (1, \'x\', 2)")\n'
    (tmp_path / "V1__kinds.py").write_text(create + block)
    r = run("check", "V1__kinds.py", "--no-cache", "--format", "json", "--var", "db=db", cwd=tmp_path)
    data = json.loads(r.stdout)
    assert data["summary"]["statements"] == 8
    assert not [f for f in data["findings"] if f["rule"] in ("ICE006", "ICE060", "ICE063", "ICE005")], data["findings"]
    rules = {f["rule"] for f in data["findings"]}
    assert {"ICE011", "ICE012"} <= rules  # the DROP COLUMN and the RENAME of the concatenated literals are seen


def test_per_file_ignores_apply_to_ice063(tmp_path: Path) -> None:
    (tmp_path / "jobs").mkdir()
    (tmp_path / "jobs" / "dynamic_x.py").write_text("spark.sql(stmt)\n")
    r = run("check", "jobs/dynamic_x.py", "--no-cache", "--format", "json", cwd=tmp_path)
    assert [f["rule"] for f in json.loads(r.stdout)["findings"]] == ["ICE063"]
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nper-file-ignores = { "jobs/dynamic_*.py" = ["ICE063"] }\n')
    r = run("check", "jobs/dynamic_x.py", "--no-cache", "--format", "json", cwd=tmp_path)
    assert json.loads(r.stdout)["findings"] == []


def test_diff_stdin_and_crlf(tmp_path: Path) -> None:
    call = "spark.sql('ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day')\n"
    f = tmp_path / "V2__y.py"
    f.write_text(CREATE + call)
    r = run("check", "V2__y.py", "--no-cache", "--diff", cwd=tmp_path)
    assert r.returncode == 1 and f.read_text() == CREATE + call
    assert "-" + call in r.stdout and "+" + call.replace("Logged_At_Day", "logged_at_day") in r.stdout
    # standard input named as a .py file: the fixed Python is printed
    import subprocess
    import sys

    from tests.cli.test_commands import _env

    p = subprocess.run([sys.executable, "-m", "icelint", "check", "-", "--stdin-filename", "V2__y.py", "--fix", "--no-cache"],
                       input=CREATE + call, capture_output=True, text=True, cwd=tmp_path, env=_env(), timeout=120)  # fmt: skip
    assert p.returncode == 0 and p.stdout == CREATE + call.replace("Logged_At_Day", "logged_at_day")
    # CRLF line ends and a triple-quoted literal: the fix keeps them
    crlf = (CREATE + 'spark.sql("""\n  ALTER TABLE db.logs\n  DROP PARTITION FIELD Logged_At_Day""")\n').replace("\n", "\r\n")
    f.write_bytes(crlf.encode())
    r = run("check", "V2__y.py", "--no-cache", "--format", "json", cwd=tmp_path)
    assert [(x["rule"], x["line"], x["column"]) for x in json.loads(r.stdout)["findings"]] == [("ICE003", 4, 24)]
    assert run("check", "V2__y.py", "--no-cache", "--fix", cwd=tmp_path).returncode == 0
    assert f.read_bytes() == crlf.replace("Logged_At_Day", "logged_at_day").encode()


def test_fix_after_an_fstring_in_the_same_file(tmp_path: Path) -> None:
    """Placeholders substituted earlier in the file (values longer than their fields) do not move a later fix."""
    code = (CREATE + 'spark.sql(f"ALTER TABLE {schema}.logs ADD COLUMN host string")\n'
            "spark.sql('ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day')\n")  # fmt: skip
    f = tmp_path / "V2__logs.py"
    f.write_text(code)
    r = run("check", "V2__logs.py", "--no-cache", "--fix", "--var", "schema=db", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f.read_text() == code.replace("Logged_At_Day", "logged_at_day")
