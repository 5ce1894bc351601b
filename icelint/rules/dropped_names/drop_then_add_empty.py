"""Re-adding a dropped column's name on a table proven empty: nothing is lost now, but the field id changed.

## What it does
Flags `ADD COLUMN x` (and `ADD COLUMNS`, `REPLACE COLUMNS`) when the name `x` was last held by a
column that has since been dropped, on a table icelint can prove holds no rows: created earlier in
the same pending batch with nothing written since, or a state whose current snapshot is absent or
holds 0 records; or where the manifests of the table's current snapshot prove that the dropped field
id holds no non-null value (every data file counts 0 values, or was written without the field). On
a table that holds data the same statements are `drop-then-add` (ICE001).

## Why is this bad?
Nothing is lost now, because no data file holds a value. But the statements only work because the
table is empty: the column gets a new field id, so wherever the same migration runs against rows
(another environment, or after the first pipeline run) every existing row reads `NULL` in `x`, and
time travel to older snapshots shows the old column. It is a warning, not an error, because the
verdict depends on the table staying empty until the migration runs.

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload binary) USING iceberg;
```
While the table is new, change its `CREATE TABLE` instead; once it may hold data, rename the old
column aside (`RENAME COLUMN payload TO payload_old`) before adding the new one.

## Fix
The same as `drop-then-add` (ICE001): an earlier `DROP COLUMN` of the same file renames the old
column aside instead (unsafe: it stays), and `REPLACE COLUMNS` becomes the net `ALTER TABLE`
statements (safe when the listed columns are reached by name).

## References
- Iceberg spec, "Schema Evolution": columns are tracked by id
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.model.data import describe
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.dropped_names.analysis import DATA, EMPTY, readd_finding, readds, replace_finding


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = readds(ctx)
    return _check(ctx, found) if found else ()  # most statements re-use no freed name: no generator then


def _check(ctx: RuleContext, found: list) -> Iterator[Finding]:
    if found[0].replacing:  # REPLACE COLUMNS: one finding for the statement (ICE001's if a column held data)
        if not any(r.kind == DATA for r in found):
            yield replace_finding(ctx, found, RULE)
        return
    for r in found:
        if r.kind != EMPTY:
            continue
        dotted = ".".join(r.path)
        old = r.old
        if ctx.after is not None and ctx.after.has_data and r.impact is not None:  # the counts say the column is empty
            because, rows = r.impact.column_phrase(old.field_id), f"values in `{old.path}`"
        else:
            because, rows = describe(ctx.after), "rows"
        msg = (
            f"`{ctx.table_name}`: this re-adds `{dotted}` as field id {r.field_id}, but `{old.path}` was field id "
            f"{old.field_id} (dropped {old.where}); nothing is lost now, because {because}, but against a "
            f"table with {rows} the same statements would make every existing row read NULL in `{dotted}`"
        )
        yield readd_finding(ctx, RULE, r, msg, dotted, impact=r.impact)


RULE = Rule("ICE015", "drop-then-add-empty", Severity.WARNING, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
