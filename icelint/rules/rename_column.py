"""Renaming a column: safe for Iceberg, breaking for everything that reads it by name.

## What it does
Flags `RENAME COLUMN` (and renames into a name that another column used to hold, see ICE001).

## Why is this bad?
The rename is metadata-only and keeps the field id, so the data is safe. But views, dbt models,
notebooks, dashboards and downstream jobs select the column by name, and they break the moment
the migration runs.

## Example
```sql
CREATE TABLE db.users (id bigint, mail string) USING iceberg;
ALTER TABLE db.users RENAME COLUMN mail TO email;
```

## Use instead
```sql
CREATE TABLE db.users (id bigint, mail string) USING iceberg;
-- announce the rename, update consumers (views, dbt models) in the same release, then rename
ALTER TABLE db.users ALTER COLUMN mail COMMENT 'to be renamed to email in release 42';
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    renamed = {new.id: path[:-1] + (old.name,) for path, new, old in ctx.diff.renamed}
    if not renamed or ctx.before is None:
        return
    for c in ctx.changes:
        if isinstance(c, ch.RenameColumn):
            f = ctx.field_before(c.path)
            if f is None or f.id not in renamed:
                continue
            old = ".".join(renamed[f.id])
            yield ctx.finding(
                RULE,
                f"`{ctx.table_name}`: renaming `{old}` to `{c.new_name}` keeps field id {f.id} and its data, but every "
                "view, dbt model, notebook and job that reads it by name breaks",
                "update the consumers in the same release, or add a view that exposes the old name during the transition",
                span=c.span,
                column=old,
                field_id=f.id,
            )


RULE = Rule("ICE012", "rename-column", Severity.WARNING, check, __doc__, triggers=frozenset({ch.RenameColumn}))
