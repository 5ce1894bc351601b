"""The replay: steps of typed changes applied to table states, as Spark 3.5 + Iceberg 1.10 would.

Each `Commit` either yields a new `TableMetadata` or a `ReplayError` (and the state stays as it
was, like a failed Spark statement). Every outcome keeps the state before and after, so rules can
compare them and look back over the history.

This module holds the outcomes and the dispatch; what each statement does lives with what it
replays: `tables` (CREATE / REPLACE / DROP / RENAME), `columns` (schema changes, committed by
`schemas`), `layout` (partition specs, sort orders, identifier fields), `properties` (properties,
location, branches and tags, procedures) and `dml` (INSERT / UPDATE / DELETE / MERGE).
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from itertools import islice
from typing import Iterable, Iterator, NamedTuple, Sequence

from icelint.values import changes as ch
from icelint.model.diff import NO_CHANGE, SchemaDiff
from icelint.model.table import UNDO_KEPT, TableMetadata, forget_link
from icelint.model.storage.versions import retire
from icelint.replay import deploy, hive, refs
from icelint.replay.columns import ColumnsMixin
from icelint.replay.common import not_found, table_key
from icelint.replay.dml.check import DmlMixin
from icelint.replay.errors import ReplayError, Unchecked
from icelint.replay.layout import LayoutMixin
from icelint.replay.properties import (  # noqa: F401 - importable from here, as before the split
    ACTION_PROPERTIES,
    DEFAULT_FORMAT_VERSION,
    MAX_FORMAT_VERSION,
    NEW_TABLE_DEFAULTS,
    RESERVED_PROPERTIES,
    SPARK_RESERVED,
    PropertiesMixin,
    check_commit_possible,
)
from icelint.replay.tables import TablesMixin

_new_tuple = tuple.__new__

__all__ = ["Outcome", "Replay", "ReplayResult", "table_key"]


class Outcome(NamedTuple):
    """What one step did to one table (a named tuple: one is made per statement)."""

    step: ch.Step
    table: str | None  # table key
    before: TableMetadata | None
    after: TableMetadata | None  # equals `before` when the step was rejected
    error: ReplayError | None = None
    case_sensitive: bool = False
    skipped: str | None = None  # why the step could not be replayed (unknown schema, non-Iceberg table, untyped column)
    diff: SchemaDiff | None = None  # what the step changed in the schema, when it made a new one

    @property
    def accepted(self) -> bool:
        return self.error is None and self.skipped is None

    def slimmed(self, last: dict, step: ch.Step | None = None) -> Outcome:
        """This outcome as rules looking back at it need it (`checker.lint_replay` keeps this once
        the outcome is linted): its states as `PastState`s and its diff only if it removed fields
        (`rules/_outcome_index.py`); `step`, if given, in place of its step (`changes.linted`).
        `last` (table → (state, its PastState)) shares one PastState between this outcome's `after`
        and the next one's `before`."""
        own, table, before, after, error, case_sensitive, skipped, diff = self
        if step is None:
            step = own
        if before is None and after is None:
            return self if step is own else self._replace(step=step)
        if diff is not None and not diff.removed:
            diff = NO_CHANGE
        got = last.get(table)
        if got is not None and got[0] is before:
            past_before = got[1]
        else:
            past_before = None if before is None else PastState(before)
        past_after = past_before if after is before else None if after is None else PastState(after)
        last[table] = (after, past_after)
        if error is None and skipped is None and diff is NO_CHANGE and not case_sensitive:
            return _new_tuple(_PastOutcome, (step, table, past_before, past_after))  # most of a long run
        return _new_tuple(Outcome, (step, table, past_before, past_after, error, case_sensitive, skipped, diff))


class _PastOutcome(Outcome):
    """A slimmed outcome whose last four fields are their usual values (an accepted step that
    removed nothing): four slots, not eight (32 bytes a statement). Reads as an `Outcome`."""

    __slots__ = ()
    error = None
    case_sensitive = False
    skipped = None
    diff = NO_CHANGE

    def __iter__(self):  # all eight, as an `Outcome` (unpacking, `_replace`, `tuple(o)`)
        yield from tuple.__iter__(self)
        yield from (None, False, None, NO_CHANGE)

    def __len__(self) -> int:
        return 8

    def __getitem__(self, i):  # type: ignore[override]
        return tuple(self)[i]

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, tuple) else other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __reduce__(self):
        return (Outcome._make, (tuple(self),))

    def _replace(self, **kw) -> Outcome:  # type: ignore[override]
        return Outcome._make(tuple(self))._replace(**kw)

    @classmethod
    def _make(cls, iterable) -> Outcome:  # type: ignore[override]
        return Outcome._make(iterable)


class PastState:
    """What is kept of a table state once the checker is done with the steps around it: the schema
    and the configuration that rules looking back at earlier outcomes read (the drop of a re-added
    column, `rules/_help_columns.py`; the first statement that configured a reader condition,
    `readers/conditions.py`). A TableMetadata per statement would hold hundreds of bytes more."""

    __slots__ = ("schema", "format_version", "properties")

    def __init__(self, meta: TableMetadata) -> None:
        self.schema, self.format_version, self.properties = meta.schema, meta.format_version, meta.properties


@dataclass
class ReplayResult:
    """The outcome of every step, the tables' final states, and what the replay could not know."""

    outcomes: list[Outcome]
    tables: dict[str, TableMetadata | None]  # final states; None: dropped
    initial: dict[str, TableMetadata]
    unknown: set[str] = field(default_factory=set)  # tables whose schema cannot be known (CTAS, non-Iceberg)
    display_names: dict[str, str] = field(default_factory=dict)  # key → name as first written
    missing: set[str] = field(default_factory=set)  # referenced but never created, and no state given
    unknown_why: dict[str, str] = field(default_factory=dict)  # key → why its schema cannot be known
    absent: dict[str, str] = field(default_factory=dict)  # key → the state source asked that lacks it (set by the caller)
    stats: object = None  # the data counts of the states (sources/table_stats.StatsProvider; set by the caller)
    # False while `Replay.stream` is still adding outcomes (the checker lints each one as it comes):
    # `outcomes` holds the steps so far, `tables` the states now. `steps`: every step of the run.
    final: bool = True
    steps: Sequence[ch.Step] | None = None
    iceberg_version: str = "1.10"  # the Iceberg runtime the verdicts are for (icelint.config.target)


class Replay(TablesMixin, ColumnsMixin, LayoutMixin, PropertiesMixin, DmlMixin):
    def __init__(
        self,
        initial: dict[str, TableMetadata] | None = None,
        case_sensitive: bool = False,
        catalog_kind: str = "iceberg",
        deployments: deploy.Deployments | None = None,
        iceberg_version: str = "1.10",
    ) -> None:
        self.iceberg_version = iceberg_version  # the Iceberg runtime the verdicts are for (icelint.config.target)
        self.deployments, self._epoch = deployments, None  # data appears between deployments (replay/deploy.py)
        self.initial = {table_key(k): v for k, v in (initial or {}).items()}
        self.tables: dict[str, TableMetadata | None] = dict(self.initial)
        self.unknown: set[str] = set()
        self.unknown_why: dict[str, str] = {}  # why a table's schema cannot be known (CTAS), when known
        self.missing: set[str] = set()  # referenced, never created, no state given
        self.case_sensitive = case_sensitive
        self.display: dict[str, str] = {}
        self.catalog_kind = catalog_kind  # "iceberg" (SparkCatalog) or "session" (SparkSessionCatalog)
        self._named_ref: ch.NamedRef | None = None  # the ref the statement being applied names (`_ref_key`)
        self.wap_branch: str | None = None  # `SET spark.wap.branch = x`: writes to WAP-enabled tables go to x
        self.commit_checked: dict[int, tuple] = {}  # see `properties.check_commit_possible`

    # ------------------------------------------------------------------ table names
    def resolve_table(self, name: str) -> str:
        key = table_key(name)
        if "." not in key:
            matches = [k for k in self.tables if k.rsplit(".", 1)[-1] == key]
            if len(matches) == 1:
                return matches[0]
        return key

    def _session(self, step: ch.SessionConfig) -> None:
        """The session settings the replay follows: `spark.sql.caseSensitive` (how names resolve) and
        `spark.wap.branch` (where writes to a `write.wap.enabled` table go); `RESET` sets them back."""
        key = step.key.lower()
        if step.reset:
            if key in ("", "spark.sql.casesensitive"):
                self.case_sensitive = False
            if key in ("", "spark.wap.branch"):
                self.wap_branch = None
        elif step.value is not None:
            value = step.value.strip().strip("'\"")
            if key == "spark.sql.casesensitive":
                self.case_sensitive = value.lower() == "true"
            elif key == "spark.wap.branch":
                self.wap_branch = value or None

    def _ref_key(self, key: str, step: ch.Commit) -> tuple[str, ch.NamedRef | None]:
        """The table a statement naming a ref is on, and the ref (None: the name is a table's). A
        three-part name the run could not place (`lower._place_refs`) is a ref of its first two parts
        when that table is known and no table of the whole name is, as Iceberg's SparkCatalog looks."""
        ref = step.ref
        if not step.ref_unplaced:  # placed by `lower._place_refs`
            return key, ref
        if key in self.tables:
            return key, None
        parent = self.resolve_table(ref.parent)
        return (parent, ref) if parent in self.tables else (key, None)

    def run(self, steps: Iterable[ch.Step]) -> ReplayResult:
        steps = steps if isinstance(steps, list) else list(steps)
        outcomes = [self.apply(s) for s in steps]
        tables = {k: v for k, v in self.tables.items()}
        return ReplayResult(outcomes, tables, self.initial, self.unknown, self.display, self.missing, self.unknown_why,
                            steps=steps, iceberg_version=self.iceberg_version)  # fmt: skip

    def stream(self, steps: Sequence[ch.Step], done: list[Outcome] | None = None) -> tuple[ReplayResult, Iterator[Outcome]]:
        """The result, not final yet, and the outcomes one by one as each step is applied: each is
        appended to `result.outcomes` before it is yielded, and `result.final` is set after the last.
        `result.tables` is the replay's own dict of the tables' states as they are now.
        `done`: the outcomes of the first steps, applied earlier to the state this replay holds (a
        checkpoint's, `run.checkpoint`); the list becomes `result.outcomes` and the replay goes on
        from the step after them."""
        result = ReplayResult([] if done is None else done, self.tables, self.initial, self.unknown, self.display, self.missing, self.unknown_why,
                              final=False, steps=steps, iceberg_version=self.iceberg_version)  # fmt: skip

        recent: dict[str, deque] = {}  # table → its newest schema versions (see `forget_link`)
        held: dict[int, int] = {}  # id of a version → how many times it is in a `recent` deque
        reused: set[int] = set()  # ids of older versions a commit made current again (`versions.adopt`)

        def outcomes() -> Iterator[Outcome]:
            append, apply = result.outcomes.append, self.apply
            for s in steps if done is None else islice(steps, len(done), None):
                o = apply(s)
                append(o)
                yield o
                before, after = o.before, o.after
                if after is not None and (before is None or after.schema is not before.schema):
                    versions = recent.get(o.table) if before is not None else None
                    if versions is None:  # a table created (or replaced): its own chain
                        for v in recent.pop(o.table, ()):  # the replaced table's versions: no longer counted
                            n = held.pop(id(v), 1) - 1
                            if n:
                                held[id(v)] = n
                        versions = recent[o.table] = deque()
                    schema = after.schema
                    if schema is not after.schemas[-1]:
                        reused.add(id(schema))
                    versions.append(schema)
                    held[id(schema)] = held.get(id(schema), 0) + 1
                    if len(versions) > UNDO_KEPT:
                        old = versions.popleft()
                        n = held[id(old)] - 1
                        if n:  # an older version reused (a rename undone) and still among the newest: kept whole
                            held[id(old)] = n
                            continue
                        del held[id(old)]
                        forget_link(old, versions[0])
                        if id(old) not in reused:  # one reused once may be again: it stays whole, not revived each time
                            retire(old, versions[0])  # kept as its difference from the next
            result.final = True

        return result, outcomes()

    def apply(self, step: ch.Step) -> Outcome:
        self._diff: SchemaDiff | None = None
        if self.deployments is not None:
            self._epoch = deploy.cross(self.deployments, step, self._epoch, self.tables)
        if isinstance(step, ch.SessionConfig):
            self._session(step)
            return Outcome(step, None, None, None, case_sensitive=self.case_sensitive)
        if not isinstance(step, ch.Commit):
            return Outcome(step, None, None, None, case_sensitive=self.case_sensitive)
        key = self.resolve_table(step.table)
        self._named_ref = None
        if step.ref is not None:
            key, self._named_ref = self._ref_key(key, step)
        self.display.setdefault(key, step.table if self._named_ref is None else self._named_ref.parent)
        before = self.tables.get(key)
        if self._named_ref is not None and before is not None and not isinstance(step.changes[0], ch.WriteData):
            try:  # DDL or DROP TABLE on a ref's name
                refs.check_other(self._named_ref, step.changes[0], before)
            except ReplayError as e:
                e.span = step.table_span
                return Outcome(step, key, before, before, e, self.case_sensitive)
            return Outcome(step, key, before, before, None, self.case_sensitive)
        if key in self.unknown:
            return Outcome(step, key, None, None, None, self.case_sensitive, "unknown-schema")
        first = step.changes[0] if step.changes else None
        if key not in self.tables and not isinstance(first, (ch.CreateTable, ch.DropTable)):
            self.missing.add(key)
        elif isinstance(first, ch.CreateTable):
            self.missing.discard(key)  # created after all (a script used it before creating it)
        if key in self.missing:
            if isinstance(first, ch.DropTable) and not first.if_exists:
                e = not_found(step)
                e.never_known = True  # no state, no CREATE: Spark fails only where the table does not exist
                return Outcome(step, key, None, None, e, self.case_sensitive)
            return Outcome(step, key, None, None, None, self.case_sensitive, "unknown-table")
        try:
            after = self._commit(key, before, step)
        except ReplayError as e:
            if e.span is None:
                e.span = step.span
            if e.kind == "unknown-table" and key not in self.tables:
                e.never_known = True  # a DROP TABLE naming the table first: no state, no CREATE before it
            return Outcome(step, key, before, before, e, self.case_sensitive)
        except Unchecked as u:  # reaches into a column of unknown type (CTAS): Spark may accept it or not
            return Outcome(step, key, before, before, None, self.case_sensitive, "untyped-column:" + u.column)
        self.tables[key] = after  # None: dropped (or renamed away)
        # `Outcome(step, key, before, after, None, self.case_sensitive, diff=self._diff)`, without the
        # named tuple's keyword handling (one per statement)
        return _new_tuple(Outcome, (step, key, before, after, None, self.case_sensitive, None, self._diff))

    # ------------------------------------------------------------------ commits
    def _commit(self, key: str, meta: TableMetadata | None, step: ch.Commit) -> TableMetadata | None:
        first = step.changes[0] if step.changes else None
        if isinstance(first, ch.CreateTable):
            out = self._create(key, meta, first, step)
            if out is None or out is meta:
                return out
            if first.as_select:
                return deploy.selected(out, step)
            return deploy.created(out, step) if meta is None else deploy.emptied(out, step, "REPLACE TABLE")
        if isinstance(first, ch.DropTable):
            return self._drop(meta, first, step)
        if meta is None:
            raise not_found(step)
        if isinstance(first, ch.RenameTable):
            return self._rename(meta, first, step)
        check_commit_possible(meta, step.changes, self.commit_checked)
        schema_changes = [c for c in step.changes if isinstance(c, ch.SchemaChange)]  # type: ignore[arg-type]
        if schema_changes:  # the column changes of one statement are committed together
            return self._schema_commit(meta, schema_changes, step)
        out = meta
        for c in step.changes:
            apply = _APPLY.get(type(c))
            if apply is not None:  # else NoEffect
                out = apply(self, out, c, step)
        return out


# what each other kind of change does to a table
_APPLY = {
    ch.SetProperties: Replay._set_properties,
    ch.UnsetProperties: Replay._unset_properties,
    ch.SetLocation: Replay._set_location,
    ch.NotForV2: hive.not_for_v2,
    ch.RefChange: Replay._ref,
    ch.CallProcedure: Replay._procedure,
    ch.AddPartitionField: Replay._partition,
    ch.DropPartitionField: Replay._partition,
    ch.ReplacePartitionField: Replay._partition,
    ch.SetWriteOrder: Replay._write_order,
    ch.SetIdentifierFields: Replay._set_identifiers,
    ch.DropIdentifierFields: Replay._drop_identifiers,
    ch.WriteData: Replay._write_data,
}
