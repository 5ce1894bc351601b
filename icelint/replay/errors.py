"""Why the engine would refuse a change: the reason in Spark's or Iceberg's own words."""

from __future__ import annotations

from typing import NamedTuple

from icelint.values.source import Span


class WrittenValue(NamedTuple):
    """A value of an `INSERT ... SELECT` that the column it is written to cannot take
    (`replay/dml.check_query`), with what the help needs to write the statement that works."""

    position: int  # its place in the SELECT, from 1
    text: str  # the projection as written, on one line
    type_sql: str  # its type as Spark names it (STRING)
    column_type_sql: str  # the type of the column it is written to, as Spark names it (BINARY)
    columns: tuple[str, ...]  # the columns the SELECT's values are written to, in order
    listed: bool  # the INSERT names those columns itself (`INSERT INTO t (a, b) SELECT ...`)
    named: tuple[str, ...] | None  # the columns the SELECT's names are, when naming them makes every value fit
    insert_at: int | None  # where a column list goes in the statement's text (after the table's name)


class ReplayError(Exception):
    """A change Spark or Iceberg rejects. `kind` classifies it for the rules; `message` is the engine's text.

    Kinds: unknown-table, table-exists, unknown-column, duplicate-column, type-change, nullability,
    required-column, default-value, partition, sort-order, identifier, move, format-version,
    unsupported, unsupported-type, map-key, invalid-schema, case-collision, property, procedure, dml
    (what Spark checks of DML), v2-command (a Hive command), ref (a branch, tag or snapshot named
    after the table: `replay/refs.py`).
    """

    # set on a DROP TABLE's [TABLE_OR_VIEW_NOT_FOUND] when no state was given for the table and no
    # earlier statement made it: Spark fails only where the table does not exist (ICE005 says so)
    never_known = False
    # set on an INSERT ... SELECT's [INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST]: which value, and how to name the columns
    value: WrittenValue | None = None
    # set when the rejection depends on the Iceberg runtime (icelint.config.target): the `iceberg-version` it is for
    runtime: str | None = None

    def __init__(
        self,
        kind: str,
        message: str,
        layer: str,
        span: Span | None = None,
        field_id: int | None = None,
        column: str | None = None,
    ) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.layer = layer  # "spark" (analyzer/parser) or "iceberg"
        self.span = span
        self.field_id = field_id
        self.column = column

    @property
    def quoted(self) -> str:
        """The message as the user would see it in the Spark job's exception."""
        if self.layer == "iceberg-wrapped":
            return f"Unsupported table change: {self.message}"
        return self.message

    def __repr__(self) -> str:
        return f"ReplayError({self.kind!r}, {self.message!r})"


class Unchecked(Exception):
    """A change icelint cannot replay because it reaches into a column whose type it does not know (a
    CTAS column over an unknown table or function: `model.types.UntypedType`): Spark may accept it or
    not. The step is skipped (`Outcome.skipped == "untyped-column:<column>"`), the state left as it was."""

    def __init__(self, column: str, reason: str) -> None:
        super().__init__(f"`{column}`: {reason}")
        self.column = column
        self.reason = reason
