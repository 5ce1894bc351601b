"""A reader fails on the Avro data files of a table whose `write.format.default` is 'avro'.

## What it does
Flags the statement after which Spark writes the table's data files as Avro, when a configured
reader cannot read Avro data files (pyiceberg 0.12: its scan reads Parquet and ORC only). The
finding is on the statement that makes the table write Avro:

- the CREATE TABLE or SET TBLPROPERTIES that sets `'write.format.default' = 'avro'`, when the
  table did not write Avro before;
- for a table that already wrote Avro in the state before the migration, its first write
  (INSERT, UPDATE, DELETE, MERGE) in the migration.

## Why is this bad?
From the first Avro data file on, every scan of the table fails in pyiceberg:
`ValueError: Unsupported file format: FileFormat.AVRO`. ClickHouse and Spark read the table; ORC
data files are read by all three.

## Example
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg;
ALTER TABLE db.events SET TBLPROPERTIES ('write.format.default' = 'avro');
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg;
ALTER TABLE db.events SET TBLPROPERTIES ('write.format.default' = 'parquet');
```

## References
- docs/iceberg-behaviour.md, "What the readers do" (measured by `tests/readers/`)
- icelint/readers/pyiceberg.py (the profile)
"""

from __future__ import annotations

from typing import Iterator, Sequence

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.readers.conditions import created_by, default_format
from icelint.rules.kit.base import Rule, RuleContext
from icelint.readers.findings import property_span, reader_findings


def _writes_avro(meta) -> bool:
    return default_format(meta) == "avro"


def check(ctx: RuleContext, readers: Sequence[str] = ()) -> Iterator[Finding]:  # (): every profile
    if not created_by(ctx, _writes_avro, None):
        return
    yield from reader_findings(
        ctx, RULE, "avro-data-files", readers,
        "once Spark writes its data files as Avro ('write.format.default' = 'avro')",
        f"write Parquet (or ORC): ALTER TABLE {ctx.table_name} SET TBLPROPERTIES ('write.format.default' = 'parquet');",
        property_span(ctx, ("write.format.default",)),
    )


RULE = Rule(
    "ICE041", "reader-avro-data-files", Severity.WARNING, check, __doc__,
    triggers=frozenset({ch.CreateTable, ch.SetProperties, ch.WriteData}),
)
