"""`ADD COLUMN ... DEFAULT` on Iceberg 1.9: the column is added, its default silently dropped.

## What it does
With `iceberg-version = "1.9"`, flags every column that `ALTER TABLE ... ADD COLUMN(S)` declares
with a `DEFAULT`. Measured with Spark 3.5.9 on Iceberg 1.9.2
(differential cases 710-712, v2 and v3 tables): the statement is accepted and the column is added
without its default: the new schema has no `initial-default` and no `write-default`.

With the default `iceberg-version = "1.10"` the same statement is rejected (Iceberg 1.10.2: "Cannot
add column c since setting default values in Spark is currently unsupported"), and that is an error,
ICE005. `ALTER COLUMN ... SET DEFAULT`, `DROP DEFAULT`, `REPLACE COLUMNS` and `CREATE TABLE` with a
`DEFAULT`, and a `NOT NULL` column added with a `DEFAULT`, are rejected on both runtimes (ICE005, ICE004).

## Why is this bad?
The migration reads as if every row had the default, and nothing says otherwise: the rows already
in the table read `NULL` in the new column, not the default, and an `INSERT` that leaves the column
out is rejected ("Cannot find data for the output column") instead of writing the default. Upgrading
the runtime to Iceberg 1.10 turns the same migration into a failure.

## Example
```sql
-- iceberg-version: 1.9
CREATE TABLE db.orders (id bigint, status string) USING iceberg;
ALTER TABLE db.orders ADD COLUMN priority int DEFAULT 5;
```

## Use instead
```sql
-- iceberg-version: 1.9
CREATE TABLE db.orders (id bigint, status string) USING iceberg;
ALTER TABLE db.orders ADD COLUMN priority int;
UPDATE db.orders SET priority = 5 WHERE priority IS NULL;
-- and have every writer set `priority`
```

## References
- docs/iceberg-versions.md (the behaviour measured on each runtime)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext
from icelint.rules.kit.help_defaults import without_default_help
from icelint.config.target import MEASURED, accepts_column_defaults


def check(ctx: RuleContext) -> Iterator[Finding]:
    version = ctx.result.iceberg_version
    if not ctx.accepted or ctx.after is None or not accepts_column_defaults(version):
        return
    for c in ctx.changes:
        spec = c.column if isinstance(c, ch.AddColumn) else None
        if spec is not None and spec.default is not None:
            f = ctx.after.schema.find(spec.path, case_sensitive=False)
            if f is None:
                continue
            name = ".".join(spec.path)
            yield ctx.finding(
                RULE,
                f"`{ctx.table_name}`: on Iceberg {version} this adds `{name}` (field id {f.id}) without its DEFAULT "
                f"{spec.default}: Iceberg {MEASURED[version]} accepts the statement and silently drops the default, so "
                f"existing rows read NULL in `{name}` and an INSERT that leaves `{name}` out fails instead of writing "
                f"{spec.default} (Iceberg 1.10 rejects the statement)",
                without_default_help(ctx, c, spec),
                span=spec.span or ctx.step.span,
                column=name,
                field_id=f.id,
            )


RULE = Rule(
    "ICE032",
    "column-default-dropped",
    Severity.WARNING,
    check,
    __doc__,
    triggers=frozenset({ch.AddColumn}),
)
