"""What a rule is, and what it sees: one replay outcome with the table's history."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Callable, Iterable, Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.values.fix import Fix
from icelint.util.lazy import cached_property
from icelint.model.diff import NO_CHANGE, SchemaDiff, diff
from icelint.model.table import LazySchema, Schema, TableMetadata
from icelint.replay.engine import Outcome, ReplayResult
from icelint.replay.errors import ReplayError
from icelint.values.source import Span

if TYPE_CHECKING:
    from icelint.engine.context import RunContext

# What a rule reacts to, besides step and change classes (`ch.ParseFailure`, `ch.DeleteColumn`, ...).
SCHEMA_CHANGED = "schema-changed"  # the step was applied and the table's current schema is a new one
REJECTED = "rejected"  # Spark or Iceberg rejects the step (`outcome.error`)
SKIPPED = "skipped"  # the step could not be replayed (unknown table or schema)


class RuleId(NamedTuple):
    """A rule's code, name and default severity: what a finding needs of it. A family of rules that
    shares one analysis names its members' ids in the analysis module, and each member makes its
    `Rule` from its id (`Rule(*ID, check, __doc__)`), so that no member imports another's `RULE`."""

    code: str
    name: str
    severity: Severity


@dataclass(frozen=True)
class Rule:
    """A rule: its code, name, default severity, check function, documentation and the changes that trigger it.

    A rule over statements has a `check`, called with each replay outcome that carries one of its
    `triggers`. A rule over files (`Rule.over_files`) has a `check_files` instead, called once per
    run at its `stage` (`rules/kit/files.py`)."""

    code: str
    name: str
    severity: Severity
    check: Callable[["RuleContext"], Iterator[Finding]] | None
    doc: str
    # The step classes, change classes and outcome kinds (SCHEMA_CHANGED, REJECTED, SKIPPED) that can
    # make the rule report; the checker calls it for those outcomes only (None: for every outcome).
    triggers: frozenset | None = None
    check_files: Callable[..., Iterable[Finding]] | None = None  # (FilesContext) -> findings
    stage: str | None = None  # when the engine calls `check_files` (`rules/kit/files.py`)

    @classmethod
    def over_files(cls, rule_id: tuple, check_files: Callable[..., Iterable[Finding]], doc: str, stage: str) -> "Rule":
        """A rule over files (`rules/kit/files.py`), from its (code, name, severity): `Rule.over_files(("ICE060",
        "unresolved-placeholder", Severity.ERROR), check_files, __doc__, TEXT)`."""
        code, name, severity = rule_id
        return cls(code, name, severity, None, doc, frozenset(), check_files, stage)

    @property
    def summary(self) -> str:
        return self.doc.strip().splitlines()[0].strip()


class NeedsFuture(Exception):
    """What a rule asks depends on statements the replay has not reached yet.

    `checker.lint_replay` lints each outcome as soon as the replay makes it; a rule (or a help
    function) that must look ahead (`RuleContext.whole_run`) raises this, and the checker runs that
    rule's check on that outcome again once the replay is over, with the table's history as it was."""


@dataclass(frozen=True)
class FormerField:
    """A field id that a name used to hold, before it was dropped."""

    field_id: int
    path: str  # the name it had, as written then
    where: str  # completes "dropped ...": "at V2__x.sql:3", "before this migration (last in schema 3 ...)"


class TableHistory:
    """Per-table memory across the run: every name a field id ever had, and the names of dropped ids.

    Built lazily from the metadata's `schemas` list (large histories cost nothing until a rule asks).
    """

    def __init__(self, meta: TableMetadata | None = None) -> None:
        self._meta = meta
        self._former: dict[str, list[FormerField]] | None = None
        self._former_ids: dict[str, set[int]] = {}  # the field ids of each list of `_former`
        self._names: dict[int, list[str]] = {}  # renames seen during the run: id → earlier names
        self._pending: list[tuple[str, int, str]] = []
        self.added_at: dict[int, int] = {}  # field ids added by the scripts → statement index
        self.last_write = -1  # statement index of the last INSERT/UPDATE/DELETE/MERGE on the table

    def unwritten_since_added(self, field_id: int, meta: TableMetadata | None = None) -> bool:
        """Added by these scripts and no row written since (by the scripts, or presumed at a deployment
        of `meta`'s history, `model/data.py`): old rows read NULL in it."""
        added = self.added_at.get(field_id)
        if added is None:
            return False
        origin = meta.data_origin if meta is not None and meta.has_data else None
        return max(self.last_write, origin.index if origin is not None else -1) < added

    @classmethod
    def from_metadata(cls, meta: TableMetadata) -> TableHistory:
        return cls(meta)

    def snapshot(self) -> TableHistory:
        """A copy that later `record`s leave as it is (for a check the checker runs again at the end)."""
        out = TableHistory.__new__(TableHistory)
        out.__dict__.update(self.__dict__)  # the metadata and its names (read-only once built) shared
        out._former = None if self._former is None else {k: list(v) for k, v in self._former.items()}
        out._former_ids = {k: set(v) for k, v in self._former_ids.items()}
        out._names = {k: list(v) for k, v in self._names.items()}
        out._pending = list(self._pending)
        out.added_at = dict(self.added_at)
        return out

    @property
    def former(self) -> dict[str, list[FormerField]]:
        """lower-case dotted path → the dropped field ids that held it."""
        if self._former is None:
            self._former = {}
            if self._meta is not None:
                self._load_metadata(self._meta)
            for path, fid, where in self._pending:
                self._remember(path, fid, where)
            self._pending = []
        return self._former

    def _load_metadata(self, meta: TableMetadata) -> None:
        current = meta.schema
        last_seen: dict[int, tuple[int, list[str]]] = {}
        current_ids = {f.id for _, f in current.all_fields()}
        for s in meta.schemas:
            if s.schema_id == meta.current_schema_id:
                continue
            paths = s.raw_paths() if isinstance(s, LazySchema) else ((p, f.id) for p, f in s.all_fields())
            for path, fid in paths:
                if fid not in current_ids:
                    sid, names = last_seen.get(fid, (s.schema_id, []))
                    name = ".".join(path)
                    if name not in names:
                        names.append(name)
                    last_seen[fid] = (max(sid, s.schema_id), names)
        for fid, (sid, names) in last_seen.items():
            for name in names:
                self._remember(name, fid, f"before this migration (last present in schema {sid} of the table metadata)")

    def _remember(self, path: str, field_id: int, where: str) -> None:
        assert self._former is not None
        key = path.lower()
        ids = self._former_ids.setdefault(key, set())
        if field_id not in ids:
            ids.add(field_id)
            self._former.setdefault(key, []).append(FormerField(field_id, path, where))

    def _metadata_names(self) -> dict[int, list[str]]:
        """field id → every path it had in the metadata's schemas (read once, on the first drop)."""
        cached = self.__dict__.get("_meta_names")
        if cached is None:
            cached = {}
            if self._meta is not None:
                for s in self._meta.schemas:
                    paths = s.raw_paths() if isinstance(s, LazySchema) else ((p, f.id) for p, f in s.all_fields())
                    for path, fid in paths:
                        names = cached.setdefault(fid, [])
                        name = ".".join(path)
                        if name not in names:
                            names.append(name)
            self.__dict__["_meta_names"] = cached
        return cached

    def record(self, d: SchemaDiff, where: str) -> None:
        """Remember renames and drops of one accepted step."""
        for _, new, old in d.renamed:
            self._names.setdefault(new.id, []).append(old.name)
        for path, f in d.removed:
            parent = path[:-1]
            earlier = [".".join(parent + (n,)) for n in self._names.get(f.id, [])]
            if self._meta is not None:
                earlier += self._metadata_names().get(f.id, [])
            for name in dict.fromkeys([".".join(path), *earlier]):
                entry = (name, f.id, f"at {where}")
                if self._former is None:
                    self._pending.append(entry)
                else:
                    self._remember(*entry)


@dataclass
class RuleContext:
    """What a rule sees of one step: the outcome, the run's result, the table's history, its name as
    written, and the run's context (`run`: the look-ups built once per run, `icelint.engine.context`)."""

    outcome: Outcome
    result: ReplayResult
    history: TableHistory
    table_name: str  # as the user wrote it first
    run: "RunContext" = field(repr=False, compare=False)
    # Read from `outcome` once (every rule asks them of every statement: as properties, each ask
    # was a call): the step, the step if it is a commit, its changes, the states around it, the
    # rejection, and whether the step was applied.
    step: ch.Step = field(init=False, repr=False, compare=False)
    commit: ch.Commit | None = field(init=False, repr=False, compare=False)
    changes: tuple[ch.TableChange, ...] = field(init=False, repr=False, compare=False)
    before: TableMetadata | None = field(init=False, repr=False, compare=False)
    after: TableMetadata | None = field(init=False, repr=False, compare=False)
    error: ReplayError | None = field(init=False, repr=False, compare=False)
    accepted: bool = field(init=False, repr=False, compare=False)
    # What a family of rules computes once per outcome and shares (`shared`): analysis name → result.
    memo: dict = field(init=False, repr=False, compare=False, default_factory=dict)

    def __post_init__(self) -> None:
        o = self.outcome
        self.step = s = o.step
        self.commit = c = s if isinstance(s, ch.Commit) else None
        self.changes = c.changes if c else ()
        self.before, self.after, self.error = o.before, o.after, o.error
        self.accepted = o.accepted

    def shared(self, name: str, make: Callable[["RuleContext"], object]):
        """`make(self)`, computed once for this outcome whichever rule asks first: the one analysis a
        family of rules shares (each member reports its part of it)."""
        memo = self.memo
        if name in memo:
            return memo[name]
        got = memo[name] = make(self)
        return got

    def whole_run(self) -> ReplayResult:
        """The run's result, every outcome in it: raises `NeedsFuture` while the replay is still
        going (a rule that reads later statements' outcomes or the final tables asks this)."""
        if not self.result.final:
            raise NeedsFuture
        return self.result

    @cached_property
    def diff(self) -> SchemaDiff:
        """Schema changes this step made (empty when rejected or not a schema change)."""
        b, a = self.before, self.after
        if not self.accepted or b is None or a is None or b.schema is a.schema:
            return NO_CHANGE
        if self.outcome.diff is not None:
            return self.outcome.diff  # computed once by the replay
        return diff(b.schema, a.schema)

    @cached_property
    def _changed_paths(self) -> dict[str, list]:
        """Lower-cased dotted path before this step → the fields it named, for fields this step
        removed or changed (found in the diff: no lookup table of the old schema is needed)."""
        out: dict[str, list] = {}
        for p, f in self.diff.removed:
            out.setdefault(".".join(p).lower(), []).append(f)
        for p, _new, old in self.diff.changed:
            out.setdefault(".".join(p[:-1] + (old.name,)).lower(), []).append(old)
        return out

    def field_before(self, path: tuple[str, ...]):
        """The field a change's `path` named before this step, resolved as Spark does (case-insensitive)."""
        hits = self._changed_paths.get(".".join(path).lower())
        if hits is not None and len(hits) == 1:
            return hits[0]
        before = self.outcome.before
        return before.schema.find(path, case_sensitive=False) if before is not None else None

    def finding(
        self,
        rule: Rule,
        message: str,
        help: str | None = None,
        span: Span | None = None,
        column: str | None = None,
        field_id: int | None = None,
        severity: Severity | None = None,
        impact=None,  # model.stats.Impact: the data at stake (rules/_impact.py)
        fix: Fix | None = None,
    ) -> Finding:
        sp = span or self.outcome.step.span
        line, col, end_line, end_col = sp.positions()
        return Finding(
            rule=rule.code,
            name=rule.name,
            severity=severity or rule.severity,
            path=sp.path,
            line=line,
            column=col,
            end_line=end_line,
            end_column=end_col,
            message=message,
            help=help,
            table=self.table_name if self.outcome.table else None,
            column_path=column,
            field_id=field_id,
            statement_index=self.outcome.step.index,
            impact=impact,
            fix=fix,
        )


def triggers_of(outcome: Outcome) -> list:
    """What can make a rule report on this outcome: its step's and changes' classes and its kind."""
    step = outcome.step
    out: list = [type(step)]
    if isinstance(step, ch.Commit):
        out.extend(map(type, step.changes))
    if outcome.error is not None:
        out.append(REJECTED)
    elif outcome.skipped is not None:
        out.append(SKIPPED)
    elif outcome.after is not None and (outcome.before is None or outcome.before.schema is not outcome.after.schema):
        out.append(SCHEMA_CHANGED)
    return out


def where(span: Span) -> str:
    return f"{span.path}:{span.line}"


def has_data(meta: TableMetadata | None) -> bool | None:
    """True: files exist; False: known empty; None: unknown."""
    if meta is None:
        return None
    return meta.has_data


def field_label(schema: Schema, field_id: int) -> str:
    name = schema.name_of(field_id)
    return f"`{name}` (field id {field_id})" if name else f"field id {field_id}"


# Which rule reports a rejected change: the specialised rules claim their kinds, the rest is
# `runtime-failure`'s. One place, so that every rejection is reported exactly once.
TYPE_RULE, PARTITION_RULE, NULLABILITY_RULE, RUNTIME_RULE = "ICE002", "ICE003", "ICE004", "ICE005"
PARTITION_CHANGES = (ch.AddPartitionField, ch.DropPartitionField, ch.ReplacePartitionField)


def error_owner(outcome: Outcome) -> str | None:
    e = outcome.error
    if e is None:
        return None
    step = outcome.step
    changes = step.changes if isinstance(step, ch.Commit) else ()
    if e.kind in ("type-change", "map-key") and any(
        isinstance(c, (ch.UpdateColumnType, ch.HiveChangeColumn)) for c in changes
    ):
        return TYPE_RULE
    if e.kind in ("nullability", "required-column"):
        return NULLABILITY_RULE
    if e.kind == "identifier" and any(isinstance(c, ch.UpdateColumnRequired) and not c.required for c in changes):
        return NULLABILITY_RULE
    if e.kind == "partition" or any(isinstance(c, PARTITION_CHANGES) for c in changes):
        return PARTITION_RULE
    return RUNTIME_RULE


def error_help(e: ReplayError) -> str:
    return "Spark rejects this statement" if e.layer == "spark" else "Iceberg rejects this change"
