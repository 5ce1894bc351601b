"""A merge-on-read write mode on a format v1 table: every row-level DELETE, UPDATE and MERGE then fails.

## What it does
Flags `'write.delete.mode'`, `'write.update.mode'` or `'write.merge.mode'` set to `merge-on-read`
on a table that stays on format version 1: by `ALTER TABLE ... SET TBLPROPERTIES`, or by
`CREATE TABLE` / `REPLACE TABLE` with `'format-version' = '1'` in its `TBLPROPERTIES`. The finding is on
the property.

## Why is this bad?
Iceberg accepts the property, but merge-on-read writes delete files, which format v1 does not
have: from then on every `DELETE`, `UPDATE` or `MERGE` of that kind on the table fails in Spark
with `Deletes are supported in V2 and above`, in this migration and in every pipeline after it.
The property change itself looks harmless in review, so the failure shows up far from its cause.

## Example
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg TBLPROPERTIES ('format-version' = '1');
ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read');
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, kind string) USING iceberg TBLPROPERTIES ('format-version' = '1');
ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '2');
ALTER TABLE db.events SET TBLPROPERTIES ('write.delete.mode' = 'merge-on-read');
```
Upgrading to format v2 first makes merge-on-read work (every maintained engine reads v2); or keep
the table on v1 and write copy-on-write (the default).

## References
- Iceberg spec, "Format Versioning": row-level deletes are a version 2 feature
- tests/differential/cases/702_merge_on_read_v1_property (Spark 3.5.9, Iceberg 1.10.2)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.readers.conditions import MOR_KEYS
from icelint.rules.kit.base import Rule, RuleContext
from icelint.rules.kit.help import sql, table_sql


def check(ctx: RuleContext) -> Iterator[Finding]:
    after = ctx.after
    if not ctx.accepted or after is None or after.format_version != 1:
        return
    for c in ctx.changes:
        if isinstance(c, ch.SetProperties):
            spans = c.key_spans
        elif isinstance(c, ch.CreateTable):
            spans = ()
        else:
            continue
        keys = [(k, spans[i] if i < len(spans) else None) for i, (k, v) in enumerate(c.properties)
                if k in MOR_KEYS and str(v).strip().lower() == "merge-on-read"]  # fmt: skip
        if not keys:
            continue
        names = ", ".join(f"'{k}'" for k, _ in keys)
        table = table_sql(ctx.table_name)
        cow = ", ".join(f"'{k}' = 'copy-on-write'" for k, _ in keys)
        kinds = "/".join(k.split(".")[1].upper() for k, _ in keys)
        if isinstance(c, ch.CreateTable):
            upgrade = "create the table with 'format-version' = '2' in its TBLPROPERTIES"
            cow_help = f"leave {names} out (copy-on-write, the default)"
        else:
            upgrade = "upgrade the table to format v2 first: " + sql(
                f"ALTER TABLE {table} SET TBLPROPERTIES ('format-version' = '2')"
            )
            cow_help = "keep copy-on-write: " + sql(f"ALTER TABLE {table} SET TBLPROPERTIES ({cow})")
        yield ctx.finding(
            RULE,
            f"`{ctx.table_name}`: {names} = 'merge-on-read' on a format v1 table is accepted, but from now on every "
            f"row-level {kinds} on it fails in Spark (Deletes are supported in V2 and above)",
            f"{upgrade}; or {cow_help}",
            span=keys[0][1] or (ctx.commit.table_span if ctx.commit is not None else None),
        )


RULE = Rule(
    "ICE031", "merge-on-read-v1", Severity.WARNING, check, __doc__,
    triggers=frozenset({ch.CreateTable, ch.SetProperties}),
)
