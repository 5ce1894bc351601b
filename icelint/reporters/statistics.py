"""`icelint check --statistics`: how many findings each rule reported, most frequent first.

ruff's layout: count right-aligned, code, name, severity, one rule per line; ties in code order.
With `--format json`, a list of `{"code", "name", "severity", "count"}` objects instead.
"""

from __future__ import annotations

import json
from typing import IO, Iterable

from icelint.values.findings import Finding


def counts(findings: Iterable[Finding]) -> list[dict]:
    by_rule: dict[str, dict] = {}
    for f in findings:
        row = by_rule.setdefault(f.rule, {"code": f.rule, "name": f.name, "severity": {}, "count": 0})
        row["count"] += 1
        row["severity"][f.severity.value] = row["severity"].get(f.severity.value, 0) + 1
    rows = sorted(by_rule.values(), key=lambda r: (-r["count"], r["code"]))
    for r in rows:  # one severity unless `[tool.icelint.severity]` changed some of them: list each then
        r["severity"] = ",".join(sorted(r["severity"], key=lambda s: ("error", "warning", "info").index(s)))
    return rows


def render(findings: Iterable[Finding], out: IO[str], fmt: str = "text") -> None:
    rows = counts(findings)
    if fmt == "json":
        out.write(json.dumps(rows, indent=2) + "\n")
        return
    if not rows:
        return
    width = max(len(str(r["count"])) for r in rows)
    code_w = max(len(r["code"]) for r in rows)
    name_w = max(len(r["name"]) for r in rows)
    for r in rows:
        out.write(f"{r['count']:>{width}}\t{r['code']:<{code_w}}\t{r['name']:<{name_w}}\t{r['severity']}\n")
