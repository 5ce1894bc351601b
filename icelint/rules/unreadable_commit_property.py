"""`SET TBLPROPERTIES` of a `commit.retry.*` value that is no integer: every later commit fails.

## What it does
Flags `ALTER TABLE ... SET TBLPROPERTIES` that gives `commit.retry.num-retries`,
`commit.retry.min-wait-ms`, `commit.retry.max-wait-ms` or `commit.retry.total-timeout-ms` a value
that is not a 32-bit integer (`'1s'`, `'abc'`, `'-'`).

## Why is this bad?
`CREATE TABLE` validates these values, but `SET TBLPROPERTIES` stores them as they are. Iceberg
reads them again at the start of every later commit of the table, and fails
(`For input string: "1s"`): every INSERT, MERGE, schema change and even the
`SET TBLPROPERTIES` that would repair the value is rejected, so the table can no longer be
written from Spark until the metadata is repaired by hand.

## Example
```sql
CREATE TABLE db.jobs (id bigint) USING iceberg;
ALTER TABLE db.jobs SET TBLPROPERTIES ('commit.retry.max-wait-ms' = '1s');
```

## Use instead
```sql
CREATE TABLE db.jobs (id bigint) USING iceberg;
ALTER TABLE db.jobs SET TBLPROPERTIES ('commit.retry.max-wait-ms' = '1000');
```

## References
- Iceberg `TableProperties` (`commit.retry.*` are integers, read by `PropertyUtil.propertyAsInt`)
- differential case `213` (`docs/iceberg-behaviour.md`)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.replay.properties import COMMIT_PROPERTIES, unreadable_commit_property
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None:
        return
    for c in ctx.changes:
        if not isinstance(c, ch.SetProperties):
            continue
        for i, (k, v) in enumerate(c.properties):
            if k in COMMIT_PROPERTIES and unreadable_commit_property({k: v}):
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: '{k}' = '{v}' is no integer: Iceberg stores it, and then every later commit "
                    f"of the table fails reading it (`For input string: \"{v}\"`), even the one that would set it back",
                    f"use an integer: `ALTER TABLE {ctx.table_name} SET TBLPROPERTIES ('{k}' = '4')`",
                    span=c.key_spans[i] if i < len(c.key_spans) else c.span,
                )


RULE = Rule("ICE062", "unreadable-commit-property", Severity.ERROR, check, __doc__, triggers=frozenset({ch.SetProperties}))
