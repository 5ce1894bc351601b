"""SARIF 2.1.0: one run, the enabled rules with their documentation, one result per finding.

GitHub code scanning (`github/codeql-action/upload-sarif`) shows the rule's `help.markdown` next to
each alert. Inline-suppressed findings are included with an `inSource` suppression and their reason,
so they show as dismissed rather than disappearing. A finding's safe or unsafe fix is a `fixes`
entry (its edits as `replacements` of regions, end column exclusive); display-only ones are left
out, as SARIF fixes are meant to be applied. Output is deterministic: no timestamps, no
absolute paths, sorted results.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import IO
from urllib.parse import quote

from icelint.version import __version__
from icelint.values.findings import Finding, Severity
from icelint.reporters.report import Report

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
LEVEL = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note"}


def _location(path: str) -> dict:
    """Relative to the directory icelint ran in (`%SRCROOT%`) when possible, else a `file:` URI."""
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.relative_to(Path.cwd())
        except ValueError:
            return {"uri": p.as_uri()}
    return {"uri": quote(p.as_posix(), safe="/._-~"), "uriBaseId": "%SRCROOT%"}


def _uri(path: str) -> str:
    return _location(path)["uri"]


def fingerprint(f: Finding) -> str:
    """Stable across line moves: rule, file, table, column and message, not the position."""
    key = "\0".join([f.rule, _uri(f.path), f.table or "", f.column_path or "", f.message])
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _rule(r, docs_url: str | None = None) -> dict:
    from icelint.rules.kit.docs_url import rule_url

    doc = r.doc.strip()
    body = doc.split("\n", 1)[1].strip() if "\n" in doc else doc
    what = body.split("## Why is this bad?")[0].replace("## What it does", "").strip() or r.summary
    return {
        "id": r.code,
        "name": r.name,
        "shortDescription": {"text": r.summary},
        "fullDescription": {"text": " ".join(what.split()), "markdown": what},
        "help": {"text": doc, "markdown": f"**{r.code} {r.name}**: {doc}"},
        "helpUri": rule_url(r.code, r.name, docs_url),
        "defaultConfiguration": {"level": LEVEL[r.severity]},
        "properties": {"tags": ["iceberg", "schema-migration"]},
    }


def _result(f: Finding, index: dict[str, int]) -> dict:
    text = f.message + (f"\nhelp: {f.help}" if f.help else "")
    res: dict = {
        "ruleId": f.rule,
        "level": LEVEL[f.severity],
        "message": {"text": text},
        "locations": [
            {
                "physicalLocation": {
                    "artifactLocation": _location(f.path),
                    "region": {
                        "startLine": f.line,
                        "startColumn": f.column,
                        "endLine": f.end_line,
                        "endColumn": f.end_column + 1,  # SARIF's end column is exclusive
                    },
                }
            }
        ],
        "partialFingerprints": {"icelintFinding/v1": fingerprint(f)},
    }
    if f.rule in index:
        res["ruleIndex"] = index[f.rule]
    if f.fix is not None and f.fix.edits and f.fix.applicability.value != "display-only":
        res["fixes"] = [_fix(f)]
    props = {k: v for k, v in (("table", f.table), ("column", f.column_path), ("fieldId", f.field_id)) if v is not None}
    if props:
        res["properties"] = props
    return res


def _fix(f: Finding) -> dict:
    """A SARIF `fix`: the edits as replacements of regions of the file (end column exclusive)."""
    assert f.fix is not None
    return {
        "description": {"text": f"{f.fix.message} ({f.fix.applicability.value} fix)"},
        "artifactChanges": [
            {
                "artifactLocation": _location(f.path),
                "replacements": [
                    {
                        "deletedRegion": {"startLine": e.row, "startColumn": e.column, "endLine": e.end_row, "endColumn": e.end_column},
                        "insertedContent": {"text": e.content},
                    }
                    for e in f.fix.edits
                ],
            }
        ],
    }


def as_dict(report: Report) -> dict:
    rules = sorted({r.code: r for r in report.rules}.values(), key=lambda r: r.code)
    index = {r.code: i for i, r in enumerate(rules)}
    results = [_result(f, index) for f in report.findings]
    for f in report.suppressed:
        res = _result(f, index)
        sup: dict = {"kind": "inSource", "status": "accepted"}
        if f.suppressed_reason:
            sup["justification"] = f.suppressed_reason
        res["suppressions"] = [sup]
        results.append(res)
    results.sort(key=lambda r: (
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"],
        r["locations"][0]["physicalLocation"]["region"]["startLine"],
        r["locations"][0]["physicalLocation"]["region"]["startColumn"],
        r["ruleId"],
        r["message"]["text"],
    ))
    artifacts = sorted({s.path for s in report.sources}, key=_uri)
    return {
        "$schema": SCHEMA,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "icelint",
                        "version": __version__,
                        "semanticVersion": __version__,
                        "rules": [_rule(r, report.docs_url) for r in rules],
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"description": {"text": "the directory icelint ran in"}}},
                "artifacts": [{"location": _location(a)} for a in artifacts],
                "results": results,
                "columnKind": "unicodeCodePoints",
            }
        ],
    }


def render(report: Report, out: IO[str], **_: object) -> None:
    out.write(json.dumps(as_dict(report), indent=2, ensure_ascii=False))
    out.write("\n")
