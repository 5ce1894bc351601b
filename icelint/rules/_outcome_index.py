"""Look-ups over a run's outcomes, built once per run instead of scanned once per finding.

A rule that asks "which step starts at FILE:LINE" or "does any later statement write this table" for
each of its findings would scan the whole history per finding: N drops and re-adds would be
quadratic (issue 15 §3). The index is built on first use for a given outcome list and reused while
that list is unchanged.
"""

from __future__ import annotations

from icelint import changes as ch

_cache: list = [None, -1, None]  # [outcomes list, its length when indexed, _Index]


class _Index:
    __slots__ = ("spans", "last_write", "drops")

    def __init__(self, outcomes) -> None:
        self.spans: dict[str, dict[int, object]] = {}  # path → line → span of the first step starting there
        self.last_write: dict[str, int] = {}  # table → the largest step index of a commit writing rows to it
        self.drops: tuple | None = None  # see `drop_candidates`, built when first asked
        lines: dict[int, object] = {}
        path = None
        for o in outcomes:
            step = o.step
            sp = step.span
            if sp.path != path:  # a dict of lines per file, not a (path, line) key per statement
                path = sp.path
                lines = self.spans.setdefault(path, {})
            lines.setdefault(sp.line, sp)
            if isinstance(step, ch.Commit) and any(isinstance(c, ch.WriteData) for c in step.changes):
                if step.index > self.last_write.get(o.table, -1):
                    self.last_write[o.table] = step.index


def index(outcomes) -> _Index:
    if _cache[0] is not outcomes or _cache[1] != len(outcomes):
        _cache[:] = [outcomes, len(outcomes), _Index(outcomes)]
    return _cache[2]


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
        removed: dict[tuple[str, int], list[int]] = {}
        other: dict[str, list[int]] = {}
        for k, o in enumerate(outcomes):
            if not o.accepted or o.before is None or o.after is None or o.before.schema is o.after.schema:
                continue
            if o.diff is not None:
                for _, f in o.diff.removed:
                    removed.setdefault((o.table, f.id), []).append(k)
                if diff_is_whole(o):
                    continue
            other.setdefault(o.table, []).append(k)
        ix.drops = (removed, other)
    removed, other = ix.drops
    mine, theirs = removed.get((table, field_id), ()), other.get(table, ())
    return sorted({*mine, *theirs}) if mine and theirs else list(mine or theirs)


def diff_is_whole(o) -> bool:
    """Whether an outcome's diff is all its step did to the schema: a commit of schema changes only
    (the replay's diff is the diff of a step's one schema commit)."""
    step = o.step
    return o.diff is not None and isinstance(step, ch.Commit) and all(isinstance(c, ch.SchemaChange) for c in step.changes)


def removed_by_diff(outcomes, table: str, field_id: int, k: int) -> bool:
    """Whether the outcome at position `k` (a `drop_candidates` position) removed `field_id` for
    certain: its diff, the diff of its one schema commit, says so (no other change beside). Its
    before and after schemas need not be asked then: an old version's look-up costs a table."""
    drop_candidates(outcomes, table, field_id)  # builds the lists when first asked
    removed, _ = index(outcomes).drops
    # a field id is removed once, mostly: a short list
    return k in removed.get((table, field_id), ()) and diff_is_whole(outcomes[k])
