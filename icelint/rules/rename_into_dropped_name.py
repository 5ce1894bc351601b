"""Renaming a column into the name of a dropped column: readers of that name now see other values.

## What it does
Flags `RENAME COLUMN y TO x` when `x` was last held by a column that has since been dropped, and `y`
holds values (it was written after it was added, or existed before: the usual "add, backfill, drop,
rename into place" recipe). When `y` was added by these migrations and nothing has written it since,
the rename hides data like a re-add and is `drop-then-add` (ICE001) instead.

## Why is this bad?
Iceberg binds columns by field id: every reader of `x` now reads `y`'s field id, and the dropped
column's own values are visible only to time travel to older snapshots. When the values were
backfilled on purpose this is the intended replacement, but readers that time travel, or compare
`x` across snapshots, see two different columns under one name.

## Example
```sql
CREATE TABLE db.events (id bigint, extra string, notes string) USING iceberg;
INSERT INTO db.events VALUES (1, 'x', 'n');
ALTER TABLE db.events DROP COLUMN extra;
ALTER TABLE db.events RENAME COLUMN notes TO extra;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, extra string, notes string) USING iceberg;
INSERT INTO db.events VALUES (1, 'x', 'n');
ALTER TABLE db.events RENAME COLUMN extra TO extra_old;
ALTER TABLE db.events RENAME COLUMN notes TO extra;
```
Renaming the old column aside keeps its values readable under a name of their own.

## Fix
Display-only: the rename to a name no dropped column had (`notes_v2`). Later statements and readers
use the name, so `--fix` never applies it.

## References
- Iceberg spec, "Schema Evolution": columns are tracked by id
"""

from __future__ import annotations

from typing import Iterator

from icelint.findings import Finding, Severity
from icelint.model.data import describe
from icelint.rules._base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.drop_then_add import RENAME, readd_fix, readd_help, readds, span_for


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = readds(ctx)
    return _check(ctx, found) if found else ()  # most statements re-use no freed name: no generator then


def _check(ctx: RuleContext, found: list) -> Iterator[Finding]:
    for r in found:
        if r.kind != RENAME:
            continue
        dotted = ".".join(r.path)
        old = r.old
        msg = (
            f"`{ctx.table_name}`: this renames field id {r.field_id} into `{dotted}`, a name that belonged to field id "
            f"{old.field_id} (dropped {old.where}): readers of `{dotted}` now see field id {r.field_id}'s values, and "
            f"field id {old.field_id}'s values stay visible only to time travel ({describe(ctx.after)})"
        )
        help_ = readd_help(ctx, r)
        fix = readd_fix(ctx, r, help_)
        yield ctx.finding(RULE, msg, help_.text, span=span_for(ctx, r.path), column=dotted, field_id=r.field_id, fix=fix)


RULE = Rule("ICE016", "rename-into-dropped-name", Severity.WARNING, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
