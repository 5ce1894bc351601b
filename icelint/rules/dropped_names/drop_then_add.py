"""Re-adding a column name that belonged to a dropped column: old values become invisible.

## What it does
Flags `ADD COLUMN x` (and `ADD COLUMNS`, `REPLACE COLUMNS`, and renaming a column nothing has written
into the freed name) when the name `x` was last held by a column that has since been dropped: in this
migration, in an earlier file of the folder, or in an older schema of the table's metadata, on a table
that holds data. A table holds data unless icelint can prove it empty: its current snapshot has rows,
the scripts wrote it, or it existed at a deployment (an applied migration, or an earlier file of a
folder checked without a state: pipelines write tables between deployments). The message says how
many non-null values the dropped field id holds, counted from the manifests of the table's current
snapshot when the state source reaches them (`--stats-budget`). The same statements on a table
proven empty, or where those counts prove the dropped field id holds no value, are
`drop-then-add-empty` (ICE015); renaming a backfilled column into the freed name is
`rename-into-dropped-name` (ICE016).

## Why is this bad?
Iceberg binds columns by field id, not by name. The re-added column gets a new field id, so every
data file written before keeps its values under the old id, which the current schema no longer
has: at the current snapshot, every existing row reads `NULL` in the new column. The values survive
only for time travel to older snapshots. `REPLACE COLUMNS` does this to every column at once: it is
reported once for the statement, naming the re-added columns and their old and new field ids.

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events RENAME COLUMN payload TO payload_old;
ALTER TABLE db.events ADD COLUMN payload binary;
```
Then backfill `payload` from `payload_old`, switch readers, and drop `payload_old` in a later
migration. To keep the same type, a rename alone is enough: it is metadata-only and free.

## Fix
When the `DROP COLUMN` is an earlier statement of the same file, it becomes `RENAME COLUMN x TO
x_old` (a name no current or former column holds; other columns of a `DROP COLUMNS` are still
dropped), so that the `ADD COLUMN` makes the new column and the old values stay readable: unsafe,
because the old column stays (backfill, switch readers, drop it in a later migration); display-only
when the table is written after the drop (those rows would have to list the old column too), or
when the drop is not in the same file (then the display-only fix adds the column under a free name).
Renaming a column into the freed name: rename it to a free name instead (display-only: later
statements and readers use the name).
`REPLACE COLUMNS (...)` becomes the net `ADD` / `DROP` / `RENAME` / `ALTER COLUMN` statements that
give the listed columns while keeping every field id that can be kept, every column's nullability (a
required column listed without `NOT NULL` stays required: a column list cannot say "as it is") and the
row key (no net change drops an identifier field): safe when the listed schema is reached by name, unsafe when a column is taken as renamed because it has the position and type of
an unlisted one; display-only when a listed struct names two fields that differ only in case (the
statements would leave the table unreadable as well: ICE029). No fix when a listed column cannot
keep its id (an illegal type change, NOT NULL).

## References
- Iceberg spec, "Schema Evolution": columns are tracked by id
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.model.data import describe
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.dropped_names.analysis import DATA, readd_finding, readds, replace_finding


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = readds(ctx)
    return _check(ctx, found) if found else ()  # most statements re-use no freed name: no generator then


def _check(ctx: RuleContext, found: list) -> Iterator[Finding]:
    if found[0].replacing:  # REPLACE COLUMNS: one finding for the statement
        if any(r.kind == DATA for r in found):
            yield replace_finding(ctx, found, RULE)
        return
    for r in found:
        if r.kind != DATA:
            continue
        dotted = ".".join(r.path)
        old = r.old
        table = ctx.table_name
        why = r.impact.column_phrase(old.field_id) if r.impact is not None and r.impact.known else describe(ctx.after)
        if r.is_new:
            msg = (
                f"`{table}`: this re-adds `{dotted}` as field id {r.field_id}, but `{old.path}` was field id {old.field_id} "
                f"(dropped {old.where}); existing data files keep their values under field id {old.field_id}, which the "
                f"current schema no longer has: every existing row reads NULL in `{dotted}` at the current snapshot (the "
                f"values stay visible only to time travel); {why}"
            )
        else:
            prev = ctx.before.schema.name_of(r.field_id) if ctx.before is not None else None
            msg = (
                f"`{table}`: this renames `{prev}` (field id {r.field_id}) into `{dotted}`, a name that belonged to field id "
                f"{old.field_id} (dropped {old.where}); `{prev}` was added by these migrations and nothing has written "
                f"it since, so every existing row reads NULL in `{dotted}` (field id {old.field_id}'s values stay "
                f"visible only to time travel); {why}"
            )
        yield readd_finding(ctx, RULE, r, msg, dotted, impact=r.impact)


RULE = Rule("ICE001", "drop-then-add", Severity.ERROR, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
