"""Help for DML in a migration that Spark rejects: an `INSERT ... SELECT` whose values land in
columns that cannot take them, because Spark writes a SELECT's values by position, not by name."""

from __future__ import annotations

from icelint import changes as ch
from icelint.rules import _help
from icelint.rules._base import RuleContext
from icelint.syntax.tokens import one_line


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def insert_value_help(ctx: RuleContext, e) -> str | None:
    """Which value of the SELECT goes to which column, and the INSERT that names the columns its values
    are named as when that writes every column a value it takes (`replay.errors.WrittenValue`)."""
    v = e.value
    if v is None:
        return None
    into = "the columns listed" if v.listed else f"`{ctx.table_name}`'s columns"
    lead = (
        f"Spark writes a SELECT's values into {into} by position, not by name: its {ordinal(v.position)} "
        f"value, `{v.text}` ({v.type_sql}), is written to `{e.column}` (field id {e.field_id}, {v.column_type_sql})"
    )
    write = next((c for c in ctx.changes if isinstance(c, ch.WriteData)), None)
    sql = write.sql if write is not None else None
    if v.named is not None and v.insert_at is not None and sql is not None:
        listed = " (" + ", ".join(_help.ident(c) for c in v.named) + ")"
        return f"{lead}; name the columns the values are for: " + _help.sql(one_line(sql[: v.insert_at] + listed + sql[v.insert_at :]))
    order = ", ".join(_help.ident(c) for c in v.columns)
    listing = "" if v.listed else ", or name the columns the values are for in a column list after the table's name"
    return f"{lead}; the values go to ({order}) in this order: select a value of type {v.column_type_sql} for `{e.column}`{listing}"
