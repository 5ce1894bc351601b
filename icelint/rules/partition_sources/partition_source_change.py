"""Changing a column that a partition spec (current or older) is built on.

## What it does
Reports changes to partition source columns and partition-field commands that go wrong:
- dropping a column the **current** spec uses (Iceberg rejects the commit);
- dropping a column only an **older** spec uses as an identity partition, where Spark 3.5.9 +
  Iceberg 1.10.2 accept it and then fail:
  - a `string`, `decimal` or `binary` source (v1 and v2): time travel to the snapshots written
    with the old spec fails (`java.lang.ClassCastException: class java.lang.String cannot be cast
    to class org.apache.spark.unsafe.types.UTF8String`, and the same for `BigDecimal`/`Decimal` and
    `HeapByteBuffer`/`[B`);
  - on a **v1** table, of any source type, while another partition field is live in the current
    spec (v1 keeps the old field as `void`): every later `INSERT` fails
    (`java.lang.IllegalArgumentException: Cannot build accessor for field: null`).

  The same drop of an `int`, `bigint`, `date`, `timestamp`, `timestamp_ntz`, `boolean`, `double`
  or `float` source on v2 (or on v1 whose current spec is only void fields) breaks nothing in
  Spark; it is ICE025, like older non-identity fields. So is the drop of a `string`, `decimal` or
  `binary` source whose old spec never held a file, when the table's state proves it (no snapshot
  references a manifest of that spec): there is nothing to time-travel into. Without a state, or
  once the migration wrote the table, the old spec is presumed written;
- with `iceberg-version = "1.9"`, dropping a column that **any** older spec uses, whatever the
  transform (v1 and v2): Iceberg 1.9.2 accepts it, then every read, write and time travel of the
  table fails (`ValidationException: Cannot find source column for partition field`; on 1.10 the
  drops that keep working are ICE025);
- widening a column used by an identity partition (accepted, then reads of older snapshots fail
  with a `ClassCastException`; bucket/truncate sources keep their values: ICE026);
- `ADD/DROP/REPLACE PARTITION FIELD` naming unknown columns or fields, or duplicates (error);
- partition evolution that leaves two partition fields with the same field id (a v1 table upgraded
  to v2, then re-partitioned on a dropped field): accepted, and then every read fails.

## Why is this bad?
Data files record their partition values under the spec they were written with, and old specs stay
live for as long as any snapshot references them. A spec whose source column is gone, or whose
source changed type, can no longer interpret those files.

## Example
```sql
CREATE TABLE db.sales (id bigint, region string, sold_at timestamp) USING iceberg PARTITIONED BY (region);
INSERT INTO db.sales VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);
ALTER TABLE db.sales DROP COLUMN region;
```

## Use instead
```sql
CREATE TABLE db.sales (id bigint, region string, sold_at timestamp) USING iceberg PARTITIONED BY (region);
INSERT INTO db.sales VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);
-- keep `region` until no snapshot references files of the old spec: rewrite them and expire the old
-- snapshots from a Spark session or job (not in a migration), then drop it in a later migration
```

Renaming a partition source is ICE027.

## Fix
`DROP PARTITION FIELD` / `REPLACE PARTITION FIELD` that name a partition field, or the column of a
transform, in the wrong case: partition commands are case-sensitive whatever
`spark.sql.caseSensitive` says (`Cannot find partition field to remove: Logged_At_Day`). When
exactly one current partition field (or one column whose transform is a current partition field)
matches the name ignoring case, the fix writes its exact name (`DROP PARTITION FIELD logged_at_day`,
`DROP PARTITION FIELD bucket(4, id)`): safe, Spark accepts the statement and it does what it says
(tests/differential/cases/620_partition_field_name_case).

## References
- apache/iceberg#4563, #10234 (reads fail after dropping an old partition source)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding
from icelint.rules.kit.base import PARTITION_CHANGES, REJECTED, SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.partition_sources import analysis  # the partition rules share one analysis


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted:  # DROP/REPLACE PARTITION FIELD misspelt: the fix names the field exactly
        from icelint.rules.kit.partition_names import with_fix

        return (with_fix(ctx, f) for f in analysis.findings(ctx) if f.rule == RULE.code)
    found = analysis.findings(ctx)
    return (f for f in found if f.rule == RULE.code) if found else ()


RULE = Rule(*analysis.SOURCE_CHANGE, check, __doc__, triggers=frozenset({REJECTED, SCHEMA_CHANGED, *PARTITION_CHANGES}))
