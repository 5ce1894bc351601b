"""Typed changes: what a statement asks of one table, ready for the replay.

`lower` turns each parsed statement into one `Commit`: the changes Spark hands to Iceberg in one
transaction (so `DROP COLUMNS (a, b)` or `REPLACE COLUMNS` become a single new schema, as in Iceberg).
Paths are tuples of names as written; resolution (case folding, element/key/value) is the replay's job.
"""

from __future__ import annotations

from dataclasses import dataclass

from icelint.source import Span
from icelint.syntax.ast import SortTerm, SqlType, Transform

Path = tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ColumnSpec:
    path: Path
    type: SqlType
    required: bool
    doc: str | None
    default: str | None
    first: bool = False
    after: Path | None = None
    span: Span | None = None


# ---------------------------------------------------------------- schema changes


@dataclass(frozen=True, slots=True)
class AddColumn:
    column: ColumnSpec
    span: Span
    if_not_exists: bool = False


@dataclass(frozen=True, slots=True)
class DeleteColumn:
    path: Path
    span: Span
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class RenameColumn:
    path: Path
    new_name: str
    span: Span


@dataclass(frozen=True, slots=True)
class UpdateColumnType:
    path: Path
    type: SqlType
    span: Span


@dataclass(frozen=True, slots=True)
class UpdateColumnRequired:
    path: Path
    required: bool
    span: Span


@dataclass(frozen=True, slots=True)
class UpdateColumnDoc:
    path: Path
    doc: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class MoveColumn:
    path: Path
    first: bool
    after: Path | None
    span: Span


@dataclass(frozen=True, slots=True)
class UpdateColumnDefault:
    path: Path
    default: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class ReplaceColumns:
    columns: tuple[ColumnSpec, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class HiveChangeColumn:
    """Hive-style CHANGE COLUMN; Spark splits it into rename/type/doc/position after analysis."""

    path: Path
    new_name: str
    type: SqlType
    required: bool
    doc: str | None
    first: bool
    after: Path | None
    span: Span


SchemaChange = (
    AddColumn
    | DeleteColumn
    | RenameColumn
    | UpdateColumnType
    | UpdateColumnRequired
    | UpdateColumnDoc
    | MoveColumn
    | UpdateColumnDefault
    | ReplaceColumns
    | HiveChangeColumn
)

# ---------------------------------------------------------------- other table changes


@dataclass(frozen=True, slots=True)
class CreateTable:
    columns: tuple[ColumnSpec, ...]
    partition_by: tuple[Transform, ...]
    properties: tuple[tuple[str, str], ...]
    location: str | None
    comment: str | None
    using: str | None
    or_replace: bool
    replace_only: bool
    if_not_exists: bool
    as_select: bool
    span: Span


@dataclass(frozen=True, slots=True)
class DropTable:
    if_exists: bool
    purge: bool
    span: Span


@dataclass(frozen=True, slots=True)
class RenameTable:
    new_name: str
    span: Span


@dataclass(frozen=True, slots=True)
class SetProperties:
    properties: tuple[tuple[str, str], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class UnsetProperties:
    keys: tuple[str, ...]
    if_exists: bool
    span: Span


@dataclass(frozen=True, slots=True)
class SetLocation:
    location: str
    span: Span


@dataclass(frozen=True, slots=True)
class AddPartitionField:
    transform: Transform
    name: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class DropPartitionField:
    transform: Transform
    span: Span


@dataclass(frozen=True, slots=True)
class ReplacePartitionField:
    old: Transform
    new: Transform
    name: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class SetWriteOrder:
    distributed: bool
    locally: bool
    unordered: bool
    order: tuple[SortTerm, ...] | None
    span: Span


@dataclass(frozen=True, slots=True)
class SetIdentifierFields:
    paths: tuple[Path, ...]
    spans: tuple[Span, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class DropIdentifierFields:
    paths: tuple[Path, ...]
    spans: tuple[Span, ...]
    span: Span


@dataclass(frozen=True, slots=True)
class WriteData:
    """DML that writes rows (INSERT/UPDATE/DELETE/MERGE/TRUNCATE): the table now holds data files."""

    kind: str
    span: Span


@dataclass(frozen=True, slots=True)
class CallProcedure:
    procedure: str  # lower-case procedure name, e.g. rollback_to_snapshot
    args: tuple[tuple[str | None, str], ...]
    span: Span


@dataclass(frozen=True, slots=True)
class NoEffect:
    """Recognised, changes nothing icelint models (branches, tags, USE, SELECT, ...)."""

    kind: str
    span: Span


TableChange = (
    SchemaChange
    | CreateTable
    | DropTable
    | RenameTable
    | SetProperties
    | UnsetProperties
    | SetLocation
    | AddPartitionField
    | DropPartitionField
    | ReplacePartitionField
    | SetWriteOrder
    | SetIdentifierFields
    | DropIdentifierFields
    | WriteData
    | CallProcedure
    | NoEffect
)


# ---------------------------------------------------------------- commits and session changes


@dataclass(frozen=True, slots=True)
class Commit:
    """The changes of one statement to one table, applied (or rejected) as a unit."""

    table: str  # the name as written, e.g. `local.db.events`
    table_span: Span
    changes: tuple[TableChange, ...]
    span: Span  # the whole statement
    index: int  # statement number within the run (0-based), for stable ordering


@dataclass(frozen=True, slots=True)
class SessionConfig:
    """`SET key=value`: changes how later statements are resolved (spark.sql.caseSensitive)."""

    key: str
    value: str | None
    span: Span
    index: int


@dataclass(frozen=True, slots=True)
class ParseFailure:
    message: str
    span: Span
    error_span: Span
    index: int


@dataclass(frozen=True, slots=True)
class Passive:
    """A statement recognised and passed over (SELECT, USE, views, ...)."""

    kind: str
    span: Span
    index: int


Step = Commit | SessionConfig | ParseFailure | Passive
