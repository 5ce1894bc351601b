"""A reader fails on the deletion vectors a v3 merge-on-read table gets.

## What it does
Flags the statement after which Spark writes deletion vectors into a table that a configured
reader cannot read (ClickHouse, measured with chDB 4.4 / ClickHouse 26.9). Spark 3.5 + Iceberg
1.10 writes a deletion vector (a Puffin file) when a DELETE, UPDATE or MERGE removes part of a data
file of a format v3 table whose `write.delete.mode`, `write.update.mode` or `write.merge.mode` is
`merge-on-read`. The finding is on the statement that makes the table write them:

- the CREATE TABLE, or the SET TBLPROPERTIES (a merge-on-read mode on a v3 table, or the upgrade
  to `'format-version' = '3'` of a table with a merge-on-read mode), after which the table is so
  configured when it was not before;
- for a table already configured so in the state before the migration, its first DELETE, UPDATE
  or MERGE in the migration.

A DELETE that removes whole files writes no deletion vector, so the reader keeps working until
the first partial delete: the finding is about the table from then on, not about this statement.

## Why is this bad?
From the first partial delete on, every query of the reader fails, for the whole table:
`Code: 36. DB::Exception: Position deletes are supported only for parquet format: While executing
ReadFromObjectStorage. (BAD_ARGUMENTS)`. pyiceberg 0.12 and Spark read the table.
v2 tables (position delete files) and copy-on-write v3 tables are read.

## Example
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg
TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read');
ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '3');
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg
TBLPROPERTIES ('format-version' = '2', 'write.delete.mode' = 'merge-on-read');
-- keep v2 while ClickHouse reads the table, or use copy-on-write on v3:
ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'copy-on-write');
```

## References
- docs/iceberg-behaviour.md, "What the readers do" (measured by `tests/readers/`)
- icelint/readers/clickhouse.py (the profile)
"""

from __future__ import annotations

from typing import Iterator, Sequence

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.readers.conditions import MOR_KEYS, ROW_LEVEL, created_by, merge_on_read_keys, writes_deletion_vectors
from icelint.rules.kit.base import Rule, RuleContext
from icelint.readers.findings import property_span, reader_findings


def check(ctx: RuleContext, readers: Sequence[str] = ()) -> Iterator[Finding]:  # (): every profile
    if not created_by(ctx, writes_deletion_vectors, ROW_LEVEL):
        return
    meta = ctx.outcome.after
    assert meta is not None
    keys = merge_on_read_keys(meta)
    unset = ", ".join(f"'{k}' = 'copy-on-write'" for k in keys)
    yield from reader_findings(
        ctx, RULE, "deletion-vectors", readers,
        f"once a DELETE/UPDATE/MERGE writes deletion vectors (format v3 with {', '.join(keys)} = merge-on-read)",
        f"keep the table on format v2, or write copy-on-write: ALTER TABLE {ctx.table_name} SET TBLPROPERTIES ({unset});",
        property_span(ctx, ("format-version", *MOR_KEYS)),
    )


RULE = Rule(
    "ICE040", "reader-deletion-vectors", Severity.WARNING, check, __doc__,
    triggers=frozenset({ch.CreateTable, ch.SetProperties, ch.WriteData}),
)
