"""Help for an illegal type change: a new column of the wanted type, backfilled so that no value changes.

A narrowing or a conversion (`bigint` → `int`, `double` → `float`, `string` → `int`, `timestamp` →
`date`) backfilled by a plain `CAST` wraps, rounds or nulls values without a word when ANSI mode is
off (Spark's default: 3000000000 becomes -1294967296). The backfill copies only the values that
convert back unchanged; the others stay NULL in the new column and keep their value in the old one,
and the help gives the `SELECT count(*)` of those rows for the user to decide. A struct, list or map
becomes its JSON text (`to_json`, read back by `from_json`). `tests/differential/test_help_in_spark.py`
runs every such recipe in Spark on rows that do not fit (differential case 527).
"""

from __future__ import annotations

from icelint.rules.kit.help import free_name, ident, path_sql, sql, table_sql, type_sql
from icelint.rules.kit.help_columns import free_column_name


def new_column_help(ctx, column: str, target: str) -> str:
    """ICE002: an illegal type change becomes a new column, backfilled by a cast."""
    t = table_sql(ctx.table_name)
    path = tuple(column.split("."))
    legal = "legal promotions are int→bigint, float→double and decimal precision widening with the same scale"
    if len(path) > 1 or not target:
        return f"{legal}; otherwise add a new column with the new type, backfill it, switch readers, and drop `{column}` in a later migration"
    new = free_column_name(ctx, (), path[-1]) if ctx.after is not None else free_name([], path[-1])
    old = ctx.before.schema.find(path, case_sensitive=False) if ctx.before is not None else None
    src, col, cast = (type_sql(old.type) if old is not None else ""), path_sql(path), f"CAST({path_sql(path)} AS {target})"
    if old is not None and not old.type.is_primitive and target == "string":  # its JSON text: from_json reads it back
        return (
            f"{legal}; otherwise add a new column and backfill it with the value as JSON text: "
            f"{sql(f'ALTER TABLE {t} ADD COLUMN {ident(new)} {target}', f'UPDATE {t} SET {ident(new)} = to_json({col})')}"
            f", switch readers, then drop `{column}` in a later migration (never drop and re-add the same name)"
        )
    if _lossless(src, target):
        return (
            f"{legal}; otherwise add a new column and backfill it: "
            f"{sql(f'ALTER TABLE {t} ADD COLUMN {ident(new)} {target}', f'UPDATE {t} SET {ident(new)} = {cast}')}"
            f", switch readers, then drop `{column}` in a later migration (never drop and re-add the same name)"
        )
    # a narrowing or a conversion: a plain CAST wraps, truncates or nulls values that do not fit (ANSI off),
    # so only values that convert back unchanged are copied; the others stay NULL, and in the old column
    guard = f"CASE WHEN CAST({cast} AS {src}) = {col} THEN {cast} END" if src else cast
    return (
        f"{legal}; otherwise add a new column and backfill it with the values that convert unchanged (a plain CAST "
        f"silently wraps, truncates or nulls the others): "
        f"{sql(f'ALTER TABLE {t} ADD COLUMN {ident(new)} {target}', f'UPDATE {t} SET {ident(new)} = {guard}')}"
        f", then count the rows whose value does not fit (they read NULL in `{new}` and keep their value in `{column}`): "
        f"`SELECT count(*) FROM {t} WHERE {col} IS NOT NULL AND {ident(new)} IS NULL`, and decide what they become "
        f"before you switch readers; drop `{column}` in a later migration (never drop and re-add the same name)"
    )


_EXACT_AS_STRING = frozenset({"int", "bigint", "smallint", "tinyint", "boolean", "date", "string"})


def _lossless(src: str, target: str) -> bool:
    """Whether every value of type `src` converts to `target` unchanged (a CAST needs no guard)."""
    if target == "string":
        return src in _EXACT_AS_STRING or src.startswith("decimal(")
    return (src, target) in {("int", "bigint"), ("int", "double"), ("float", "double"), ("date", "timestamp"), ("date", "timestamp_ntz")}
