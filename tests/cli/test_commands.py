"""`icelint check` / `icelint schema` as whole processes: exit codes, options, the JSON contract,
ordering, determinism and the text report (snapshots in tests/snapshots/*.txt).

Snapshots are plain text. A mismatch fails with a diff; `ICELINT_UPDATE_SNAPSHOTS=1 pytest
tests/cli/test_commands.py` rewrites them (review the diff before committing).
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
RULES = ROOT / "fixtures" / "rules"
REPLAY = ROOT / "fixtures" / "replay"
SNAPSHOTS = Path(__file__).resolve().parents[1] / "snapshots"

# --------------------------------------------------------------------------- helpers


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("GITHUB_ACTIONS", "FORCE_COLOR", "ICELINT_DEBUG", "CLICOLOR_FORCE")}
    env.update(extra)
    return env


def run(*args: str, cwd: Path, **env: str) -> subprocess.CompletedProcess:
    """icelint in its own process, in `cwd` (a temporary folder: no project config is picked up)."""
    return subprocess.run(
        [sys.executable, "-m", "icelint", *args], cwd=cwd, capture_output=True, text=True, env=_env(**env), timeout=120
    )


def assert_snapshot(name: str, text: str) -> None:
    path = SNAPSHOTS / f"{name}.txt"
    if os.environ.get("ICELINT_UPDATE_SNAPSHOTS") == "1":
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    if not path.exists():
        pytest.fail(f"no snapshot {path.relative_to(ROOT)}; create it with ICELINT_UPDATE_SNAPSHOTS=1", pytrace=False)
    want = path.read_text(encoding="utf-8")
    if text != want:
        diff = "".join(difflib.unified_diff(want.splitlines(True), text.splitlines(True), "snapshot", "actual"))
        pytest.fail(f"text output differs from {path.relative_to(ROOT)} (ICELINT_UPDATE_SNAPSHOTS=1 rewrites it):\n{diff}", pytrace=False)


def put(dst: Path, name: str, sql: str) -> Path:
    p = dst / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(sql, encoding="utf-8")
    return p


def on_pty(args: list[str], cwd: Path, **env: str) -> tuple[int, str]:
    import pty

    master, slave = pty.openpty()
    p = subprocess.Popen([sys.executable, "-m", "icelint", *args], cwd=cwd, stdout=slave, stderr=slave,
                         env=_env(TERM="xterm-256color", **env))
    os.close(slave)
    chunks = []
    while True:
        try:
            data = os.read(master, 65536)
        except OSError:
            break
        if not data:
            break
        chunks.append(data)
    p.wait(timeout=60)
    os.close(master)
    return p.returncode, b"".join(chunks).decode("utf-8", "replace")


CLEAN = "CREATE TABLE db.t (id bigint NOT NULL, name string) USING iceberg;\nALTER TABLE db.t ADD COLUMN email string;\n"
ERROR = (
    "CREATE TABLE db.events (id bigint NOT NULL, payload string) USING iceberg;\n"
    "INSERT INTO db.events VALUES (1, 'a');\n"
    "ALTER TABLE db.events DROP COLUMN payload;\n"
    "ALTER TABLE db.events ADD COLUMN payload binary;\n"
)  # ICE011 warning (line 3) + ICE001 error (line 4)
WARNING_ONLY = (
    "CREATE TABLE db.events (id bigint NOT NULL, payload string) USING iceberg;\n"
    "INSERT INTO db.events VALUES (1, 'a');\n"
    "ALTER TABLE db.events DROP COLUMN payload;\n"
)
INFO_ONLY = (  # ICE026: widening a bucket source keeps every partition value
    "CREATE TABLE db.users (id int NOT NULL, mail string) USING iceberg PARTITIONED BY (bucket(4, id));\n"
    "ALTER TABLE db.users ALTER COLUMN id TYPE bigint;\n"
)


@pytest.fixture
def work(tmp_path: Path) -> Path:
    return tmp_path


# --------------------------------------------------------------------------- exit codes


def test_exit_0_when_clean(work: Path) -> None:
    put(work, "m.sql", CLEAN)
    r = run("check", "m.sql", cwd=work)
    assert r.returncode == 0, r.stdout + r.stderr
    assert r.stderr == ""
    assert r.stdout.strip().splitlines()[-1] == "Checked 1 file, 2 statements: 0 errors, 0 warnings."


def test_exit_1_on_error(work: Path) -> None:
    put(work, "m.sql", ERROR)
    r = run("check", "m.sql", cwd=work)
    assert r.returncode == 1
    assert "m.sql:4:34: ICE001 [error]" in r.stdout


def test_exit_2_on_usage_and_input_errors(work: Path) -> None:
    put(work, "m.sql", CLEAN)
    for args in (("check", "missing.sql"), ("check",), ("check", "m.sql", "--format", "xml"),
                 ("check", "m.sql", "--fail-on", "fatal"), ("nonsense",)):  # fmt: skip
        r = run(*args, cwd=work)
        assert r.returncode == 2, (args, r.stdout, r.stderr)
        assert "Traceback" not in r.stderr


def test_fail_on_warning(work: Path) -> None:
    put(work, "m.sql", WARNING_ONLY)
    assert run("check", "m.sql", cwd=work).returncode == 0
    assert run("check", "m.sql", "--fail-on", "error", cwd=work).returncode == 0
    r = run("check", "m.sql", "--fail-on", "warning", cwd=work)
    assert r.returncode == 1 and "ICE011 [warning]" in r.stdout


def test_fail_on_info(work: Path) -> None:
    put(work, "m.sql", INFO_ONLY)
    assert run("check", "m.sql", "--fail-on", "warning", cwd=work).returncode == 0
    assert run("check", "m.sql", "--fail-on", "info", cwd=work).returncode == 1


# --------------------------------------------------------------------------- options


def test_quiet_prints_only_finding_lines_and_summary(work: Path) -> None:
    put(work, "m.sql", ERROR)
    full = run("check", "m.sql", cwd=work)
    quiet = run("check", "m.sql", "--quiet", cwd=work)
    assert quiet.returncode == full.returncode == 1
    lines = [ln for ln in quiet.stdout.splitlines() if ln.strip()]
    assert lines[-1].startswith("No fixes available (1 hidden fix")  # ruff's fix hint follows the summary
    lines.pop()
    assert lines[-1].startswith("Checked 1 file, 4 statements:")
    heads = [ln for ln in full.stdout.splitlines() if ln.startswith("m.sql:")]
    assert lines[:-1] == heads and len(heads) == 2
    assert "help:" not in quiet.stdout and " | " not in quiet.stdout
    assert run("check", "m.sql", "-q", cwd=work).stdout == quiet.stdout


def codes(r: subprocess.CompletedProcess) -> list[str]:
    return [f["rule"] for f in json.loads(r.stdout)["findings"]]


@pytest.mark.parametrize(
    "args, expected",
    [
        ((), ["ICE011", "ICE001"]),
        (("--select", "ICE001"), ["ICE001"]),
        (("--select", "drop-then-add"), ["ICE001"]),
        (("--select", "ice001"), ["ICE001"]),
        (("--select", "ICE001,drop-column-with-data"), ["ICE011", "ICE001"]),
        (("--select", "ICE001", "--select", "ICE011"), ["ICE011", "ICE001"]),
        (("--ignore", "ICE001"), ["ICE011"]),
        (("--ignore", "drop-then-add"), ["ICE011"]),
        (("--ignore", "ICE001,ICE011"), []),
        (("--select", "ICE001,ICE011", "--ignore", "drop-column-with-data"), ["ICE001"]),
        (("--select", "ICE002"), []),
    ],
)
def test_select_and_ignore(work: Path, args: tuple, expected: list[str]) -> None:
    put(work, "m.sql", ERROR)
    r = run("check", "m.sql", "--format", "json", *args, cwd=work)
    assert codes(r) == expected
    assert r.returncode == (1 if "ICE001" in expected else 0)


@pytest.mark.parametrize("flag", ["--select", "--ignore"])
def test_unknown_rule_is_exit_2(work: Path, flag: str) -> None:
    put(work, "m.sql", CLEAN)
    for value in ("ICE999", "no-such-rule", "ICE001,bogus"):
        r = run("check", "m.sql", flag, value, cwd=work)
        assert r.returncode == 2, (flag, value)
        assert "unknown rule" in r.stderr and "Traceback" not in r.stderr
        assert r.stdout == ""


# --------------------------------------------------------------------------- the JSON contract

FINDING_TYPES = {
    "rule": str, "name": str, "severity": str, "path": str, "line": int, "column": int, "end_line": int,
    "end_column": int, "table": (str, type(None)), "column_path": (str, type(None)), "field_id": (int, type(None)),
    "message": str, "help": (str, type(None)), "fix": (dict, type(None)), "impact": (dict, type(None)),
}  # fmt: skip


def test_json_is_one_object_with_the_documented_schema(work: Path) -> None:
    shutil.copytree(RULES / "ICE001" / "across_files", work / "migrations")
    put(work, "migrations/V11__more.sql", ERROR.replace("db.events", "db.other"))
    r = run("check", "migrations", "--format", "json", cwd=work)
    assert r.returncode == 1 and r.stderr == ""
    obj, end = json.JSONDecoder().raw_decode(r.stdout)
    assert r.stdout[end:].strip() == "", "exactly one JSON value on stdout"
    assert isinstance(obj, dict)
    assert {"version", "findings", "summary"} <= set(obj) <= {"version", "findings", "summary", "suppressed"}
    assert obj["version"] == 2
    assert obj["findings"], "this input has findings"
    for f in obj["findings"]:
        assert set(f) == set(FINDING_TYPES), set(f) ^ set(FINDING_TYPES)
        for key, types in FINDING_TYPES.items():
            assert isinstance(f[key], types) and not isinstance(f[key], bool), (key, f[key])
        assert f["severity"] in ("error", "warning", "info")
        assert f["rule"].startswith("ICE") and len(f["rule"]) == 6
        assert 1 <= f["line"] <= f["end_line"] and f["column"] >= 1 and f["end_column"] >= 1
        if f["line"] == f["end_line"]:
            assert f["column"] < f["end_column"]  # end_column is exclusive (contract version 2)
    s = obj["summary"]
    assert {"files", "statements", "errors", "warnings"} <= set(s)
    assert all(isinstance(v, int) for v in s.values())
    assert s["files"] == 4 and s["statements"] == 8
    assert s["errors"] == sum(f["severity"] == "error" for f in obj["findings"])
    assert s["warnings"] == sum(f["severity"] == "warning" for f in obj["findings"])


def test_json_drop_then_add_finding(work: Path) -> None:
    put(work, "m.sql", ERROR)
    (f,) = [f for f in json.loads(run("check", "m.sql", "--format", "json", cwd=work).stdout)["findings"] if f["rule"] == "ICE001"]
    assert f == {
        **f,
        "rule": "ICE001", "name": "drop-then-add", "severity": "error", "path": "m.sql", "line": 4, "column": 34,
        "end_line": 4, "end_column": 48, "table": "db.events", "column_path": "payload", "field_id": 3,
    }  # fmt: skip
    line = ERROR.splitlines()[3]
    assert line[f["column"] - 1 : f["end_column"] - 1] == "payload binary"  # exclusive end, as in SARIF
    assert "field id 2" in f["message"] and "field id 3" in f["message"]


def test_json_without_findings(work: Path) -> None:
    put(work, "m.sql", CLEAN)
    r = run("check", "m.sql", "--format", "json", cwd=work)
    obj = json.loads(r.stdout)
    assert r.returncode == 0 and obj["findings"] == [] and obj["summary"]["statements"] == 2


def test_findings_sorted_by_path_line_column(work: Path) -> None:
    put(work, "b.sql", ERROR.replace("db.events", "db.b"))
    put(work, "a.sql", ERROR.replace("db.events", "db.a") + "ALTER TABLE db.a RENAME COLUMN id TO key;\n")
    put(work, "sub/c.sql", "ALTER TABLE db.c ADD COLUMN x int;\nALTER TABLE db.b ALTER COLUMN id TYPE int;\n")
    r = run("check", "b.sql", "sub", "a.sql", "--format", "json", cwd=work)
    found = json.loads(r.stdout)["findings"]
    keys = [(f["path"], f["line"], f["column"]) for f in found]
    assert keys == sorted(keys)
    assert {f["path"] for f in found} == {"a.sql", "b.sql", "sub/c.sql"}
    text = run("check", "b.sql", "sub", "a.sql", cwd=work).stdout
    heads = [ln.split(": ICE")[0] for ln in text.splitlines() if ": ICE" in ln and not ln.startswith(" ")]
    assert heads == [f"{p}:{ln}:{c}" for p, ln, c in keys]


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_same_input_same_bytes(work: Path, fmt: str) -> None:
    shutil.copytree(RULES / "ICE003", work / "ice003")
    shutil.copytree(RULES / "ICE005", work / "ice005")
    for p in list(work.rglob("*.sql")):  # the metadata headers are resolved by the case runner, not the CLI
        if "-- metadata:" in p.read_text():
            p.unlink()
    outs = {run("check", "ice005", "ice003", "--format", fmt, cwd=work, PYTHONHASHSEED=seed).stdout for seed in ("0", "1", "12345")}
    assert len(outs) == 1, "output depends on the run (hash seed)"
    assert next(iter(outs)).count("ICE0") > 20


# --------------------------------------------------------------------------- the text report


def test_text_has_no_colour_when_piped(work: Path) -> None:
    put(work, "m.sql", ERROR)
    r = run("check", "m.sql", cwd=work)
    assert "\x1b[" not in r.stdout and "\x1b[" not in r.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_text_has_colour_on_a_terminal(work: Path) -> None:
    put(work, "m.sql", ERROR)
    code, out = on_pty(["check", "m.sql"], work)
    assert code == 1
    assert "\x1b[" in out and "ICE001" in out


SNAPSHOT_CASES = {
    # name: (files copied into the work folder, extra args)
    "drop_then_add": (["rules/ICE001/same_file.sql"], []),
    "across_files": (["rules/ICE001/across_files"], []),
    "partition_history": (["rules/ICE003/drop_old_identity_source_history.sql"],
                          ["--metadata", "{REPLAY}/37_setup_old_partition_spec/before/db.sales.metadata.json"]),
    "runtime_failures": (["rules/ICE005/drop_sort_column.sql", "rules/ICE005/move_across_structs.sql",
                          "rules/ICE006/garbage_then_more.sql"], []),
    "replace_columns_quiet": (["rules/ICE001/replace_columns.sql"], ["--quiet"]),
    "story_trap": (["story/trap"], ["--metadata", "{REPLAY}/36_realistic_events_repartition/expected/db.events.metadata.json"]),
    "story_rename_aside": (["story/rename_aside"],
                           ["--metadata", "{REPLAY}/36_realistic_events_repartition/expected/db.events.metadata.json"]),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SNAPSHOT_CASES))
def test_text_snapshot(work: Path, name: str) -> None:
    sources, extra = SNAPSHOT_CASES[name]
    args = []
    for rel in sources:
        src = ROOT / "fixtures" / rel
        dst = work / Path(rel).name
        if src.is_dir():
            shutil.copytree(src, dst)
        else:
            shutil.copy(src, dst)
        args.append(dst.name)
    extra = [a.replace("{REPLAY}", str(REPLAY)) for a in extra]
    r = run("check", *args, *extra, cwd=work)
    assert r.returncode in (0, 1) and r.stderr == "", r.stderr
    assert_snapshot(f"check_{name}", r.stdout)


def test_text_block_shape(work: Path) -> None:
    """path:line:col: CODE [severity] message, the source line, the span marked, a help line."""
    put(work, "m.sql", ERROR)
    lines = run("check", "m.sql", "--select", "ICE001", cwd=work).stdout.splitlines()
    assert lines[0].startswith("m.sql:4:34: ICE001 [error] `db.events`: ")
    assert lines[2] == "4 | ALTER TABLE db.events ADD COLUMN payload binary;"
    assert lines[3] == "  | " + " " * 33 + "^" * 14
    assert lines[4].startswith("  = help: ") and "RENAME COLUMN payload TO payload_old" in lines[4]
    assert lines[-2:] == [
        "Checked 1 file, 4 statements: 1 error, 0 warnings.",
        "No fixes available (1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]


# --------------------------------------------------------------------------- icelint schema


def test_schema_json_parses_with_pyiceberg(work: Path) -> None:
    from pyiceberg.partitioning import PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.table.sorting import SortOrder

    case = REPLAY / "36_realistic_events_repartition"
    r = run("schema", str(case / "migration.sql"), "--format", "json", cwd=work)
    assert r.returncode == 0, r.stderr
    meta = json.loads(r.stdout)
    assert meta["schemas"] and meta["partition-specs"]
    for s in meta["schemas"]:
        schema = Schema.model_validate(s)
        assert schema.schema_id == s["schema-id"]
        assert schema.highest_field_id <= meta["last-column-id"]
    for spec in meta["partition-specs"]:
        ps = PartitionSpec.model_validate(spec)
        assert all(f.field_id <= meta["last-partition-id"] for f in ps.fields)
    for order in meta["sort-orders"]:
        SortOrder.model_validate(order)
    current = next(Schema.model_validate(s) for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    assert current.find_field("context.geo.city").field_id == 12


def test_schema_json_with_identifier_fields_parses_with_pyiceberg(work: Path) -> None:
    from pyiceberg.schema import Schema

    case = REPLAY / "41_setup_identifier_evolution"
    r = run("schema", str(case / "migration.sql"), "--metadata", str(case / "before" / "db.accounts.metadata.json"),
            "--format", "json", cwd=work)  # fmt: skip
    meta = json.loads(r.stdout)
    current = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    assert Schema.model_validate(current).identifier_field_ids == [1]


COMPARED = ("format-version", "schemas", "current-schema-id", "last-column-id", "partition-specs", "default-spec-id",
            "last-partition-id", "sort-orders", "default-sort-order-id")  # fmt: skip


@pytest.mark.parametrize("case", ["35_realistic_orders_migration", "37_setup_old_partition_spec", "42_setup_multi_table"])
def test_schema_json_equals_spark_state(work: Path, case: str) -> None:
    d = REPLAY / case
    args = ["schema", str(d / "migration.sql"), "--format", "json"]
    for m in sorted((d / "before").glob("*.metadata.json")) if (d / "before").exists() else []:
        args += ["--metadata", str(m)]
    r = run(*args, cwd=work)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    expected = {p.name[: -len(".metadata.json")]: json.loads(p.read_text()) for p in sorted((d / "expected").glob("*.metadata.json"))}
    if len(expected) == 1 and "format-version" in got:
        got = {next(iter(expected)): got}
    assert set(got) >= set(expected)
    for name, want in expected.items():
        for key in COMPARED:
            assert got[name][key] == want[key], (name, key)
        props = {k: v for k, v in want.get("properties", {}).items() if k != "owner"}
        assert {k: v for k, v in got[name].get("properties", {}).items() if k != "owner"} == props


def test_schema_text_shows_field_ids(work: Path) -> None:
    r = run("schema", str(REPLAY / "36_realistic_events_repartition" / "migration.sql"), cwd=work)
    assert r.returncode == 0 and "\x1b[" not in r.stdout
    out = r.stdout
    for needle in ("db.events", "1: event_id long (required)", "7: context struct (optional)", "12: city string (optional)",
                   "1003: user_bucket = bucket[32](user_id)"):  # fmt: skip
        assert needle in out, needle


def test_json_and_sarif_end_columns_mean_the_same(work: Path) -> None:
    """Both formats give the region as [column, end_column): exclusive end, same numbers."""
    put(work, "m.sql", ERROR)
    doc = json.loads(run("check", "m.sql", "--format", "json", cwd=work).stdout)
    sarif = json.loads(run("check", "m.sql", "--format", "sarif", cwd=work).stdout)
    regions = sorted(
        (r["ruleId"], reg["startLine"], reg["startColumn"], reg["endLine"], reg["endColumn"])
        for r in sarif["runs"][0]["results"]
        for reg in [r["locations"][0]["physicalLocation"]["region"]]
    )
    mine = sorted((f["rule"], f["line"], f["column"], f["end_line"], f["end_column"]) for f in doc["findings"])
    assert regions == mine and mine


def _carets(sql: str, work: Path) -> tuple[str, str]:
    """The snippet line and the caret line of the first ICE001 finding in the text report."""
    put(work, "m.sql", sql)
    out = run("check", "m.sql", cwd=work).stdout.splitlines()
    i = next(i for i, ln in enumerate(out) if ": ICE001 [" in ln)
    code, carets = out[i + 2], out[i + 3]
    return code.split(" | ", 1)[1], carets.split(" | ", 1)[1]


@pytest.mark.parametrize(
    ("prefix", "shown"),
    [
        ("\t", "    "),  # a tab: expanded to the next 4-column stop, carets shifted the same
        ("/* 表 */ ", "/* 表 */ "),  # a wide character takes two columns on screen
    ],
)
def test_carets_line_up_under_tabs_and_wide_characters(work: Path, prefix: str, shown: str) -> None:
    sql = ERROR.replace("ALTER TABLE db.events ADD COLUMN payload binary;", prefix + "ALTER TABLE db.events ADD COLUMN payload binary;")
    code, carets = _carets(sql, work)
    assert code.startswith(shown + "ALTER TABLE")
    import unicodedata

    def width(s: str) -> int:
        return sum(2 if unicodedata.east_asian_width(c) in ("W", "F") else 1 for c in s)

    start = code.index("payload binary")
    assert carets == " " * width(code[:start]) + "^" * len("payload binary")
