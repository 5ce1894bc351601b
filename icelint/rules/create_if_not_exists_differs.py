"""`CREATE TABLE IF NOT EXISTS` on a table that exists with other columns.

## What it does
Flags `CREATE TABLE IF NOT EXISTS` when the table already exists (known from the metadata or
created earlier in the scripts) and the statement's columns differ from the existing ones: a
column is missing on one side, or has another type or nullability.

## Why is this bad?
Spark does nothing when the table exists: the statement succeeds, and every later statement runs
against the existing table, not the one written here. A migration that relies on the new column
list then fails or writes to the wrong columns (an `INSERT` with one value per written column
fails with `[INSERT_COLUMN_ARITY_MISMATCH]`).

## Example
```sql
CREATE TABLE db.prefs (user_id bigint, theme string) USING iceberg;
CREATE TABLE IF NOT EXISTS db.prefs (user_id bigint, theme string, locale string) USING iceberg;
```

## Use instead
```sql
CREATE TABLE db.prefs (user_id bigint, theme string) USING iceberg;
ALTER TABLE db.prefs ADD COLUMN locale string;
```

## References
- Spark 3.5 `CreateTableExec` (`ifNotExists`: no-op when the table exists)
"""

from __future__ import annotations

from typing import Iterator

from icelint import changes as ch
from icelint.findings import Finding, Severity
from icelint.rules._base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None:
        return
    for c in ctx.changes:
        if not (isinstance(c, ch.CreateTable) and c.if_not_exists and not (c.or_replace or c.replace_only)):
            continue
        if not c.columns:
            continue  # CREATE ... AS SELECT: its columns are not known here
        differences = _differences(c, ctx.before.schema)
        if not differences:
            continue
        table = ctx.table_name
        yield ctx.finding(
            RULE,
            f"`{table}` already exists, so this CREATE TABLE IF NOT EXISTS does nothing and later statements run "
            f"against the existing table, whose columns differ from the ones written here: {'; '.join(differences)}",
            f"write the change as ALTER TABLE {table} statements (ADD COLUMN, ALTER COLUMN ... TYPE), or make the "
            "column list match the existing table",
        )


def _differences(c: ch.CreateTable, schema) -> list[str]:
    from icelint.replay import spark_types as sp
    from icelint.replay.errors import ReplayError

    out: list[str] = []
    existing = {f.name.lower(): f for f in schema.fields}
    written = set()
    for col in c.columns:
        name = col.path[-1]
        written.add(name.lower())
        f = existing.get(name.lower())
        if f is None:
            out.append(f"`{name}` is not in the existing table")
            continue
        try:
            want = sp.sql_name(sp.spark_type(col.type))
        except ReplayError:
            continue
        have = sp.sql_name(sp.from_iceberg(f.type))
        if want != have:
            out.append(f"`{name}` is {have} in the existing table (field id {f.id}), {want} here")
        elif col.required != f.required:
            state = "NOT NULL" if f.required else "nullable"
            out.append(f"`{name}` is {state} in the existing table (field id {f.id})")
    for f in schema.fields:
        if f.name.lower() not in written:
            out.append(f"the existing table also has `{f.name}` (field id {f.id})")
    return out


RULE = Rule("ICE061", "create-if-not-exists-differs", Severity.WARNING, check, __doc__, triggers=frozenset({ch.CreateTable}))
