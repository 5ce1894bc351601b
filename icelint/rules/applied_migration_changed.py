"""A versioned migration that was already merged (and so applied) has been edited.

## What it does
With `icelint check --since REF`, flags every pending `V<version>__*.sql` file that already existed
at the merge-base of REF and `HEAD` and was modified since. The example's files are shown one
after another, each under a `-- file:` comment; `(applied; changed since main)` marks the edited one.

## Why is this bad?
A versioned migration runs once. Databases that already applied it never see the edit, while new
environments do: the environments drift apart silently. Flyway's `validate` (run before every
`migrate` by default) fails on the changed checksum and stops all further migrations.

## Example
```sql
-- file: V1__create_events.sql (applied; changed since main)
CREATE TABLE db.events (id bigint, source string) USING iceberg;
```

## Use instead
```sql
-- file: V1__create_events.sql (applied)
CREATE TABLE db.events (id bigint) USING iceberg;
-- file: V2__add_source.sql
ALTER TABLE db.events ADD COLUMN source string;
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    """Nothing per statement: `icelint.engine.history.check_plan` looks at the files (and git)."""
    return iter(())


RULE = Rule("ICE023", "applied-migration-changed", Severity.WARNING, check, __doc__, triggers=frozenset())
