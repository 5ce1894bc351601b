"""Typed changes: what a statement asks of one table, ready for the replay.

`lower` turns each parsed statement into one `Commit`: the changes Spark hands to Iceberg in one
transaction (so `DROP COLUMNS (a, b)` or `REPLACE COLUMNS` become a single new schema, as in Iceberg).
Paths are tuples of names as written; resolution (case folding, element/key/value) is the replay's job.
A change's `span` is the token a finding about it points at: the column path of column changes, the
transform of partition changes, the new name of a table rename, the procedure name of a CALL (the
statement's own span is the Commit's); a type change's new type is `type.span`.
Changes are NamedTuples for start-up speed (see syntax/ast.py).
"""

from __future__ import annotations

import operator
import re
from functools import lru_cache
from typing import NamedTuple

from icelint.values.source import Span
from icelint.syntax.ast import SortTerm, SqlType, Transform

Path = tuple[str, ...]


class ColumnSpec(NamedTuple):
    path: Path
    type: SqlType
    required: bool
    doc: str | None
    default: str | None
    first: bool = False
    after: Path | None = None
    span: Span | None = None


# ---------------------------------------------------------------- schema changes


class AddColumn(NamedTuple):
    column: ColumnSpec
    span: Span


class DeleteColumn(NamedTuple):
    path: Path
    span: Span
    if_exists: bool = False


class RenameColumn(NamedTuple):
    path: Path
    new_name: str
    span: Span  # the column path; `new_name_span` the new name
    new_name_span: Span | None = None


class UpdateColumnType(NamedTuple):
    path: Path
    type: SqlType
    span: Span


class UpdateColumnRequired(NamedTuple):
    path: Path
    required: bool
    span: Span


class UpdateColumnDoc(NamedTuple):
    path: Path
    doc: str | None
    span: Span


class MoveColumn(NamedTuple):
    path: Path
    first: bool
    after: Path | None
    span: Span


class UpdateColumnDefault(NamedTuple):
    path: Path
    default: str | None
    span: Span


class ReplaceColumns(NamedTuple):
    columns: tuple[ColumnSpec, ...]
    span: Span


class HiveChangeColumn(NamedTuple):
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


class CreateTable(NamedTuple):
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
    options: tuple[tuple[str, str], ...] = ()  # OPTIONS (...): checked for Spark's reserved keys
    sql: str | None = None  # the statement's text, for CREATE ... AS SELECT (`replay/ctas.py`)
    bucketed: bool = False  # the last of `partition_by` is CLUSTERED BY's bucket transform
    hive_format: bool = False  # STORED AS / ROW FORMAT (Hive's): a Hive table in Spark's session catalog


class DropTable(NamedTuple):
    if_exists: bool
    purge: bool
    span: Span


class RenameTable(NamedTuple):
    new_name: str
    span: Span


class SetProperties(NamedTuple):
    properties: tuple[tuple[str, str], ...]
    span: Span
    key_spans: tuple[Span, ...] = ()  # one per property key, when the parser knows it


class UnsetProperties(NamedTuple):
    keys: tuple[str, ...]
    if_exists: bool
    span: Span
    key_spans: tuple[Span, ...] = ()  # one per key, when the parser knows it


class SetLocation(NamedTuple):
    location: str
    span: Span


class NotForV2(NamedTuple):
    """A Hive table command Spark refuses on an Iceberg table (`syntax.ast.HiveCommand`): `command` is a key
    of `replay.hive.MESSAGES`; `partitions` the PARTITION specs it names, (column, value as written) each."""

    command: str
    partitions: tuple
    span: Span
    target: str | None = None  # CREATE TABLE target LIKE (this table)


class AddPartitionField(NamedTuple):
    transform: Transform
    name: str | None
    span: Span


class DropPartitionField(NamedTuple):
    transform: Transform
    span: Span


class ReplacePartitionField(NamedTuple):
    old: Transform
    new: Transform
    name: str | None
    span: Span


class SetWriteOrder(NamedTuple):
    distributed: bool
    locally: bool
    unordered: bool
    order: tuple[SortTerm, ...] | None
    span: Span


class SetIdentifierFields(NamedTuple):
    paths: tuple[Path, ...]
    spans: tuple[Span, ...]
    span: Span


class DropIdentifierFields(NamedTuple):
    paths: tuple[Path, ...]
    spans: tuple[Span, ...]
    span: Span


class NamedRef(NamedTuple):
    """The branch, tag or snapshot a statement names after the table (`db.t.branch_audit`: Iceberg's
    SparkCatalog reads a last name part `branch_<name>`, `tag_<name>`, `snapshot_id_<id>` or
    `at_timestamp_<ms>` of a table that does not exist as a ref of the table before it)."""

    kind: str  # "branch", "tag", "snapshot_id" or "at_timestamp"
    name: str  # the branch or tag name, the snapshot id or the timestamp, as written (case-sensitive)
    written: str  # the whole name as written (`db.t.branch_audit`)
    parent: str  # the table's name as written (`db.t`)

    @property
    def label(self) -> str:
        """The ref as messages name it: branch `audit`, tag `v1`, snapshot id 2, at timestamp 1700000000000."""
        return f"{self.kind} `{self.name}`" if self.kind in ("branch", "tag") else f"{self.kind.replace('_', ' ')} {self.name}"


@lru_cache(maxsize=4096)
def table_key(name: str) -> str:
    """`local.db.events`, `db.events`, `DB.Events` → `db.events` (the catalog part is dropped)."""
    parts = [p.lower() for p in name.split(".")]
    if len(parts) > 2:
        parts = parts[-2:]
    return ".".join(parts)


_REF = re.compile(r"(branch|tag)_(.+)|(snapshot_id|at_timestamp)_(\d+)", re.DOTALL)


def name_ref(parts: tuple[str, ...]) -> NamedRef | None:
    """The ref a table name's last part selects (`SparkCatalog`'s selectors: the prefix in lower case,
    as Iceberg matches it), when the name has a table before it."""
    if len(parts) < 3:
        return None
    m = _REF.fullmatch(parts[-1])
    if m is None:
        return None
    kind, name = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
    return NamedRef(kind, name, ".".join(parts), ".".join(parts[:-1]))


class WriteData(NamedTuple):
    """DML that writes rows (INSERT/UPDATE/DELETE/MERGE/TRUNCATE): the table now holds data files."""

    kind: str
    span: Span
    text: str | None = None  # the whole text of its file (shared, not copied), for `sql`

    @property
    def sql(self) -> str | None:
        """The statement's text, for the checks Spark runs on literal VALUES (sliced on demand: a
        long INSERT kept as a copy in every step would double the memory its text takes)."""
        return None if self.text is None else self.text[self.span.start : self.span.end]


class CallProcedure(NamedTuple):
    procedure: str  # lower-case procedure name, e.g. rollback_to_snapshot
    args: tuple[tuple[str | None, str], ...]
    span: Span


class RefChange(NamedTuple):
    """CREATE/REPLACE/DROP BRANCH or TAG: no schema effect, but the ref must (not) exist."""

    verb: str
    kind: str
    name: str
    if_exists: bool
    span: Span
    snapshot_id: str | None = None  # AS OF VERSION n


class NoEffect(NamedTuple):
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
    | NotForV2
    | AddPartitionField
    | DropPartitionField
    | ReplacePartitionField
    | SetWriteOrder
    | SetIdentifierFields
    | DropIdentifierFields
    | WriteData
    | CallProcedure
    | RefChange
    | NoEffect
)


# ---------------------------------------------------------------- commits and session changes


class Commit(NamedTuple):
    """The changes of one statement to one table, applied (or rejected) as a unit."""

    table: str  # the name as written, e.g. `local.db.events`
    table_span: Span
    changes: tuple[TableChange, ...]
    span: Span  # the whole statement
    index: int  # statement number within the run (0-based), for stable ordering
    # the branch, tag or snapshot the name selects (`db.t.branch_audit`: `table` is then `db.t`, or the
    # whole name where the run does not tell a ref from a table, `Replay.apply` deciding; `lower._place_refs`)
    ref: NamedRef | None = None

    @property
    def ref_unplaced(self) -> bool:
        """Whether the name (`db.t.branch_x`) is left for the replay to read as a table's or as a ref of
        `db.t` (`lower._place_refs` could not tell; `Replay._ref_key` decides from the tables' states)."""
        return self.ref is not None and self.table == self.ref.written


class SessionConfig(NamedTuple):
    """`SET key=value` or `RESET [key]`: changes how later statements are resolved
    (spark.sql.caseSensitive) and where writes go (spark.wap.branch)."""

    key: str
    value: str | None
    span: Span
    index: int
    reset: bool = False  # `RESET key` (back to the default), `RESET` (key "": every key)


class UseNamespace(NamedTuple):
    """`USE db`: later one-part table names are `db.<name>` (lowering already qualifies them)."""

    namespace: str  # as written after USE, e.g. `db` or `local.db`
    span: Span
    index: int


class ParseFailure(NamedTuple):
    message: str
    span: Span
    error_span: Span
    index: int
    help: str | None = None  # what to write instead, when the parser knows


class Passive(NamedTuple):
    """A statement recognised and passed over (SELECT, USE, views, ...)."""

    kind: str
    span: Span
    index: int


Step = Commit | SessionConfig | UseNamespace | ParseFailure | Passive


def linted(step: Step) -> Step:
    """`step` as `checker.lint_replay` keeps it once every rule has checked it: an ADD COLUMN's column
    without its type, comment and default, a type change without its type (None). Only the step's
    own checks read those; the rules that look back at earlier steps read their tables, spans,
    indexes, kinds of change, column paths, drops, renames and writes. On a long file an ADD
    COLUMN's type (with its span) was ~230 bytes a statement."""
    if step.__class__ is not Commit:
        return step
    changes = step.changes
    if len(changes) == 1:  # the common case: one change, most of them leaner already or of another kind
        lean = _lean(changes[0])
        return step if lean is changes[0] else step._replace(changes=(lean,))
    leans = tuple(map(_lean, changes))
    return step if all(map(operator.is_, leans, changes)) else step._replace(changes=leans)


def _lean(c: TableChange) -> TableChange:
    cls = c.__class__
    if cls is AddColumn:
        col = c.column
        if col.type is None and col.doc is None and col.default is None:
            return c
        col = col._replace(type=None, doc=None, default=None)
        return AddColumn(col, c.span)
    if cls is UpdateColumnType:
        return c if c.type is None else c._replace(type=None)
    return c  # a comment change's comment is the new field's own string: nothing to let go
