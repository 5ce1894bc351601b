"""Changes inside nested structs, lists and maps that some readers cannot follow.

## What it does
Flags accepted adds, drops, renames, moves and type changes of fields nested in a struct, list or
map (`ADD COLUMN point.z`, `ALTER COLUMN tags.element TYPE bigint`).

## Why is this bad?
Iceberg handles them by field id, but not every reader does: ClickHouse's Iceberg reader cannot
read tables whose nested structures or collection element types changed.

## Example
```sql
CREATE TABLE db.shapes (id bigint, point struct<x: double, y: double>) USING iceberg;
ALTER TABLE db.shapes ADD COLUMN point.z double;
```

## Use instead
```sql
CREATE TABLE db.shapes (id bigint, point struct<x: double, y: double>) USING iceberg;
ALTER TABLE db.shapes ADD COLUMN point_z double;
```
"""

from __future__ import annotations

from typing import Iterator

from icelint import changes as ch
from icelint.findings import Finding, Severity
from icelint.rules._base import Rule, RuleContext

_NESTED = (ch.AddColumn, ch.DeleteColumn, ch.RenameColumn, ch.UpdateColumnType, ch.MoveColumn)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None or ctx.after is None or ctx.before.schema is ctx.after.schema:
        return
    for c in ctx.changes:
        if isinstance(c, _NESTED):
            path = c.column.path if isinstance(c, ch.AddColumn) else c.path
            if len(path) > 1:
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: nested change to `{'.'.join(path)}`: ClickHouse's Iceberg reader cannot read tables "
                    "whose nested structures or collection element types changed",
                    "if such readers matter, add a new top-level column instead",
                    span=c.span,
                    column=".".join(path),
                )


RULE = Rule("ICE014", "nested-change", Severity.INFO, check, __doc__, triggers=frozenset(_NESTED))
