"""The JSON contract: exactly one object on stdout, `{"version": 2, "findings": [...], "summary": {...}}`.

Version 2: `end_column` is exclusive (the column after the last character), as in SARIF; version 1
had it inclusive."""

from __future__ import annotations

import json
from typing import IO

from icelint.reporters.report import Report

VERSION = 2


def as_dict(report: Report) -> dict:
    out = {
        "version": VERSION,
        "findings": [f.to_json() for f in report.findings],
        "summary": report.summary,
    }
    out["suppressed"] = [dict(f.to_json(), reason=f.suppressed_reason) for f in report.suppressed]
    return out


def render(report: Report, out: IO[str], **_: object) -> None:
    out.write(json.dumps(as_dict(report), indent=2, ensure_ascii=False))
    out.write("\n")
