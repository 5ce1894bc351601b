"""Widening the source column of a `bucket` or `truncate` partition: every partition value stays the same.

## What it does
Reports, as information, `ALTER COLUMN ... TYPE` (or `CHANGE COLUMN`) that widens the source of a
`bucket` or `truncate` partition field (current or older spec): `int` to `bigint`, or a decimal to a
higher precision at the same scale. (Widening the source of an *identity* partition is an error:
ICE003.)

## Why is this bad?
It is not: Iceberg hashes `int` values as `long` and decimals by their unscaled value whatever the
precision, and `truncate` works on the value, so every file written before the change keeps the
partition it would get now. The finding is there so that a reviewer sees the partition source
changed; it needs no action.

## Example
```sql
CREATE TABLE db.ledger (account int, amount decimal(10, 2)) USING iceberg PARTITIONED BY (bucket(4, account));
ALTER TABLE db.ledger ALTER COLUMN account TYPE bigint;
```

## Use instead
```sql
CREATE TABLE db.ledger (account int, amount decimal(10, 2)) USING iceberg PARTITIONED BY (bucket(4, account));
ALTER TABLE db.ledger ALTER COLUMN amount TYPE decimal(20, 2);
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding
from icelint.rules.partition_sources import analysis  # the partition rules share one analysis
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    return (f for f in analysis.findings(ctx) if f.rule == RULE.code)


RULE = Rule(
    *analysis.SOURCE_WIDENING,
    check,
    __doc__,
    triggers=frozenset({ch.UpdateColumnType, ch.HiveChangeColumn}),
)
