"""A column added or renamed next to one whose name differs only in case (`Status` and `status`).

## What it does
After `SET spark.sql.caseSensitive=true` (ICE008), Spark accepts `ADD COLUMN Status` next to
`status`, or `RENAME COLUMN state TO STATUS`. With the default settings it refuses those, and a
`CREATE TABLE` with such a pair anywhere, but not a pair inside the type of a column that ALTER
TABLE adds: `ADD COLUMN s struct<x: int, X: int>` (or `array<struct<...>>`, a map's values, ADD or
REPLACE COLUMNS) is accepted in any session. This rule flags the statement that creates the pair.

## Why is this bad?
With Spark's default settings (case-insensitive), every reader of the table then fails with
`[AMBIGUOUS_REFERENCE] Reference status is ambiguous`, and every INSERT fails with `Multiple entries
with same key`: the table is broken for everyone who does not set the option, and the only way back
is another rename or drop.

## Example
```sql
CREATE TABLE db.orders (id bigint, status string) USING iceberg;
SET spark.sql.caseSensitive=true;
ALTER TABLE db.orders ADD COLUMN Status string;
```

## Use instead
```sql
CREATE TABLE db.orders (id bigint, status string) USING iceberg;
ALTER TABLE db.orders ADD COLUMN status_code string;
```
Inside a struct too: `ADD COLUMN s struct<x: int, x_2: int>`, not `struct<x: int, X: int>`.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding
from icelint.rules.case_sensitivity import analysis  # it tracks the session setting, and makes ICE029's findings
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = analysis.findings(ctx)
    return (f for f in found if f.rule == RULE.code) if found else ()


RULE = Rule(*analysis.CASE_ONLY_TWIN, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
