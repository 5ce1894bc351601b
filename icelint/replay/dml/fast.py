"""The DML statements migrations usually hold, checked from icelint's own tokens, without sqlglot.

`replay/dml.py` parses each DML statement with sqlglot's parser to run `dml_columns` and the
literal checks: importing all of sqlglot and parsing costs more than the rest of a run's DML. Most
DML in migrations is one of a few plain shapes:

    DELETE FROM db.t [WHERE <predicate>]
    UPDATE db.t SET c = <literal> [, ...] [WHERE <predicate>]
    INSERT INTO db.t [(c, ...)] VALUES (<literal>, ...) [, (...)]

where a predicate is `c <op> <literal>` or `c IS [NOT] NULL` joined by AND/OR, a literal is a
number (optionally negative), a string, NULL, TRUE/FALSE, or `DATE '...'` / `TIMESTAMP '...'`,
and every name is one unqualified identifier. `shape` recognises them; `passes` says whether such a
statement certainly passes every check the sqlglot path runs (its columns resolve, the arity and
the literal types are right). Anything else, and any statement that might fail, goes the sqlglot
way, which builds the exact error: this module never raises an error of its own, so the verdicts
(and messages) are the sqlglot path's, only reached sooner (`tests/equivalence/test_dml_fast.py` compares the
two on generated statements).
"""

from __future__ import annotations

from functools import lru_cache
from sys import intern
from typing import Callable, NamedTuple, TypeVar

from icelint.model.table import TableMetadata
from icelint.replay import spark_types as sp

_COMPARE = {"EQ", "NEQ", "LT", "LTE", "GT", "GTE", "NULLSAFE_EQ"}
_NAME = {"VAR", "IDENTIFIER"}
_END = {"SEMICOLON"}
_TYPED = {"DATE": "date", "TIMESTAMPTZ": "timestamp"}  # `DATE '...'`, `TIMESTAMP '...'` (sqlglot: a Cast)
_LITERALS = {"NUMBER": "number", "STRING": None, "NULL": "null", "TRUE": "boolean", "FALSE": "boolean"}  # `_Tokens.literal`'s kinds
T = TypeVar("T")


class Shape(NamedTuple):
    """A plain DML statement: the columns it names (resolved against the top-level fields) and,
    for an INSERT, its column list (None: all columns) and the literal kinds of its rows."""

    kind: str  # insert / update / delete
    names: tuple[str, ...]  # columns named in SET targets and WHERE
    listed: tuple[str, ...] | None = None  # INSERT's column list
    rows: tuple[tuple[str | None, ...], ...] = ()  # INSERT: per row, each value's literal kind


class _Stop(Exception):
    pass


_names: dict = {}  # TokenType → its name (an enum's `.name` is slow to look up)


class _Tokens:
    def __init__(self, tokens: list) -> None:
        if not _names:
            from icelint.syntax.tokenizer import TokenType

            _names.update((tt, tt.name) for tt in TokenType)
        names = _names
        self.toks = [(names[t.token_type], t.text) for t in tokens]
        while self.toks and self.toks[-1][0] in _END:
            self.toks.pop()
        self.i = 0

    def peek(self) -> str | None:
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def take(self, *kinds: str) -> str:
        if self.i >= len(self.toks) or self.toks[self.i][0] not in kinds:
            raise _Stop
        self.i += 1
        return self.toks[self.i - 1][1]

    def accept(self, kind: str) -> bool:
        if self.peek() == kind:
            self.i += 1
            return True
        return False

    def table(self) -> None:
        self.take("VAR", "IDENTIFIER")
        while self.accept("DOT"):
            self.take("VAR", "IDENTIFIER")

    def name(self) -> str:
        name = self.take(*_NAME)
        if name.lower() == "default":
            raise _Stop
        return intern(name)  # the schema's own string (the parser interns names): an INSERT listing thousands of columns adds no copies

    def literal(self) -> str | None:
        """The kind `dml._literal_kind` gives it: number, boolean, null, date, timestamp, None (a string)."""
        kind = self.peek()
        if kind == "DASH":
            self.i += 1
            self.take("NUMBER")
            return "number"
        if kind in _TYPED:
            self.i += 1
            self.take("STRING")
            return _TYPED[kind]
        self.take(*_LITERALS)
        return _LITERALS[kind]

    def predicate(self, names: list[str]) -> None:
        while True:
            names.append(self.name())
            if self.accept("IS"):
                self.accept("NOT")
                self.take("NULL")
            else:
                self.take(*_COMPARE)
                self.literal()
            if self.peek() not in ("AND", "OR"):
                return
            self.i += 1

    def done(self) -> None:
        if self.i != len(self.toks):
            raise _Stop

    def where_and_end(self, names: list[str]) -> None:
        """`[WHERE <predicate>]`, then the end of the statement."""
        if self.accept("WHERE"):
            self.predicate(names)
        self.done()

    def rows(self) -> list[tuple[str | None, ...]]:
        """`comma_list(row)` for an INSERT's `(literal, ...) [, (...)]` (`row` in `_shape`), as one loop
        over the token kinds: a long VALUES list costs a few steps per value, not a few calls."""
        toks, i, n = self.toks, self.i, len(self.toks)
        out: list[tuple[str | None, ...]] = []
        while True:
            if i >= n or toks[i][0] != "L_PAREN":
                raise _Stop
            i += 1
            values: list[str | None] = []
            while True:  # `literal`
                kind = toks[i][0] if i < n else None
                if kind == "DASH" or kind in _TYPED:
                    i += 1
                    if i >= n or toks[i][0] != ("NUMBER" if kind == "DASH" else "STRING"):
                        raise _Stop
                    values.append("number" if kind == "DASH" else _TYPED[kind])
                elif kind in _LITERALS:
                    values.append(_LITERALS[kind])
                else:
                    raise _Stop
                i += 1
                if i < n and toks[i][0] == "COMMA":
                    i += 1
                    continue
                break
            if i >= n or toks[i][0] != "R_PAREN":
                raise _Stop
            i += 1
            out.append(tuple(values))
            if i < n and toks[i][0] == "COMMA":
                i += 1
                continue
            self.i = i
            return out

    def comma_list(self, item: Callable[[], T]) -> list[T]:
        """`item [, item ...]`."""
        out = [item()]
        while self.accept("COMMA"):
            out.append(item())
        return out


# The parallel run's pre-check (run/parallel.py) and the replay ask for the same statements; a few only:
# the cache holds each statement's text and shape, and the replay asks for each statement once. A
# long statement is not kept (an INSERT of 2,000 columns and its shape: ~130 KB, 8 MB for 64 of
# them on the migration x20): reading it twice costs less than holding it.
CACHED_MAX = 4096  # characters


def shape(sql: str) -> Shape | None:
    """The statement's shape, or None when it is not one of the plain shapes."""
    return _cached_shape(sql) if len(sql) <= CACHED_MAX else _shape(sql, True)


@lru_cache(maxsize=64)
def _cached_shape(sql: str) -> Shape | None:
    return _shape(sql, True)


def _shape(sql: str, fast_rows: bool) -> Shape | None:
    """`shape`; `fast_rows`: an INSERT's rows read by `_Tokens.rows` (else by `comma_list(row)`, the
    general way, kept to test the two give the same)."""
    from icelint.syntax.tokenizer import new_tokenizer

    try:
        t = _Tokens(new_tokenizer().tokenize(sql))
    except Exception:  # noqa: BLE001 - the sqlglot path decides
        return None
    names: list[str] = []
    try:
        first = t.peek()
        if first == "DELETE":
            t.i += 1
            t.take("FROM")
            t.table()
            t.where_and_end(names)
            return Shape("delete", tuple(names))
        if first == "UPDATE":
            t.i += 1
            t.table()
            t.take("SET")

            def assignment() -> None:
                names.append(t.name())
                t.take("EQ")
                t.literal()

            t.comma_list(assignment)
            t.where_and_end(names)
            return Shape("update", tuple(names))
        if first == "INSERT":
            t.i += 1
            t.take("INTO")
            t.table()
            listed: list[str] | None = None
            if t.accept("L_PAREN"):
                listed = t.comma_list(t.name)
                t.take("R_PAREN")
            t.take("VALUES")

            def row() -> tuple[str | None, ...]:
                t.take("L_PAREN")
                values = t.comma_list(t.literal)
                t.take("R_PAREN")
                return tuple(values)

            rows = t.rows() if fast_rows else t.comma_list(row)
            t.done()
            return Shape("insert", (), tuple(listed) if listed is not None else None, tuple(rows))
    except _Stop:
        return None
    return None


def passes(s: Shape, meta: TableMetadata, case_sensitive: bool) -> bool:
    """True when the sqlglot path (`dml_columns.check`, then `dml.check_values`) raises nothing for
    a statement of shape `s`; False when it may raise (the caller then runs it)."""
    fields = meta.schema.fields
    for name in s.names:  # `_Resolver.column` of a one-part name: a top-level field of the target
        if case_sensitive:
            if not any(f.name == name for f in fields):
                return False
        else:
            low = name.lower()
            if not any(f.name.lower() == low for f in fields):
                return False
    if s.kind != "insert":
        return True
    _ASSIGNABLE = sp.LITERAL_ASSIGNABLE

    if s.listed is not None:  # `_Resolver.insert`: each listed name a column, once; every column given
        targets = []
        seen: set[str] = set()
        schema = meta.schema
        for name in s.listed:
            f = schema.top_level(name, case_sensitive)
            if f is None:
                return False
            key = f.name if case_sensitive else f.name.lower()
            if key in seen:
                return False
            seen.add(key)
            targets.append(f)
        if {f.id for f in targets} != {f.id for f in fields}:
            return False
    else:
        targets = list(fields)
    for row in s.rows:
        if len(row) != len(targets):
            return False
        for kind, field in zip(row, targets):  # `dml.check_values`
            if kind is None:
                continue
            if kind == "null":
                if field.required:
                    return False
                continue
            if not field.type.is_primitive:
                continue
            if sp.from_iceberg(field.type)[0] not in _ASSIGNABLE[kind]:
                return False
    return True

