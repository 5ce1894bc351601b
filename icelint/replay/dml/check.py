"""What Spark checks when DML runs against the replayed schema: the columns it names and the number
of values (`dml_columns`), NULLs in required columns, literal types under Spark 3.5's ANSI store
assignment, and row-level operations that need format v2.

Literal types are checked in `VALUES` rows only (sqlglot parses the statement, lazily imported: DML
is rare in migrations); other expressions are passed over without a verdict.
"""

from __future__ import annotations

from typing import NamedTuple

from icelint.values import changes as ch
from icelint.model.table import TableMetadata
from icelint.model.types import NestedField, is_untyped
from icelint.replay import deploy, refs
from icelint.replay.dml import columns as dml_columns
from icelint.replay.dml import fast as dml_fast
from icelint.replay import spark_types as sp
from icelint.replay.common import parse_spark, quoted
from icelint.replay.dml.columns import offsets_span
from icelint.replay.errors import ReplayError, WrittenValue
from icelint.values.source import Span
from icelint.syntax.tokens import join_tokens, statement_tokens

_ASSIGNABLE = sp.LITERAL_ASSIGNABLE
_ROW_LEVEL = {"delete": "write.delete.mode", "update": "write.update.mode", "merge": "write.merge.mode"}


class DmlMixin:
    """INSERT / UPDATE / DELETE / MERGE / TRUNCATE: the checks Spark runs, and whether the table holds rows (a mixin of `Replay`)."""

    def _write_data(self, meta: TableMetadata, c: ch.WriteData, step: ch.Commit) -> TableMetadata:
        ref = self._named_ref
        wap = self.wap_branch if self.wap_branch is not None and refs.wap_enabled(meta) else None
        if ref is not None:  # `db.t.branch_audit` (replay/refs.py)
            try:
                refs.check_write(ref, c.kind, meta, wap)
            except ReplayError as e:
                e.span = step.table_span  # the name that names the ref
                raise
        check_row_level(c.kind, meta)
        sql = c.sql  # sliced from the file's text on each ask: once here
        if sql is not None:
            table = ref.parent if ref is not None else step.table  # Spark names the table, not the branch
            check_statement(sql, c.span, quoted(table), meta, self.case_sensitive, self._known_schema)
        if wap is not None:  # write-audit-publish: the write goes to the session's branch, made by the first one
            meta, ref = refs.wap_write(meta, wap)
        return deploy.written(meta, c, step, ref)  # TRUNCATE empties the current snapshot


def check_row_level(kind: str, meta: TableMetadata) -> None:
    """DELETE/UPDATE/MERGE in merge-on-read mode write delete files, which format v1 cannot hold."""
    op = kind.split()[0]
    prop = _ROW_LEVEL.get(op)
    if prop and meta.format_version == 1 and meta.properties.get(prop) == "merge-on-read":
        raise ReplayError(
            "unsupported", "Deletes are supported in V2 and above", "iceberg", column=None
        )


def check_statement(sql: str, span: Span, table: str, meta: TableMetadata, case_sensitive: bool, lookup=None) -> None:
    """The columns the statement names (`dml_columns`), then the literals of an INSERT's VALUES rows.

    A plain statement that certainly passes is known so from icelint's own tokens (`dml_fast`);
    the others are parsed with sqlglot, which gives the exact error."""
    plain = dml_fast.shape(sql)
    if plain is not None and dml_fast.passes(plain, meta, case_sensitive):
        return
    import gc

    try:
        try:
            tree = parse_spark(sql)
        except Exception:  # noqa: BLE001 - not ours to judge: Spark's own parser decides
            return
        fields = dml_columns.check(tree, table, meta, case_sensitive, span, sql)
        if fields is not None:
            check_values(tree, fields, table)
            if lookup is not None:
                check_query(tree, fields, table, lookup, _Written(sql, span, meta, case_sensitive))
    finally:
        # sqlglot's trees are cycles (parent links): with the collector off (`cli.entry`) each one
        # would stay until exit; the youngest generation holds little more than this statement's
        if not gc.isenabled():
            tree = None
            gc.collect(0)


def check_values(tree, fields: list[NestedField], table: str) -> None:
    """Literal `VALUES` rows against the fields they are written to (their number is checked already)."""
    from sqlglot import exp

    if not isinstance(tree.expression, exp.Values):
        return
    for row in tree.expression.expressions:
        items = row.expressions if isinstance(row, exp.Tuple) else [row]
        for item, field in zip(items, fields):
            if field is None:
                continue
            kind = _literal_kind(item, exp)
            if kind == "null":
                if field.required:
                    raise ReplayError(
                        "dml",
                        "[INTERNAL_ERROR] The Spark SQL phase optimization failed with an internal error "
                        f"(NullPointerException: Null value appeared in non-nullable field `{field.name}`)",
                        "spark",
                        field_id=field.id,
                        column=field.name,
                    )
                continue
            if kind is None or not field.type.is_primitive or is_untyped(field.type):
                continue
            want = sp.from_iceberg(field.type)
            if want[0] not in _ASSIGNABLE[kind]:
                raise ReplayError(
                    "dml",
                    f"[INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST] Cannot write incompatible data for the table "
                    f"{table}: Cannot safely cast `{field.name}` {kind.upper()} literal to \"{sp.sql_name(want)}\".",
                    "spark",
                    field_id=field.id,
                    column=field.name,
                )


def check_query(tree, fields: list[NestedField], table: str, lookup, written: _Written | None = None) -> None:
    """An INSERT's SELECT against the fields it is written to, by position (their number is checked
    already): each projection whose type is known (`ctas.projection_types`) must be one Spark's ANSI
    store assignment takes into its column (`[INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST]`, case 630).
    With `written` (the statement's text and table), the error points at the value and says which it
    is and how naming the columns would write it (`ReplayError.value`)."""
    from sqlglot import exp

    from icelint.replay.ctas import projection_types

    query = tree.expression
    if not isinstance(tree, exp.Insert) or not isinstance(query, exp.Select):
        return
    ctes = tree.args.get("with_")  # `WITH x AS (...) INSERT ... SELECT ... FROM x`: the SELECT reads them
    if ctes is not None and query.args.get("with_") is None:
        typed = query.copy()
        typed.set("with_", ctes.copy())
    else:
        typed = query
    types = projection_types(typed, lookup)
    if types is None or len(types) != len(fields):
        return
    for k, (src, field) in enumerate(zip(types, fields)):
        if src is None or field is None or is_untyped(field.type):
            continue
        want = sp.from_iceberg(field.type)
        if not sp.can_store_assign(src, want):
            e = ReplayError(
                "dml",
                f"[INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST] Cannot write incompatible data for the table "
                f"{table}: Cannot safely cast `{field.name}` \"{sp.sql_name(src)}\" to \"{sp.sql_name(want)}\".",
                "spark",
                field_id=field.id,
                column=field.name,
            )
            if written is not None:
                written.explain(e, tree, query, types, fields, k, sp.sql_name(want), exp)
            raise e


class _Written(NamedTuple):
    """An INSERT's text and target, to say which of its SELECT's values fails and how to write it."""

    sql: str
    span: Span
    meta: TableMetadata
    case_sensitive: bool

    def explain(self, e: ReplayError, tree, query, types: list, fields: list, k: int, want: str, exp) -> None:
        """Point `e` at the SELECT's `k`-th value (from 0) and fill `e.value`; nothing where the SELECT's
        values cannot be told apart in the text (a `*`)."""
        if any(isinstance(p, exp.Star) or (isinstance(p, exp.Column) and isinstance(p.this, exp.Star)) for p in query.expressions):
            return
        target = tree.this.this if isinstance(tree.this, exp.Schema) else tree.this  # the table, its column list aside
        if not isinstance(target, exp.Table):
            return
        ends = [n.meta.get("end") for n in target.parts if n.meta.get("end") is not None]
        if not ends:
            return
        insert_at = max(ends) + 1
        toks = statement_tokens(self.sql)
        found = _select_items(toks, insert_at)
        if found is None or len(found[1]) != len(query.expressions):
            return
        select, items = found
        begin, end = items[k]
        e.span = offsets_span(self.span, self.sql, toks[begin].start, toks[end - 1].end)
        # `INSERT INTO t SELECT`: a column list goes right after the table's name
        bare = select == next(j for j, t in enumerate(toks) if t.start >= insert_at)
        e.value = WrittenValue(
            k + 1,
            join_tokens(self.sql, toks, begin, end),
            sp.sql_name(types[k]),
            want,
            tuple(f.name for f in fields),
            isinstance(tree.this, exp.Schema),
            self._named(query, types, exp) if bare else None,
            insert_at if bare else None,
        )

    def _named(self, query, types: list, exp) -> tuple[str, ...] | None:
        """The table's columns the SELECT's values are named as, in its order, when naming them (an
        `INSERT INTO t (a, b) SELECT ...`) gives every column one value that it takes; else None."""
        schema = self.meta.schema
        named = []
        for p in query.expressions:
            name = p.alias if isinstance(p, exp.Alias) else p.name if isinstance(p, exp.Column) else ""
            f = schema.top_level(name, self.case_sensitive) if name else None
            if f is None:
                return None
            named.append(f)
        if len({f.id for f in named}) != len(named) or len(named) != len(schema.fields):
            return None
        for src, f in zip(types, named):
            if src is not None and not is_untyped(f.type) and not sp.can_store_assign(src, sp.from_iceberg(f.type)):
                return None
        return tuple(f.name for f in named)


_SELECT_ENDS = frozenset(("FROM", "WHERE", "GROUP", "HAVING", "ORDER", "SORT", "CLUSTER", "DISTRIBUTE", "LIMIT",
                          "WINDOW", "LATERAL", "UNION", "EXCEPT", "INTERSECT", "MINUS", "QUALIFY"))


def _select_items(toks: list, after: int) -> tuple[int, list[tuple[int, int]]] | None:
    """The token index of the first SELECT at or after offset `after`, and the (first, end) token
    indexes of each item of its select list, split at its top-level commas; None if there is no SELECT."""
    select = next((j for j, t in enumerate(toks) if t.start >= after and t.kw == "SELECT"), None)
    if select is None:
        return None
    i = select + 1
    if i < len(toks) and toks[i].kw in ("DISTINCT", "ALL"):
        i += 1
    items = []
    first = i
    depth = 0
    while i < len(toks):
        kw = toks[i].kw
        if kw == "(":
            depth += 1
        elif kw == ")":
            if depth == 0:
                break
            depth -= 1
        elif depth == 0 and (kw == "," or kw in _SELECT_ENDS):
            if kw != ",":
                break
            items.append((first, i))
            first = i + 1
        i += 1
    if i > first:
        items.append((first, i))
    return select, items


def _literal_kind(node, exp) -> str | None:
    if isinstance(node, exp.Neg):
        node = node.this
    if isinstance(node, exp.Null):
        return "null"
    if isinstance(node, exp.Boolean):
        return "boolean"
    if isinstance(node, exp.Literal):
        return "number" if node.is_number else None  # strings: Spark's coercion rules vary by target
    if isinstance(node, exp.Cast) and isinstance(node.this, exp.Literal) and node.this.is_string:
        to = node.to.this.name.lower() if node.to is not None else ""
        if to == "date":
            return "date"
        if to.startswith("timestamp"):
            return "timestamp"
    return None
