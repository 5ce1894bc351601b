"""ALTER TABLE: Spark's column and property actions, Iceberg's partition, order, identifier and
branch actions, and the Hive partition commands Spark refuses on an Iceberg table."""

from __future__ import annotations

from icelint.values.source import Span
from icelint.syntax.ast import (
    AddColumns,
    AddPartitionField,
    AlterAction,
    AlterColumnComment,
    AlterColumnDefault,
    AlterColumnNullability,
    AlterColumnPosition,
    AlterColumnType,
    AlterTable,
    BranchOrTag,
    ChangeColumn,
    DropColumns,
    DropIdentifierFields,
    DropPartitionField,
    HiveCommand,
    Name,
    RenameColumn,
    RenameTable,
    ReplaceColumns,
    ReplacePartitionField,
    SetIdentifierFields,
    SetLocation,
    SetProperties,
    SortTerm,
    Statement,
    UnsetProperties,
    WriteSpec,
)
from icelint.syntax.cursor import ParseError, backticked
from icelint.syntax.elements import NO_IF_NOT_EXISTS, Elements
from icelint.syntax.tokens import QIDENT, WORD

# Unquoted, these words are no table name in statements Iceberg's extensions parse (its lexer has
# them as keywords and its grammar's `nonReserved` does not list them); Spark 3.5 takes every other word.
_ICEBERG_RESERVED = frozenset(("ARRAY", "RETENTION"))

_ICEBERG_ACTIONS = (AddPartitionField, DropPartitionField, ReplacePartitionField, WriteSpec, SetIdentifierFields,
                    DropIdentifierFields, BranchOrTag)



class AlterTableParser(Elements):
    __slots__ = ()

    def alter_table(self, span: Span) -> Statement:
        self.i = 2
        table = self.name("a table name")
        name_end = self.i
        action = self.alter_action()
        self.expect_end()
        if isinstance(action, _ICEBERG_ACTIONS):
            self._check_iceberg_name(name_end)
        return AlterTable(table, action, span)

    def _check_iceberg_name(self, name_end: int) -> None:
        """Iceberg's own SQL-extensions parser reads these statements; its lexer reserves a few words
        Spark does not (measured: `ALTER TABLE db.array ADD PARTITION FIELD id` fails there)."""
        for tok in self.t[2:name_end]:
            if tok.kind == WORD and tok.kw in _ICEBERG_RESERVED:
                text = " ".join(self.text[self.t[0].start : tok.end].split())
                raise ParseError(f"no viable alternative at input '{text}'", tok)

    def alter_action(self) -> AlterAction:
        if self.i >= self.n:
            raise self.error("an ALTER TABLE action")
        tok = self.t[self.i]
        k = tok.kw
        self.ctx = tok.start
        self.i += 1
        if k == "ADD":
            if self.kw() == "IF" and self.kw(1) == "NOT" and self.kw(2) == "EXISTS" and self.kw(3) in ("COLUMN", "COLUMNS"):
                self.i += 3
                raise self.spark_syntax_error(NO_IF_NOT_EXISTS)
            if self.accept("COLUMN") or self.accept("COLUMNS"):
                if self.accept_seq("IF", "NOT", "EXISTS"):
                    self.i -= 1  # at EXISTS, as Spark's PARSE_SYNTAX_ERROR
                    raise self.spark_syntax_error(NO_IF_NOT_EXISTS, extra=self.i + 1 >= self.n)
                paren = self.accept("(")
                return AddColumns(self.column_list(paren))
            if self.accept_seq("PARTITION", "FIELD"):
                if self.kw() == "IF" and self.kw(1) == "NOT" and self.kw(2) == "EXISTS":
                    self.i += 1  # Iceberg's parser takes `IF` as the column and stops at NOT
                    raise self.iceberg_mismatch("{<EOF>, '.', 'AS'}", "Iceberg has no ADD PARTITION FIELD IF NOT EXISTS")
                tr = self.transform()
                return AddPartitionField(tr, self.optional_alias())
            if self.at("PARTITION") or (self.kw() == "IF" and self.kw(1) == "NOT" and self.kw(2) == "EXISTS" and self.kw(3) == "PARTITION"):
                span = self.words_span(self.i - 1, "PARTITION")
                self.i = self.n  # its specs and LOCATIONs: Spark refuses the command whatever they are
                return HiveCommand("add partition", (), span)
            raise self.error("COLUMN, COLUMNS or PARTITION FIELD")
        if k == "DROP":
            if self.accept("COLUMN") or self.accept("COLUMNS"):
                if_exists = self.accept_seq("IF", "EXISTS")
                if self.accept("("):
                    paths = self.names()
                    self.expect(")", "',' or ')'")
                else:
                    paths = self.names()
                return DropColumns(paths, if_exists)
            if self.accept_seq("PARTITION", "FIELD"):
                if self.kw() == "IF" and self.kw(1) == "EXISTS":
                    self.i += 1
                    raise self.iceberg_mismatch("{<EOF>, '.'}", "Iceberg has no DROP PARTITION FIELD IF EXISTS")
                return DropPartitionField(self.transform())
            if self.accept_seq("IDENTIFIER", "FIELDS"):
                return DropIdentifierFields(self.names())
            if self.at("BRANCH", "TAG"):
                return self.branch_or_tag("drop")
            if self.at("PARTITION") or (self.kw() == "IF" and self.kw(1) == "EXISTS" and self.kw(2) == "PARTITION"):
                span = self.words_span(self.i - 1, "PARTITION")
                self.accept_seq("IF", "EXISTS")
                specs = [self.hive_partition()]
                while self.accept(","):
                    specs.append(self.hive_partition())
                self.accept("PURGE")
                return HiveCommand("drop partition", tuple(specs), span)
            raise self.error("COLUMN, COLUMNS, PARTITION FIELD, IDENTIFIER FIELDS, BRANCH or TAG")
        if k == "RENAME":
            if self.accept("COLUMN"):
                if self.kw() == "IF" and self.kw(1) == "EXISTS":
                    self.i += 1
                    raise self.spark_syntax_error("Spark 3.5 has no RENAME COLUMN IF EXISTS", missing="TO")
                path = self.name("a column name")
                self.expect("TO")
                return RenameColumn(path, self.single_name("a new column name"))
            if self.accept("TO"):
                return RenameTable(self.name("a table name"))
            raise self.error("COLUMN or TO")
        if k == "ALTER" or k == "CHANGE":
            return self.alter_column(k)
        if k == "PARTITION":  # a Hive partition's RENAME TO, SET LOCATION or SET SERDE
            spec = self.partition_spec()
            span = self.span(tok.start, self.prev_end())
            if self.accept_seq("RENAME", "TO"):
                return HiveCommand("rename partition", (spec, self.hive_partition()), span)
            if self.accept_seq("SET", "LOCATION"):
                self.string("a location string")
                return HiveCommand("partition location", (spec,), span)
            if self.at("SET") and self.kw(1) in ("SERDE", "SERDEPROPERTIES"):
                self.i = self.n
                return HiveCommand("serde", (spec,), span)
            raise self.error("RENAME TO PARTITION, SET LOCATION or SET SERDE")
        if k == "RECOVER":
            self.expect("PARTITIONS")
            return HiveCommand("recover partitions", (), self.span(tok.start, self.prev_end()))
        if k == "REPLACE":
            if self.accept("COLUMNS"):
                self.expect("(")
                return ReplaceColumns(self.column_list(True))
            if self.accept_seq("PARTITION", "FIELD"):
                old = self.transform()
                self.expect("WITH")
                new = self.transform()
                return ReplacePartitionField(old, new, self.optional_alias())
            if self.at("BRANCH", "TAG"):
                return self.branch_or_tag("replace")
            raise self.error("COLUMNS, PARTITION FIELD, BRANCH or TAG")
        if k == "CREATE":
            verb = "create_or_replace" if self.accept_seq("OR", "REPLACE") else "create"
            if self.at("BRANCH", "TAG"):
                return self.branch_or_tag(verb)
            raise self.error("BRANCH or TAG" if verb == "create" else "BRANCH or TAG")
        if k == "SET":
            if self.accept("TBLPROPERTIES"):
                key_spans: list = []
                return SetProperties(self.property_list(values=True, key_spans=key_spans), tuple(key_spans))
            if self.accept("LOCATION"):
                return SetLocation(self.string("a location string"))
            if self.accept_seq("IDENTIFIER", "FIELDS"):
                return SetIdentifierFields(self.names())
            if self.at("SERDE", "SERDEPROPERTIES"):
                span = self.span(tok.start, self.t[self.i].end)
                self.i = self.n
                return HiveCommand("serde", (), span)
            raise self.error("TBLPROPERTIES, LOCATION or IDENTIFIER FIELDS")
        if k == "UNSET":
            self.expect("TBLPROPERTIES")
            if_exists = self.accept_seq("IF", "EXISTS")
            key_spans = []
            keys = tuple(key for key, _ in self.property_list(values=False, key_spans=key_spans))
            return UnsetProperties(keys, if_exists, tuple(key_spans))
        if k == "WRITE":
            return self.write_spec()
        self.i -= 1
        self.ctx = self.t[0].start
        raise self.error("ADD, DROP, RENAME, ALTER, CHANGE, REPLACE, SET, UNSET, WRITE or CREATE")

    def optional_alias(self) -> str | None:
        if self.accept("AS"):
            return self.ident("a partition field name").text
        return None

    def branch_or_tag(self, verb: str) -> BranchOrTag:
        kind = self.t[self.i].kw.lower()  # type: ignore[union-attr]
        self.i += 1
        if verb == "drop":
            guarded = self.accept_seq("IF", "EXISTS")
        elif verb != "replace":
            guarded = self.accept_seq("IF", "NOT", "EXISTS")
        else:
            guarded = False
        name = self.ident(f"a {kind} name").text
        snapshot_id = None
        if self.accept_seq("AS", "OF", "VERSION") and self.i < self.n:
            snapshot_id = self.t[self.i].text
        self.i = self.n  # other options (RETAIN, WITH SNAPSHOT RETENTION) are skipped
        return BranchOrTag(verb, kind, name, bool(guarded), snapshot_id)

    def alter_column(self, verb: str) -> AlterAction:
        self.accept("COLUMN")
        if verb == "ALTER" and self.kw() == "IF" and self.kw(1) == "EXISTS":
            self.i += 1
            raise self.spark_syntax_error("Spark 3.5 has no ALTER COLUMN IF EXISTS")
        path = self.name("a column name")
        after_path = self.i
        action = self.alter_column_action(path)
        if action is not None:
            if self.i < self.n:
                self.one_change_per_alter_column(path, after_path)
            return action
        if verb == "CHANGE" and self.i < self.n and self.t[self.i].kind in (WORD, QIDENT):
            # Hive style: CHANGE [COLUMN] old new type [NOT NULL] [COMMENT 'x'] [FIRST|AFTER c]
            self.i = after_path
            return self.hive_change(path)
        self.i = after_path
        raise self.error(
            "TYPE, SET NOT NULL, DROP NOT NULL, SET DEFAULT, DROP DEFAULT, COMMENT, FIRST or AFTER"
            + (" (or a new name and type)" if verb == "CHANGE" else "")
        )

    def one_change_per_alter_column(self, path: Name, first: int) -> None:
        """Spark 3.5 takes one change per ALTER COLUMN (Iceberg's documentation shows `ALTER COLUMN
        measurement TYPE double COMMENT '...'`, which Spark 3.5 cannot parse): when the tokens left
        are further changes, its syntax error at the second, with one statement per change as help.
        Anything else is left to the caller's "end of statement" error."""
        second = self.i
        bounds = [first, second]
        try:
            while self.i < self.n:
                if self.alter_column_action(path) is None:
                    break
                bounds.append(self.i)
        except ParseError:
            pass
        done = self.i >= self.n
        self.i = second
        if not done:
            return
        head = self.tokens_text(0, first)
        statements = "; ".join(f"{head} {self.tokens_text(b, e)}" for b, e in zip(bounds, bounds[1:])) + ";"
        raise self.spark_syntax_error(
            "Spark 3.5 takes one change per ALTER COLUMN",
            help=f"write one statement per change: {backticked(statements)}",
        )

    def alter_column_action(self, path: Name) -> AlterAction | None:
        """The v2 action after `ALTER|CHANGE COLUMN path`, None if the next word starts none.

        As in Spark, these words win over a Hive-style new name: `CHANGE COLUMN a first int`
        is an error and `CHANGE COLUMN a after int` moves `a` after a column named `int`."""
        k = self.kw()
        if k == "TYPE":
            self.i += 1
            return AlterColumnType(path, self.data_type())
        if k == "SET" or k == "DROP":
            self.i += 1
            if self.accept_seq("NOT", "NULL"):
                return AlterColumnNullability(path, k == "SET")
            if self.accept("DEFAULT"):
                if k == "DROP":
                    return AlterColumnDefault(path, None)
                return AlterColumnDefault(path, self.expression_text())
            raise self.error("NOT NULL or DEFAULT")
        if k == "COMMENT":
            self.i += 1
            return AlterColumnComment(path, self.string())
        if k == "FIRST" or k == "AFTER":
            return AlterColumnPosition(path, self.position())
        return None

    def hive_change(self, path: Name) -> ChangeColumn:
        new_name = self.single_name("a new column name")
        typ = self.data_type()
        not_null = self.accept_seq("NOT", "NULL")
        comment = None
        if self.accept("COMMENT"):
            comment = self.string()
        position = None
        if self.at("FIRST", "AFTER"):
            position = self.position()
        if not self.at_end():
            raise self.error("NOT NULL, COMMENT, FIRST, AFTER or end of statement")
        return ChangeColumn(path, new_name, typ, not_null, comment, position)

    def write_spec(self) -> WriteSpec:
        distributed = locally = unordered = False
        order: tuple[SortTerm, ...] | None = None
        while True:
            if self.accept("DISTRIBUTED"):
                self.expect("BY")
                self.expect("PARTITION")
                distributed = True
            elif self.at("LOCALLY", "ORDERED"):
                if self.accept("LOCALLY"):
                    locally = True
                self.expect("ORDERED")
                self.expect("BY")
                if self.accept("("):
                    terms = [self.sort_term()]
                    while self.accept(","):
                        terms.append(self.sort_term())
                    self.expect(")", "',' or ')'")
                else:
                    terms = [self.sort_term()]
                    while self.accept(","):
                        terms.append(self.sort_term())
                order = tuple(terms)
            elif self.accept("UNORDERED"):
                unordered = True
            elif not (distributed or unordered or order is not None):
                raise self.error("DISTRIBUTED BY PARTITION, LOCALLY ORDERED BY, ORDERED BY or UNORDERED")
            elif self.at_end():
                return WriteSpec(distributed, locally, unordered, order)
            else:
                raise self.error(
                    "',', DISTRIBUTED BY PARTITION, LOCALLY ORDERED BY, ORDERED BY, UNORDERED or end of statement"
                )
