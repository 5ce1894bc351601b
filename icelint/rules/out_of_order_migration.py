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

from icelint.plan.discovery import VERSIONED, classify
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule
from icelint.rules.kit.files import PLAN, FilesContext, at_file_top, next_version, suffix, version_text


def check_files(ctx: FilesContext) -> Iterator[Finding]:
    """A new file under review whose version is lower than the newest of the files that are not new
    (never one that existed before: an applied migration edited is ICE023's, not a rename)."""
    if ctx.order != "flyway" or not ctx.plan.pending:
        return
    fresh = ctx.new_names
    applied = [classify(p.name)[1] for p in ctx.plan.files if str(p) not in fresh and classify(p.name)[0] == VERSIONED]
    applied_versions = {v for v in applied if v is not None}
    newest = max(applied_versions, default=None)
    if newest is None:
        return
    for p in ctx.new_pending.values():
        kind, v, desc = classify(p.name)
        if kind != VERSIONED or v is None or v >= newest or v in applied_versions:
            continue
        if str(p) in ctx.plan.git.existed:
            continue
        yield at_file_top(
            RULE,
            p,
            f"version {version_text(v)} is lower than {version_text(newest)}, the newest migration already in the "
            f"folder: a database that already ran {version_text(newest)} refuses this file (Flyway: `Detected "
            f"resolved migration not applied to database`), or with outOfOrder=true runs it after "
            f"{version_text(newest)}, not where its name sorts (and where icelint replayed it)",
            f"give it a version above {version_text(newest)}: rename it to "
            f"`V{next_version(ctx.plan.files)}__{desc}{suffix(p)}`",
        )


RULE = Rule.over_files(("ICE022", "out-of-order-migration", Severity.WARNING), check_files, __doc__, PLAN)
