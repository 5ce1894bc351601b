"""Typed statements of Spark SQL + Iceberg's SQL extensions, each with its source span.

This is what the parser produces and the only thing `lower` reads. Names are kept as written
(backticks removed); case folding is a resolution concern of the replay, not of the syntax.
Nodes are NamedTuples rather than frozen dataclasses: defining ~40 dataclasses cost ~25 ms of
every run's start-up (a pre-commit hook must feel instant).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from sys import intern
from typing import NamedTuple

from icelint.values.source import Span

# ---------------------------------------------------------------------------- pieces


class Name(NamedTuple):
    """A dotted identifier such as `db.events` or `point.z` (parts without backticks)."""

    parts: tuple[str, ...]
    span: Span

    @property
    def dotted(self) -> str:
        """The parts joined by dots; one string per name however often it is written (the steps of a
        long run name their table in every statement)."""
        return intern(".".join(self.parts))


class SqlField(NamedTuple):
    """A field of a struct<...> type, or a column definition's name/type/flags."""

    name: str
    type: SqlType
    not_null: bool = False
    comment: str | None = None
    span: Span | None = None


@dataclass(frozen=True)
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

    @property
    def nested(self) -> bool:
        """A struct, array or map: a type with fields or element types inside (not a primitive)."""
        return bool(self.fields) or self.element is not None or self.key is not None or self.value is not None


class Position(NamedTuple):
    """`FIRST` (after is None) or `AFTER <after>`."""

    first: bool
    after: Name | None
    span: Span


class ColumnDef(NamedTuple):
    """A column in `ADD COLUMNS`, `REPLACE COLUMNS` or `CREATE TABLE`."""

    path: Name
    type: SqlType
    not_null: bool
    comment: str | None
    position: Position | None
    default: str | None  # the DEFAULT expression's text, if any
    span: Span


class Transform(NamedTuple):
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


class SortTerm(NamedTuple):
    transform: Transform
    descending: bool
    nulls_first: bool | None  # None: the direction's default
    span: Span


# ---------------------------------------------------------------------------- ALTER TABLE actions


class AddColumns(NamedTuple):
    columns: tuple[ColumnDef, ...]


class DropColumns(NamedTuple):
    paths: tuple[Name, ...]
    if_exists: bool = False


class RenameColumn(NamedTuple):
    path: Name
    new_name: Name  # a single part


class AlterColumnType(NamedTuple):
    path: Name
    type: SqlType


class AlterColumnNullability(NamedTuple):
    path: Name
    not_null: bool  # True: SET NOT NULL; False: DROP NOT NULL


class AlterColumnComment(NamedTuple):
    path: Name
    comment: str


class AlterColumnPosition(NamedTuple):
    path: Name
    position: Position


class AlterColumnDefault(NamedTuple):
    path: Name
    default: str | None  # None: DROP DEFAULT


class ChangeColumn(NamedTuple):
    """Hive-style `CHANGE COLUMN old new type [NOT NULL] [COMMENT c] [FIRST|AFTER x]`."""

    path: Name
    new_name: Name
    type: SqlType
    not_null: bool
    comment: str | None
    position: Position | None


class ReplaceColumns(NamedTuple):
    columns: tuple[ColumnDef, ...]


class SetProperties(NamedTuple):
    properties: tuple[tuple[str, str], ...]
    key_spans: tuple[Span, ...] = ()  # the span of each key


class UnsetProperties(NamedTuple):
    keys: tuple[str, ...]
    if_exists: bool = False
    key_spans: tuple[Span, ...] = ()  # the span of each key


class RenameTable(NamedTuple):
    new_name: Name


class SetLocation(NamedTuple):
    location: str


class HiveCommand(NamedTuple):
    """A Hive table command that Spark parses and then refuses on an Iceberg (v2) table (`changes.NotForV2`
    lists them). `TRUNCATE TABLE ... PARTITION`, `ANALYZE TABLE` and `MSCK REPAIR TABLE` are statements of
    their own in Spark's grammar; they are kept as this action of an `AlterTable` on their table."""

    command: str  # a key of `replay.hive.MESSAGES`
    partitions: tuple[tuple[tuple[str, str | None], ...], ...] = ()  # each PARTITION (k = v, ...): (column, value as written)
    span: Span | None = None  # the command's words (`ADD ... PARTITION`, `MSCK REPAIR TABLE`), where findings point
    target: str | None = None  # CREATE TABLE target LIKE source: kept as this command on `source`, the table it reads


class AddPartitionField(NamedTuple):
    transform: Transform
    name: str | None


class DropPartitionField(NamedTuple):
    transform: Transform  # a bare Name may be a partition field name, see the replay


class ReplacePartitionField(NamedTuple):
    old: Transform
    new: Transform
    name: str | None


class WriteSpec(NamedTuple):
    """`WRITE [DISTRIBUTED BY PARTITION] [LOCALLY] ORDERED BY ... | UNORDERED`."""

    distributed: bool
    locally: bool
    unordered: bool
    order: tuple[SortTerm, ...] | None  # None: no ordering clause


class SetIdentifierFields(NamedTuple):
    paths: tuple[Name, ...]


class DropIdentifierFields(NamedTuple):
    paths: tuple[Name, ...]


class BranchOrTag(NamedTuple):
    """CREATE/REPLACE/DROP BRANCH|TAG: recognised; no schema effect."""

    verb: str  # 'create' | 'replace' | 'create_or_replace' | 'drop'
    kind: str  # 'branch' | 'tag'
    name: str
    if_exists: bool = False  # IF EXISTS (drop) / IF NOT EXISTS (create)
    snapshot_id: str | None = None  # AS OF VERSION n


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
    | HiveCommand
)


# ---------------------------------------------------------------------------- statements


class AlterTable(NamedTuple):
    table: Name
    action: AlterAction
    span: Span


class CreateTable(NamedTuple):
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
    options: tuple[tuple[str, str], ...] = ()  # OPTIONS (...)
    # CLUSTERED BY (c) INTO n BUCKETS: `bucket(n, c)` (`sorted_bucket(c, n, s)` with SORTED BY (s)), which
    # Spark hands Iceberg after the PARTITIONED BY transforms
    clustered_by: Transform | None = None
    # STORED AS / ROW FORMAT (Hive's): the table properties Spark's Iceberg catalog makes of them
    # (`hive.stored-as`, `option.field.delim`, ...); the table still writes Parquet
    hive_properties: tuple[tuple[str, str], ...] = ()


class DropTable(NamedTuple):
    table: Name
    if_exists: bool
    purge: bool
    span: Span


class SetConfig(NamedTuple):
    """`SET key = value`, `SET key` (value None), or `RESET [key]` (`reset`; key "" for every key)."""

    key: str
    value: str | None
    span: Span
    reset: bool = False


class UseNamespace(NamedTuple):
    """`USE db`, `USE catalog.db`, `USE NAMESPACE|DATABASE|SCHEMA db`: the namespace of later one-part names."""

    name: Name
    span: Span


class Call(NamedTuple):
    """`CALL catalog.system.procedure(args)`; args as (name or None, raw text)."""

    procedure: Name
    args: tuple[tuple[str | None, str], ...]
    span: Span

    @property
    def procedure_name(self) -> str:
        return self.procedure.parts[-1].lower()


class Other(NamedTuple):
    """A statement recognised and passed over: DML, queries, USE, views, ... (`keyword` in lower case)."""

    keyword: str
    span: Span
    table: Name | None = None  # the target table of DML, when cheap to know


class Unparsed(NamedTuple):
    """A statement that could not be parsed: becomes a finding, never skipped silently."""

    message: str
    span: Span  # the whole statement
    error_span: Span  # the token at fault
    help: str | None = None  # what to write instead, when the parser knows


Statement = AlterTable | CreateTable | DropTable | SetConfig | UseNamespace | Call | Other | Unparsed


class Comment(NamedTuple):
    """A `-- ...` or `/* ... */` comment; `text` without the markers, stripped."""

    text: str
    span: Span


class Placed(NamedTuple):
    """A statement once lowered: its span, all that suppressions, placeholders and reports ask of it
    (`engine/lower.py` is the only reader of the trees). `icelint check` keeps these instead of the trees:
    a run of a million statements would otherwise hold every node until it ends."""

    span: Span


class PlacedSpans(tuple):
    """A lowered file's statements as `Placed`, made as they are read: a tuple of their spans (the
    spans the steps hold too), not a `Placed` tuple kept per statement."""

    __slots__ = ()

    def __iter__(self):
        return map(Placed, tuple.__iter__(self))

    def __reversed__(self):
        return map(Placed, reversed(tuple(tuple.__iter__(self))))

    def __getitem__(self, i):
        got = tuple.__getitem__(self, i)
        return tuple(map(Placed, got)) if isinstance(i, slice) else Placed(got)

    def __contains__(self, item: object) -> bool:
        return isinstance(item, Placed) and tuple.__contains__(self, item.span)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, tuple) and len(other) == len(self) and all(a == b for a, b in zip(self, other))

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple(self))


class ParsedFile(NamedTuple):
    path: str
    statements: tuple[Statement, ...]
    comments: tuple[Comment, ...] = ()
