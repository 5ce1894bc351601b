"""`CREATE OR REPLACE TABLE` / `REPLACE TABLE` on an existing table.

## What it does
Flags replacing a table that exists (known from the metadata or created earlier in the scripts).

## Why is this bad?
Iceberg keeps the field ids only of same-named columns, gives new ids to the others, and leaves
the current snapshot empty: every current reader sees an empty table until it is refilled, and
columns whose name changed lose their data for current readers.

## Example
```sql
CREATE TABLE db.settings (id bigint, theme string) USING iceberg;
INSERT INTO db.settings VALUES (1, 'dark');
CREATE OR REPLACE TABLE db.settings (id bigint, theme string, locale string) USING iceberg;
```

## Use instead
```sql
CREATE TABLE db.settings (id bigint, theme string) USING iceberg;
INSERT INTO db.settings VALUES (1, 'dark');
ALTER TABLE db.settings ADD COLUMN locale string;
```

## Fix
When the new definition has the same partitioning and every column can keep its field id: the net
`ADD` / `DROP` / `RENAME` / `ALTER COLUMN` statements instead of the replace. Unsafe, because the
rows then stay (which is the point) and table properties of the new definition are not carried over.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit.base import Rule, RuleContext
from icelint.rules.kit.impact import impact


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None:
        return
    for c in ctx.changes:
        if isinstance(c, ch.CreateTable) and (c.or_replace or c.replace_only):
            imp = impact(ctx, ctx.before)
            yield ctx.finding(
                RULE,
                f"`{ctx.table_name}` already exists: replacing it empties the current snapshot (readers see no rows), "
                "and only columns with the same name keep their field ids"
                + (f"; {imp.table_phrase()}" if imp is not None and imp.known else ""),
                help_ := _help_columns.replace_table_help(ctx),
                span=ctx.commit.table_span if ctx.commit else None,
                impact=imp,
                fix=_fixes.from_help(ctx, help_, _fixes.UNSAFE, "Change only what differs with ALTER TABLE statements: the rows and field ids stay"),
            )


RULE = Rule("ICE009", "create-or-replace-table", Severity.WARNING, check, __doc__, triggers=frozenset({ch.CreateTable}))
