"""`Report`: everything a reporter prints (the engine makes it; reporters render it and decide nothing)."""

from __future__ import annotations

from dataclasses import dataclass, field

from icelint.values.findings import Finding, Severity
from icelint.values.source import SourceFile


@dataclass
class Report:
    """Everything a reporter prints: the findings, the files checked, the statements and the suppressed findings."""

    findings: list[Finding]  # sorted
    sources: list[SourceFile]
    statements: int
    suppressed: list[Finding] = field(default_factory=list)
    rules: tuple = ()
    context_files: int = 0  # files replayed (or skipped, with a state) as history, not reported on
    docs_url: str | None = None  # the rule-docs URL template (`icelint.rules.kit.docs_url`); None: the default
    statements_by_file: dict = field(default_factory=dict)  # path → [(line, column, end_line, end_column)] per statement (junit)
    unsafe_fixes: bool = False  # --unsafe-fixes: unsafe fixes count as applicable (icelint.fixes.apply)
    fixed: int | None = None  # fixes --fix applied; None: not a --fix run
    parts: dict = field(default_factory=dict)  # path → text of a part of a file that findings name (a notebook's `nb.ipynb:cell 3`)
    inferred: list = field(default_factory=list)  # what the run inferred from the states (`icelint.plan.state_prefix`)
    stats_incomplete: bool = False  # some data counts could not be read (unreachable, budget): the run cache does not keep it

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
