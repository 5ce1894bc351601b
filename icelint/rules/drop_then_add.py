"""Re-adding a column name that belonged to a dropped column: old values become invisible.

## What it does
Flags `ADD COLUMN x` (and `ADD COLUMNS`, `REPLACE COLUMNS`, renames into a freed name) when the name
`x` was last held by a column that has since been dropped: in this migration, in an earlier file of
the folder, or in an older schema of the table's metadata.

## Why is this bad?
Iceberg binds columns by field id, not by name. The re-added column gets a new field id, so every
data file written before keeps its values under the old id, which the current schema no longer
has: at the current snapshot, every existing row reads `NULL` in the new column. The values survive
only for time travel to older snapshots. `REPLACE COLUMNS` does this to every column at once.

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

## References
- Iceberg spec, "Schema Evolution": columns are tracked by id
"""

from __future__ import annotations

from typing import Iterator

from icelint import changes as ch
from icelint.findings import Finding, Severity
from icelint.rules._base import SCHEMA_CHANGED, Rule, RuleContext, has_data


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None or ctx.after is None:
        return
    before, after = ctx.before.schema, ctx.after.schema
    d = ctx.diff
    candidates = [(p, f, True) for p, f in d.added] + [(p, f, False) for p, f, _ in d.renamed]
    if not candidates:
        return
    added_paths = {p for p, _ in d.added}
    replacing = any(isinstance(c, ch.ReplaceColumns) for c in ctx.changes)
    data = has_data(ctx.after)
    severity = Severity.WARNING if data is False else Severity.ERROR
    for path, f, is_new in candidates:
        dotted = ".".join(path)
        if len(path) > 1 and path[:-1] in added_paths:
            continue  # inside a column that is new as a whole: reported for its top
        holders = last_dropped(ctx.history.former.get(dotted.lower(), ()), after)
        if replacing:
            old = before.find(path, case_sensitive=False)
            if old is not None and after.field_by_id(old.id) is None:
                holders = [h for h in holders if h.field_id != old.id] + [_holder(old.id, dotted, "by this statement")]
        if not holders:
            continue
        old = holders[-1]
        span = _span_for(ctx, path) or ctx.step.span
        table = ctx.table_name
        if is_new:
            lost = (
                "the table holds no data yet, so nothing is lost now"
                if data is False
                else f"existing data files keep their values under field id {old.field_id}, which the current schema no "
                f"longer has: every existing row reads NULL in `{dotted}` at the current snapshot (the values stay "
                "visible only to time travel)"
            )
            msg = (
                f"`{table}`: this re-adds `{dotted}` as field id {f.id}, but `{old.path}` was field id {old.field_id} "
                f"(dropped {old.where}); {lost}"
            )
        elif ctx.history.unwritten_since_added(f.id) and data is not False:
            prev = before.name_of(f.id)
            msg = (
                f"`{table}`: this renames `{prev}` (field id {f.id}) into `{dotted}`, a name that belonged to field id "
                f"{old.field_id} (dropped {old.where}); `{prev}` was added by these migrations and nothing has written "
                f"it since, so every existing row reads NULL in `{dotted}` (field id {old.field_id}'s values stay "
                "visible only to time travel)"
            )
        else:
            # renaming a (backfilled) column into the freed name is the usual replacement recipe: the name
            # now shows another column's values, and the dropped column's own values only for time travel
            severity = Severity.WARNING
            msg = (
                f"`{table}`: this renames field id {f.id} into `{dotted}`, a name that belonged to field id "
                f"{old.field_id} (dropped {old.where}): readers of `{dotted}` now see field id {f.id}'s values, and "
                f"field id {old.field_id}'s values stay visible only to time travel"
            )
        help_ = (
            f"keep the data by renaming instead of dropping: `ALTER TABLE {table} RENAME COLUMN {old.path} "
            f"TO {old.path.split('.')[-1]}_old` before adding `{dotted}`, then backfill, switch readers, and drop the old "
            "column in a later migration; if only the name or a legal widening was wanted, use RENAME COLUMN or "
            "ALTER COLUMN ... TYPE, which keep the field id"
        )
        if replacing:
            help_ = (
                "do not use REPLACE COLUMNS on Iceberg tables: it drops every column and re-adds it under a new id; "
                "use ADD COLUMNS / DROP COLUMN / RENAME COLUMN / ALTER COLUMN statements for the columns that change"
            )
        yield ctx.finding(RULE, msg, help_, span=span, column=dotted, field_id=f.id, severity=severity)


def last_dropped(holders, after) -> list:
    """`[h for h in holders if after.field_by_id(h.field_id) is None][-1:]`, searched from the end: a
    name dropped and re-added N times has N holders, and only the newest one is reported."""
    for h in reversed(holders):
        if not after.has_field_id(h.field_id):
            return [h]
    return []


def _holder(field_id: int, path: str, where: str):
    from icelint.rules._base import FormerField

    return FormerField(field_id, path, where)


def _span_for(ctx: RuleContext, path: tuple[str, ...]):
    low = tuple(p.lower() for p in path)
    for c in ctx.changes:
        if isinstance(c, ch.AddColumn) and tuple(p.lower() for p in c.column.path) == low:
            return c.column.span or c.span
        if isinstance(c, ch.ReplaceColumns):
            for col in c.columns:
                if tuple(p.lower() for p in col.path) == low:
                    return col.span
    return None


RULE = Rule("ICE001", "drop-then-add", Severity.ERROR, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
