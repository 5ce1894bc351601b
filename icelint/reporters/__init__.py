"""Reporters render a `Report`; they decide nothing. `REPORTERS` maps --format names to render functions."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import IO, Callable

from icelint.findings import Finding, Severity
from icelint.source import SourceFile


@dataclass
class Report:
    findings: list[Finding]  # sorted
    sources: list[SourceFile]
    statements: int
    suppressed: list[Finding] = field(default_factory=list)
    rules: tuple = ()
    context_files: int = 0  # files replayed (or skipped, with a state) as history, not reported on

    def count(self, severity: Severity) -> int:
        return sum(1 for f in self.findings if f.severity is severity)

    @property
    def summary(self) -> dict:
        return {
            "files": len(self.sources),
            "statements": self.statements,
            "errors": self.count(Severity.ERROR),
            "warnings": self.count(Severity.WARNING),
            "infos": self.count(Severity.INFO),
            "suppressed": len(self.suppressed),
        }


def _text(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.text import render

    render(report, out, **kw)


def _json(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.json import render

    render(report, out, **kw)


def _sarif(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.sarif import render

    render(report, out, **kw)


def _github(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.github import render

    render(report, out, **kw)


def _gitlab(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.gitlab import render

    render(report, out, **kw)


REPORTERS: dict[str, Callable[..., None]] = {
    "text": _text,
    "json": _json,
    "sarif": _sarif,
    "github": _github,
    "gitlab": _gitlab,
}
FORMATS = tuple(REPORTERS)
