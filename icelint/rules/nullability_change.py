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

## Fix
`ADD COLUMN ... NOT NULL` (also a required field added inside a struct) becomes the same `ADD
COLUMN` without `NOT NULL`: unsafe, because the column is then optional; backfill it and enforce
non-null values in the writer. `DROP NOT NULL` on an identifier field becomes `DROP IDENTIFIER
FIELDS` followed by the `DROP NOT NULL`: unsafe, because the table's row identity changes. Making an
optional column required has no fix.

## References
- Iceberg `SchemaUpdate.requireColumn`, `Schema.validateIdentifierField`
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit import positions as _positions
from icelint.rules.kit.base import (
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
    msg, help_ = _help_columns.nullability_finding(ctx, e)
    fix = None
    if e.kind == "required-column":
        fix = _fixes.from_help(ctx, help_, _fixes.UNSAFE, f"Add `{e.column}` as an optional column (backfill it and enforce non-null values in the writer)")
    elif e.kind == "identifier":
        fix = _fixes.from_help(ctx, help_, _fixes.UNSAFE, f"Take `{e.column}` out of the identifier fields, then make it optional")
    yield ctx.finding(RULE, msg, help_, span=_positions.error_span(ctx, e), column=e.column, field_id=e.field_id, fix=fix)


RULE = Rule(NULLABILITY_RULE, "nullability-change", Severity.ERROR, check, __doc__, triggers=frozenset({REJECTED}))
