"""Renaming a column into a dropped column's name without its values: readers of that name get other values.

## What it does
Flags `RENAME COLUMN y TO x` when `x` was last held by a column that has since been dropped, `y`
holds values (it was written after it was added, or existed before), and the dropped column's values
were not carried into `y` before the drop. When they were (`ADD x_new; UPDATE t SET x_new = f(x);
DROP x; RENAME x_new TO x`, the textbook type change), it is the warning
`rename-into-dropped-name-backfilled` (ICE030) instead. When `y` was added by these migrations and
nothing has written it since, the rename hides data like a re-add and is `drop-then-add` (ICE001).

Carried means: an accepted `UPDATE` of the table, before the drop, sets `y` from an expression that
reads `x`, in every row (no `WHERE`, or `WHERE x IS NOT NULL`). A drop that ran before these
migrations (a state, another deployment already applied) cannot be seen to have been prepared: it
is presumed not carried.

## Why is this bad?
Iceberg binds columns by field id: every reader of `x` now reads `y`'s field id, a column with other
values, and the dropped column's own values are visible only to time travel to older snapshots.
Every query, view and job that reads `x` silently gets `y`'s values (or NULL where `y` has none).

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

from icelint.values.findings import Finding, Severity
from icelint.model.data import describe
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.dropped_names.analysis import RENAME, readd_finding, readds, was_carried


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = readds(ctx)
    return _check(ctx, found) if found else ()  # most statements re-use no freed name: no generator then


def _check(ctx: RuleContext, found: list) -> Iterator[Finding]:
    for r in found:
        if r.kind != RENAME or was_carried(ctx, r):
            continue
        dotted = ".".join(r.path)
        old = r.old
        msg = (
            f"`{ctx.table_name}`: this renames field id {r.field_id} into `{dotted}`, a name that belonged to field id "
            f"{old.field_id} (dropped {old.where}), whose values were not copied into it: readers of `{dotted}` now get "
            f"field id {r.field_id}'s values instead, and field id {old.field_id}'s values stay visible only to time "
            f"travel ({describe(ctx.after)})"
        )
        yield readd_finding(ctx, RULE, r, msg, dotted)


RULE = Rule("ICE016", "rename-into-dropped-name", Severity.ERROR, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
