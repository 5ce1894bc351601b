"""Two versioned migrations with the same version (`V2__a.sql` and `V2.0__b.sql`).

## What it does
Flags each file under review whose Flyway version (compared as numbers: `V2` = `V2.0` = `V2_0`)
is also the version of another file of the migrations folder. The example's files are shown one
after another, each under a `-- file:` comment.

## Why is this bad?
Flyway refuses to migrate at all (`Found more than one migration with version 2`): no migration of
the folder runs until one file is renamed, and which of the two runs first is then up to whoever
renames it.

## Example
```sql
-- file: V1__create_events.sql (applied)
CREATE TABLE db.events (id bigint) USING iceberg;
-- file: V2__add_source.sql (applied)
ALTER TABLE db.events ADD COLUMN source string;
-- file: V2.0__add_country.sql
ALTER TABLE db.events ADD COLUMN country string;
```

## Use instead
```sql
-- file: V1__create_events.sql (applied)
CREATE TABLE db.events (id bigint) USING iceberg;
-- file: V2__add_source.sql (applied)
ALTER TABLE db.events ADD COLUMN source string;
-- file: V3__add_country.sql
ALTER TABLE db.events ADD COLUMN country string;
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    """Nothing per statement: `icelint.engine.history.check_plan` looks at the files."""
    return iter(())


RULE = Rule("ICE024", "duplicate-migration-version", Severity.ERROR, check, __doc__, triggers=frozenset())
