"""The columns of `CREATE TABLE ... AS SELECT` / `REPLACE TABLE ... AS SELECT`, inferred from the query.

sqlglot's optimizer (`qualify` + `annotate_types`, imported only when a CTAS is replayed) types the
projections over the schemas icelint knows. Only projections whose type sqlglot gives exactly as
Spark does are trusted: columns of known tables, `CAST`s, string, boolean and integer literals.
Any other projection (arithmetic, functions, decimal literals, columns of tables icelint does not
know) is still a column with its name and position, so its field id is known, but its type is not:
the table gets an `UntypedType` there, with the reason. Only when a name cannot be known (`SELECT *`
over an unknown table, an expression without an alias) is the whole schema unknown.
"""

from __future__ import annotations

from typing import Any, Callable

from icelint.values import changes as ch
from icelint.model.table import Schema
from icelint.model.types import is_untyped
from icelint.replay import spark_types as sp
from icelint.syntax.ast import SqlType

UNTYPED_SQL = SqlType("<untyped>")  # the type of a column whose type cannot be known (`tables.py` makes it UntypedType)


Untyped = dict[int, tuple[str, bool]]  # projection index → (why its type cannot be known, whether it may be nested)


def infer_columns(
    sql: str, lookup: Callable[[str], Schema | None]
) -> tuple[tuple[ch.ColumnSpec, ...] | None, str, Untyped]:
    """(columns, "", untyped) or (None, why not, {}): `lookup` gives the schema of a table by name, if known.

    A projection whose name is known but whose type is not (a column of a table icelint does not know,
    a function it does not type) is still a column, at its position: its index is in `untyped`, with
    the reason, and its `ColumnSpec` has the placeholder type `UNTYPED_SQL`."""
    from sqlglot import exp

    from icelint.replay.common import parse_spark

    if sql.lstrip()[:7].upper() == "REPLACE":  # sqlglot reads `CREATE OR REPLACE` only
        sql = "CREATE OR " + sql.lstrip()
    try:
        tree = parse_spark(sql)
    except Exception:  # noqa: BLE001 - Spark's parser decides; icelint's own parser accepted it
        return None, "the query could not be read", {}
    query = tree.expression if isinstance(tree, exp.Create) else None
    if not isinstance(query, exp.Select):
        return None, "the query is not a plain SELECT", {}
    schema, sources, missing = _read_tables(query, lookup, exp)
    from sqlglot.optimizer.annotate_types import annotate_types
    from sqlglot.optimizer.qualify import qualify

    try:  # every table known: Spark's analyzer resolves every column, so must sqlglot
        qualified = qualify(query.copy(), schema=schema, dialect="spark", validate_qualify_columns=not missing)
        typed = annotate_types(qualified, schema=schema, dialect="spark")
    except Exception as e:  # noqa: BLE001 - sqlglot could not resolve the query
        if not missing:
            _raise_if_unresolved(str(e), query, schema, exp)
        return None, f"its query could not be resolved ({str(e).splitlines()[0][:120]})", {}
    stars = any(isinstance(p.unalias(), exp.Star) or (
        isinstance(p.unalias(), exp.Column) and isinstance(p.unalias().this, exp.Star)) for p in typed.expressions
    )  # fmt: skip
    originals = list(query.expressions)
    if len(typed.expressions) != len(originals) and not stars and not missing:
        # `SELECT *` (or `t.*`) over known tables, expanded by sqlglot as Spark's analyzer does: each
        # expanded column stands for itself; the other projections keep their own text
        originals = _expanded(query, typed, exp)
        if originals is None:
            return None, "`SELECT *` over tables whose columns could not be matched, so its columns cannot be known", {}
        names = [p.alias_or_name.lower() for p in typed.expressions]
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            return None, f"`SELECT *` gives two columns named `{dup}` (Spark rejects the CTAS), so its columns cannot be known", {}
    if len(typed.expressions) != len(originals) or stars:
        over = f" over {_tables(missing)}" if missing else ""
        return None, f"`SELECT *`{over}, so its columns cannot be known", {}
    aliases = {t.alias_or_name.lower(): k for t in query.find_all(exp.Table) for k in [_key(t)] if k in sources}
    columns, untyped = [], {}
    for i, (original, projection) in enumerate(zip(originals, typed.expressions)):
        node = original.unalias() if isinstance(original, exp.Alias) else original
        name = projection.alias_or_name
        if not name or not isinstance(original, (exp.Alias, exp.Column)):  # Spark names it after its SQL text
            return None, f"column {i + 1} (`{original.sql(dialect='spark')}`) has no alias, so its name cannot be known", {}
        sql_type = None
        trusted = _trusted_in(projection.unalias(), typed, exp) if isinstance(node, exp.Column) else _trusted(node, exp)
        if trusted and projection.type is not None and projection.type.this != exp.DataType.Type.UNKNOWN:
            sql_type = _parse_type(projection.type.sql(dialect="spark"))
        if sql_type is None:
            sql_type = _literal_type(node, exp)
        if sql_type is None:
            t = projection.type
            flat = t is not None and t.this != exp.DataType.Type.UNKNOWN and not t.is_type(*exp.DataType.NESTED_TYPES)
            why, src = _why_untyped(node, projection.unalias(), missing, sources, aliases, exp, typed)
            untyped[i] = (why, src.maybe_nested if src is not None else not flat)
            sql_type = UNTYPED_SQL
        columns.append(ch.ColumnSpec((name,), sql_type, False, None, None))
    return tuple(columns), "", untyped


def _read_tables(query: Any, lookup: Callable[[str], Schema | None], exp: Any) -> tuple[dict, dict, list[str]]:
    """The tables `query` reads (its CTEs aside): sqlglot's schema of those icelint knows, them by
    (db, table) → (name as written, `Schema`), and the names of those it does not know, as written."""
    ctes = {c.alias_or_name.lower() for c in query.find_all(exp.CTE)}
    schema: dict[str, dict[str, dict[str, str]]] = {}
    sources: dict[tuple[str, str], tuple[str, Schema]] = {}
    missing: list[str] = []
    for table in query.find_all(exp.Table):
        name = ".".join(p.name for p in table.parts)
        if not table.db and table.name.lower() in ctes:
            continue
        known = lookup(name)
        if known is None:
            if name not in missing:
                missing.append(name)
            continue
        db = table.db or "default"
        schema.setdefault(db, {})[table.name] = {f.name: _type_sql(f.type) for f in known.fields}
        sources[(db.lower(), table.name.lower())] = (name, known)
    return schema, sources, missing


def _key(table: Any) -> tuple[str, str]:
    return ((table.db or "default").lower(), table.name.lower())


def _tables(names: list[str]) -> str:
    if len(names) == 1:
        return f"table `{names[0]}`, which is not known here"
    return "tables " + ", ".join(f"`{n}`" for n in names) + ", which are not known here"


def _derived(root: Any, alias: str, exp: Any) -> Any:
    """The SELECT of the CTE or subquery named `alias` in `root`, if it is one (else a table's alias)."""
    if not alias:
        return None
    low = alias.lower()
    for cte in root.find_all(exp.CTE):
        if cte.alias_or_name.lower() == low:
            return cte.this if isinstance(cte.this, exp.Select) else False
    for sub in root.find_all(exp.Subquery):
        if sub.alias_or_name.lower() == low:
            return sub.this if isinstance(sub.this, exp.Select) else False
    return None


def _inner(root: Any, column: Any, exp: Any) -> Any:
    """The projection of a CTE or subquery that `column` reads (unaliased), None for a base table's
    column, False when it cannot be found."""
    src = _derived(root, column.table, exp)
    if not src:
        return src
    proj = next((p for p in src.expressions if p.alias_or_name.lower() == column.name.lower()), None)
    return proj.unalias() if proj is not None else False


def _trusted_in(column: Any, root: Any, exp: Any, depth: int = 0) -> bool:
    """A column is trusted when it reads a base table's column, or a CTE's or subquery's projection
    that is itself trusted (sqlglot's types for `amount * 2` and the like are not Spark's)."""
    if not isinstance(column, exp.Column):
        return _trusted(column, exp)
    if isinstance(column.this, exp.Star) or depth > 32:
        return False
    inner = _inner(root, column, exp)
    if inner is None:
        return True
    return inner is not False and _trusted_in(inner, root, exp, depth + 1)


def _why_untyped(
    node: Any, qualified: Any, missing: list[str], sources: dict, aliases: dict, exp: Any, root: Any = None, depth: int = 0
) -> tuple[str, Any]:
    """Why a projection's type cannot be known: the function, the unknown table, or the source column
    (then also that column's `UntypedType`)."""
    if isinstance(node, exp.Column) and root is not None and isinstance(qualified, exp.Column) and depth < 32:
        inner = _inner(root, qualified, exp)
        if inner:
            why, src = _why_untyped(inner, inner, missing, sources, aliases, exp, root, depth + 1)
            return f"column `{qualified.name}` of `{qualified.table}`: {why}", src
    if isinstance(node, exp.Column):
        src = sources.get(aliases.get(qualified.table.lower(), ("", ""))) if isinstance(qualified, exp.Column) else None
        if src is not None:
            f = src[1].top_level(qualified.name, case_sensitive=False)
            if f is not None and is_untyped(f.type):
                return f"column `{f.name}` of `{src[0]}`, whose type is not known ({f.type.reason})", f.type
        if missing:
            return _tables(missing), None
        return "icelint could not resolve the column", None
    for f in node.find_all(exp.Func):
        if isinstance(f, exp.Anonymous):
            return f"function `{f.name}`, which icelint does not know (a UDF?)", None
        if not isinstance(f, (exp.Cast, exp.TryCast)):
            return f"function `{f.sql_name().lower()}`, whose result type icelint does not infer", None
    if isinstance(node, exp.Literal):
        return f"literal `{node.sql(dialect='spark').replace('`', '')}`, whose type icelint does not infer", None
    text = node.sql(dialect="spark").replace("`", "")  # qualified names come quoted
    return f"expression `{text if len(text) <= 60 else text[:57] + '...'}`, whose type icelint does not infer", None


def _raise_if_unresolved(error: str, query: Any, schema: dict[str, dict[str, dict[str, str]]], exp: Any) -> None:
    """Spark's `[UNRESOLVED_COLUMN.WITH_SUGGESTION]` when the query plainly names a column its one
    known source table does not have (case 522): a single table, no join, subquery, CTE or lambda, a
    one-part name that is neither a column (case-insensitively) nor an alias of the select list.
    Anything less certain stays "unknown" (sqlglot resolves some valid Spark queries differently)."""
    import re

    from icelint.replay.dml.columns import _levenshtein
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


def _expanded(query: Any, typed: Any, exp: Any) -> list | None:
    """The original projection behind each of sqlglot's expanded ones: a star's columns stand for
    themselves (plain column references), the other projections for their own text; None when the
    two lists cannot be matched."""
    out: list = []
    rest = list(typed.expressions)
    for p in query.expressions:
        node = p.unalias()
        if isinstance(node, exp.Star) or (isinstance(node, exp.Column) and isinstance(node.this, exp.Star)):
            continue  # its columns are taken below, in order, as those not matched by other projections
        out.append(p)
    if len(out) > len(rest):
        return None
    # the projections without a star keep their places; sqlglot puts a star's columns where the star was
    result: list = []
    k = 0
    for p in query.expressions:
        node = p.unalias()
        if isinstance(node, exp.Star) or (isinstance(node, exp.Column) and isinstance(node.this, exp.Star)):
            n = len(rest) - len(out)  # one star (more than one: every star's share is not known)
            if sum(1 for q in query.expressions if isinstance(q.unalias(), exp.Star) or (
                    isinstance(q.unalias(), exp.Column) and isinstance(q.unalias().this, exp.Star))) != 1:  # fmt: skip
                return None
            for proj in rest[k : k + n]:
                col = proj.unalias()
                if not isinstance(col, exp.Column):
                    return None
                result.append(exp.column(col.name, quoted=True))
            k += n
        else:
            result.append(p)
            k += 1
    return result


def _literal_type(node: Any, exp: Any):
    """Spark's type of a numeric or binary literal sqlglot does not type as Spark does: an integer is
    `int`, else `bigint`, else `decimal(n, 0)`; `1.50` is `decimal(3, 2)` (precision at least the
    scale: `0.05` is `decimal(2, 2)`); with an exponent, `double`; `X'01'` is `binary`."""
    from icelint.syntax.ast import SqlType

    negative = isinstance(node, exp.Neg)
    if negative:
        node = node.this
    if isinstance(node, exp.HexString):
        return _parse_type("binary")
    if not isinstance(node, exp.Literal) or node.is_string:
        return None
    text = str(node.this)
    if "e" in text.lower():
        return _parse_type("double")
    whole, _, frac = text.partition(".")
    if not whole.isdigit() and whole != "" or frac and not frac.isdigit():
        return None
    if not frac and "." not in text:
        v = int(whole)  # Spark's grammar reads the sign as part of the number
        if v < 2**31 + negative:
            return _parse_type("int")
        if v < 2**63 + negative:
            return _parse_type("bigint")
    digits = (whole + frac).lstrip("0")
    precision, scale = max(len(digits), 1), len(frac)
    precision = max(precision, scale)
    if precision > 38:
        return None
    return _parse_type(f"decimal({precision}, {scale})") or SqlType(f"decimal({precision},{scale})")


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
    if is_untyped(t):
        return "unknown"  # sqlglot's UNKNOWN: the projection stays untyped
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


def projection_types(query: Any, lookup: Callable[[str], Schema | None]) -> list | None:
    """The Spark types (`spark_types` tuples) of a plain SELECT's projections, in order, `*` expanded:
    None where sqlglot's type is not certainly Spark's (as `infer_columns` trusts them); None for the
    whole query when a table it reads is not known here or sqlglot cannot resolve it (`INSERT ...
    SELECT` checks what it can, `replay/dml.py`)."""
    from sqlglot import exp

    if not isinstance(query, exp.Select):
        return None
    schema, sources, missing = _read_tables(query, lookup, exp)
    if missing or any(is_untyped(f.type) for _, known in sources.values() for f in known.fields):
        return None
    from sqlglot.optimizer.annotate_types import annotate_types
    from sqlglot.optimizer.qualify import qualify

    try:
        typed = annotate_types(qualify(query.copy(), schema=schema, dialect="spark"), schema=schema, dialect="spark")
    except Exception:  # noqa: BLE001 - the names are `dml_columns`' to judge
        return None
    out: list = []
    for projection in typed.expressions:
        node = projection.unalias()
        t = projection.type
        trusted = _trusted_in(node, typed, exp) if isinstance(node, exp.Column) else _trusted(node, exp)
        sql_type = _parse_type(t.sql(dialect="spark")) if trusted and t is not None and t.this != exp.DataType.Type.UNKNOWN else None
        try:
            out.append(sp.spark_type(sql_type) if sql_type is not None else None)
        except Exception:  # noqa: BLE001 - a type Spark cannot store: no verdict here
            out.append(None)
    return out
