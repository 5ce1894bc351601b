"""Every output format through the real CLI: shape, escaping, determinism, and the SARIF schema."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.values.findings import Finding, Severity
from icelint.reporters.github import annotation, escape_data, escape_property

from tests.ci.conftest import CREATE, DROP, NARROW, READD, SARIF_SCHEMA, clean_env, icelint, write

FORMATS = ("text", "json", "sarif", "github", "gitlab")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "pyproject.toml", '[tool.icelint]\nmigrations = "migrations"\n')
    write(tmp_path, "migrations/V1__create.sql", CREATE)
    write(tmp_path, "migrations/V2__drop.sql", DROP)
    write(tmp_path, "migrations/V3__readd.sql",
          "-- icelint: ignore ICE002 -- narrowing agreed with the consumers\n" + NARROW + READD + "-- icelint: ignore ICE013\n")
    return tmp_path


def run(project: Path, fmt: str, **env: str):
    return icelint("check", "--format", fmt, cwd=project, env=clean_env(**env))


@pytest.mark.parametrize("fmt", FORMATS)
def test_output_is_byte_for_byte_stable(project: Path, fmt: str) -> None:
    first, second = run(project, fmt), run(project, fmt)
    assert first.code == second.code == 1
    assert first.out == second.out and first.out


@pytest.mark.parametrize("fmt", FORMATS)
def test_output_file(project: Path, fmt: str) -> None:
    r = icelint("check", "--format", fmt, "--output-file", "report.out", cwd=project)
    assert r.code == 1 and r.out == ""
    assert (project / "report.out").read_text(encoding="utf-8") == run(project, fmt).out
    assert icelint("check", "--format", fmt, "-o", "report.out", "--exit-zero", cwd=project).code == 0


def test_json_contract(project: Path) -> None:
    doc = json.loads(run(project, "json").out)
    assert list(doc) == ["version", "findings", "summary", "suppressed"] and doc["version"] == 2
    assert [(f["rule"], f["line"]) for f in doc["findings"]] == [("ICE011", 1), ("ICE001", 3), ("ICE100", 4)]
    assert doc["summary"] == {"files": 3, "statements": 5, "errors": 1, "warnings": 2, "infos": 0, "suppressed": 1}
    (s,) = doc["suppressed"]
    assert (s["rule"], s["line"], s["reason"]) == ("ICE002", 2, "narrowing agreed with the consumers")


# ---------------------------------------------------------------------------- SARIF


def test_sarif(project: Path) -> None:
    doc = json.loads(run(project, "sarif").out)
    assert doc["version"] == "2.1.0"
    (sarif_run,) = doc["runs"]
    rules = sarif_run["tool"]["driver"]["rules"]
    assert [r["id"] for r in rules] == sorted(r["id"] for r in rules) and "ICE100" in [r["id"] for r in rules]
    for r in rules:
        assert r["shortDescription"]["text"] and r["fullDescription"]["text"]
        assert "## Why is this bad?" in r["help"]["markdown"] and r["help"]["text"]
    results = sarif_run["results"]
    assert [(x["ruleId"], x["level"]) for x in results] == [("ICE011", "warning"), ("ICE002", "error"), ("ICE001", "error"), ("ICE100", "warning")]
    for x in results:
        assert rules[x["ruleIndex"]]["id"] == x["ruleId"]
        loc = x["locations"][0]["physicalLocation"]
        assert loc["artifactLocation"]["uri"].startswith("migrations/V") and loc["artifactLocation"]["uriBaseId"] == "%SRCROOT%"
        assert {"startLine", "startColumn", "endLine", "endColumn"} <= set(loc["region"])
    readd = results[2]["locations"][0]["physicalLocation"]["region"]
    assert readd == {"startLine": 3, "startColumn": 34, "endLine": 3, "endColumn": 48}  # `payload binary`, end exclusive
    assert results[1]["suppressions"] == [{"kind": "inSource", "status": "accepted", "justification": "narrowing agreed with the consumers"}]


def test_sarif_validates_against_the_official_schema(project: Path) -> None:
    if not SARIF_SCHEMA.is_file():
        pytest.skip(f"the SARIF 2.1.0 schema is not at {SARIF_SCHEMA} (it lives in shared/reference, beside the repository)")
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the `test` extra")
    schema = json.loads(SARIF_SCHEMA.read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema, format_checker=jsonschema.FormatChecker())
    # a report with a safe fix (ICE003 respells a partition field) and an unsafe one (ICE008 removes the SET)
    write(project, "fixes/V9__fixes.sql", "CREATE TABLE db.logs (id bigint, at timestamp) USING iceberg PARTITIONED BY (days(at));\n"
          "ALTER TABLE db.logs DROP PARTITION FIELD AT_DAY;\nSET spark.sql.caseSensitive=true;\n")
    fixes = json.loads(icelint("check", "fixes/V9__fixes.sql", "--format", "sarif", cwd=project).out)
    assert [len(x.get("fixes", [])) for x in fixes["runs"][0]["results"]] == [1, 1]
    for doc in (json.loads(run(project, "sarif").out), json.loads(icelint("check", "migrations/V1__create.sql", "--format", "sarif", cwd=project).out), fixes):
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    bad = json.loads(run(project, "sarif").out)
    bad["runs"][0]["results"][0]["level"] = "fatal"
    assert list(validator.iter_errors(bad)), "the validator must reject a wrong level"
    bad = json.loads(json.dumps(fixes))
    del bad["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["artifactLocation"]
    assert list(validator.iter_errors(bad)), "the validator must reject a fix without its file"


# The parts of SARIF 2.1.0 that icelint writes, as the official schema defines them (required keys, the
# enumerations, positions from 1): a check that needs no file, so that a fresh clone validates SARIF too.
_REGION = {"type": "object", "properties": {k: {"type": "integer", "minimum": 1} for k in ("startLine", "startColumn", "endLine", "endColumn")}}
_ARTIFACT = {"type": "object", "required": ["uri"], "properties": {"uri": {"type": "string"}, "uriBaseId": {"type": "string"}}}
_MESSAGE = {"type": "object", "required": ["text"], "properties": {"text": {"type": "string"}}}
SARIF_SUBSET = {
    "type": "object",
    "required": ["version", "runs"],
    "properties": {
        "version": {"enum": ["2.1.0"]},
        "runs": {"type": "array", "items": {
            "type": "object", "required": ["tool"],
            "properties": {
                "tool": {"type": "object", "required": ["driver"], "properties": {"driver": {
                    "type": "object", "required": ["name"],
                    "properties": {"name": {"type": "string"}, "rules": {"type": "array", "items": {
                        "type": "object", "required": ["id"], "properties": {"id": {"type": "string"}}}}}}}},
                "results": {"type": "array", "items": {
                    "type": "object", "required": ["message"],
                    "properties": {
                        "ruleId": {"type": "string"},
                        "ruleIndex": {"type": "integer", "minimum": -1},
                        "level": {"enum": ["none", "note", "warning", "error"]},
                        "message": _MESSAGE,
                        "locations": {"type": "array", "items": {"type": "object", "properties": {"physicalLocation": {
                            "type": "object", "properties": {"artifactLocation": _ARTIFACT, "region": _REGION}}}}},
                        "suppressions": {"type": "array", "items": {
                            "type": "object", "required": ["kind"],
                            "properties": {"kind": {"enum": ["inSource", "external"]},
                                           "status": {"enum": ["accepted", "underReview", "rejected"]}}}},
                        "fixes": {"type": "array", "items": {
                            "type": "object", "required": ["artifactChanges"],
                            "properties": {"description": _MESSAGE, "artifactChanges": {"type": "array", "minItems": 1, "items": {
                                "type": "object", "required": ["artifactLocation", "replacements"],
                                "properties": {"artifactLocation": _ARTIFACT, "replacements": {"type": "array", "minItems": 1, "items": {
                                    "type": "object", "required": ["deletedRegion"],
                                    "properties": {"deletedRegion": _REGION}}}}}}}}},
                    }}},
            }}},
    },
}  # fmt: skip


def test_sarif_has_the_shape_the_sarif_schema_requires(project: Path) -> None:
    """Always (no schema file needed): icelint's SARIF holds what SARIF 2.1.0 requires of the parts it writes."""
    jsonschema = pytest.importorskip("jsonschema", reason="jsonschema is in the `test` extra")
    validator = jsonschema.Draft7Validator(SARIF_SUBSET)
    write(project, "fixes/V9__fixes.sql", "CREATE TABLE db.logs (id bigint, at timestamp) USING iceberg PARTITIONED BY (days(at));\n"
          "ALTER TABLE db.logs DROP PARTITION FIELD AT_DAY;\nSET spark.sql.caseSensitive=true;\n")
    fixes = json.loads(icelint("check", "fixes/V9__fixes.sql", "--format", "sarif", cwd=project).out)
    assert [len(x.get("fixes", [])) for x in fixes["runs"][0]["results"]] == [1, 1]
    for doc in (json.loads(run(project, "sarif").out), fixes):
        errors = list(validator.iter_errors(doc))
        assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors[:10])
    bad = json.loads(run(project, "sarif").out)
    bad["runs"][0]["results"][0]["level"] = "fatal"
    assert list(validator.iter_errors(bad)), "the check must reject a wrong level"
    bad = json.loads(json.dumps(fixes))
    del bad["runs"][0]["results"][0]["fixes"][0]["artifactChanges"][0]["artifactLocation"]
    assert list(validator.iter_errors(bad)), "the check must reject a fix without its file"


# ---------------------------------------------------------------------------- GitHub


def test_github_escaping() -> None:
    assert escape_data("100% a\r\nb: c, d") == "100%25 a%0D%0Ab: c, d"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    f = Finding("ICE001", "drop-then-add", Severity.WARNING, "dir,x/a:b.sql", 3, 5, 4, 9, "50% of rows\nare lost", help="do, this")
    assert annotation(f) == (
        "::warning file=dir%2Cx/a%3Ab.sql,line=3,col=5,endLine=4,endColumn=10,title=ICE001 drop-then-add"
        "::50%25 of rows%0Aare lost%0Ahelp: do, this"
    )


def test_github_format_and_default_under_actions(project: Path, tmp_path: Path) -> None:
    summary = tmp_path / "step_summary.md"
    summary.write_text("# earlier step\n", encoding="utf-8")
    r = icelint("check", cwd=project, env=clean_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary)))
    assert r.code == 1
    lines = r.out.splitlines()
    assert lines[0].startswith("::warning file=migrations/V2__drop.sql,line=1,col=35,endLine=1,endColumn=42,title=ICE011 drop-column-with-data::")
    assert lines[1].startswith("::error file=migrations/V3__readd.sql,line=3,col=34,endLine=3,endColumn=48,title=ICE001 drop-then-add::")
    assert lines[2].startswith("::warning file=migrations/V3__readd.sql,line=4,") and "title=ICE100 unused-suppression" in lines[2]
    assert lines[-1] == "icelint: 3 files, 5 statements: 1 error, 2 warnings, 0 info, 1 suppressed"
    md = summary.read_text(encoding="utf-8")
    assert md.startswith("# earlier step\n## icelint\n")  # appended, never overwritten
    assert "| 🔴 error | `ICE001` drop-then-add | `migrations/V3__readd.sql:3:34` |" in md
    assert "<details><summary>1 suppressed finding</summary>" in md and "narrowing agreed with the consumers" in md
    # text unless on GitHub Actions; an explicit --format wins there too
    assert icelint("check", cwd=project).out.startswith("migrations/V2__drop.sql:1:35: ICE011 [warning]")
    r = icelint("check", "--format", "json", cwd=project, env=clean_env(GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary)))
    assert json.loads(r.out)["version"] == 2 and summary.read_text(encoding="utf-8") == md


def test_github_summary_links_to_the_commit(project: Path, tmp_path: Path) -> None:
    summary = tmp_path / "s.md"
    env = clean_env(GITHUB_STEP_SUMMARY=str(summary), GITHUB_SERVER_URL="https://github.com",
                    GITHUB_REPOSITORY="acme/lake", GITHUB_SHA="0123abc")
    icelint("check", "--format", "github", cwd=project, env=env)
    assert "[`migrations/V3__readd.sql:3:34`](https://github.com/acme/lake/blob/0123abc/migrations/V3__readd.sql#L3)" in summary.read_text(encoding="utf-8")


def test_github_without_step_summary_writes_no_file(project: Path) -> None:
    before = sorted(p.name for p in project.iterdir())
    assert run(project, "github").code == 1
    assert sorted(p.name for p in project.iterdir()) == before


# ---------------------------------------------------------------------------- GitLab


def test_gitlab_code_quality(project: Path) -> None:
    issues = json.loads(run(project, "gitlab").out)
    assert isinstance(issues, list) and len(issues) == 3
    for i in issues:
        assert {"description", "check_name", "fingerprint", "severity", "location"} <= set(i)
        assert i["severity"] in {"info", "minor", "major", "critical", "blocker"}
        assert isinstance(i["location"]["path"], str) and isinstance(i["location"]["lines"]["begin"], int)
    assert [(i["check_name"], i["severity"], i["location"]["path"], i["location"]["lines"]["begin"]) for i in issues] == [
        ("ICE011", "major", "migrations/V2__drop.sql", 1),
        ("ICE001", "critical", "migrations/V3__readd.sql", 3),
        ("ICE100", "major", "migrations/V3__readd.sql", 4),
    ]
    assert len({i["fingerprint"] for i in issues}) == 3
    # fingerprints survive lines moving
    f = project / "migrations/V3__readd.sql"
    f.write_text("\n\n" + f.read_text(encoding="utf-8"), encoding="utf-8")
    moved = json.loads(run(project, "gitlab").out)
    assert [i["location"]["lines"]["begin"] for i in moved] == [1, 5, 6]
    assert [i["fingerprint"] for i in moved] == [i["fingerprint"] for i in issues]


def test_clean_run_every_format(tmp_path: Path) -> None:
    write(tmp_path, "m/V1__c.sql", CREATE)
    for fmt in FORMATS:
        r = icelint("check", "m", "--format", fmt, cwd=tmp_path)
        assert r.code == 0, (fmt, r.err)
    assert json.loads(icelint("check", "m", "--format", "gitlab", cwd=tmp_path).out) == []
    assert json.loads(icelint("check", "m", "--format", "sarif", cwd=tmp_path).out)["runs"][0]["results"] == []
