"""A new versioned migration whose version is lower than one already applied (Flyway's out-of-order).

## What it does
Compares each file under review (pending) with the other files of the migrations folder (applied,
or context): a pending `V<version>__*.sql` whose version is lower than the newest applied version is
flagged. The example's files are shown one after another, each under a `-- file:` comment.

## Why is this bad?
Migration tools apply versions in order, once. A database that already ran `V3` either refuses a
new `V2` (Flyway's default: `Detected resolved migration not applied to database`) or, with
`outOfOrder=true`, runs it *after* `V3` — not where its name sorts, which is where icelint, and the
author reading the folder, expect it. Statements that depend on the order (an `ADD COLUMN ...
AFTER`, a rename that `V3` also touches) then do something else in production than in review.

## Example
```sql
-- file: V1__create_events.sql (applied)
CREATE TABLE db.events (id bigint) USING iceberg;
-- file: V3__add_source.sql (applied)
ALTER TABLE db.events ADD COLUMN source string;
-- file: V2__add_country.sql
ALTER TABLE db.events ADD COLUMN country string;
```

## Use instead
```sql
-- file: V1__create_events.sql (applied)
CREATE TABLE db.events (id bigint) USING iceberg;
-- file: V3__add_source.sql (applied)
ALTER TABLE db.events ADD COLUMN source string;
-- file: V4__add_country.sql
ALTER TABLE db.events ADD COLUMN country string;
```

## References
- Flyway: `outOfOrder`, `validate`
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    """Nothing per statement: `icelint.engine.history.check_plan` looks at the files."""
    return iter(())


RULE = Rule("ICE022", "out-of-order-migration", Severity.WARNING, check, __doc__, triggers=frozenset())
