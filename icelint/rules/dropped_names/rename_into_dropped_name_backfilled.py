"""Renaming a backfilled column into the dropped name it was copied from: old snapshots read another field there.

## What it does
Flags `RENAME COLUMN y TO x` when `x` was last held by a column that has since been dropped and
that column's values were carried into `y` before the drop: an accepted `UPDATE` of the table set
`y` from an expression reading `x` in every row (no `WHERE`, or `WHERE x IS NOT NULL`). This is the
textbook way to change a column's type:

```sql
ALTER TABLE db.orders ADD COLUMN quantity_v2 bigint;
UPDATE db.orders SET quantity_v2 = CAST(quantity AS bigint);
ALTER TABLE db.orders DROP COLUMN quantity;
ALTER TABLE db.orders RENAME COLUMN quantity_v2 TO quantity;
```

When the values were not carried, readers of `x` get other values, and the rename is the error
`rename-into-dropped-name` (ICE016) instead.

## Why is this bad?
Current readers of `x` keep its values (as `y`'s field id, converted by the backfill), so nothing is
lost today. But `x` is now a new field id: time travel to a snapshot before the backfill, incremental
reads and change-data feeds that compare `x` across snapshots, and engines that cache field ids see
two different columns under one name, and the old field id's values are reachable only through time
travel. Rows written between the backfill and the rename by a writer that still wrote `x` were not
carried.

## Example
```sql
CREATE TABLE db.orders (id bigint, quantity int) USING iceberg;
INSERT INTO db.orders VALUES (1, 3);
ALTER TABLE db.orders ADD COLUMN quantity_v2 bigint;
UPDATE db.orders SET quantity_v2 = CAST(quantity AS bigint);
ALTER TABLE db.orders DROP COLUMN quantity;
ALTER TABLE db.orders RENAME COLUMN quantity_v2 TO quantity;
```

## Use instead
```sql
CREATE TABLE db.orders (id bigint, quantity int) USING iceberg;
INSERT INTO db.orders VALUES (1, 3);
-- int to bigint is a legal promotion: the field id, its values and its history stay
ALTER TABLE db.orders ALTER COLUMN quantity TYPE bigint;
```
When the type change is not a legal promotion, keep the recipe, stop writers of the old column
before the backfill, and keep the old column under a name of its own (`RENAME COLUMN quantity TO
quantity_old` instead of the drop) until no reader time travels to before the backfill.

## Fix
Display-only: the rename to a name no dropped column had. Later statements and readers use the name,
so `--fix` never applies it.

## References
- Iceberg spec, "Schema Evolution": columns are tracked by id
- tests/differential/cases/703_rename_into_dropped_name_carried (Spark 3.5.9, Iceberg 1.10.2)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.dropped_names.analysis import RENAME, readd_finding, readds, was_carried


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = readds(ctx)
    return _check(ctx, found) if found else ()  # most statements re-use no freed name: no generator then


def _check(ctx: RuleContext, found: list) -> Iterator[Finding]:
    for r in found:
        if r.kind != RENAME or not was_carried(ctx, r):
            continue
        dotted = ".".join(r.path)
        old = r.old
        msg = (
            f"`{ctx.table_name}`: this renames field id {r.field_id} into `{dotted}`, a name that belonged to field id "
            f"{old.field_id} (dropped {old.where}) whose values were copied into it: current readers of `{dotted}` keep "
            f"them, but time travel to snapshots before the copy reads field id {old.field_id} under that name"
        )
        yield readd_finding(ctx, RULE, r, msg, dotted)


RULE = Rule(
    "ICE030", "rename-into-dropped-name-backfilled", Severity.WARNING, check, __doc__,
    triggers=frozenset({SCHEMA_CHANGED}),
)
