"""Typed statements of Spark SQL + Iceberg's SQL extensions, each with its source span.

This is what the parser produces and the only thing `lower` reads. Names are kept as written
(backticks removed); case folding is a resolution concern of the replay, not of the syntax.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from icelint.source import Span

# ---------------------------------------------------------------------------- pieces


@dataclass(frozen=True, slots=True)
class Name:
    """A dotted identifier such as `db.events` or `point.z` (parts without backticks)."""

    parts: tuple[str, ...]
    span: Span

    @property
    def dotted(self) -> str:
        return ".".join(self.parts)


@dataclass(frozen=True, slots=True)
class SqlField:
    """A field of a struct<...> type, or a column definition's name/type/flags."""

    name: str
    type: SqlType
    not_null: bool = False
    comment: str | None = None
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class SqlType:
    """A Spark SQL data type as written: `bigint`, `decimal(10,2)`, `struct<a: int>`, ...

    `name` is lower case (`int`, `integer`, `bigint`, `decimal`, `varchar`, `struct`, `array`, `map`, ...).
    """

    name: str
    params: tuple[int, ...] = ()
    fields: tuple[SqlField, ...] = ()  # struct
    element: SqlType | None = None  # array
    key: SqlType | None = None  # map
    value: SqlType | None = None  # map
    span: Span | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class Position:
    """`FIRST` (after is None) or `AFTER <after>`."""

    first: bool
    after: Name | None
    span: Span


@dataclass(frozen=True, slots=True)
class ColumnDef:
    """A column in `ADD COLUMNS`, `REPLACE COLUMNS` or `CREATE TABLE`."""

    path: Name
    type: SqlType
    not_null: bool
    comment: str | None
    position: Position | None
    default: str | None  # the DEFAULT expression's text, if any
    span: Span


@dataclass(frozen=True, slots=True)
class Transform:
    """A partition or sort transform: `region` (identity), `bucket(16, id)`, `days(ts)`.

    `func` is None for a bare column reference; `args` holds column references (Name) and
    integer/string literals in written order.
    """

    func: str | None
    args: tuple[Name | int | str, ...]
    span: Span

    @property
    def columns(self) -> tuple[Name, ...]:
        return tuple(a for a in self.args if isinstance(a, Name))


@dataclass(frozen=True, slots=True)
class SortTerm:
    transform: Transform
    descending: bool
    nulls_first: bool | None  # None: the direction's default
    span: Span


# ---------------------------------------------------------------------------- ALTER TABLE actions


@dataclass(frozen=True, slots=True)
class AddColumns:
    columns: tuple[ColumnDef, ...]
    if_not_exists: bool = False


@dataclass(frozen=True, slots=True)
class DropColumns:
    paths: tuple[Name, ...]
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class RenameColumn:
    path: Name
    new_name: Name  # a single part


@dataclass(frozen=True, slots=True)
class AlterColumnType:
    path: Name
    type: SqlType


@dataclass(frozen=True, slots=True)
class AlterColumnNullability:
    path: Name
    not_null: bool  # True: SET NOT NULL; False: DROP NOT NULL


@dataclass(frozen=True, slots=True)
class AlterColumnComment:
    path: Name
    comment: str


@dataclass(frozen=True, slots=True)
class AlterColumnPosition:
    path: Name
    position: Position


@dataclass(frozen=True, slots=True)
class AlterColumnDefault:
    path: Name
    default: str | None  # None: DROP DEFAULT


@dataclass(frozen=True, slots=True)
class ChangeColumn:
    """Hive-style `CHANGE COLUMN old new type [NOT NULL] [COMMENT c] [FIRST|AFTER x]`."""

    path: Name
    new_name: Name
    type: SqlType
    not_null: bool
    comment: str | None
    position: Position | None


@dataclass(frozen=True, slots=True)
class ReplaceColumns:
    columns: tuple[ColumnDef, ...]


@dataclass(frozen=True, slots=True)
class SetProperties:
    properties: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class UnsetProperties:
    keys: tuple[str, ...]
    if_exists: bool = False


@dataclass(frozen=True, slots=True)
class RenameTable:
    new_name: Name


@dataclass(frozen=True, slots=True)
class SetLocation:
    location: str


@dataclass(frozen=True, slots=True)
class AddPartitionField:
    transform: Transform
    name: str | None


@dataclass(frozen=True, slots=True)
class DropPartitionField:
    transform: Transform  # a bare Name may be a partition field name, see the replay


@dataclass(frozen=True, slots=True)
class ReplacePartitionField:
    old: Transform
    new: Transform
    name: str | None


@dataclass(frozen=True, slots=True)
class WriteSpec:
    """`WRITE [DISTRIBUTED BY PARTITION] [LOCALLY] ORDERED BY ... | UNORDERED`."""

    distributed: bool
    locally: bool
    unordered: bool
    order: tuple[SortTerm, ...] | None  # None: no ordering clause


@dataclass(frozen=True, slots=True)
class SetIdentifierFields:
    paths: tuple[Name, ...]


@dataclass(frozen=True, slots=True)
class DropIdentifierFields:
    paths: tuple[Name, ...]


@dataclass(frozen=True, slots=True)
class BranchOrTag:
    """CREATE/REPLACE/DROP BRANCH|TAG: recognised; no schema effect."""

    verb: str  # 'create' | 'replace' | 'create_or_replace' | 'drop'
    kind: str  # 'branch' | 'tag'
    name: str


AlterAction = (
    AddColumns
    | DropColumns
    | RenameColumn
    | AlterColumnType
    | AlterColumnNullability
    | AlterColumnComment
    | AlterColumnPosition
    | AlterColumnDefault
    | ChangeColumn
    | ReplaceColumns
    | SetProperties
    | UnsetProperties
    | RenameTable
    | SetLocation
    | AddPartitionField
    | DropPartitionField
    | ReplacePartitionField
    | WriteSpec
    | SetIdentifierFields
    | DropIdentifierFields
    | BranchOrTag
)


# ---------------------------------------------------------------------------- statements


@dataclass(frozen=True, slots=True)
class AlterTable:
    table: Name
    action: AlterAction
    span: Span


@dataclass(frozen=True, slots=True)
class CreateTable:
    table: Name
    columns: tuple[ColumnDef, ...]  # empty for CTAS without a column list
    or_replace: bool
    replace: bool  # REPLACE TABLE (without CREATE)
    if_not_exists: bool
    using: str | None
    partitioned_by: tuple[Transform, ...]
    properties: tuple[tuple[str, str], ...]
    location: str | None
    comment: str | None
    as_select: bool
    span: Span


@dataclass(frozen=True, slots=True)
class DropTable:
    table: Name
    if_exists: bool
    purge: bool
    span: Span


@dataclass(frozen=True, slots=True)
class SetConfig:
    """`SET key = value` (or `SET key`/`RESET`)."""

    key: str
    value: str | None
    span: Span


@dataclass(frozen=True, slots=True)
class Call:
    """`CALL catalog.system.procedure(args)`; args as (name or None, raw text)."""

    procedure: Name
    args: tuple[tuple[str | None, str], ...]
    span: Span

    @property
    def procedure_name(self) -> str:
        return self.procedure.parts[-1].lower()


@dataclass(frozen=True, slots=True)
class Other:
    """A statement recognised and passed over: DML, queries, USE, views, ... (`keyword` in lower case)."""

    keyword: str
    span: Span
    table: Name | None = None  # the target table of DML, when cheap to know


@dataclass(frozen=True, slots=True)
class Unparsed:
    """A statement that could not be parsed: becomes a finding, never skipped silently."""

    message: str
    span: Span  # the whole statement
    error_span: Span  # the token at fault


Statement = AlterTable | CreateTable | DropTable | SetConfig | Call | Other | Unparsed


@dataclass(frozen=True, slots=True)
class Comment:
    """A `-- ...` or `/* ... */` comment; `text` without the markers, stripped."""

    text: str
    span: Span


@dataclass(frozen=True, slots=True)
class ParsedFile:
    path: str
    statements: tuple[Statement, ...]
    comments: tuple[Comment, ...] = ()
