"""CREATE [OR REPLACE] TABLE and REPLACE TABLE, with Spark's clauses and Hive's format clauses
(STORED AS, ROW FORMAT) as Spark's Iceberg catalog takes them; CREATE TABLE ... LIKE."""

from __future__ import annotations

from collections.abc import Callable

from icelint.values.source import Span
from icelint.syntax.ast import AlterTable, ColumnDef, CreateTable, HiveCommand, Name, Other, Statement, Transform
from icelint.syntax.cursor import ParseError, backticked
from icelint.syntax.elements import TYPE_NAMES, Elements
from icelint.syntax.tokens import QIDENT, WORD, Tok


class CreateTableParser(Elements):
    __slots__ = ()
    other: Callable[[Span], Statement]  # `syntax/commands.py`: a CREATE of anything but a table

    def create(self, span: Span) -> Statement:
        replace = self.t[0].kw == "REPLACE"
        self.i = 1
        or_replace = False
        if not replace:
            or_replace = self.accept_seq("OR", "REPLACE")
            self.accept("EXTERNAL")
            if not self.at("TABLE"):
                return self.other(span)
        self.expect("TABLE")
        if_not_exists = self.accept_seq("IF", "NOT", "EXISTS")
        table = self.name("a table name")
        columns: tuple[ColumnDef, ...] = ()
        if self.at("(") and self.kw(1) not in ("SELECT", "WITH", "FROM", "VALUES", "("):
            self.i += 1
            columns = self.column_list(True)
        if self.at("LIKE") and not columns:
            like = self.t[self.i]
            self.i += 1
            try:
                source = self.name("a table name")
            except ParseError:
                return Other("create table like", span, table)
            self.i = self.n  # USING, LOCATION, TBLPROPERTIES ...: the command fails whatever they are
            words = self.span(like.start, like.end)
            return AlterTable(source, HiveCommand("create table like", (), words, table.dotted), span)
        using = None
        partitioned: tuple[Transform, ...] = ()
        properties: tuple[tuple[str, str], ...] = ()
        location = comment = None
        options: tuple[tuple[str, str], ...] = ()
        clustered: Transform | None = None
        as_select = False
        seen: set[str] = set()
        first_clause = self.i
        stored_as: Tok | None = None  # Hive's STORED AS format (its word), ROW FORMAT (its first token)
        row_format: tuple[Tok, str] | None = None  # (ROW, "DELIMITED" | "SERDE")
        hive: list[tuple[str, str]] = []  # the table properties Spark makes of them
        while self.i < self.n:
            tok = self.t[self.i]
            k = tok.kw
            self.ctx = tok.start
            clause = k
            if clause in seen:
                raise ParseError(f"duplicate {tok.text.upper()} clause in CREATE TABLE", tok)
            seen.add(clause)  # type: ignore[arg-type]
            if k == "USING":
                if self.i > first_clause:  # Spark's grammar: USING right after the columns, before every other clause
                    self.using_too_late(first_clause)
                self.i += 1
                using = self.ident("a table format").text
            elif k == "STORED":
                stored_as = self.stored_as(hive)
            elif k == "ROW":
                row_format = (tok, self.row_format(hive))
            elif k == "PARTITIONED":
                self.i += 1
                self.expect("BY")
                self.expect("(")
                extra: list[ColumnDef] = []
                items = [self.partition_field(extra)]
                while self.accept(","):
                    items.append(self.partition_field(extra))
                self.expect(")", "',' or ')'")
                partitioned = tuple(items)
                columns += tuple(extra)
            elif k == "CLUSTERED":
                clustered = self.clustered_by()
            elif k == "TBLPROPERTIES":
                self.i += 1
                properties = self.property_list(values=True)
            elif k == "OPTIONS":
                self.i += 1
                options = self.property_list(values=True)
            elif k == "LOCATION":
                self.i += 1
                location = self.string("a location string")
            elif k == "COMMENT":
                self.i += 1
                comment = self.string()
            elif k in ("AS", "SELECT", "WITH", "FROM", "VALUES", "(", "TABLE"):
                as_select = True
                self.i = self.n
                break
            else:
                raise self.error(
                    "USING, PARTITIONED BY, CLUSTERED BY, TBLPROPERTIES, OPTIONS, LOCATION, COMMENT, AS or end of statement"
                )
        self.check_hive_format(using, stored_as, row_format)
        return CreateTable(
            table,
            columns,
            or_replace,
            replace,
            if_not_exists,
            using,
            partitioned,
            properties,
            location,
            comment,
            as_select,
            span,
            options,
            clustered,
            tuple(hive),
        )

    def using_too_late(self, first_clause: int) -> None:
        """USING after another clause: Spark's syntax error at USING; the help, the statement with USING
        moved to right after the columns."""
        at = self.i
        help_ = None
        if at + 1 < self.n and self.t[at + 1].kind in (WORD, QIDENT):
            end = at + 2
            moved = [self.tokens_text(0, first_clause), self.tokens_text(at, end), self.tokens_text(first_clause, at)]
            if end < self.n:
                moved.append(self.tokens_text(end, self.n))
            help_ = "write USING right after the column list: " + backticked(" ".join(moved))
        raise self.spark_syntax_error("USING comes right after the column list, before the other clauses", help=help_)

    def stored_as(self, hive: list[tuple[str, str]]) -> Tok:
        """`STORED AS format` or `STORED AS INPUTFORMAT 'c' OUTPUTFORMAT 'c'` (Hive's); STORED BY is not
        allowed. An Iceberg SparkCatalog keeps them as properties (`hive.stored-as`; the table still writes
        Parquet)."""
        tok = self.t[self.i]
        self.i += 1
        if self.at("BY"):
            raise ParseError("Operation not allowed: STORED BY.", tok)
        self.expect("AS")
        if self.accept("INPUTFORMAT"):
            fmt = self.t[self.i - 1]
            hive.append(("hive.input-format", self.string("an input format class")))
            self.expect("OUTPUTFORMAT")
            hive.append(("hive.output-format", self.string("an output format class")))
            return fmt
        fmt = self.ident("a file format")
        hive.append(("hive.stored-as", fmt.text))
        return fmt

    def row_format(self, hive: list[tuple[str, str]]) -> str:
        """`ROW FORMAT SERDE 'class' [WITH SERDEPROPERTIES (...)]` or `ROW FORMAT DELIMITED` and its
        `FIELDS TERMINATED BY 'c' [ESCAPED BY 'c']`, `COLLECTION ITEMS | MAP KEYS | LINES TERMINATED BY 'c'`,
        `NULL DEFINED AS 's'` (Hive's)."""
        self.i += 1
        self.expect("FORMAT")
        if self.accept("SERDE"):
            hive.append(("hive.serde", self.string("a SerDe class")))
            if self.accept("WITH"):
                self.expect("SERDEPROPERTIES")
                hive.extend((f"option.{k}", v) for k, v in self.property_list(values=True))
            return "SERDE"
        self.expect("DELIMITED")
        while True:  # the keys Spark (Hive) gives them, `colelction` as spelled there
            if self.accept_seq("FIELDS", "TERMINATED", "BY"):
                c = self.string()
                hive += [("option.field.delim", c), ("option.serialization.format", c)]
                if self.accept_seq("ESCAPED", "BY"):
                    hive.append(("option.escape.delim", self.string()))
            elif self.accept_seq("COLLECTION", "ITEMS", "TERMINATED", "BY"):
                hive.append(("option.colelction.delim", self.string()))
            elif self.accept_seq("MAP", "KEYS", "TERMINATED", "BY"):
                hive.append(("option.mapkey.delim", self.string()))
            elif self.accept_seq("LINES", "TERMINATED", "BY"):
                hive.append(("option.line.delim", self.string()))
            elif self.accept_seq("NULL", "DEFINED", "AS"):
                self.string()  # not kept as a property by Spark's Iceberg catalog (measured, case 628)
            else:
                return "DELIMITED"

    def check_hive_format(self, using: str | None, stored_as: Tok | None, row_format: tuple[Tok, str] | None) -> None:
        """Spark's checks of Hive's format clauses (measured, differential case 628)."""
        if using is not None and (stored_as is not None or row_format is not None):
            what = []
            if row_format is not None:
                what.append(f"ROW FORMAT {row_format[1]}")
            if stored_as is not None:
                what.append(f"STORED AS {stored_as.text} ")
            raise ParseError(f"Operation not allowed: CREATE TABLE ... USING ... {' '.join(what)}.", self.t[0])
        if row_format is not None and stored_as is not None:
            fmt = stored_as.text.lower()
            if row_format[1] == "DELIMITED" and stored_as.kw != "INPUTFORMAT" and fmt != "textfile":
                raise ParseError(f"Operation not allowed: ROW FORMAT DELIMITED is only compatible with 'textfile', not '{fmt}'.", row_format[0])

    def clustered_by(self) -> Transform:
        """`CLUSTERED BY (a, ...) [SORTED BY (b [ASC | DESC], ...)] INTO n BUCKETS` (Spark's bucket spec),
        as the transform Spark makes of it: `bucket(n, a, ...)`, or `sorted_bucket(a, ..., n, b, ...)`."""
        start = self.t[self.i].start
        self.i += 1
        self.expect("BY")
        self.expect("(")
        cols: list[Name | int | str] = [self.name("a column name")]
        while self.accept(","):
            cols.append(self.name("a column name"))
        self.expect(")", "',' or ')'")
        sort: list[Name | int | str] = []
        if self.accept("SORTED"):
            self.expect("BY")
            self.expect("(")
            while True:
                sort.append(self.name("a column name"))
                self.accept("ASC") or self.accept("DESC")
                if not self.accept(","):
                    break
            self.expect(")", "',' or ')'")
        self.expect("INTO")
        n = self.integer("a number of buckets")
        self.expect("BUCKETS")
        span = self.span(start, self.prev_end())
        if sort:
            return Transform("sorted_bucket", (*cols, n, *sort), span)
        return Transform("bucket", (n, *cols), span)

    def partition_field(self, extra: list[ColumnDef]) -> Transform:
        """A transform, or a Hive-style `name type [NOT NULL] [COMMENT 'x']`, which also adds the
        column (to `extra`) and partitions by it."""
        tr = self.transform()
        if tr.func is None and len(tr.args[0].parts) == 1 and self.kw() in TYPE_NAMES:  # type: ignore[union-attr]
            name: Name = tr.args[0]  # type: ignore[assignment]
            typ = self.data_type()
            not_null = self.accept_seq("NOT", "NULL")
            comment = self.string() if self.accept("COMMENT") else None
            extra.append(ColumnDef(name, typ, not_null, comment, None, None, self.span(tr.span.start, self.prev_end())))
        return tr
