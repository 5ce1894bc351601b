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
    __slots__ = ("spans", "last_write")

    def __init__(self, outcomes) -> None:
        self.spans: dict[tuple[str, int], object] = {}  # (path, line) → span of the first step starting there
        self.last_write: dict[str, int] = {}  # table → the largest step index of a commit writing rows to it
        for o in outcomes:
            step = o.step
            sp = step.span
            self.spans.setdefault((sp.path, sp.line), sp)
            if isinstance(step, ch.Commit) and any(isinstance(c, ch.WriteData) for c in step.changes):
                if step.index > self.last_write.get(o.table, -1):
                    self.last_write[o.table] = step.index


def index(outcomes) -> _Index:
    if _cache[0] is not outcomes or _cache[1] != len(outcomes):
        _cache[:] = [outcomes, len(outcomes), _Index(outcomes)]
    return _cache[2]


def statement_span(outcomes, path: str, line: int):
    """The span of the first step of these outcomes that starts at `path:line`, or None."""
    return index(outcomes).spans.get((path, line))


def writes_after(outcomes, table: str, step_index: int) -> bool:
    """Whether a commit to `table` after step `step_index` writes rows."""
    return index(outcomes).last_write.get(table, -1) > step_index
