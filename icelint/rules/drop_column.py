"""Dropping a column that holds data.

## What it does
Flags `DROP COLUMN(S)` on a table that holds data: its current snapshot has rows, the scripts wrote
it, or it existed at a deployment (an applied migration, or an earlier file of a folder checked
without a state: pipelines write tables between deployments). Only a table icelint can prove empty
is left alone: created in the same pending batch with nothing written since, or a state whose
current snapshot is absent or holds 0 records; and so is a column that the manifests of the table's
current snapshot prove holds no non-null value. The message says how many values the column holds,
counted from those manifests when the state source reaches them (`--stats-budget`).

## Why is this bad?
The values stay in the data files, but no current reader can see them any more: only time travel
to older snapshots shows them, until those snapshots expire. Re-adding a column with the same name
does **not** bring them back (it gets a new field id).

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events DROP COLUMN payload;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events RENAME COLUMN payload TO payload_deprecated;
-- drop it in a later migration, once no reader or job uses it
```

## Fix
Display-only: the `DROP COLUMN` renamed aside (`RENAME COLUMN x TO x_deprecated`, other columns of
the statement still dropped). Dropping may be exactly what was meant, so `--fix` never applies it.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.model.data import describe
from icelint.rules.kit.base import Rule, RuleContext, has_data
from icelint.rules.kit.impact import impact, is_empty_column


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None or ctx.after is None or has_data(ctx.before) is False:
        return
    removed = {f.id: ".".join(p) for p, f in ctx.diff.removed}
    if not removed:
        return
    for c in ctx.changes:
        if not isinstance(c, ch.DeleteColumn):
            continue
        f = ctx.field_before(c.path)
        if f is None or f.id not in removed:
            continue
        name = removed[f.id]
        imp = impact(ctx, ctx.before, f.id)
        if is_empty_column(imp):
            continue  # no data file holds a value of it: nothing is hidden
        why = imp.column_phrase(f.id) if imp is not None and imp.known else describe(ctx.before)
        help_ = _help_columns.drop_aside_help(ctx, f.id)
        yield ctx.finding(
            RULE,
            f"`{ctx.table_name}`: dropping `{name}` (field id {f.id}) hides its values in every existing data file from "
            f"current readers; only time travel to older snapshots still shows them; {why}",
            help_.text,
            span=c.span,
            column=name,
            field_id=f.id,
            impact=imp,
            fix=_fixes.from_proposed(ctx, help_, _fixes.DISPLAY_ONLY, f"Rename `{name}` aside instead of dropping it; drop it in a later migration"),
        )


RULE = Rule("ICE011", "drop-column-with-data", Severity.WARNING, check, __doc__, triggers=frozenset({ch.DeleteColumn}))
