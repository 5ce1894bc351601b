"""Renaming a partition source column: the partition field keeps the old name.

## What it does
Flags `RENAME COLUMN` of a column that a partition spec (current or older) is built on.

## Why is this bad?
The partition field keeps its name (`region`, `region_bucket`, ...), so partition metadata tables
and queries on them still show the old name, and a later `ADD COLUMN` that reuses the old column
name fails, because a partition field already has it (apache/iceberg#11762).

## Example
```sql
CREATE TABLE db.sales (id bigint, region string) USING iceberg PARTITIONED BY (region);
ALTER TABLE db.sales RENAME COLUMN region TO sales_region;
```

## Use instead
```sql
CREATE TABLE db.sales (id bigint, region string) USING iceberg PARTITIONED BY (region);
-- keep the partition source's name; give consumers the new name in a view
CREATE VIEW db.sales_v AS SELECT id, region AS sales_region FROM db.sales;
```

## References
- apache/iceberg#11762 (re-adding a renamed identity source's name fails)
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
    *analysis.SOURCE_RENAME,
    check,
    __doc__,
    triggers=frozenset({ch.RenameColumn}),
)
