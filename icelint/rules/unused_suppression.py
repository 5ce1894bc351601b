"""A suppression comment that suppresses nothing.

## What it does
Reports an `-- icelint: ignore ...` or `-- icelint: ignore-file ...` comment (or one rule named in
it) that no finding matched, and a suppression that names a rule icelint does not know. Only the
files under review are checked, and only for rules that are enabled.

## Why is this bad?
A suppression outlives the problem it waived: once the statement is fixed or moved, the comment
silently waives the next, unrelated finding of that rule on the statement, and reviewers keep
reading a justification for something that no longer happens. A misspelt rule code waives nothing
at all while looking as if it did.

## Example
```sql
-- icelint: ignore ICE001 -- payload is re-filled by the backfill job
ALTER TABLE db.events RENAME COLUMN payload TO body;
```

## Use instead
```sql
ALTER TABLE db.events RENAME COLUMN payload TO body;
```
Delete the comment, or move it to the statement it was meant for. A suppression applies to the
statement right after it (on the lines before the statement) or to the statement whose last line
it ends; `ignore-file` applies to the whole file.
"""

from __future__ import annotations

from typing import Iterator

from icelint.findings import Finding, Severity
from icelint.rules._base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    """Nothing per statement: `icelint.suppress` reports unused suppressions after all rules ran."""
    return iter(())


RULE = Rule("ICE100", "unused-suppression", Severity.WARNING, check, __doc__)
