"""Every statement but ALTER TABLE and CREATE TABLE: DROP TABLE, SET, USE, CALL, COMMENT ON, the
Hive and Delta Lake commands Spark refuses, and the rest (`Other`: DML, queries, other objects),
with the table a DML statement writes."""

from __future__ import annotations

import re

from icelint.values.source import Span
from icelint.syntax.ast import (
    AlterTable,
    Call,
    DropTable,
    HiveCommand,
    Name,
    Other,
    SetConfig,
    SetProperties,
    Statement,
    UseNamespace,
)
from icelint.syntax.cursor import ParseError, backticked
from icelint.syntax.elements import Elements
from icelint.syntax.tokens import QIDENT, STRING, WORD, Tok

_STATEMENT_STARTERS = frozenset(
    """ADD ALTER ANALYZE BEGIN CACHE CALL CLEAR COMMENT COMMIT CONVERT CREATE DECLARE DELETE DESC
    DESCRIBE DROP END EXECUTE EXPLAIN FROM FSCK GENERATE GRANT INSERT LIST LOAD MAP MERGE MSCK
    OPTIMIZE REDUCE REFRESH REPAIR RESET RESTORE REVOKE ROLLBACK SELECT SET SHOW TABLE
    TRUNCATE UNCACHE UPDATE USE VACUUM VALUES WITH""".split()
)

_QUERY_STARTS = frozenset(("SELECT", "VALUES", "WITH", "FROM", "TABLE", "(", "MAP", "REDUCE"))
# Words skipped to find the object of CREATE/DROP/ALTER in an Other statement's keyword.
_OBJECT_MODIFIERS = frozenset(("OR", "REPLACE", "GLOBAL", "TEMPORARY", "TEMP", "MATERIALIZED"))



class CommandParser(Elements):
    __slots__ = ()

    def delta_command(self, k: str) -> None:
        """`OPTIMIZE t [WHERE ...] [ZORDER BY (c, ...)]`, `VACUUM t [RETAIN n HOURS] [DRY RUN]`: Delta Lake's
        statements, Spark 3.5's syntax error at their first word; the help, Iceberg's procedure that does it."""
        help_ = None
        self.i = 1
        try:
            table = self.name("a table name")
            quoted_t = "'" + table.dotted.replace("\\", "\\\\").replace("'", "\\'") + "'"
            if k == "OPTIMIZE":
                z: list[str] = []
                while self.i < self.n and not (self.kw() == "ZORDER" and self.kw(1) == "BY"):
                    self.i += 1
                if self.i < self.n:
                    self.i += 2
                    paren = self.accept("(")
                    z = [".".join(n.parts) for n in self.names()]
                    if paren:
                        self.expect(")")
                    self.expect_end()
                order = f", strategy => 'sort', sort_order => 'zorder({', '.join(z)})'" if z else ""
                call = f"CALL system.rewrite_data_files(table => {quoted_t}{order})"
                help_ = f"OPTIMIZE is Delta Lake's: compact{' and Z-order' if z else ''} an Iceberg table with its procedure, `{call}`"
            else:
                help_ = (
                    f"VACUUM is Delta Lake's: remove it from the migration; an Iceberg table's old files go when its old "
                    f"snapshots are expired and files no snapshot lists are removed as orphans, maintenance to run as its "
                    f"own job (Iceberg's `expire_snapshots` and `remove_orphan_files` procedures on {quoted_t})"
                )
        except ParseError:
            pass
        self.i = 0
        raise self.spark_syntax_error(f"{k} is not Spark SQL (it is Delta Lake's)", help=help_)

    def index_statement(self, k: str, span: Span) -> Statement | None:
        """`CREATE INDEX [IF NOT EXISTS] i ON [TABLE] t [USING x] (c, ...)` and `DROP INDEX [IF EXISTS] i ON
        [TABLE] t`: Spark parses them and refuses them on an Iceberg table (`replay/hive.py`); None when the
        statement is not whole (it stays an `Other`)."""
        self.i = 2
        try:
            if k == "CREATE":
                self.accept_seq("IF", "NOT", "EXISTS")
            else:
                self.accept_seq("IF", "EXISTS")
            self.single_name("an index name")
            self.expect("ON")
            self.accept("TABLE")
            table = self.name("a table name")
        except ParseError:
            return None
        words = self.span(self.t[0].start, self.t[1].end)
        self.i = self.n
        return AlterTable(table, HiveCommand("create index" if k == "CREATE" else "drop index", (), words), span)

    def comment_on_column(self) -> None:
        """`COMMENT ON COLUMN db.t.c IS 'x'`: Spark 3.5's syntax error at COLUMN; the help, where the
        statement is otherwise whole, the ALTER COLUMN that sets the comment."""
        help_ = None
        self.i = 3
        try:
            name = self.name("a column name")
            named = self.i  # the table, `.`, the column: as written
            self.expect("IS")
            if self.accept("NULL"):
                text = "''"
            else:
                text = self.text[self.t[self.i].start : self.t[self.i].end] if self.i < self.n else ""
                self.string()
            if self.at_end() and len(name.parts) >= 2:
                table, column = self.tokens_text(3, named - 2), self.tokens_text(named - 1, named)
                help_ = "set it with ALTER COLUMN: " + backticked(f"ALTER TABLE {table} ALTER COLUMN {column} COMMENT {text}")
        except ParseError:
            pass
        self.i = 2
        raise self.spark_syntax_error("Spark 3.5 has no COMMENT ON COLUMN", help=help_)

    def comment_on_table(self, span: Span) -> Statement:
        """`COMMENT ON TABLE t IS 'text' | NULL`: Spark stores it as the `comment` property ('' for NULL)."""
        self.i = 3
        table = self.name("a table name")
        self.expect("IS")
        text = "" if self.accept("NULL") else self.string()
        self.expect_end()
        return AlterTable(table, SetProperties((("comment", text),)), span)

    def other(self, span: Span) -> Statement:
        t, n = self.t, self.n
        first = t[0]
        k = first.kw
        j = 0
        while j < n and t[j].kw == "(":  # (SELECT ...) UNION ...
            j += 1
        if j < n and j > 0:
            k = t[j].kw
        if j >= n or t[j].kind != WORD or k not in _STATEMENT_STARTERS:
            self.i = j
            raise self.error("a statement")
        keyword = t[j].text.lower()
        table: Name | None = None
        self.i = j + 1
        if k in ("CREATE", "DROP", "ALTER"):
            temporary = False
            while self.i < n and t[self.i].kw in _OBJECT_MODIFIERS:
                temporary = temporary or t[self.i].kw in ("TEMPORARY", "TEMP")
                self.i += 1
            if self.i < n and t[self.i].kind == WORD:
                obj = t[self.i].text.lower()
                keyword += " temporary " + obj if temporary and obj == "table" else " " + obj
                self.i += 1
        else:
            if k == "WITH":  # `WITH x AS (...) INSERT|UPDATE|DELETE|MERGE ...` writes as the statement after its CTEs
                dml = self._after_ctes()
                if dml is not None:
                    k, keyword, self.i = t[dml].kw, t[dml].text.lower(), dml + 1
            try:
                if k == "INSERT":
                    overwrite = self.at("OVERWRITE")
                    if (self.accept("INTO") or self.accept("OVERWRITE")) and not (overwrite and self._at_directory()):
                        if self._table_keyword_here():
                            self.i += 1
                        table = self.name()
                elif k == "UPDATE":
                    table = self.name()
                elif k == "DELETE":
                    self.expect("FROM")
                    table = self.name()
                    if not any(tok.kw == "WHERE" for tok in t[self.i :]):
                        keyword = "delete all"  # every row: a rule tells it from a DELETE ... WHERE
                elif k == "MERGE":
                    self.expect("INTO")
                    table = self.name()
                elif k == "TRUNCATE":
                    self.expect("TABLE")
                    table = self.name()
                    if self.at("PARTITION"):
                        start = self.t[self.i].start
                        spec = self.hive_partition()
                        self.expect_end()
                        return AlterTable(table, HiveCommand("truncate partition", (spec,), self.span(start, self.prev_end())), span)
                elif k == "ANALYZE" and self.accept("TABLE"):
                    words = self.span(t[j].start, self.prev_end())
                    return AlterTable(self.name(), HiveCommand("analyze table", (), words), span)
                elif k == "MSCK" or k == "REPAIR":
                    if k == "MSCK":
                        self.expect("REPAIR")
                    self.expect("TABLE")
                    words = self.span(t[j].start, self.prev_end())
                    return AlterTable(self.name(), HiveCommand("repair table", (), words), span)
            except ParseError:
                table = None
        return Other(keyword, span, table)

    def _after_ctes(self) -> int | None:
        """The index of the INSERT, UPDATE, DELETE or MERGE a `WITH` list of CTEs leads to (Spark's
        `ctes? dmlStatementNoWith`), None for a query (`WITH ... SELECT`)."""
        depth = 0
        for j in range(self.i, self.n):
            kw = self.t[j].kw
            if kw == "(":
                depth += 1
            elif kw == ")":
                depth -= 1
            elif depth == 0 and kw in ("INSERT", "UPDATE", "DELETE", "MERGE", "SELECT", "FROM", "VALUES", "TABLE"):
                return j if kw in ("INSERT", "UPDATE", "DELETE", "MERGE") else None
        return None

    def _at_directory(self) -> bool:
        """`INSERT OVERWRITE [LOCAL] DIRECTORY ['path'] ...`, not a table named `local` or `directory`."""
        j = self.i + 1 if self.at("LOCAL") else self.i
        if j >= self.n or self.t[j].kw != "DIRECTORY":
            return False
        return j + 1 >= self.n or self.t[j + 1].kind == STRING or self.t[j + 1].kw == "USING"

    def _table_keyword_here(self) -> bool:
        """Whether the TABLE after `INSERT INTO|OVERWRITE` is the optional keyword, not a table named
        `table` (Spark 3.5 takes every keyword as a name: `INSERT INTO table VALUES (1)`)."""
        t, n, j = self.t, self.n, self.i + 1
        if not self.at("TABLE") or j >= n or t[j].kind not in (WORD, QIDENT):
            return False
        while j + 2 < n and t[j + 1].kw == "." and t[j + 2].kind in (WORD, QIDENT):
            j += 2
        j += 1  # after the name TABLE would introduce
        if j >= n:
            return True
        if t[j].kw != "(":  # what may follow the target: a query, PARTITION (...), BY NAME, REPLACE WHERE
            return t[j].kw in _QUERY_STARTS or t[j].kw in ("PARTITION", "BY", "REPLACE", "IF")
        # `TABLE name (a, b) <query>` (a column list), or `table VALUES (1)` (the row of a query)
        k = j + 1
        while k + 1 < n and t[k].kind in (WORD, QIDENT) and t[k + 1].kw in (",", ")"):
            if t[k + 1].kw == ")":
                return k + 2 < n and t[k + 2].kw in _QUERY_STARTS
            k += 2
        return False

    def drop_table(self, span: Span) -> Statement:
        self.i = 2
        if_exists = self.accept_seq("IF", "EXISTS")
        table = self.name("a table name")
        purge = self.accept("PURGE")
        self.expect_end()
        return DropTable(table, if_exists, purge, span)

    # SET / CALL ------------------------------------------------------------

    def set_config(self, span: Span) -> Statement:
        t, n, text = self.t, self.n, self.text
        if n == 1 or (t[1].kw == "-" and n <= 3) or (t[1].kw == "TIME" and self.kw(2) == "ZONE"):
            keyword = "set time zone" if n > 1 and t[1].kw == "TIME" else "set"
            return Other(keyword, span)
        eq = 1
        while eq < n and t[eq].kw != "=":
            eq += 1
        key_toks = t[1:eq]
        if not key_toks:
            self.i = eq
            raise self.error("a configuration key")
        if len(key_toks) == 1 and key_toks[0].kind in (QIDENT, STRING):
            key = key_toks[0].text
        else:
            key = text[key_toks[0].start : key_toks[-1].end]
            if not _SET_KEY.fullmatch(key) and key_toks[0].kw not in ("VAR", "VARIABLE"):  # SET VAR: a variable
                raise _invalid_set_syntax(key, text[key_toks[-1].end : t[-1].end].strip(), key_toks)
        if eq == n:
            return SetConfig(key, None, span)
        value_toks = t[eq + 1 :]
        if not value_toks:
            value = ""
        elif all(v.kind == STRING for v in value_toks):
            value = "".join(v.text for v in value_toks)
        else:
            value = text[value_toks[0].start : value_toks[-1].end]
        return SetConfig(key, value, span)

    def reset_config(self, span: Span) -> Statement:
        """`RESET` (every key back to its default) or `RESET key` (the rest of the statement is the key)."""
        t, n = self.t, self.n
        if n == 1:
            return SetConfig("", None, span, True)
        key = t[1].text if n == 2 and t[1].kind in (QIDENT, STRING) else self.text[t[1].start : t[-1].end]
        return SetConfig(key, None, span, True)

    def use(self, span: Span) -> Statement:
        """`USE [NAMESPACE | DATABASE | SCHEMA] name` or `USE IDENTIFIER('name')` (Spark 3.5's grammar;
        `USE namespace` alone names a namespace called `namespace`)."""
        self.i = 1
        if self.at("NAMESPACE", "DATABASE", "SCHEMA") and self.i + 1 < self.n:
            self.i += 1
        if self.at("IDENTIFIER") and self.kw(1) == "(" and self.i + 2 < self.n and self.t[self.i + 2].kind == STRING:
            start = self.t[self.i].start
            self.i += 3
            self.expect(")")
            text = self.t[self.i - 2].text
            name = Name(tuple(p.strip("`") for p in text.split(".")), self.span(start, self.prev_end()))
        else:
            name = self.name("a namespace")
        self.expect_end()
        return UseNamespace(name, span)

    def call(self, span: Span) -> Statement:
        self.i = 1
        procedure = self.name("a procedure name")
        self.expect("(")
        args: list[tuple[str | None, str]] = []
        if not self.accept(")"):
            while True:
                arg_name = None
                if (
                    self.i + 1 < self.n
                    and self.t[self.i].kind in (WORD, QIDENT)
                    and self.t[self.i + 1].kw == "=>"
                ):
                    arg_name = self.t[self.i].text
                    self.i += 2
                args.append((arg_name, self.expression_text()))
                if self.accept(","):
                    continue
                self.expect(")", "',' or ')'")
                break
        self.expect_end()
        return Call(procedure, tuple(args), span)


# Spark's SparkSqlParser takes an unquoted SET key only when it matches this (`configKeyDef`); any
# other character (`-`, a space) makes the statement INVALID_SET_SYNTAX: the key must be back-quoted.
_SET_KEY = re.compile(r"[A-Za-z0-9_\\.:]+")


def _invalid_set_syntax(key: str, rest: str, key_toks: list) -> ParseError:
    first, last = key_toks[0], key_toks[-1]
    where = Tok(first.kind, first.kw, key, first.start, last.end)  # the whole key
    quoted = "`" + " ".join(key.split()).replace("`", "``") + "`"
    rest = " ".join(rest.split())
    if rest.startswith("="):
        rest = "=" + rest[1:].lstrip()
    odd = "".join(dict.fromkeys(c for c in key if not _SET_KEY.fullmatch(c)))
    shown = " ".join(repr(c) if not c.isspace() else "a space" for c in odd)
    return ParseError(
        "[INVALID_SET_SYNTAX] Expected format is 'SET', 'SET key', or 'SET key=value'. If you want to include "
        "special characters in key, or include semicolon in value, please use backquotes, e.g., SET `key`=`value`. "
        f"The key holds {shown}, so it must be back-quoted",
        where,
        f"back-quote the key: {backticked(f'SET {quoted}{rest}')}",
    )

