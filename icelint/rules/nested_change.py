"""Changes inside nested structs, lists and maps, which readers icelint has not measured may not follow.

## What it does
Flags accepted adds, drops, renames, moves and type changes of fields nested in a struct, list or
map (`ADD COLUMN point.z`, `ALTER COLUMN tags.element TYPE bigint`).

## Why is this bad?
Iceberg handles them by field id, and the readers icelint measured follow them: ClickHouse 26.9
(chDB 4.4.0) and pyiceberg 0.12.0 read nested adds, drops, renames and type widenings as Spark
does (`docs/iceberg-behaviour.md`, "What the readers do"). Readers that were not measured may not:
ClickHouse's documentation says its Iceberg reader does not support changes to nested structures
or to list element and map value types, so older ClickHouse releases and other engines reading the
table are at risk. The finding is information: check the readers of the table, or use a top-level
column.

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

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext

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
                    f"`{ctx.table_name}`: nested change to `{'.'.join(path)}`: readers icelint has not measured may not "
                    "follow it (ClickHouse's documentation says its Iceberg reader does not support changes to nested "
                    "structures; ClickHouse 26.9 via chDB 4.4.0 and pyiceberg 0.12.0 were measured reading them as Spark does)",
                    "if the table has readers other than those measured (an older ClickHouse, another engine), check they read it, or add a new top-level column instead",
                    span=c.span,
                    column=".".join(path),
                )


RULE = Rule("ICE014", "nested-change", Severity.INFO, check, __doc__, triggers=frozenset(_NESTED))
