"""A suppression comment that suppresses nothing.

## What it does
Reports an `-- icelint: ignore ...` or `-- icelint: ignore-file ...` comment (or one rule named in
it) that no finding matched: the rule did not fire there, is not enabled, or is not an icelint rule
at all. Only the files under review are checked.

## Why is this bad?
A suppression outlives the problem it waived: once the statement is fixed or moved, the comment
silently waives the next, unrelated finding of that rule on the statement, and reviewers keep
reading a justification for something that no longer happens. A misspelt rule code waives nothing
at all while looking as if it did.

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
-- icelint: ignore drop-then-add -- payload is re-filled by the backfill job
ALTER TABLE db.events RENAME COLUMN payload TO body;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
ALTER TABLE db.events RENAME COLUMN payload TO body;
```
Delete the comment, or move it to the statement it was meant for. A suppression applies to the
statement right after it (on the lines before the statement) or to the statement whose last line
it ends; `ignore-file` applies to the whole file.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    """Nothing per statement: `icelint.engine.suppress` reports unused suppressions once all rules ran
    (`icelint.engine.suppress.lint` / `lint_text` run both)."""
    return iter(())


RULE = Rule("ICE100", "unused-suppression", Severity.WARNING, check, __doc__, triggers=frozenset())
