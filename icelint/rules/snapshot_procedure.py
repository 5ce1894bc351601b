"""`CALL` procedures that move the current snapshot or expire history.

## What it does
Flags `rollback_to_snapshot`, `rollback_to_timestamp`, `set_current_snapshot`, `cherrypick_snapshot`,
`expire_snapshots` and `remove_orphan_files` in a migration.

## Why is this bad?
Rolling back does not roll back the schema, so the data and the current schema can disagree;
expiring snapshots removes the time travel that is the only way back to data orphaned by a bad
schema change.

## Example
```sql
CREATE TABLE db.events (id bigint) USING iceberg;
CALL local.system.expire_snapshots(table => 'db.events', older_than => TIMESTAMP '2024-01-01 00:00:00');
```

## Use instead
```sql
CREATE TABLE db.events (id bigint) USING iceberg;
-- run snapshot maintenance as a scheduled job, separate from schema migrations
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext

MOVES = {"rollback_to_snapshot", "rollback_to_timestamp", "set_current_snapshot", "cherrypick_snapshot"}
EXPIRES = {"expire_snapshots", "remove_orphan_files"}


def check(ctx: RuleContext) -> Iterator[Finding]:
    for c in ctx.changes:
        if isinstance(c, ch.CallProcedure) and c.procedure in MOVES | EXPIRES:
            if c.procedure in MOVES:
                msg = f"`{c.procedure}` moves the current snapshot of `{ctx.table_name}` but not its schema: current readers then read old data files through the new schema"
            else:
                msg = f"`{c.procedure}` removes history of `{ctx.table_name}`: time travel, the only way back to values orphaned by a schema change, stops working for the expired snapshots"
            yield ctx.finding(RULE, msg, "run snapshot maintenance as its own reviewed job, not inside a schema migration", span=c.span)


RULE = Rule("ICE010", "snapshot-procedure", Severity.WARNING, check, __doc__, triggers=frozenset({ch.CallProcedure}))
