"""`SET TBLPROPERTIES` keys that act on the table instead of being stored.

## What it does
Flags `current-snapshot-id` (rolls the table back or forward), `cherry-pick-snapshot-id`
(cherry-picks a snapshot), `format-version` upgrades (one-way; v3 tables cannot be read by
engines that only support v2, such as Athena), and `commit.retry.*` values that are no integer (an
error: every later commit of the table fails, even the one that would repair it).

## Why is this bad?
They look like configuration but change what readers see, or which engines can read the table at
all, and none of them can be undone by unsetting the property.

## Example
```sql
CREATE TABLE db.events (id bigint) USING iceberg;
ALTER TABLE db.events SET TBLPROPERTIES ('format-version' = '3');
```

## Use instead
```sql
CREATE TABLE db.events (id bigint) USING iceberg;
ALTER TABLE db.events SET TBLPROPERTIES ('write.metadata.previous-versions-max' = '50');
```
"""

from __future__ import annotations

from typing import Iterator

from icelint import changes as ch
from icelint.findings import Finding, Severity
from icelint.replay.properties import COMMIT_PROPERTIES, unreadable_commit_property
from icelint.rules._base import Rule, RuleContext

_WHAT = {
    "current-snapshot-id": "rolls the table to another snapshot (the schema does not follow)",
    "cherry-pick-snapshot-id": "cherry-picks a snapshot into the current state",
}


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None:
        return
    for c in ctx.changes:
        if not isinstance(c, ch.SetProperties):
            continue
        for k, v in c.properties:
            if k in _WHAT:
                yield ctx.finding(RULE, f"`{ctx.table_name}`: setting '{k}' {_WHAT[k]}", "do this as a reviewed maintenance operation, not in a schema migration", span=c.span)
            elif k in COMMIT_PROPERTIES and unreadable_commit_property({k: v}):
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: '{k}' = '{v}' is no integer: Iceberg stores it, and then every later commit "
                    f"of the table fails reading it (`For input string: \"{v}\"`), even the one that would set it back",
                    f"use an integer: `ALTER TABLE {ctx.table_name} SET TBLPROPERTIES ('{k}' = '4')`",
                    severity=Severity.ERROR,
                    span=c.span,
                )
            elif k == "format-version" and ctx.after is not None and ctx.after.format_version > ctx.before.format_version:
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: upgrading to format v{ctx.after.format_version} is irreversible"
                    + ("; engines without v3 support (Athena, older Trino, Spark and pyiceberg writers) can no longer use the table" if ctx.after.format_version >= 3 else ""),
                    "check that every engine reading or writing the table supports the new format version first",
                    span=c.span,
                )


RULE = Rule("ICE013", "acting-table-property", Severity.WARNING, check, __doc__, triggers=frozenset({ch.SetProperties}))
