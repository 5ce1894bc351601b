"""`SET spark.sql.caseSensitive=true` inside a migration script.

## What it does
Flags the setting, and tracks it: every later statement is resolved case-sensitively, as Spark
would. When a column is then added or renamed to a name that differs only in case from an existing
one (`Status` next to `status`), that statement is an error of its own (ICE029).

## Why is this bad?
With the setting on, Spark lets `Status` and `status` coexist. Every reader with the default
settings then fails with `[AMBIGUOUS_REFERENCE] Reference status is ambiguous`, and every INSERT
fails with `Multiple entries with same key`.

## Example
```sql
CREATE TABLE db.orders (id bigint, status string) USING iceberg;
SET spark.sql.caseSensitive=true;
ALTER TABLE db.orders ADD COLUMN Status string;
```

## Use instead
```sql
CREATE TABLE db.orders (id bigint, status string) USING iceberg;
ALTER TABLE db.orders ADD COLUMN status_code string;
```

## Fix
Removes the `SET` statement, with its `;` and its line (unsafe: every later statement is then
resolved case-insensitively, as Spark does by default, so a statement that relied on the setting,
such as adding `Status` next to `status`, would then fail). When a later statement of the same run
may rely on the setting (it was rejected, renames a column to a case variant of its name, or leaves
two names differing only in case side by side), the fix is display-only: fix those statements first.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.rules.case_sensitivity import analysis  # it tracks the session setting for ICE029 too


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = analysis.findings(ctx)
    return (f for f in found if f.rule == RULE.code) if found else ()


RULE = Rule(*analysis.CASE_SENSITIVE_SESSION, check, __doc__, triggers=frozenset({ch.SessionConfig, SCHEMA_CHANGED}))
