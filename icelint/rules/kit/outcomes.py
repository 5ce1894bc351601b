"""Look-ups over a run's outcomes, built once per run instead of scanned once per finding.

A rule that asks "which step starts at FILE:LINE" or "does any later statement write this table" for
each of its findings would scan the whole history per finding: N drops and re-adds would be
quadratic. The index is built on first use in a run, kept on the run's context (`ctx.run`, an
`icelint.engine.context.RunContext`: each function here takes it), and kept up to date as
its outcomes grow: `checker.lint_replay` lints each outcome as soon as the replay makes it, so a
rule may ask while the list is still growing (`ReplayResult.final` False). What lies ahead is then
read from the run's steps (`ReplayResult.steps`, all lowered before the replay starts); a question
the steps cannot answer for certain raises `NeedsFuture`, and the checker asks again once the
replay is over.
"""

from __future__ import annotations

from bisect import bisect_left
from operator import attrgetter

from icelint.values import changes as ch
from icelint.replay.common import table_key
from icelint.rules.kit.base import NeedsFuture
from icelint.values.source import TextSpan


class _Index:
    __slots__ = ("seen", "spans", "last_write", "removed", "other", "ahead", "first", "adds")

    def __init__(self) -> None:
        self.seen = 0  # outcomes indexed so far (the list only grows)
        self.spans: dict[str, tuple[int, int]] | None = None  # path → the positions of its steps (see `statement_span`)
        self.last_write: dict[str, int] = {}  # table → the largest step index of a commit writing rows to it
        self.removed: dict[tuple[str, int], list[int]] = {}  # (table, field id) → positions whose diff removed it
        self.other: dict[str, list[int]] = {}  # table → positions that changed the schema beyond their diff
        self.ahead: tuple[dict[str, int], dict[str, int]] | None = None  # see `writes_after`
        self.first: dict[str | None, int] = {}  # table → the step index of its first outcome (see `first_reference`)
        self.adds: tuple[dict, dict] | None = None  # see `adds_into`

    def update(self, outcomes) -> None:
        removed, other, last_write, first = self.removed, self.other, self.last_write, self.first
        for k in range(self.seen, len(outcomes)):
            o = outcomes[k]
            step = o.step
            if o.table not in first:
                first[o.table] = step.index
            if step.__class__ is ch.Commit and _writes(step.changes):
                if step.index > last_write.get(o.table, -1):
                    last_write[o.table] = step.index
            if not o.accepted or o.before is None or o.after is None or o.before.schema is o.after.schema:
                continue
            if o.diff is not None:
                for _, f in o.diff.removed:
                    removed.setdefault((o.table, f.id), []).append(k)
                if diff_is_whole(o):
                    continue
            other.setdefault(o.table, []).append(k)
        self.seen = len(outcomes)


def index(run) -> _Index:
    """The look-ups of the run (`RunContext`), brought up to date with its outcomes so far."""
    ix = run.index
    if ix is None:
        ix = run.index = _Index()
    outcomes = run.result.outcomes
    if ix.seen != len(outcomes):
        ix.update(outcomes)
    return ix


def statement_span(run, path: str, line: int):
    """The span of the first step of the run that starts at `path:line`, or None.

    The steps of a file are in order of their lines: a binary search in the file's range of steps
    (no table of every step's line: a long run would hold one entry per statement)."""
    ix = index(run)
    result = run.result
    if result.steps is None:  # a result made by hand: a replay's outcomes are its steps, one each
        result.steps = [o.step for o in result.outcomes]
    steps = result.steps
    if ix.spans is None:
        ix.spans = {}  # path → (first, end) positions of its steps in `steps`
        at, first = None, 0
        for k, step in enumerate(steps):
            p = step.span.path
            if p != at:
                if at is not None:
                    ix.spans.setdefault(at, (first, k))
                at, first = p, k
        if at is not None:
            ix.spans.setdefault(at, (first, len(steps)))
    where = ix.spans.get(path)
    if where is None:
        return None
    first = steps[where[0]].span
    if first.__class__ is TextSpan:  # by offset: the line's first character (no line computed per probe)
        starts = first[0]._starts
        if not 1 <= line <= len(starts):
            return None
        k = bisect_left(steps, starts[line - 1], where[0], where[1], key=_start)
    else:
        k = bisect_left(steps, line, where[0], where[1], key=_line)
    return steps[k].span if k < where[1] and steps[k].span.line == line else None


def _line(step) -> int:
    return step.span.line


_start = attrgetter("span.start")


def writes_after(run, table: str, step_index: int) -> bool:
    """Whether a commit to `table` after step `step_index` writes rows.

    While the replay is still going, the steps not yet replayed are read by their table names: a
    name with a namespace is the table it names; a name without one is resolved only by the replay
    (against the tables that exist then), so one that may be `table` raises `NeedsFuture`."""
    ix = index(run)
    result = run.result
    if ix.last_write.get(table, -1) > step_index:
        return True
    if result.final:
        return False
    if ix.ahead is None:
        named: dict[str, int] = {}  # table key → the last step writing to it by a qualified name
        bare: dict[str, int] = {}  # unqualified name → the last step writing to it
        for step in result.steps:
            if isinstance(step, ch.Commit) and _writes(step.changes):
                key = table_key(step.table)
                (named if "." in key else bare)[key] = step.index
        ix.ahead = (named, bare)
    named, bare = ix.ahead
    done = result.outcomes[-1].step.index if result.outcomes else -1  # the last step replayed
    ahead = max(done, step_index)
    if named.get(table, -1) > ahead:
        return True
    if bare.get(table.rsplit(".", 1)[-1], -1) > ahead:
        raise NeedsFuture("an unqualified table name ahead")
    return False


def drop_candidates(run, table: str, field_id: int) -> list[int]:
    """Positions in the run's outcomes of the accepted steps of `table` that may have removed
    `field_id`, in order: those whose diff removed it (the replay's diff is the diff of the step's
    one schema commit) and those that changed the schema otherwise (no diff, or other changes
    beside), to be checked."""
    ix = index(run)
    mine, theirs = ix.removed.get((table, field_id), ()), ix.other.get(table, ())
    return sorted({*mine, *theirs}) if mine and theirs else list(mine or theirs)


def diff_is_whole(o) -> bool:
    """Whether an outcome's diff is all its step did to the schema: a commit of schema changes only
    (the replay's diff is the diff of a step's one schema commit)."""
    step = o.step
    if o.diff is None or not isinstance(step, ch.Commit):
        return False
    for c in step.changes:  # a loop, not `all()` of a generator: asked per outcome and per finding
        if not isinstance(c, ch.SchemaChange):
            return False
    return True


def _writes(changes) -> bool:
    """`any(isinstance(c, ch.WriteData) for c in changes)`, as a loop (asked per outcome)."""
    for c in changes:
        if isinstance(c, ch.WriteData):
            return True
    return False


def removed_by_diff(run, table: str, field_id: int, k: int) -> bool:
    """Whether the outcome at position `k` (a `drop_candidates` position) removed `field_id` for
    certain: its diff, the diff of its one schema commit, says so (no other change beside). Its
    before and after schemas need not be asked then: an old version's look-up costs a table."""
    # a field id is removed once, mostly: a short list
    return k in index(run).removed.get((table, field_id), ()) and diff_is_whole(run.result.outcomes[k])


def first_reference(run, table: str) -> int:
    """The step index of the run's first outcome on `table` (-1: none yet)."""
    return index(run).first.get(table, -1)


def adds_into(run, table: str, parent: tuple[str, ...], after: int):
    """The first step after step `after` that adds a column inside `parent` (a lower-cased path) of
    `table`, or None.

    Read from the run's steps (all lowered before the replay starts), indexed once per run: a scan
    of every later statement per emptied struct made N of them quadratic. A step that
    names its table without a namespace is resolved only by the replay: where one may be `table`,
    the outcomes are read instead (`NeedsFuture` while the replay is still going)."""
    ix = index(run)
    result = run.result
    if result.steps is None:  # a result made by hand: a replay's outcomes are its steps, one each
        result.steps = [o.step for o in result.outcomes]
    steps = result.steps
    if ix.adds is None:
        named: dict[tuple[str, tuple[str, ...]], list[tuple[int, int]]] = {}  # (table, parent) → (step index, position)
        bare: dict[tuple[str, tuple[str, ...]], list[int]] = {}  # (unqualified name, parent) → step indexes
        for k, step in enumerate(steps):
            if not isinstance(step, ch.Commit):
                continue
            for c in step.changes:
                if isinstance(c, ch.AddColumn) and len(c.column.path) > 1:
                    low = tuple(p.lower() for p in c.column.path[:-1])
                    key = table_key(step.table)
                    if "." in key:
                        named.setdefault((key, low), []).append((step.index, k))
                    else:
                        bare.setdefault((key, low), []).append(step.index)
        ix.adds = (named, bare)
    named, bare = ix.adds
    hits = named.get((table, parent), ())
    at = bisect_left(hits, (after + 1, -1))
    found = steps[hits[at][1]] if at < len(hits) else None
    unsure = bare.get((table.rsplit(".", 1)[-1], parent), ())
    if unsure and unsure[-1] > after and (found is None or unsure[bisect_left(unsure, after + 1)] < found.index):
        if not result.final:
            raise NeedsFuture("an unqualified table name ahead")
        for o in result.outcomes:  # resolved by the replay: its outcomes say which table each step changed
            if o.step.index <= after or o.table != table or not isinstance(o.step, ch.Commit):
                continue
            for c in o.step.changes:
                if isinstance(c, ch.AddColumn) and tuple(p.lower() for p in c.column.path[:-1]) == parent:
                    return o.step
        return None
    return found
