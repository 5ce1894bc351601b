"""The columns of `CREATE TABLE ... AS SELECT` / `REPLACE TABLE ... AS SELECT`, inferred from the query.

sqlglot's optimizer (`qualify` + `annotate_types`, imported only when a CTAS is replayed) types the
projections over the schemas icelint knows. Only projections whose type sqlglot gives exactly as
Spark does are trusted: columns of known tables, `CAST`s, string, boolean and integer literals.
Anything else (arithmetic, functions, decimal literals, unknown tables) makes the schema unknown,
and the reason names the column.
"""

from __future__ import annotations

from typing import Any, Callable

from icelint import changes as ch
from icelint.model.table import Schema
from icelint.replay import spark_types as sp


def infer_columns(sql: str, lookup: Callable[[str], Schema | None]) -> tuple[tuple[ch.ColumnSpec, ...] | None, str]:
    """(columns, "") or (None, why not): `lookup` gives the schema of a table by name, if known."""
    import sqlglot
    from sqlglot import exp

    if sql.lstrip()[:7].upper() == "REPLACE":  # sqlglot reads `CREATE OR REPLACE` only
        sql = "CREATE OR " + sql.lstrip()
    try:
        tree = sqlglot.parse_one(sql, read="spark")
    except Exception:  # noqa: BLE001 - Spark's parser decides; icelint's own parser accepted it
        return None, "the query could not be read"
    query = tree.expression if isinstance(tree, exp.Create) else None
    if not isinstance(query, exp.Select):
        return None, "the query is not a plain SELECT"
    schema: dict[str, dict[str, dict[str, str]]] = {}
    for table in query.find_all(exp.Table):
        name = ".".join(p.name for p in table.parts)
        known = lookup(name)
        if known is None:
            return None, f"table `{name}` is not known here"
        db = table.db or "default"
        schema.setdefault(db, {})[table.name] = {f.name: _type_sql(f.type) for f in known.fields}
    from sqlglot.optimizer.annotate_types import annotate_types
    from sqlglot.optimizer.qualify import qualify

    try:
        typed = annotate_types(qualify(query.copy(), schema=schema, dialect="spark"), schema=schema, dialect="spark")
    except Exception as e:  # noqa: BLE001 - sqlglot could not resolve the query
        return None, f"its query could not be resolved ({str(e).splitlines()[0][:120]})"
    columns = []
    for original, projection in zip(query.expressions, typed.expressions):
        name = projection.alias_or_name
        if not name or not _trusted(original.unalias() if isinstance(original, exp.Alias) else original, exp):
            return None, f"the type of column `{name or original.sql(dialect='spark')}` cannot be known"
        text = projection.type.sql(dialect="spark") if projection.type is not None else ""
        sql_type = _parse_type(text)
        if sql_type is None or projection.type.this == exp.DataType.Type.UNKNOWN:
            return None, f"the type of column `{name}` cannot be known"
        columns.append(ch.ColumnSpec((name,), sql_type, False, None, None))
    return tuple(columns), ""


def _trusted(node: Any, exp: Any) -> bool:
    if isinstance(node, exp.Column):
        return not isinstance(node.this, exp.Star)
    if isinstance(node, (exp.Cast, exp.TryCast)):
        return True
    if isinstance(node, exp.Boolean):
        return True
    if isinstance(node, exp.Literal):
        return node.is_string or (node.is_int and -(2**31) <= int(node.this) < 2**31)
    return False


def _type_sql(t) -> str:
    return sp.sql_name(sp.from_iceberg(t)).lower()


def _parse_type(text: str):
    """sqlglot's Spark type name → icelint's `SqlType`, through icelint's own parser."""
    from icelint.syntax import ast
    from icelint.syntax.parser import parse_text

    if not text:
        return None
    parsed = parse_text(f"ALTER TABLE t ALTER COLUMN c TYPE {text}", "<ctas>")
    stmt = parsed.statements[0] if parsed.statements else None
    if not isinstance(stmt, ast.AlterTable) or not isinstance(stmt.action, ast.AlterColumnType):
        return None
    return stmt.action.type
