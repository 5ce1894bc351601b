"""A reader fails on the position deletes of a v2 merge-on-read table that is not all Parquet.

## What it does
Flags the statement after which Spark writes position delete files that a configured reader cannot
apply (ClickHouse, measured with chDB 4.4 / ClickHouse 26.9; pyiceberg 0.12 for Avro delete files): on a format v2 table with
`write.delete.mode`, `write.update.mode` or `write.merge.mode` = `merge-on-read`, a DELETE, UPDATE
or MERGE writes position delete files in `write.delete.format.default` (default: the data format,
`write.format.default`). ClickHouse applies them only when both the delete files and the data
files are Parquet. The finding is on the statement that makes the table write them:

- the CREATE TABLE or SET TBLPROPERTIES after which the table is v2, merge-on-read and writes ORC
  or Avro data or delete files, when it was not so configured before;
- for a table already configured so in the state before the migration, its first DELETE, UPDATE
  or MERGE in the migration.

icelint knows the formats new files are written in, not the formats of the files already in the
table (ORC files written before a switch to Parquet are not seen). v3 tables write deletion
vectors instead: see ICE040.

## Why is this bad?
From the first merge-on-read delete on, every query of the reader fails for the whole table:
ORC data files: `Code: 48. DB::Exception: Position deletes are only supported for data files of
Parquet format in Iceberg, but got ORC: While executing ReadFromObjectStorage. (NOT_IMPLEMENTED)`;
ORC delete files: `Code: 36. DB::Exception: Position deletes are supported only for parquet
format: While executing ReadFromObjectStorage. (BAD_ARGUMENTS)`. pyiceberg 0.12 reads ORC data and
delete files, but fails on Avro delete files: `ValueError: Delete file format not supported:
FileFormat.AVRO`. Spark reads them all. ORC tables without deletes are read by every reader.

## Example
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg
TBLPROPERTIES ('format-version' = '2', 'write.format.default' = 'orc');
ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read');
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg
TBLPROPERTIES ('format-version' = '2', 'write.format.default' = 'orc');
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
from icelint.readers.conditions import MOR_KEYS, ROW_LEVEL, created_by, default_format, merge_on_read_keys
from icelint.rules.kit.base import Rule, RuleContext
from icelint.readers.findings import property_span, reader_findings


def delete_format(meta) -> str:
    return str(meta.properties.get("write.delete.format.default", default_format(meta))).strip().lower()


def _kind(meta) -> str | None:
    """The kind of non-Parquet position deletes the table writes, if any."""
    if meta.format_version != 2 or not merge_on_read_keys(meta):
        return None
    if default_format(meta) == "orc":
        return "orc-position-deletes"
    if delete_format(meta) in ("orc", "avro"):
        return f"{delete_format(meta)}-delete-files"
    return None


def check(ctx: RuleContext, readers: Sequence[str] = ()) -> Iterator[Finding]:  # (): every profile
    if not created_by(ctx, lambda m: _kind(m) is not None, ROW_LEVEL):
        return
    meta = ctx.outcome.after
    assert meta is not None
    kind = _kind(meta)
    assert kind is not None
    keys = merge_on_read_keys(meta)
    files = f"{default_format(meta).upper()} data files" if kind == "orc-position-deletes" else f"{delete_format(meta).upper()} delete files"
    yield from reader_findings(
        ctx, RULE, kind, readers,
        f"once a DELETE/UPDATE/MERGE writes position deletes ({', '.join(keys)} = merge-on-read, {files})",
        f"write copy-on-write, or Parquet: ALTER TABLE {ctx.table_name} SET TBLPROPERTIES ("
        + ", ".join(f"'{k}' = 'copy-on-write'" for k in keys) + ");",
        property_span(ctx, ("format-version", "write.format.default", "write.delete.format.default", *MOR_KEYS)),
    )


RULE = Rule(
    "ICE042", "reader-position-delete-formats", Severity.WARNING, check, __doc__,
    triggers=frozenset({ch.CreateTable, ch.SetProperties, ch.WriteData}),
)
