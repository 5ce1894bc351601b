"""JSON Lines: one finding per line, each the object of the JSON report's `findings` (ruff's `json-lines`).

No summary and no suppressed findings: a stream of findings for tools that read line by line.
Nothing at all when there are no findings.
"""

from __future__ import annotations

import json
from typing import IO

from icelint.reporters.report import Report


def render(report: Report, out: IO[str], **_: object) -> None:
    for f in report.findings:
        out.write(json.dumps(f.to_json(), ensure_ascii=False, separators=(",", ":")) + "\n")
