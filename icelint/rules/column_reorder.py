"""Moving a column (`FIRST` / `AFTER`): every positional writer and reader now pairs values with other columns.

## What it does
Flags `ALTER COLUMN c FIRST | AFTER d` and Hive's `CHANGE COLUMN ... FIRST | AFTER d`, on top-level
columns and inside structs, when existing columns change position. The message names the columns that
shift (the first eight, then how many more) and the new order (on a table of more than 20 columns, the
columns around the moved one, numbered).

A new column's position (`ADD COLUMN(S) ... FIRST | AFTER d`) is not flagged: a positional `INSERT`
written for the old order has one value too few and fails
(`INSERT_COLUMN_ARITY_MISMATCH.NOT_ENOUGH_DATA_COLUMNS`), exactly as after an `ADD COLUMN` at the end,
so no value lands in another column.

## Why is this bad?
Iceberg keeps every value under its field id, so the table's data is unharmed. But everything that
works by position does not follow: `INSERT INTO t VALUES (...)` and `INSERT INTO t SELECT * FROM
staging` written for the old order put values into other columns (Spark casts them when it can, so a
swap of two `string` columns goes unnoticed; `named_struct` values of a reordered struct are matched
by position too), and `SELECT *` consumers (CSV exports, pandas code reading by index) see columns in
a new order.

## Example
```sql
CREATE TABLE db.users (id bigint, first_name string, last_name string) USING iceberg;
ALTER TABLE db.users ALTER COLUMN last_name AFTER id;
```

## Use instead
```sql
CREATE TABLE db.users (id bigint, first_name string, last_name string) USING iceberg;
-- keep the physical order; order the columns in a view for consumers that want another one
CREATE VIEW db.users_by_last_name AS SELECT id, last_name, first_name FROM db.users;
```
"""

from __future__ import annotations

from itertools import compress, count, islice, repeat
from operator import attrgetter, eq
from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.model.storage.chain import same_ends
from icelint.model.table import Schema
from icelint.model.types import children
from icelint.rules.kit.base import Rule, RuleContext

_field_id = attrgetter("id")


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None or ctx.after is None:
        return
    before, after = ctx.before.schema, ctx.after.schema
    if before is after:
        return
    done: set[int | None] = set()
    for c in ctx.changes:
        column = None  # the column's name in `after`, when known without a lookup in it
        if isinstance(c, (ch.MoveColumn, ch.HiveChangeColumn)):
            if not (c.first or c.after):
                continue
            f = ctx.field_before(c.path)
            top = _top_with_id(after.fields, f.id) if f is not None else None
            if top is not None:  # a column of `after`: its name without a lookup in that older version
                column = top.name
            what = f"moving `{'.'.join(c.path)}` " + ("first" if c.first else f"after `{'.'.join(c.after or ())}`")
        else:
            continue
        if column is not None:
            parent = None
        elif f is None or after.field_by_id(f.id) is None:
            continue
        else:
            parent = after.parent_id(f.id)
        if parent in done:
            continue
        named, total = _shifts(before, after, parent, SHIFTS_NAMED)
        if not total:
            continue
        done.add(parent)
        prefix = after.name_of(parent) + "." if parent is not None else ""
        names = _shift_list(prefix, named, total)
        where = f"struct `{after.name_of(parent)}`" if parent is not None else "the table"
        yield ctx.finding(
            RULE,
            f"`{ctx.table_name}`: {what} changes the column order of {where}: {names} shift position: Iceberg keeps "
            "the values, but `INSERT INTO ... VALUES`, `INSERT INTO ... SELECT *` and `named_struct` values written for "
            "the old order now land in other columns (silently when the types are compatible)",
            "leave the position out: add columns at the end and keep the physical order (a view can show another "
            "order); if the move is needed, every writer must name its columns, as the order is now "
            f"{_order(_siblings(after, parent) or (), f.id)}",
            span=c.span,
            column=column if column is not None else after.name_of(f.id),
            field_id=f.id,
        )


# A message names at most this many shifted columns, and a help line shows the whole new order only
# up to ORDER_IN_FULL columns (then a window around the column that moved): a wide table would
# otherwise print thousands of names per finding.
SHIFTS_NAMED = 8
ORDER_IN_FULL = 20
WINDOW = 3


def _shift_list(prefix: str, shifted: list[tuple[str, int, int]], total: int) -> str:
    """The first SHIFTS_NAMED of the `total` shifts (`shifted` starts with them)."""
    named = ", ".join(f"`{prefix}{n}` ({a + 1} → {b + 1})" for n, a, b in shifted[:SHIFTS_NAMED])
    rest = total - SHIFTS_NAMED
    return named if rest <= 0 else f"{named} and {rest} more column{'s' if rest > 1 else ''}"


def _order(fields, moved: int) -> str:
    """The struct's new column order; around `moved` only (with the total) when it is long."""
    n = len(fields)
    if n <= ORDER_IN_FULL:
        return ", ".join([f.name for f in fields])
    # the first position holding `moved` (0 when none), found at C speed: a wide table's every name
    # is not needed, only the window's
    i = next(compress(count(), map(eq, map(_field_id, fields), repeat(moved))), 0)
    lo, hi = max(0, i - WINDOW), min(n, i + WINDOW + 1)
    window = ", ".join(f"{k}. {f.name}" for k, f in enumerate(islice(fields, lo, hi), lo + 1))
    return (f"{'…, ' if lo else ''}{window}{', …' if hi < n else ''} ({n} columns; "
            "`icelint schema` on the migrations prints them all)")


def _shifts(before: Schema, after: Schema, parent: int | None, limit: int) -> tuple[list[tuple[str, int, int]], int]:
    """The first `limit` (at least; maybe more) of the (name, old position, new position) of the
    existing fields of a struct whose position changed, and how many there are.

    Exact shortcut (tests/equivalence/test_column_reorder.py compares it with the plain comparison of
    both whole orders): the same object at the same place from the start has not moved, nor from the end when the
    lengths are equal (from the end with lengths differing by d: each moved by d, none need be listed
    beyond the first `limit`). Field ids being unique, a field between those two runs was between
    them in the old order too: only that window is compared.
    """
    old = _siblings(before, parent)
    new = _siblings(after, parent)
    if old is None or new is None:
        return [], 0
    n_old, n_new = len(old), len(new)
    head, tail = same_ends(old, new)  # two versions of a wide table: the chunks they share are skipped whole
    old_pos = {f.id: i for i, f in enumerate(islice(old, head, n_old - tail), head)}
    out = [(f.name, old_pos[f.id], i) for i, f in enumerate(islice(new, head, n_new - tail), head)
           if f.id in old_pos and old_pos[f.id] != i]
    d = n_new - n_old
    if not (d and tail):
        return out, len(out)
    total = len(out) + tail
    if len(out) < limit:
        start = n_new - tail
        out += [(f.name, i - d, i) for i, f in enumerate(islice(new, start, start + limit - len(out)), start)]
    return out, total


def _top_with_id(fields, field_id: int):
    """The field of `fields` with id `field_id`, or None (a scan at C speed)."""
    return next(compress(fields, map(eq, map(_field_id, fields), repeat(field_id))), None)


def _siblings(schema: Schema, parent: int | None):
    if parent is None:
        return schema.fields
    p = schema.field_by_id(parent)
    return children(p.type) if p is not None else None


RULE = Rule(
    "ICE017",
    "column-reorder",
    Severity.WARNING,
    check,
    __doc__,
    triggers=frozenset({ch.MoveColumn, ch.HiveChangeColumn}),
)
