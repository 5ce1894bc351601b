"""GitLab Code Quality: a JSON array of issues (`artifacts: reports: codequality:` in `.gitlab-ci.yml`).

Each issue has `description`, `check_name`, `fingerprint`, `severity` (`info`, `minor`, `major`,
`critical`, `blocker`) and `location.path` / `location.lines.begin`. The fingerprint hashes the rule,
file, table, column and message, not the line, so a finding keeps its identity when lines move
(GitLab compares fingerprints between the merge request and its target branch); identical
findings in one file get an occurrence number.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import IO

from icelint.values.findings import Finding, Severity
from icelint.reporters.report import Report

SEVERITY = {Severity.ERROR: "critical", Severity.WARNING: "major", Severity.INFO: "info"}


def _path(f: Finding) -> str:
    return os.path.normpath(f.path).replace(os.sep, "/")


def as_list(report: Report) -> list[dict]:
    seen: dict[str, int] = {}
    out = []
    for f in report.findings:
        base = "\0".join([f.rule, _path(f), f.table or "", f.column_path or "", f.message])
        n = seen.get(base, 0)
        seen[base] = n + 1
        fingerprint = hashlib.sha256(f"{base}\0{n}".encode("utf-8")).hexdigest()
        out.append(
            {
                "type": "issue",
                "check_name": f.rule,
                "description": f"{f.rule} {f.name}: {f.message}",
                "content": {"body": f.help} if f.help else None,
                "categories": ["Bug Risk"],
                "severity": SEVERITY[f.severity],
                "fingerprint": fingerprint,
                "location": {"path": _path(f), "lines": {"begin": f.line, "end": f.end_line}},
            }
        )
    for issue in out:
        if issue["content"] is None:
            del issue["content"]
    return out


def render(report: Report, out: IO[str], **_: object) -> None:
    out.write(json.dumps(as_list(report), indent=2, ensure_ascii=False))
    out.write("\n")
