"""The columns a DML statement names, resolved against the replayed schema as Spark's analyzer does.

`INSERT` column lists, static `PARTITION (c = v)` clauses and the number of values per row;
`UPDATE ... SET` targets and `WHERE`; `DELETE ... WHERE`; `MERGE` conditions, assignments and
`INSERT` column lists. A name that is not a column is Spark's `[UNRESOLVED_COLUMN.WITH_SUGGESTION]`
(names compared case-insensitively unless `spark.sql.caseSensitive` is on), a missing struct field
`[FIELD_NOT_FOUND]`, a wrong number of values `[INSERT_COLUMN_ARITY_MISMATCH...]`.

Only what can be known is judged: names inside subqueries and lambdas, columns of source tables
(`MERGE ... USING db.other`), `SELECT *` and fields inside lists and maps are passed over. The
statement is parsed with sqlglot's parser (no optimizer), imported only when a DML statement is
replayed.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from icelint.model.table import TableMetadata
from icelint.model.types import NestedField, StructType
from icelint.replay.errors import ReplayError
from icelint.values.source import Span


class Scope(NamedTuple):
    """A relation whose columns a name may refer to: the target table, or a MERGE source."""

    qualifiers: tuple[tuple[str, ...], ...]  # lower-case name parts that may qualify its columns
    fields: tuple[NestedField, ...] | None  # None: its columns cannot be known
    shown: str | None  # qualifier Spark shows in suggestions for qualified names


def check(tree: Any, table: str, meta: TableMetadata, case_sensitive: bool, span: Span, sql: str) -> list | None:
    """Raise the `ReplayError` Spark would for the columns `tree` (a parsed DML statement) names.

    Returns the fields an `INSERT`'s values are written to, in value order (for the literal
    checks), or None when that is not known or the statement is no INSERT.
    """
    from sqlglot import exp

    r = _Resolver(exp, table, meta, case_sensitive, span, sql)
    if isinstance(tree, exp.Insert):
        return r.insert(tree)
    if isinstance(tree, exp.Update):
        r.update(tree)
    elif isinstance(tree, exp.Delete):
        r.where(tree, r.target(tree.this))
    elif isinstance(tree, exp.Merge):
        r.merge(tree)
    return None


class _Resolver:
    def __init__(self, exp: Any, table: str, meta: TableMetadata, case_sensitive: bool, span: Span, sql: str) -> None:
        self.exp = exp
        self.table = table  # quoted, for messages
        self.meta = meta
        self.schema = meta.schema
        self.case_sensitive = case_sensitive
        self.span = span
        self.sql = sql

    # ------------------------------------------------------------------ statements
    def target(self, node: Any) -> Scope:
        alias = node.alias if isinstance(node, self.exp.Table) else ""
        if alias:
            return Scope(((alias.lower(),),), self.schema.fields, alias)
        parts = tuple(p.name.lower() for p in node.parts) if isinstance(node, self.exp.Table) else ()
        quals = tuple(parts[i:] for i in range(len(parts)))
        return Scope(quals, self.schema.fields, parts[-1] if parts else None)

    def where(self, node: Any, scope: Scope) -> None:
        where = node.args.get("where")
        if where is not None:
            self.expression(where, (scope,))

    def update(self, tree: Any) -> None:
        scope = self.target(tree.this)
        for assignment in tree.expressions:
            self.assignment(assignment, scope, (scope,))
        self.where(tree, scope)

    def assignment(self, node: Any, target: Scope, scopes: tuple[Scope, ...], order: str = "similar") -> None:
        exp = self.exp
        if not isinstance(node, exp.EQ):
            return
        key = node.this
        if isinstance(key, exp.Column):
            self.column(key, (target,), bare=True, order=order)
        self.expression(node.expression, scopes, bare=order == "sorted", order=order)

    def merge(self, tree: Any) -> None:
        exp = self.exp
        target = self.target(tree.this)
        source = self.source(tree.args.get("using"))
        both = (target, source)
        on = tree.args.get("on")
        if on is not None:
            self.expression(on, both)
        whens = tree.args.get("whens")
        for when in whens.expressions if whens is not None else ():
            by_source = when.args.get("source")  # WHEN NOT MATCHED BY SOURCE: the target's rows only
            scopes = (target,) if by_source else both
            cond = when.args.get("condition")
            if cond is not None:
                self.expression(cond, scopes)
            then = when.args.get("then")
            if _is_star(then, exp):  # UPDATE SET * / INSERT *
                self.star(target, source)
            elif isinstance(then, exp.Update):  # Spark lists the candidates of MERGE actions by name
                for assignment in then.expressions:
                    self.assignment(assignment, target, scopes, order="sorted")
            elif isinstance(then, exp.Insert):
                cols = then.this
                if isinstance(cols, exp.Tuple):
                    for c in cols.expressions:
                        if isinstance(c, exp.Column):
                            self.column(c, (target,), bare=True, order="sorted")
                values = then.expression
                if values is not None:
                    self.expression(values, (source,), bare=True, order="sorted")

    def star(self, target: Scope, source: Scope) -> None:
        """`UPDATE SET *` / `INSERT *`: every target column must have a source column of its name."""
        if source.fields is None:
            return
        names = {self.key(f.name) for f in source.fields}
        for f in target.fields or ():
            if self.key(f.name) not in names:
                raise self.unresolved([f.name], (source,), bare=True, span=self.span, order="sorted")

    def source(self, node: Any) -> Scope:
        exp = self.exp
        alias = node.alias if node is not None else ""
        quals = ((alias.lower(),),) if alias else ()
        if isinstance(node, exp.Subquery) and isinstance(node.this, exp.Select):
            fields = []
            for i, e in enumerate(node.this.expressions):
                if isinstance(e, exp.Star) or (isinstance(e, exp.Column) and isinstance(e.this, exp.Star)):
                    return Scope(quals, None, alias)
                name = e.alias_or_name
                if not name:
                    return Scope(quals, None, alias)
                fields.append(NestedField(-1 - i, name, _UNKNOWN, False))
            return Scope(quals, tuple(fields), alias)
        return Scope(quals, None, alias)  # a table: its columns are not known here

    def insert(self, tree: Any) -> list | None:
        exp = self.exp
        if tree.args.get("by_name"):
            return None
        target = tree.this
        listed: list[Any] | None = None
        if isinstance(target, exp.Schema):
            listed = list(target.expressions)
            target = target.this
        static = self.partition(target)
        fields: list[NestedField] = []
        if listed is not None:
            seen: set[str] = set()
            for ident in listed:
                name = ident.name
                f = self.schema.top_level(name, self.case_sensitive)
                if f is None:
                    scope = Scope((), self.schema.fields, None)  # candidates in column order
                    raise self.unresolved([name], (scope,), bare=True, span=self.where_is(ident), order="schema")
                if self.key(f.name) in seen:
                    raise ReplayError(
                        "dml",
                        f"[COLUMN_ALREADY_EXISTS] The column `{name.lower()}` already exists. Consider to choose another name or rename the existing column.",
                        "spark",
                        span=self.where_is(ident),
                        field_id=f.id,
                        column=f.name,
                    )
                seen.add(self.key(f.name))
                fields.append(f)
        else:
            fields = [f for f in self.schema.fields if f.id not in static]
        widths = _widths(tree.expression, exp)
        for row, w in enumerate(widths):
            if w != widths[0]:
                raise ReplayError(
                    "dml",
                    f"[INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH] Invalid inline table. Inline table expected {widths[0]} "
                    f"columns but found {w} columns in row {row}.",
                    "spark",
                )
        width = next((w for w in widths if w != len(fields)), None)
        if width is not None:
            many = width > len(fields)
            reason = "too many data columns" if many else "not enough data columns"
            code = "TOO_MANY_DATA_COLUMNS" if many else "NOT_ENOUGH_DATA_COLUMNS"
            raise ReplayError(
                "dml",
                f"[INSERT_COLUMN_ARITY_MISMATCH.{code}] Cannot write to {self.table}, the reason is {reason}: "
                f"the table has {len(fields)} columns{' besides the PARTITION clause' if static else ''}, the row has {width} values",
                "spark",
            )
        if listed is not None:
            given = {f.id for f in fields} | set(static)
            for f in self.schema.fields:
                if f.id not in given:
                    raise ReplayError(
                        "dml",
                        f"[INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_FIND_DATA] Cannot write incompatible data for the table "
                        f"{self.table}: Cannot find data for the output column `{f.name}`.",
                        "spark",
                        field_id=f.id,
                        column=f.name,
                    )
        return fields

    def partition(self, table: Any) -> dict[int, Any]:
        """The columns a `PARTITION (...)` clause gives a value (static partitions), by field id."""
        exp = self.exp
        part = table.args.get("partition") if isinstance(table, exp.Table) else None
        if part is None:
            return {}
        identity = {f.source_id for f in self.meta.spec.fields if str(f.transform) == "identity"}
        sources = {f.source_id for f in self.meta.spec.fields}
        static: dict[int, Any] = {}
        for item in part.expressions:
            col = item.this if isinstance(item, exp.EQ) else item
            if not isinstance(col, exp.Column):
                continue
            f = self.schema.top_level(col.name, self.case_sensitive)
            if f is None or f.id not in identity:
                if f is not None and f.id in sources:
                    continue  # the source of a transform: not judged
                raise ReplayError(
                    "dml",
                    f"[NON_PARTITION_COLUMN] PARTITION clause cannot contain the non-partition column: `{col.name}`.",
                    "spark",
                    span=self.where_is(col),
                    column=col.name,
                )
            if isinstance(item, exp.EQ):
                static[f.id] = item.expression
        return static

    # ------------------------------------------------------------------ expressions
    def expression(self, node: Any, scopes: tuple[Scope, ...], bare: bool = False, order: str = "similar") -> None:
        exp = self.exp
        for col in node.find_all(exp.Column):
            if self.inside_query_or_lambda(col, node):
                continue
            self.column(col, scopes, bare=bare, order=order)

    def inside_query_or_lambda(self, col: Any, root: Any) -> bool:
        exp = self.exp
        node = col.parent
        while node is not None and node is not root:
            if isinstance(node, (exp.Select, exp.Subquery, exp.Lambda, exp.Union)):
                return True
            node = node.parent
        return False

    def column(self, col: Any, scopes: tuple[Scope, ...], bare: bool = False, order: str = "similar") -> None:
        exp = self.exp
        if isinstance(col.this, exp.Star):
            return
        parts = [p.name for p in col.parts]
        if not parts or parts[-1] == "" or (len(parts) == 1 and parts[0].lower() == "default"):
            return
        low = tuple(p.lower() for p in parts)
        candidates: list[tuple[Scope, list[str]]] = []
        for scope in scopes:  # a qualifier (table name or alias) first, as Spark's resolver
            for q in scope.qualifiers:
                if len(low) > len(q) and low[: len(q)] == q:
                    candidates.append((scope, parts[len(q) :]))
                    break
        if not candidates:
            candidates = [(scope, parts) for scope in scopes]
        opaque = False
        for scope, rest in candidates:
            if scope.fields is None:
                opaque = True
                continue
            top = self.find(scope.fields, rest[0])
            if top is not None:
                self.nested(top, rest[1:], col)
                return
        if opaque:
            return  # it may be a column of a relation whose columns are not known
        raise self.unresolved(parts, scopes, bare=bare or len(parts) == 1, span=self.where_is(col), order=order)

    def nested(self, f: NestedField, rest: list[str], col: Any) -> None:
        for name in rest:
            t = f.type
            if not isinstance(t, StructType):
                return  # lists, maps, primitives: Spark's own errors, not judged here
            found = self.find(t.fields, name)
            if found is None:
                names = ", ".join(f"`{x.name}`" for x in t.fields)
                raise ReplayError(
                    "unknown-column",
                    f"[FIELD_NOT_FOUND] No such struct field `{name}` in {names}.",
                    "spark",
                    span=self.where_is(col),
                    column=name,
                )
            f = found

    def find(self, fields: tuple[NestedField, ...], name: str) -> NestedField | None:
        if self.case_sensitive:
            return next((f for f in fields if f.name == name), None)
        low = name.lower()
        return next((f for f in fields if f.name.lower() == low), None)

    def key(self, name: str) -> str:
        return name if self.case_sensitive else name.lower()

    # ------------------------------------------------------------------ errors
    def unresolved(self, parts: list[str], scopes: tuple[Scope, ...], bare: bool, span: Span | None,
                   order: str = "similar") -> ReplayError:  # fmt: skip
        """Spark's `[UNRESOLVED_COLUMN.WITH_SUGGESTION]` with up to five candidates, ordered as Spark
        orders them there: in column order (INSERT column lists), by name (MERGE actions), or the
        most similar first (conditions; Spark breaks ties in an order of its own)."""
        shown = _quote_parts(parts)
        raw = ".".join(parts)
        options: list[str] = []
        for scope in scopes:
            for f in scope.fields or ():
                if bare or not scope.shown:
                    options.append(f"`{f.name}`")
                else:
                    options.append(f"`{scope.shown}`.`{f.name}`")
        if order == "sorted":
            options.sort()
        elif order == "similar":
            options.sort(key=lambda o: _levenshtein(o, raw))
        column = parts[-1]
        if not options:
            return ReplayError(
                "unknown-column",
                f"[UNRESOLVED_COLUMN.WITHOUT_SUGGESTION] A column or function parameter with name {shown} cannot be resolved.",
                "spark",
                span=span,
                column=column,
            )
        return ReplayError(
            "unknown-column",
            f"[UNRESOLVED_COLUMN.WITH_SUGGESTION] A column or function parameter with name {shown} cannot be resolved. "
            f"Did you mean one of the following? [{', '.join(options[:5])}].",
            "spark",
            span=span,
            column=column,
        )

    def where_is(self, node: Any) -> Span | None:
        """The span of `node` in the file, from sqlglot's offsets into the statement's text."""
        ident = node
        exp = self.exp
        if isinstance(node, exp.Column):
            first = node.parts[0] if node.parts else node.this
            last = node.this
            start, end = first.meta.get("start"), last.meta.get("end")
        else:
            start, end = ident.meta.get("start"), ident.meta.get("end")
        if start is None or end is None:
            return None
        return offsets_span(self.span, self.sql, start, end + 1)


def offsets_span(base: Span, sql: str, start: int, end: int) -> Span:
    """The file span of sql[start:end] (end exclusive), `sql` being the statement's text at `base`."""
    before = sql[:start]
    lines = before.count("\n")
    line = base.line + lines
    column = (base.column + start) if lines == 0 else start - before.rfind("\n")
    inside = sql[start:end]
    end_line = line + inside.count("\n")
    end_column = (column + len(inside) - 1) if "\n" not in inside else len(inside) - inside.rfind("\n") - 1
    return Span(base.path, line, column, end_line, end_column, base.start + start, base.start + end)


class _Unknown(StructType):
    """The type of a MERGE source column: only its name is known."""


_UNKNOWN = _Unknown(())


def _is_star(then: Any, exp: Any) -> bool:
    if isinstance(then, exp.Update):
        return len(then.expressions) == 1 and isinstance(then.expressions[0], exp.Star)
    return isinstance(then, exp.Insert) and isinstance(then.this, exp.Star)


def _widths(query: Any, exp: Any) -> list[int]:
    """Values per row of an INSERT's VALUES, or the projections of a plain SELECT ([]: not known)."""
    if isinstance(query, exp.Values):
        return [len(r.expressions) if isinstance(r, exp.Tuple) else 1 for r in query.expressions]
    while isinstance(query, exp.Subquery):
        query = query.this
    if isinstance(query, exp.Union):
        return _widths(query.this, exp)
    if not isinstance(query, exp.Select):
        return []
    for e in query.expressions:
        inner = e.this if isinstance(e, exp.Alias) else e
        if isinstance(inner, (exp.Star, exp.Explode, exp.Posexplode, exp.Inline)) or (
            isinstance(inner, exp.Column) and isinstance(inner.this, exp.Star)
        ):
            return []  # a star or a generator: any number of columns
    return [len(query.expressions)]


def _quote_parts(parts: list[str]) -> str:
    return ".".join(f"`{p}`" for p in parts)


def _levenshtein(a: str, b: str) -> int:
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        prev = cur
    return prev[-1]
