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

from icelint.plan.discovery import classify, duplicate_versions
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule
from icelint.rules.kit.files import PLAN, FilesContext, at_file_top, key, next_version, suffix


def check_files(ctx: FilesContext) -> Iterator[Finding]:
    """Each new file under review that shares its version with another file of the folder (either of
    the two: a migration that has already run is never advised to be renamed)."""
    if ctx.order != "flyway" or not ctx.plan.pending:
        return
    pending = ctx.new_pending
    for f, other in duplicate_versions(ctx.plan.files):
        for here, there in ((f, other), (other, f)):
            if key(here) in pending:
                v = ".".join(map(str, classify(here.name)[1] or ()))
                yield at_file_top(
                    RULE,
                    pending[key(here)],
                    f"version {v} is also the version of {there}: Flyway refuses to run any migration while "
                    "two files have the same version",
                    f"give one of them the next free version (for example `V{next_version(ctx.plan.files)}__"
                    f"{classify(here.name)[2]}{suffix(here)}`)",
                )


RULE = Rule.over_files(("ICE024", "duplicate-migration-version", Severity.ERROR), check_files, __doc__, PLAN)
