"""Changing a column to a type Iceberg cannot promote it to.

## What it does
Checks `ALTER COLUMN ... TYPE` and Hive-style `CHANGE COLUMN` against the promotions Spark 3.5 and
Iceberg 1.10 accept: `int` → `bigint`, `float` → `double`, `decimal(P,S)` → `decimal(P',S)` with
`P' > P`, also for list elements (`col.element`) and map values (`col.value`). Map keys and structs
can never change type. It says which engine rejects the change: Spark's analyzer (narrowing, such
as `bigint` → `int`) or Iceberg (`int` → `string`, decimal scale changes, `date` → `timestamp`).

## Why is this bad?
Data files keep the type they were written with; Iceberg only allows changes that every old value
can be read as without rewriting. Anything else fails the migration at run time, and the usual
workaround (drop the column and add it back with the new type) silently orphans all its data.

## Example
```sql
CREATE TABLE db.orders (id bigint, quantity int) USING iceberg;
ALTER TABLE db.orders ALTER COLUMN quantity TYPE string;
```

## Use instead
```sql
CREATE TABLE db.orders (id bigint, quantity int) USING iceberg;
ALTER TABLE db.orders ADD COLUMN quantity_str string;
-- UPDATE db.orders SET quantity_str = CAST(quantity AS string); switch readers; drop quantity later
```

A narrowing or a conversion (`bigint` → `int`, `double` → `float`, `string` → `int`, `timestamp` →
`date`) also needs a guarded backfill: with ANSI mode off (Spark's default) a plain `CAST` wraps
3000000000 to -1294967296, rounds, or gives NULL without a word. So the help copies only the values
that convert back unchanged (`CASE WHEN CAST(CAST(x AS int) AS bigint) = x THEN CAST(x AS int) END`),
leaves the others NULL in the new column (they keep their value in the old one), and gives the
`SELECT count(*)` of those rows, for the user to decide before switching readers.

## Fix
Display-only: the help's statements (a new column of the wanted type, backfilled from the old one
by a cast, guarded as above where values may not fit; for a struct, its fields changed one by one). The new column has another name, so readers
and writers must change too: `--fix` never applies it.

## References
- Iceberg spec, "Schema Evolution" (type promotion)
- `TypeUtil.isPromotionAllowed` in Iceberg 1.10
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit import help_types as _help_types
from icelint.rules.kit import positions as _positions
from icelint.rules.kit.base import REJECTED, TYPE_RULE, Rule, RuleContext, error_owner


def check(ctx: RuleContext) -> Iterator[Finding]:
    if error_owner(ctx.outcome) != TYPE_RULE:
        return
    e = ctx.error
    assert e is not None
    col = e.column or "the column"
    table = ctx.table_name
    who = "Spark's analyzer rejects it" if e.layer == "spark" else "Iceberg rejects it"
    if e.kind == "map-key":
        help_ = "map keys can never change type: add a new map column with the new key type, backfill it, and switch readers"
    elif "CANNOT_UPDATE_FIELD" in e.message:
        help_ = _help_columns.nested_type_help(ctx, col, _target(ctx))
    else:
        help_ = _help_types.new_column_help(ctx, col, _target_type(ctx))
    fid = f" (field id {e.field_id})" if e.field_id is not None else ""
    target = _target(ctx)
    yield ctx.finding(
        RULE,
        f"`{table}`: illegal type change of `{col}`{fid}; {who}: {e.quoted}",
        help_,
        span=(target.span if e.kind != "map-key" and target is not None and target.span is not None else _positions.error_span(ctx, e)),
        column=e.column,
        field_id=e.field_id,
        fix=_fixes.from_help(ctx, help_, _fixes.DISPLAY_ONLY, f"Add a new column of the wanted type and backfill it from `{col}` (readers must switch to it)")
        if e.kind != "map-key"
        else None,
    )


def _target_type(ctx: RuleContext) -> str:
    from icelint.values import changes as ch
    from icelint.replay import spark_types as sp

    for c in ctx.changes:
        if isinstance(c, (ch.UpdateColumnType, ch.HiveChangeColumn)):
            text = sp.type_text(c.type)
            return "" if text == "<type>" else text
    return ""


def _target(ctx: RuleContext):
    from icelint.values import changes as ch

    return next((c.type for c in ctx.changes if isinstance(c, (ch.UpdateColumnType, ch.HiveChangeColumn))), None)


RULE = Rule(TYPE_RULE, "illegal-type-change", Severity.ERROR, check, __doc__, triggers=frozenset({REJECTED}))
