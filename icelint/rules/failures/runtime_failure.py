"""A statement Spark or Iceberg would reject when the migration runs.

## What it does
Replays every statement against the table state and reports those that fail: unknown tables or
columns, adding a name that exists (Spark compares names case-insensitively), renaming onto an
existing name, dropping an identifier field or a column of the current sort order, identifier
fields that are optional, float/double or nested in a list or map, moving a column to another
struct, downgrading `format-version`, reserved properties, unsupported types, and the Hive table
commands Spark refuses on an Iceberg table (`ADD|DROP PARTITION`, `TRUNCATE TABLE ... PARTITION`,
`MSCK REPAIR TABLE`, `ANALYZE TABLE`, `SET SERDE`, `CREATE INDEX`, `CREATE TABLE ... LIKE`), whose help writes the `DELETE` or `UPDATE` that
does what a partition's drop or rename meant. An `INSERT ... SELECT` whose value lands, by position,
in a column that cannot take it is reported at that value, with the column's field id; its help
names the columns in a column list when the SELECT's names are the table's (Spark then writes by
name). A write to a branch by name (`INSERT INTO db.t.branch_audit`, write-audit-publish) is checked
against the table's schema and needs the branch to exist; a tag or a snapshot named so
(`db.t.tag_v1`) takes no writes, and DDL on such a name finds no table: the help writes the
statement on the table itself. The message quotes the engine's own error.

A table that no state describes and no earlier statement creates is reported once, at the first
statement that names it: icelint cannot check it. `REPLACE COLUMNS` on a table with identifier fields
is rejected (it would delete the row key): the message says what the statement does (every column
re-added under a new field id) and the help and fix are the net change that keeps every field id,
nullability and the row key, as for `drop-then-add` (ICE001). `DROP TABLE` of a table that is not there says
which case it is: never known (Spark fails only where the catalog lacks it), absent from the
catalog or warehouse icelint was given, or dropped or renamed by an earlier statement; the help
offers `DROP TABLE IF EXISTS` where the table may not exist.

## Why is this bad?
A failing statement stops the migration half-way: the statements before it are committed, the
ones after it are not, and the table is left in a state no one planned.

## Example
```sql
CREATE TABLE db.users (id bigint NOT NULL, email string) USING iceberg;
ALTER TABLE db.users ADD COLUMN Email string;
```

## Use instead
```sql
CREATE TABLE db.users (id bigint NOT NULL, email string) USING iceberg;
ALTER TABLE db.users ADD COLUMN email_verified boolean;
```

## Fix
A Hive-style `CHANGE COLUMN a b type` that renames: `RENAME COLUMN a TO b`, then `ALTER COLUMN b TYPE
type` / `COMMENT` / `FIRST | AFTER` where it asks for them; safe, it does exactly what was asked.
`CHANGE COLUMN ... NOT NULL` on an optional column: the same without `NOT NULL` (unsafe: the column
stays optional). Dropping an identifier field or a column of the write order: the identifier fields
or the sort order changed first, then the drop; display-only, because it makes a drop succeed that
failed (the column and its values go) and changes what upserts key on or how files are laid out.

`REPLACE COLUMNS` on a table with identifier fields: the net `ADD` / `DROP` / `RENAME` / `ALTER
COLUMN` statements, as ICE001's fix (safe when every listed column is matched by name).

## References
- Spark 3.5 `CheckAnalysis`, Iceberg `SchemaUpdate` validation messages
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding
from icelint.rules.kit.base import REJECTED, SKIPPED, Rule, RuleContext
from icelint.rules.failures import analysis  # one place decides what is rejected and what is unknown


def check(ctx: RuleContext) -> Iterator[Finding]:
    return (f for f in analysis.findings(ctx) if f.rule == RULE.code)


RULE = Rule(*analysis.RUNTIME_FAILURE, check, __doc__, triggers=frozenset({REJECTED, SKIPPED, ch.CreateTable}))
