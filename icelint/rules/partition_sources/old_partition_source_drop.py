"""Dropping the source of an older partition field that Spark still reads: Iceberg 1.9 then fails.

## What it does
Flags `DROP COLUMN` (and `REPLACE COLUMNS`) of a column that is no longer in the current partition
spec but is the source of a partition field of an older spec, where Spark 3.5.9 + Iceberg 1.10.2
keep reading and writing the table:
- a `bucket`, `truncate` or time partition field (cases 036, 037, 045, 410);
- an *identity* field whose source is `int`, `bigint`, `date`, `timestamp`, `timestamp_ntz`,
  `boolean`, `double` or `float`, on a v2 table, or on a v1 table whose current spec holds only
  void fields (differential cases 501, 503, 504): time travel to the old snapshots and later
  inserts work.

- an identity field with a `string`, `decimal` or `binary` source whose spec never held a file: the
  table's state (`--metadata`, `--warehouse`, `--catalog`) shows that no snapshot references a
  manifest of that spec (differential case 526), so there is nothing to time-travel into.

Where Spark itself fails the same drop is an error, ICE003: an identity field with a `string`,
`decimal` or `binary` source whose spec has files, or may have (time travel fails; without a state
the spec is presumed written), or a v1 table with another live partition field (every later
`INSERT` fails). With `iceberg-version = "1.9"` every such drop is ICE003: see below.

## Why is this bad?
Spark 3.5.9 with Iceberg 1.10.2 accepts the drop and keeps reading the table. But Iceberg 1.9.2
binds every spec of the table when it loads it, cannot find the source column of the old field,
and fails every read, write and time travel of the table (measured: the same differential cases
run on 1.9.2; docs/iceberg-versions.md). Any engine or job still on Iceberg 1.9 breaks; older
runtimes are reported to fail the same way (apache/iceberg#4563, #10234; not measured here).

## Example
```sql
CREATE TABLE db.sales (id bigint, region string, sold_at timestamp) USING iceberg PARTITIONED BY (bucket(4, region));
INSERT INTO db.sales VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD region_bucket WITH days(sold_at);
ALTER TABLE db.sales DROP COLUMN region;
```

## Use instead
```sql
CREATE TABLE db.sales (id bigint, region string, sold_at timestamp) USING iceberg PARTITIONED BY (bucket(4, region));
INSERT INTO db.sales VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD region_bucket WITH days(sold_at);
-- keep `region` until no snapshot references files of the old spec: rewrite them and expire the old
-- snapshots from a Spark session or job (not in a migration), then drop it in a later migration
```

## References
- docs/iceberg-versions.md (the behaviour measured on Iceberg 1.9.2 and 1.10.2)
- apache/iceberg#4563, #10234 (reads fail after dropping an old partition source)
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
    *analysis.OLD_SOURCE_DROP,
    check,
    __doc__,
    triggers=frozenset({ch.DeleteColumn, ch.ReplaceColumns}),
)
