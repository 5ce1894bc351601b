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
        _raise_if_unresolved(str(e), query, schema, exp)
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


def _raise_if_unresolved(error: str, query: Any, schema: dict[str, dict[str, dict[str, str]]], exp: Any) -> None:
    """Spark's `[UNRESOLVED_COLUMN.WITH_SUGGESTION]` when the query plainly names a column its one
    known source table does not have (case 522): a single table, no join, subquery, CTE or lambda, a
    one-part name that is neither a column (case-insensitively) nor an alias of the select list.
    Anything less certain stays "unknown" (sqlglot resolves some valid Spark queries differently)."""
    import re

    from icelint.replay.dml_columns import _levenshtein
    from icelint.replay.errors import ReplayError

    m = re.match(r"Column '([^'.]+)' could not be resolved", error)
    tables = [t for db in schema.values() for t in db.values()]
    if m is None or len(tables) != 1 or len(list(query.find_all(exp.Table))) != 1:
        return
    if any(query.find(k) is not None for k in (exp.Join, exp.Subquery, exp.With, exp.Lambda, exp.Lateral)):
        return
    name = m.group(1)
    columns = list(tables[0])
    aliases = {p.alias.lower() for p in query.expressions if isinstance(p, exp.Alias)}
    if name.lower() in {c.lower() for c in columns} | aliases:
        return
    table = next(iter(query.find_all(exp.Table)))
    qualifiers = {"", table.name.lower(), (table.alias or "").lower()}
    named = [c for c in query.find_all(exp.Column) if c.name.lower() == name.lower()]
    if not named or any(c.table.lower() not in qualifiers or c.db for c in named):
        return  # `s.city` may be a struct field `city` of a column `s`: Spark resolves that
    options = sorted((f"`{c}`" for c in columns), key=lambda o: _levenshtein(o, name))
    raise ReplayError(
        "unknown-column",
        f"[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name `{name}` cannot be resolved. "
        f"Did you mean one of the following? [{', '.join(options[:5])}].",
        "spark",
        column=name,
    )


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
