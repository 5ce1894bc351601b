"""The pieces statements are made of: data types, column definitions, transforms, sort terms,
property lists and Hive partition specs."""

from __future__ import annotations

from sys import intern

from icelint.model.types import MAX_TYPE_DEPTH
from icelint.values.source import Span
from icelint.syntax.ast import ColumnDef, Name, Position, SortTerm, SqlField, SqlType, Transform
from icelint.syntax.cursor import Cursor, ParseError
from icelint.syntax.tokens import NUMBER, QIDENT, STRING, WORD

NO_IF_NOT_EXISTS = "Spark 3.5 has no ADD COLUMN IF NOT EXISTS: the statement fails before it runs"
_COLUMN_CLAUSES = "NOT NULL, DEFAULT, COMMENT, FIRST or AFTER"
_INTERVAL_UNITS = frozenset(("YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"))
_DECIMAL_TYPES = frozenset(("DECIMAL", "DEC", "NUMERIC"))
_LENGTH_TYPES = frozenset(("VARCHAR", "CHAR", "CHARACTER"))
# Spark 3.5's data types (SqlBaseParser `dataType`); any other name is a parse error in Spark.
TYPE_NAMES = frozenset(
    """BOOLEAN TINYINT BYTE SMALLINT SHORT INT INTEGER BIGINT LONG FLOAT REAL DOUBLE DATE TIMESTAMP
    TIMESTAMP_NTZ TIMESTAMP_LTZ STRING CHARACTER CHAR VARCHAR BINARY DECIMAL DEC NUMERIC VOID
    INTERVAL ARRAY STRUCT MAP""".split()
)



class Elements(Cursor):
    __slots__ = ()

    # ------------------------------------------------------------------ types

    def data_type(self, depth: int = 1) -> SqlType:
        """A type; `depth` is how deeply it nests (icelint's limit, `MAX_TYPE_DEPTH`, bounds the recursion)."""
        if self.i >= self.n or self.t[self.i].kind != WORD or self.t[self.i].kw not in TYPE_NAMES:
            raise self.error("a data type")
        tok = self.t[self.i]
        self.i += 1
        kw = tok.kw
        if depth >= MAX_TYPE_DEPTH and kw in ("ARRAY", "MAP", "STRUCT"):
            raise ParseError(f"types nested deeper than {MAX_TYPE_DEPTH} levels are not supported by icelint", tok)
        name = tok.text.lower()
        start = tok.start
        if kw == "ARRAY":
            self.expect("<")
            element = self.data_type(depth + 1)
            self.close_angle()
            return SqlType("array", element=element, span=self.span(start, self.prev_end()))
        if kw == "MAP":
            self.expect("<")
            key = self.data_type(depth + 1)
            self.expect(",")
            value = self.data_type(depth + 1)
            self.close_angle()
            return SqlType("map", key=key, value=value, span=self.span(start, self.prev_end()))
        if kw == "STRUCT":
            if self.accept("<>"):
                return SqlType("struct", span=self.span(start, self.prev_end()))
            self.expect("<")
            fields: list[SqlField] = []
            if not self.accept(">"):
                fields.append(self.struct_field(depth + 1))
                while self.accept(","):
                    fields.append(self.struct_field(depth + 1))
                self.close_angle("',' or '>'")
            return SqlType("struct", fields=tuple(fields), span=self.span(start, self.prev_end()))
        if kw == "INTERVAL":  # interval year [to month], interval day [to second], ...
            words = [name, self.interval_unit()]
            if self.accept("TO"):
                words.append("to")
                words.append(self.interval_unit())
            return SqlType(" ".join(words), span=self.span(start, self.prev_end()))
        params: tuple[int, ...] = ()
        if kw in _DECIMAL_TYPES:
            if self.accept("("):
                values = [self.integer()]
                if self.accept(","):
                    values.append(self.integer())
                self.expect(")", "',' or ')'")
                params = tuple(values)
        elif kw in _LENGTH_TYPES:
            self.expect("(", "'(' and a length")
            params = (self.integer("a length"),)
            self.expect(")")
        return SqlType(name, params=params, span=self.span(start, self.prev_end()))

    def interval_unit(self) -> str:
        if self.i < self.n and self.t[self.i].kw in _INTERVAL_UNITS:
            self.i += 1
            return self.t[self.i - 1].text.lower()
        raise self.error("YEAR, MONTH, DAY, HOUR, MINUTE or SECOND")

    def close_angle(self, expected: str = "'>'") -> None:
        if not self.accept(">"):
            raise self.error(expected)

    def struct_field(self, depth: int = 2) -> SqlField:
        tok = self.ident("a field name")
        self.accept(":")
        typ = self.data_type(depth)
        not_null = False
        comment = None
        while True:
            if self.kw() == "NOT" and self.kw(1) == "NULL" and not not_null:
                self.i += 2
                not_null = True
            elif self.kw() == "COMMENT" and comment is None:
                self.i += 1
                comment = self.string()
            else:
                break
        return SqlField(intern(tok.text), typ, not_null, comment, self.span(tok.start, self.prev_end()))

    # ------------------------------------------------------------------ columns

    def position(self) -> Position:
        tok = self.t[self.i]
        self.i += 1
        if tok.kw == "FIRST":
            return Position(True, None, self.span(tok.start, tok.end))
        after = self.single_name("a column name")
        return Position(False, after, self.span(tok.start, after.span.end))

    def column_def(self, follow: tuple[str | None, ...], first: bool = False) -> ColumnDef:
        """`path type [NOT NULL] [DEFAULT expr] [COMMENT 'x'] [FIRST | AFTER name]`, clauses in any
        order; `follow` lists what may come next (None: the end of the statement)."""
        saved_ctx = self.ctx
        if self.kw() == "IF" and self.kw(1) == "NOT" and self.kw(2) == "EXISTS":  # `ADD COLUMNS a int, IF NOT EXISTS b int`
            self.i += 2
            raise self.spark_syntax_error(NO_IF_NOT_EXISTS)
        path = self.name("a column name")
        start = path.span.start
        if not first:  # the first column keeps the clause ('ADD COLUMN a') in messages
            self.ctx = start
        typ = self.data_type()
        not_null = False
        default: str | None = None
        comment: str | None = None
        position: Position | None = None
        while True:
            k = self.kw()
            if k == "NOT" and self.kw(1) == "NULL" and not not_null:
                self.i += 2
                not_null = True
            elif k == "DEFAULT" and default is None:
                self.i += 1
                default = self.expression_text(self._at_column_clause)
            elif k == "COMMENT" and comment is None:
                self.i += 1
                comment = self.string()
            elif (k == "FIRST" or k == "AFTER") and position is None:
                position = self.position()
            else:
                break
        if not (self.kw() in follow or (None in follow and self.at_end())):
            if self.kw() == "IF" and self.kw(1) == "NOT":
                raise self.spark_syntax_error(NO_IF_NOT_EXISTS)
            listed = [f"'{f}'" for f in follow if f is not None]
            if None in follow:
                listed.append("end of statement")
            raise self.error(f"{_COLUMN_CLAUSES.replace(' or ', ', ')}, {' or '.join(listed)}")
        self.ctx = saved_ctx
        return ColumnDef(path, typ, not_null, comment, position, default, self.span(start, self.prev_end()))

    def _at_column_clause(self) -> bool:
        k = self.t[self.i].kw
        if k in ("COMMENT", "FIRST", "AFTER"):
            return self.kw(1) != "("  # not a call such as first(x)
        return k == "NOT" and self.kw(1) == "NULL" and self.t[self.i - 1].kw != "IS"

    def column_list(self, parenthesised: bool) -> tuple[ColumnDef, ...]:
        follow: tuple[str | None, ...] = (",", ")") if parenthesised else (",", None)
        cols = [self.column_def(follow, first=True)]
        while self.accept(","):
            cols.append(self.column_def(follow))
        if parenthesised:
            self.expect(")")
        return tuple(cols)

    # ------------------------------------------------------------------ transforms

    def transform(self) -> Transform:
        if self.i + 1 < self.n and self.t[self.i + 1].kw == "(" and self.t[self.i].kind in (WORD, QIDENT):
            func_tok = self.t[self.i]
            self.i += 2
            args: list[Name | int | str] = [self.transform_arg()]
            while self.accept(","):
                args.append(self.transform_arg())
            self.expect(")", "',' or ')'")
            return Transform(func_tok.text.lower(), tuple(args), self.span(func_tok.start, self.prev_end()))
        name = self.name("a column name or transform")
        return Transform(None, (name,), name.span)

    def transform_arg(self) -> Name | int | str:
        tok = self.t[self.i] if self.i < self.n else None
        if tok is not None:
            if tok.kind == NUMBER:
                self.i += 1
                try:
                    return int(tok.text)
                except ValueError:
                    return tok.text
            if tok.kind == STRING:
                return self.string()
            if tok.kw == "-" and self.i + 1 < self.n and self.t[self.i + 1].kind == NUMBER:
                self.i += 1
                return -self.integer()
        return self.name("a column name or constant")

    def sort_term(self) -> SortTerm:
        tr = self.transform()
        descending = False
        nulls_first: bool | None = None
        if self.accept("DESC"):
            descending = True
        else:
            self.accept("ASC")
        if self.accept("NULLS"):
            if self.accept("FIRST"):
                nulls_first = True
            elif self.accept("LAST"):
                nulls_first = False
            else:
                raise self.error("FIRST or LAST")
        return SortTerm(tr, descending, nulls_first, self.span(tr.span.start, self.prev_end()))

    # ------------------------------------------------------------------ properties

    def property_list(self, values: bool, key_spans: list | None = None) -> tuple[tuple[str, str], ...]:
        """`( key [=] value, ... )` (values=True) or `( key, ... )`; values as strings; each key's span is
        appended to `key_spans` when given."""
        self.expect("(")
        out: list[tuple[str, str]] = []
        while True:
            key_start = self.t[self.i].start if self.i < self.n else 0
            key = self.property_key()
            if key_spans is not None:
                key_spans.append(self.span(key_start, self.prev_end()))
            value = ""
            if values:
                self.accept("=")
                value = self.property_value()
            elif self.at("="):
                raise self.error("',' or ')' (UNSET TBLPROPERTIES takes keys only)")
            out.append((key, value))
            if self.accept(","):
                continue
            self.expect(")", "',' or ')'")
            return tuple(out)

    def property_key(self) -> str:
        if self.i < self.n and self.t[self.i].kind == STRING:
            return self.string()
        return self.name("a property key").dotted

    def property_value(self) -> str:
        tok = self.t[self.i] if self.i < self.n else None
        if tok is not None:
            if tok.kind == STRING:
                return self.string()
            if (tok.kind == NUMBER and tok.text[-1].isdigit()) or (tok.kind == WORD and tok.kw in ("TRUE", "FALSE")):
                self.i += 1
                return tok.text
        raise self.error("a property value")

    def words_span(self, first: int, last_kw: str) -> Span:
        """The span from token `first` to the next token that is the keyword `last_kw`."""
        j = first
        while j + 1 < self.n and self.t[j].kw != last_kw:
            j += 1
        return self.span(self.t[first].start, self.t[j].end)

    def hive_partition(self) -> tuple[tuple[str, str | None], ...]:
        self.expect("PARTITION")
        return self.partition_spec()

    def partition_spec(self) -> tuple[tuple[str, str | None], ...]:
        """A Hive partition spec, `(dt = '2024-01-01', region)`: (column, value as written or None) each."""
        self.expect("(")
        out = []
        while True:
            key = self.single_name("a partition column").parts[0]
            value = None
            if self.accept("="):
                start = self.i
                while self.i < self.n and self.t[self.i].kw not in (",", ")"):
                    self.i += 1
                if self.i == start:
                    raise self.error("a partition value")
                value = self.tokens_text(start, self.i)
            out.append((key, value))
            if not self.accept(","):
                break
        self.expect(")", "',' or ')'")
        return tuple(out)
