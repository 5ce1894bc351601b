"""Look-ups over a run's outcomes, built once per run instead of scanned once per finding.

A rule that asks "which step starts at FILE:LINE" or "does any later statement write this table" for
each of its findings would scan the whole history per finding: N drops and re-adds would be
quadratic (issue 15 §3). The index is built on first use for a given outcome list and reused while
that list is unchanged.
"""

from __future__ import annotations

from bisect import bisect_left

from icelint import changes as ch

_cache: list = [None, None]  # [outcomes list, its _Index]


class _Index:
    """Built over a list of outcomes and extended when the list grows (the checker lints each outcome
    as the replay makes it: a list that grows by one per statement is indexed once, not once per length)."""

    __slots__ = ("spans", "last_write", "drops", "seen", "_path", "_lines")

    def __init__(self) -> None:
        self.spans: dict[str, dict[int, object]] = {}  # path → line → span of the first step starting there
        self.last_write: dict[str, int] = {}  # table → the largest step index of a commit writing rows to it
        self.drops: tuple | None = None  # see `drop_candidates`: (removed, other, outcomes filed)
        self.seen = 0  # outcomes indexed
        self._path: str | None = None
        self._lines: dict[int, object] = {}

    def extend(self, outcomes) -> None:
        lines, path, last_write = self._lines, self._path, self.last_write
        for k in range(self.seen, len(outcomes)):
            o = outcomes[k]
            step = o.step
            sp = step.span
            if sp.path != path:  # a dict of lines per file, not a (path, line) key per statement
                path = sp.path
                lines = self.spans.setdefault(path, {})
            lines.setdefault(sp.line, sp)
            if isinstance(step, ch.Commit) and any(isinstance(c, ch.WriteData) for c in step.changes):
                if step.index > last_write.get(o.table, -1):
                    last_write[o.table] = step.index
        self._lines, self._path, self.seen = lines, path, len(outcomes)


def index(outcomes) -> _Index:
    ix = _cache[1]
    if _cache[0] is not outcomes or ix.seen > len(outcomes):
        ix = _Index()
        _cache[:] = [outcomes, ix]
    if ix.seen != len(outcomes):
        ix.extend(outcomes)
    return ix


def statement_span(outcomes, path: str, line: int):
    """The span of the first step of these outcomes that starts at `path:line`, or None."""
    lines = index(outcomes).spans.get(path)
    return lines.get(line) if lines is not None else None


def writes_after(outcomes, table: str, step_index: int) -> bool:
    """Whether a commit to `table` after step `step_index` writes rows."""
    return index(outcomes).last_write.get(table, -1) > step_index


def drop_candidates(outcomes, table: str, field_id: int) -> list[int]:
    """Positions in `outcomes` of the accepted steps of `table` that may have removed `field_id`, in
    order: those whose diff removed it (the replay's diff is the diff of the step's one schema commit)
    and those that changed the schema otherwise (no diff, or other changes beside), to be checked."""
    ix = index(outcomes)
    if ix.drops is None:
        ix.drops = ({}, {}, 0)
    removed, other, filed = ix.drops
    if filed != len(outcomes):
        for k in range(filed, len(outcomes)):
            o = outcomes[k]
            if not o.accepted or o.before is None or o.after is None or o.before.schema is o.after.schema:
                continue
            step = o.step
            if o.diff is not None:
                for _, f in o.diff.removed:
                    removed.setdefault((o.table, f.id), []).append(k)
                if isinstance(step, ch.Commit) and all(isinstance(c, ch.SchemaChange) for c in step.changes):
                    continue
            other.setdefault(o.table, []).append(k)
        ix.drops = (removed, other, len(outcomes))
    mine, theirs = removed.get((table, field_id), ()), other.get(table, ())
    return sorted({*mine, *theirs}) if mine and theirs else list(mine or theirs)


def removed_by_diff(outcomes, table: str, field_id: int, k: int) -> bool:
    """Whether the outcome at position `k` (a `drop_candidates` position) removed `field_id` for
    certain: its diff, the diff of its one schema commit, says so (no other change beside). Its
    before and after schemas need not be asked then: an old version's look-up costs a table."""
    drop_candidates(outcomes, table, field_id)  # files the outcomes not filed yet
    removed, other, _ = index(outcomes).drops
    if k not in removed.get((table, field_id), ()):  # a field id is removed once, mostly: a short list
        return False
    theirs = other.get(table, ())  # positions in order, possibly many (every write of the table)
    i = bisect_left(theirs, k)
    return i == len(theirs) or theirs[i] != k
