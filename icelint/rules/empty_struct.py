"""Dropping the last field of a struct, which leaves an empty `struct<>`.

## What it does
Flags a `DROP COLUMN` (or `DROP COLUMNS`) after which a struct column, list element or map value
has no fields left.

## Why is this bad?
Spark and Iceberg accept it and reads still work, but Parquet cannot write an empty group: every
later INSERT, UPDATE, MERGE or compaction fails with `InvalidSchemaException: Cannot write a schema
with an empty group`.

## Example
```sql
CREATE TABLE db.devices (id bigint, metrics struct<temp: double>) USING iceberg;
ALTER TABLE db.devices DROP COLUMN metrics.temp;
```

## Use instead
```sql
CREATE TABLE db.devices (id bigint, metrics struct<temp: double>) USING iceberg;
ALTER TABLE db.devices DROP COLUMN metrics;
```

## Fix
Display-only: dropping the whole column that holds the emptied struct (when no later statement adds
a field to it). That drops more than the statement did, so `--fix` never applies it.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.model.types import StructType
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit import positions as _positions
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    yield from _declared_empty(ctx)
    if not ctx.diff.removed or ctx.before is None or ctx.after is None:
        return
    before, after = ctx.before.schema, ctx.after.schema
    parent_paths = {p[:-1] for p, _ in ctx.diff.removed if len(p) > 1}
    for path in sorted(parent_paths):
        f = after.find(path)
        if f is not None and isinstance(f.type, StructType) and not f.type.fields:
            old = before.field_by_id(f.id)
            if old is not None and isinstance(old.type, StructType) and old.type.fields:
                name = ".".join(path)
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: `{name}` (field id {f.id}) is left as an empty struct<>; reads still work, but "
                    "every later write fails with 'Cannot write a schema with an empty group'",
                    (help_ := _help_columns.emptied_struct_help(ctx, path, f.id)).text,
                    span=_positions.change_span(ctx, path, prefix=True),
                    column=name,
                    field_id=f.id,
                    fix=_fixes.from_proposed(ctx, help_, _fixes.DISPLAY_ONLY, "Drop the whole column instead of leaving an empty struct"),
                )


def _declared_empty(ctx: RuleContext) -> Iterator[Finding]:
    """`struct<>` written in CREATE TABLE or ADD COLUMN: accepted, and no row can ever be written."""
    if not ctx.accepted or ctx.after is None:
        return
    if ctx.before is None:
        candidates = list(ctx.after.schema.all_fields()) if any(isinstance(c, ch.CreateTable) for c in ctx.changes) else []
    else:
        candidates = ctx.diff.added
    for path, f in candidates:
        if isinstance(f.type, StructType) and not f.type.fields:
            name = ".".join(path)
            yield ctx.finding(
                RULE,
                f"`{ctx.table_name}`: `{name}` (field id {f.id}) is declared as an empty struct<>; Spark accepts it, but "
                "every write to the table then fails with 'Cannot write a schema with an empty group'",
                "give the struct at least one field, or leave the column out until it has one",
                span=_positions.change_span(ctx, path),
                column=name,
                field_id=f.id,
            )


RULE = Rule("ICE007", "empty-struct", Severity.ERROR, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
