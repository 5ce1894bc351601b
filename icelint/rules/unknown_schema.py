"""A table whose schema icelint cannot know (`CREATE TABLE ... AS SELECT`, non-Iceberg tables).

## What it does
Reports, as information, a `CREATE TABLE ... AS SELECT` without a column list, or a table created
`USING` another format: icelint does not run the query, so it does not know the columns, and the
statements that follow on that table are not checked.

## Why is this bad?
It is not wrong in itself; the finding says where icelint stops checking, so that a clean report
is not read as "every statement was verified".

## Example
```sql
CREATE TABLE db.src (id bigint NOT NULL) USING iceberg;
CREATE TABLE db.copy AS SELECT * FROM db.src;
```

## Use instead
```sql
CREATE TABLE db.src (id bigint NOT NULL) USING iceberg;
CREATE TABLE db.copy (id bigint NOT NULL) USING iceberg;
INSERT INTO db.copy SELECT * FROM db.src;
```
"""

from __future__ import annotations

from typing import Iterator

from icelint import changes as ch
from icelint.findings import Finding, Severity
from icelint.rules._base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    from icelint.rules import runtime_failure  # one place decides what is rejected and what is unknown

    return (f for f in runtime_failure.findings(ctx) if f.rule == RULE.code)


RULE = Rule("ICE028", "unknown-schema", Severity.INFO, check, __doc__, triggers=frozenset({ch.CreateTable}))
