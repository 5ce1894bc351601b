"""A statement icelint cannot parse as Spark SQL.

## What it does
Reports every statement that does not match Spark 3.5's grammar or Iceberg's SQL extensions,
with the position of the offending token. The rest of the file is still checked.

## Why is this bad?
Spark would fail on it when the migration runs, and icelint cannot tell what it does to the
table, so every later verdict on that table rests on a guess.

## Example
```sql
CREATE TABLE db.users (id bigint, email string) USING iceberg;
ALTER TABLE db.users ALTER COLUMN email WIDER;
```

## Use instead
```sql
CREATE TABLE db.users (id bigint, email string) USING iceberg;
ALTER TABLE db.users ALTER COLUMN email COMMENT 'primary contact';
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    step = ctx.step
    if isinstance(step, ch.ParseFailure):
        yield ctx.finding(
            RULE,
            f"cannot parse this statement: {step.message}",
            step.help or "fix the syntax; see Spark's ALTER TABLE grammar and Iceberg's SQL extensions",
            span=step.error_span,
        )


RULE = Rule("ICE006", "parse-error", Severity.ERROR, check, __doc__, triggers=frozenset({ch.ParseFailure}))
