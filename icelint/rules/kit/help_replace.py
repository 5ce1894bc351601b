"""REPLACE COLUMNS: what it really does, and the net change a user meant by it.

`ALTER TABLE t REPLACE COLUMNS (...)` deletes every column and adds the listed ones: each gets a new
field id, so every existing value becomes invisible (rows read NULL), even for a column listed with its
own name and type. Where a listed column is an identifier field, Iceberg rejects the statement instead.
One finding per statement says so (ICE001 on a table with data, ICE015 on an empty one, ICE005 where
it is rejected), and its help and fix are the net ADD / DROP / RENAME / ALTER COLUMN statements that
give the listed columns while keeping every field id, every column's nullability (a column list cannot
say "as it is", so a required column listed without NOT NULL stays required) and the row key (no net
change drops an identifier field). The help is computed once per statement: a table of thousands of
columns gets one finding, not one per column.
"""

from __future__ import annotations

from itertools import count

from icelint.values import changes as ch
from icelint.model import types as it
from icelint.rules.kit.help import Proposed, sql, table_sql

HEAD = "REPLACE COLUMNS drops every column and re-adds the listed ones under new field ids"


def replace_change(ctx) -> ch.ReplaceColumns | None:
    for c in ctx.changes:
        if isinstance(c, ch.ReplaceColumns):
            return c
    return None


def listed_fields(ctx, change: ch.ReplaceColumns) -> tuple:
    """The listed columns as fields: the new schema's when the statement was applied, else built from the list."""
    if ctx.accepted and ctx.after is not None:
        return ctx.after.schema.fields
    from icelint.replay import spark_types as sp

    ids = count(1)
    out = []
    for col in change.columns:
        try:
            t = sp.to_iceberg(col.type, lambda: next(ids))
        except Exception:  # noqa: BLE001 - a type Iceberg has not: no net change to write for it
            t = it.UntypedType("not an Iceberg type")
        out.append(it.NestedField(next(ids), col.path[-1], t, col.required, col.doc))
    return tuple(out)


def replace_columns_help(ctx) -> Proposed:
    """The net statements that give the listed columns, keeping field ids, nullability and the row key."""
    from icelint.rules.kit.help_columns import _net_struct

    change = replace_change(ctx)
    schema = ctx.before.schema
    stmts: list[str] = []
    problems: list[str] = []
    kept: list[str] = []
    t = table_sql(ctx.table_name)
    _net_struct(t, (), schema.fields, listed_fields(ctx, change) if change is not None else (), stmts, problems, kept)
    keys = {(schema.name_of(i) or "").lower() for i in schema.identifier_field_ids}
    left_out = [s.split(" DROP COLUMN ", 1)[1] for s in stmts
                if " DROP COLUMN " in s and s.split(" DROP COLUMN ", 1)[1].strip("`").lower() in keys]
    if left_out:
        names = ", ".join(f"`{n.strip('`')}`" for n in left_out)
        return Proposed(
            f"{HEAD}; the list leaves out the row key {names} (identifier fields): list it too, to keep it and its "
            "values; if the row key really changes, change the identifier fields in a statement of their own first"
        )
    if problems:
        return Proposed(
            f"{HEAD}; the listed columns cannot all keep their ids ({'; '.join(problems)}): change the other columns "
            "with ADD/DROP/RENAME/ALTER COLUMN statements, and add a new column for each of these"
        )
    if not stmts:
        return Proposed(f"{HEAD}; the listed columns are the table's current columns, so delete the statement")
    still = f" ({', '.join(f'`{k}`' for k in kept)} stay{'s' if len(kept) == 1 else ''} required, as now)" if kept else ""
    return Proposed(f"{HEAD}; the change that keeps every field id, nullability and the row key{still}: {sql(*stmts)}", tuple(stmts))


def shown_columns(pairs: list[tuple[str, int, int, int | None]], limit: int = 4) -> str:
    """`customer_id` 1→5 (7 values), `email` 2→6 and 3 more (the non-null values a field id holds, when counted)."""

    def one(name: str, a: int, b: int, n: int | None) -> str:
        return f"`{name}` {a}→{b}" + ("" if n is None else f" ({n} value{'s' if n != 1 else ''})")

    text = ", ".join(one(*p) for p in pairs[:limit])
    return text + (f" and {len(pairs) - limit} more" if len(pairs) > limit else "")
