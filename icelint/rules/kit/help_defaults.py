"""Help for columns declared with a DEFAULT, which Spark cannot set on Iceberg columns (Iceberg 1.10
rejects the statement, 1.9 drops the default): the columns added without it, then backfilled."""

from __future__ import annotations

from icelint.values import changes as ch
from icelint.rules.kit.base import RuleContext
from icelint.rules.kit.help import ident, path_sql, sql, table_sql, type_sql


def without_default_help(ctx: RuleContext, c, spec: ch.ColumnSpec) -> str:
    """The columns added without DEFAULT, then backfilled: SQL that works on Iceberg 1.9 and 1.10."""
    table = table_sql(ctx.table_name)
    adds = [x.column for x in ctx.changes if isinstance(x, ch.AddColumn)]
    if len(adds) != len(ctx.changes) or any(len(a.path) > 1 for a in adds if a.default is not None):
        # a field inside a struct, list or map: no one-line backfill for every shape
        return (f"add `{'.'.join(spec.path)}` without DEFAULT, backfill it in the rows that need the value, "
                "and have every writer set it")
    backfill = [f"UPDATE {table} SET {path_sql(a.path)} = {a.default} WHERE {path_sql(a.path)} IS NULL"
                for a in adds if a.default is not None]
    if len(adds) == 1:
        add = f"ALTER TABLE {table} ADD COLUMN {_column_sql(spec)}"
        return f"add the column without DEFAULT and backfill it (then have every writer set it): {sql(add, *backfill)}"
    add = f"ALTER TABLE {table} ADD COLUMNS ({', '.join(_column_sql(a) for a in adds)})"
    return f"add the columns without DEFAULT and backfill them (then have every writer set them): {sql(add, *backfill)}"


def _column_sql(spec: ch.ColumnSpec) -> str:
    """The column as the statement declares it, without its DEFAULT."""
    from itertools import count

    from icelint.replay import spark_types as sp

    ids = count(1)
    out = f"{path_sql(spec.path)} {type_sql(sp.to_iceberg(spec.type, lambda: next(ids)))}"
    if spec.required:
        out += " NOT NULL"
    if spec.doc:
        out += " COMMENT '" + spec.doc.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return out + (" FIRST" if spec.first else f" AFTER {ident(spec.after[-1])}" if spec.after else "")


def default_spec(ctx: RuleContext):
    """(change, column) of the first column of the statement declared with a DEFAULT, or None."""
    for c in ctx.changes:
        if isinstance(c, ch.AddColumn) and c.column.default is not None:
            return c, c.column
    return None
