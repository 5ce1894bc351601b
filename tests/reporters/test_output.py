"""Output conventions: colour (`--color`, NO_COLOR, FORCE_COLOR), rule-doc links (OSC 8, SARIF
helpUri, `docs-url`), the junit and json-lines formats, count words, the JSON Schemas shipped in
the package, and shell completion."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from importlib import resources
from pathlib import Path

import pytest

from tests.cli.test_commands import CLEAN, ERROR, INFO_ONLY, REPLAY, WARNING_ONLY, _env, on_pty, put, run

ESC = "\x1b["
OSC8 = "\x1b]8;"


# --------------------------------------------------------------------------- colour


@pytest.mark.parametrize(
    "args, env, coloured",
    [
        ((), {}, False),
        (("--color", "always"), {}, True),
        (("--color", "never"), {"FORCE_COLOR": "1"}, False),
        ((), {"FORCE_COLOR": "1"}, True),
        ((), {"FORCE_COLOR": "1", "NO_COLOR": "1"}, False),
        ((), {"NO_COLOR": ""}, False),
        (("--color", "always"), {"NO_COLOR": "1"}, True),  # the flag wins, as no-color.org asks
    ],
)
def test_color_in_a_pipe(tmp_path: Path, args: tuple, env: dict, coloured: bool) -> None:
    put(tmp_path, "m.sql", ERROR)
    r = run("check", "m.sql", *args, cwd=tmp_path, **env)
    assert r.returncode == 1
    assert (ESC in r.stdout) is coloured, r.stdout[:300]
    assert OSC8 not in r.stdout, "hyperlinks only on a terminal"


@pytest.mark.skipif(sys.platform == "win32", reason="needs a pty")
def test_terminal_colour_links_and_no_color(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", ERROR)
    code, out = on_pty(["check", "m.sql"], tmp_path)
    assert code == 1 and ESC in out
    assert OSC8 in out and ";https://github.com/OWNER/icelint/blob/main/docs/rules/ICE001.md\x1b\\" in out
    # NO_COLOR: no colour and no bold at all (the link stays: it is not colour)
    code, out = on_pty(["check", "m.sql"], tmp_path, NO_COLOR="1")
    assert code == 1 and ESC not in out, repr(out[:300])
    assert "docs/rules/ICE001.md" in out
    # a fork's docs
    code, out = on_pty(["check", "m.sql", "--color", "never"], tmp_path, ICELINT_DOCS_URL="https://docs.example/r/{code}-{name}")
    assert "https://docs.example/r/ICE001-drop-then-add" in out and ESC not in out


def test_docs_url_from_config_in_sarif(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", ERROR)
    r = run("check", "m.sql", "--format", "sarif", cwd=tmp_path)
    rules = json.loads(r.stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert rules and all(x["helpUri"] == f"https://github.com/OWNER/icelint/blob/main/docs/rules/{x['id']}.md" for x in rules)
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\ndocs-url = "https://fork.example/rules/"\n')
    rules = json.loads(run("check", "m.sql", "--format", "sarif", cwd=tmp_path).stdout)["runs"][0]["tool"]["driver"]["rules"]
    assert all(x["helpUri"] == f"https://fork.example/rules/{x['id']}.md" for x in rules)
    rules = json.loads(run("check", "m.sql", "--format", "sarif", cwd=tmp_path, ICELINT_DOCS_URL="https://env.example/{code}").stdout)
    assert all(x["helpUri"] == f"https://env.example/{x['id']}" for x in rules["runs"][0]["tool"]["driver"]["rules"])


def test_every_linked_page_exists() -> None:
    root = Path(__file__).resolve().parents[2]
    from icelint.config.selection import registry

    for r in registry():
        assert (root / "docs" / "rules" / f"{r.code}.md").is_file(), r.code


# --------------------------------------------------------------------------- count words


@pytest.mark.parametrize("fmt", ["text", "github"])
def test_one_is_singular(tmp_path: Path, fmt: str) -> None:
    def summary(out: str) -> str:  # the text report's last line may be ruff's fix hint
        return [ln for ln in out.splitlines() if ln.startswith(("Checked", "icelint: "))][-1]

    put(tmp_path, "m.sql", ERROR)
    out = summary(run("check", "m.sql", "--format", fmt, cwd=tmp_path).stdout)
    assert "1 error," in out and "1 warning" in out and "1 warnings" not in out and "1 errors" not in out
    assert "1 file," in out
    put(tmp_path, "w.sql", WARNING_ONLY.replace("db.events", "db.other"))
    out = summary(run("check", "w.sql", "m.sql", "--format", fmt, cwd=tmp_path).stdout)
    assert "2 files" in out and "2 warnings" in out
    put(tmp_path, "one.sql", "CREATE TABLE db.x (id bigint) USING iceberg;\n")
    out = summary(run("check", "one.sql", "--format", fmt, cwd=tmp_path).stdout)
    assert "1 statement:" in out or "1 statement," in out, out


# --------------------------------------------------------------------------- json-lines and junit


def test_json_lines_is_one_finding_per_line(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", ERROR)
    r = run("check", "m.sql", "--format", "json-lines", cwd=tmp_path)
    full = json.loads(run("check", "m.sql", "--format", "json", cwd=tmp_path).stdout)
    assert r.returncode == 1
    assert [json.loads(line) for line in r.stdout.splitlines()] == full["findings"]
    put(tmp_path, "c.sql", CLEAN)
    assert run("check", "c.sql", "--format", "json-lines", cwd=tmp_path).stdout == ""


JUNIT = ERROR + "ALTER TABLE db.events ADD COLUMN a int; ALTER TABLE db.events ADD COLUMN a int;\n"


def test_junit_one_testcase_per_statement_one_failure_per_finding(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", JUNIT)
    put(tmp_path, "c.sql", CLEAN)
    r = run("check", "m.sql", "c.sql", "--format", "junit", cwd=tmp_path)
    assert r.returncode == 1
    root = ET.fromstring(r.stdout)
    assert root.tag == "testsuites"
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["m.sql", "c.sql"]
    m, c = suites
    cases = m.findall("testcase")
    assert [x.get("name") for x in cases] == ["m.sql:1:1", "m.sql:2:1", "m.sql:3:1", "m.sql:4:1", "m.sql:5:1", "m.sql:5:41"]
    failures = {x.get("name"): [f.get("type") for f in x.findall("failure")] for x in cases}
    assert failures == {"m.sql:1:1": [], "m.sql:2:1": [], "m.sql:3:1": ["ICE011"], "m.sql:4:1": ["ICE001"],
                        "m.sql:5:1": [], "m.sql:5:41": ["ICE005"]}
    assert m.get("tests") == "6" and m.get("failures") == "3" and c.get("tests") == "2" and c.get("failures") == "0"
    assert root.get("tests") == "8" and root.get("failures") == "3"
    for s in suites:
        for x in s.findall("testcase"):
            assert x.get("classname") == s.get("name")
            for f in x.findall("failure"):
                assert f.get("message") and f.text and f.get("type") in f.text
    assert run("check", "m.sql", "c.sql", "--format", "junit", cwd=tmp_path).stdout == r.stdout


def test_junit_escapes_and_validates_structure(tmp_path: Path) -> None:
    put(tmp_path, "a&b <x>.sql", INFO_ONLY)
    r = run("check", "a&b <x>.sql", "--format", "junit", cwd=tmp_path)
    root = ET.fromstring(r.stdout)
    allowed = {"testsuites": {"name", "tests", "failures", "errors", "skipped"},
               "testsuite": {"name", "tests", "failures", "errors", "skipped"},
               "testcase": {"name", "classname"}, "failure": {"type", "message"}}
    for el in root.iter():
        assert el.tag in allowed and set(el.attrib) <= allowed[el.tag], (el.tag, el.attrib)
    assert root.find("testsuite").get("name") == "a&b <x>.sql"
    assert [f.get("type") for f in root.iter("failure")] == ["ICE026"]


# --------------------------------------------------------------------------- JSON Schemas


def schema(name: str) -> dict:
    return json.loads(resources.files("icelint").joinpath("schemas", name).read_text(encoding="utf-8"))


def test_check_report_validates_against_the_shipped_schema(tmp_path: Path) -> None:
    import jsonschema

    s = schema("check-report.json")
    jsonschema.Draft202012Validator.check_schema(s)
    put(tmp_path, "m.sql", ERROR + "-- icelint: ignore ICE012 -- fine\nALTER TABLE db.events RENAME COLUMN id TO key;\n")
    put(tmp_path, "c.sql", CLEAN)
    for files in (["m.sql"], ["c.sql"], ["m.sql", "c.sql"]):
        report = json.loads(run("check", *files, "--format", "json", cwd=tmp_path).stdout)
        jsonschema.validate(report, s, cls=jsonschema.Draft202012Validator)
    assert report["suppressed"], "the suppressed list is exercised"
    bad = dict(report, version=0)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, s, cls=jsonschema.Draft202012Validator)
    broken = json.loads(json.dumps(report))
    del broken["findings"][0]["field_id"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, s, cls=jsonschema.Draft202012Validator)
    for line in run("check", "m.sql", "--format", "json-lines", cwd=tmp_path).stdout.splitlines():
        jsonschema.validate(json.loads(line), {"$defs": s["$defs"], "$ref": "#/$defs/finding"}, cls=jsonschema.Draft202012Validator)


def test_schema_output_validates_against_the_shipped_schema(tmp_path: Path) -> None:
    import jsonschema

    s = schema("schema-output.json")
    jsonschema.Draft202012Validator.check_schema(s)
    put(tmp_path, "one.sql", "CREATE TABLE db.t (id bigint NOT NULL, s struct<a: int>, l array<string>, m map<string, int>) "
        "USING iceberg PARTITIONED BY (bucket(4, id));\nALTER TABLE db.t WRITE ORDERED BY id;\n")
    put(tmp_path, "two.sql", CLEAN + "CREATE TABLE db.u (id bigint) USING iceberg;\n")
    for f in ("one.sql", "two.sql"):
        r = run("schema", f, "--format", "json", cwd=tmp_path)
        assert r.returncode == 0, r.stderr
        jsonschema.validate(json.loads(r.stdout), s, cls=jsonschema.Draft202012Validator)
    meta = REPLAY / "36_realistic_events_repartition" / "expected" / "db.events.metadata.json"
    if meta.exists():
        put(tmp_path, "e.sql", "ALTER TABLE db.events ADD COLUMN z int;\n")
        r = run("schema", "e.sql", "--metadata", str(meta), "--format", "json", cwd=tmp_path)
        jsonschema.validate(json.loads(r.stdout), s, cls=jsonschema.Draft202012Validator)
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"format-version": 2}, s, cls=jsonschema.Draft202012Validator)


def test_schemas_are_package_data() -> None:
    root = Path(__file__).resolve().parents[2]
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    assert '"schemas/*.json"' in text
    assert "icelint/schemas/check-report.json" in (root / "docs" / "output-formats.md").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- shell completion


@pytest.mark.parametrize("shell, marker", [("bash", "complete -o"), ("zsh", "compdef"), ("fish", "complete --no-files --command icelint")])
def test_completion_scripts(tmp_path: Path, shell: str, marker: str) -> None:
    code = "from icelint.cli.main import main; main(prog_name='icelint')"
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True,
                       env=_env(_ICELINT_COMPLETE=f"{shell}_source"), timeout=60)
    assert r.returncode == 0, r.stderr
    assert marker in r.stdout and "_ICELINT_COMPLETE" in r.stdout



def test_completion_through_the_executable_entry_point(tmp_path: Path) -> None:
    """`icelint` (the console script: `entry`) completes options, as the README's bash line sets it up."""
    code = "import sys; sys.argv[0] = 'icelint'; from icelint.cli.main import entry; entry()"
    env = _env(_ICELINT_COMPLETE="bash_complete", COMP_WORDS="icelint check --stdin", COMP_CWORD="2")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0 and "plain,--stdin-filename" in r.stdout, (r.stdout, r.stderr)


def test_a_long_line_is_shown_cut_around_the_finding(tmp_path: Path) -> None:
    """A statement deep in a line of thousands of characters: the snippet shows the part around the
    finding, marked `...` where it was cut, with the carets under the finding's own text; a short
    line is shown whole."""
    from icelint.reporters.text import MAX_SHOWN

    cols = ", ".join(f"c{i} int" for i in range(400))
    put(tmp_path, "m.sql", f"CREATE TABLE db.t (id bigint, {cols}) USING iceberg; ALTER TABLE db.t ADD COLUMN c150 string;\n")
    r = run("check", "m.sql", cwd=tmp_path)
    lines = r.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("1 | "))
    shown, carets = lines[at], lines[at + 1]
    assert shown.startswith("1 | ...") and shown.endswith("c150 string;") and len(shown) < MAX_SHOWN + 10
    assert shown[carets.index("^") :].startswith("c150 string")
    put(tmp_path, "s.sql", "CREATE TABLE db.t (id bigint) USING iceberg; ALTER TABLE db.t ADD COLUMN id string;\n")
    r = run("check", "s.sql", cwd=tmp_path)
    assert "1 | CREATE TABLE db.t (id bigint) USING iceberg; ALTER TABLE db.t ADD COLUMN id string;" in r.stdout


def test_junit_counts_failing_test_cases_not_findings(tmp_path: Path) -> None:
    """Two findings on one statement are one failing test case: `failures` counts test cases."""
    put(tmp_path, "m.sql", "CREATE TABLE db.e (id bigint, extra string, notes string) USING iceberg;\n"
        "INSERT INTO db.e VALUES (1, 'x', 'n');\nALTER TABLE db.e DROP COLUMN extra;\n"
        "ALTER TABLE db.e RENAME COLUMN notes TO extra;\n")  # fmt: skip
    r = run("check", "m.sql", "--format", "junit", cwd=tmp_path)
    root = ET.fromstring(r.stdout)
    cases = root.findall("testsuite/testcase")
    findings = sum(len(x.findall("failure")) for x in cases)
    failing = sum(1 for x in cases if x.findall("failure"))
    assert findings > failing == 2, r.stdout
    assert root.get("failures") == root.find("testsuite").get("failures") == str(failing)
