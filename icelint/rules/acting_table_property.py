"""`SET TBLPROPERTIES` keys that act on the table instead of being stored.

## What it does
Flags `current-snapshot-id` (rolls the table back or forward), `cherry-pick-snapshot-id`
(cherry-picks a snapshot), `location` (moves where new files go), and `format-version` upgrades to
v3 (one-way; v3 tables cannot be read by engines that only support v2, such as Athena). An upgrade
from v1 to v2 is not flagged: every maintained engine reads v2.

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

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext

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
        for i, (k, v) in enumerate(c.properties):
            key_span = c.key_spans[i] if i < len(c.key_spans) else c.span
            if k in _WHAT:
                yield ctx.finding(RULE, f"`{ctx.table_name}`: setting '{k}' {_WHAT[k]}", "do this as a reviewed maintenance operation, not in a schema migration", span=key_span)
            elif k == "format-version" and ctx.after is not None and ctx.after.format_version > max(ctx.before.format_version, 2):
                # 1 → 2 is read by every maintained engine; v3 is not
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: upgrading to format v{ctx.after.format_version} is irreversible"
                    + ("; engines without v3 support (Athena, older Trino, Spark and pyiceberg writers) can no longer use the table" if ctx.after.format_version >= 3 else ""),
                    "check that every engine reading or writing the table supports the new format version first",
                    span=key_span,
                )


RULE = Rule("ICE013", "acting-table-property", Severity.WARNING, check, __doc__, triggers=frozenset({ch.SetProperties}))
