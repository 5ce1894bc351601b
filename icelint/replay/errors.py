"""Why the engine would refuse a change: the reason in Spark's or Iceberg's own words."""

from __future__ import annotations

from icelint.source import Span


class ReplayError(Exception):
    """A change Spark or Iceberg rejects. `kind` classifies it for the rules; `message` is the engine's text.

    Kinds: unknown-table, table-exists, unknown-column, duplicate-column, type-change, nullability,
    required-column, default-value, partition, sort-order, identifier, move, format-version,
    unsupported, unsupported-type, map-key, invalid-schema, case-collision.
    """

    # set on a DROP TABLE's [TABLE_OR_VIEW_NOT_FOUND] when no state was given for the table and no
    # earlier statement made it: Spark fails only where the table does not exist (ICE005 says so)
    never_known = False

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
