"""Making a column required, adding a required column, or making an identifier field optional.

## What it does
Flags `ALTER COLUMN ... SET NOT NULL` on an optional column, `ADD COLUMN ... NOT NULL` (also
inside a struct, and in `ADD COLUMNS` lists, which then fail as a whole), and `ALTER COLUMN ...
DROP NOT NULL` on an identifier field.

## Why is this bad?
Existing data files may hold nulls, so Iceberg never turns an optional column into a required one,
and it cannot add a required column that old files lack (Spark offers no default values for
Iceberg). Spark rejects all of these at run time. Identifier fields must be required: making one
optional is rejected too.

## Example
```sql
CREATE TABLE db.users (id bigint, email string) USING iceberg;
ALTER TABLE db.users ALTER COLUMN email SET NOT NULL;
```

## Use instead
```sql
CREATE TABLE db.users (id bigint, email string) USING iceberg;
-- enforce non-null values in the writing job, or check them with a data-quality test
ALTER TABLE db.users ALTER COLUMN email COMMENT 'never null: enforced by the ingest job';
```

## References
- Iceberg `SchemaUpdate.requireColumn`, `Schema.validateIdentifierField`
"""

from __future__ import annotations

from typing import Iterator

from icelint.findings import Finding, Severity
from icelint.rules._base import (
    NULLABILITY_RULE,
    REJECTED,
    Rule,
    RuleContext,
    error_owner,
)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if error_owner(ctx.outcome) != NULLABILITY_RULE:
        return
    e = ctx.error
    assert e is not None
    table = ctx.table_name
    if e.kind == "required-column":
        col = e.column or "c"
        help_ = (
            f"add the column as optional (`ALTER TABLE {table} ADD COLUMN {col} {_added_type(ctx, col)}`), backfill it, "
            "and enforce non-null values in the writer"
        )
    elif e.kind == "identifier":
        help_ = (
            f"drop it from the identifier fields first (`ALTER TABLE {table} DROP IDENTIFIER FIELDS {e.column or '<col>'}`) "
            "if it may be null"
        )
    else:
        help_ = "Iceberg cannot make an optional column required; enforce non-null values in the writing job instead"
    yield ctx.finding(RULE, f"`{table}`: {e.quoted}", help_, span=e.span, column=e.column, field_id=e.field_id)


def _added_type(ctx: RuleContext, column: str) -> str:
    from icelint import changes as ch
    from icelint.replay import spark_types as sp

    leaf = column.split(".")[-1].lower()
    for c in ctx.changes:
        specs = [c.column] if isinstance(c, ch.AddColumn) else list(c.columns) if isinstance(c, ch.ReplaceColumns) else []
        for spec in specs:
            if spec.path[-1].lower() == leaf:
                return sp.type_text(spec.type)
    return "<type>"


RULE = Rule(NULLABILITY_RULE, "nullability-change", Severity.ERROR, check, __doc__, triggers=frozenset({REJECTED}))
