"""`icelint.MigrationError`: what `icelint.spark.guard` raises instead of letting Spark run a
migration that would fail or damage data.

    try:
        icelint.spark.guard(spark).run("migrations/V42__payload.sql")
    except icelint.MigrationError as e:
        for f in e.blocking:           # the findings at or above `fail_on`
            print(f.rule, f.message, f.help, f.impact)
        raise

`str(e)` is the report a data engineer reads in the job's log: one block per finding, with its help
(the SQL to run instead) and the data at stake when the table's counts are known.
"""

from __future__ import annotations

from collections.abc import Sequence

from icelint.values.findings import Finding

__all__ = ["MigrationError", "render"]


class MigrationError(Exception):
    """A migration stopped before Spark ran it (or, statement by statement, before the statement).

    `findings`: every finding of the check, in report order. `blocking`: those at or above
    `fail_on` (`"error"`, `"warning"` or `"info"`), the reason it was raised. `statement`: the SQL
    text Spark was about to run, when the guard stopped one `spark.sql` call; None for a whole
    migration."""

    def __init__(self, findings: Sequence[Finding], fail_on: str = "error", statement: str | None = None) -> None:
        from icelint.values.findings import Severity

        self.findings = list(findings)
        self.fail_on = fail_on
        floor = Severity(fail_on).rank
        self.blocking = [f for f in self.findings if f.severity.rank >= floor]
        self.statement = statement
        super().__init__(self.findings, fail_on, statement)

    def __str__(self) -> str:
        counts: dict[str, int] = {}
        for f in self.blocking:
            counts[f.severity.value] = counts.get(f.severity.value, 0) + 1
        said = ", ".join(f"{n} {sev}{'s' if n != 1 else ''}" for sev, n in sorted(counts.items()))
        what = "this statement" if self.statement is not None else "the migration"
        head = f"icelint stopped {what} before Spark ran it: {said or 'no findings'} (fail-on: {self.fail_on})"
        lines = [head]
        if self.statement is not None:
            lines.append(f"  statement: {' '.join(self.statement.split())}")
        lines += [render(f) for f in self.blocking]
        rest = [f for f in self.findings if f not in self.blocking]
        if rest:
            lines.append(f"also ({len(rest)} below fail-on):")
            lines += [render(f) for f in rest]
        return "\n".join(lines)


def render(f: Finding) -> str:
    """One finding as the guard reports it: where, the rule, the message; then its help, the data at
    stake and its fix, indented."""
    out = [f"{f.path}:{f.line}:{f.column}: {f.rule} [{f.severity.value}] {f.name}: {f.message}"]
    if f.help:
        out.append("    help: " + f.help.replace("\n", "\n          "))
    stake = at_stake(f)
    if stake:
        out.append(f"    data at stake: {stake}")
    if f.fix is not None:
        out.append(f"    fix ({f.fix.applicability.value}): {f.fix.message}")
    return "\n".join(out)


def at_stake(f: Finding) -> str | None:
    """What the finding's data counts say, when they were read (None: no counts): the non-null values
    of the column it is about (the dropped field id, for a re-add), else the table's records."""
    imp = f.impact
    if imp is None or (imp.records is None and imp.non_null_values is None):
        return None
    files = "" if imp.data_files is None else f" in {imp.data_files:,} data file{'s' if imp.data_files != 1 else ''}"
    at = f" (snapshot {imp.snapshot_id})" if imp.snapshot_id is not None else ""
    if imp.non_null_values is not None:
        n = imp.non_null_values
        return f"{n:,} non-null value{'s' if n != 1 else ''}{files}{at}"
    n = imp.records or 0
    return f"{n:,} record{'s' if n != 1 else ''}{files}{at}"
