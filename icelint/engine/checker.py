"""Run the rules over a replay: outcomes → findings (sorted, deduplicated).

`lint_replay` lints each outcome as soon as the replay makes it and keeps of it only what later
rules look back at (`Outcome.slimmed`): the states of a long run are not all held at once.
`lint_run` lints a replay that is already over (the library's and the tests' entry).
"""

from __future__ import annotations

from itertools import islice
from typing import TYPE_CHECKING, Sequence

from icelint.values import changes as ch
from icelint.values.findings import Finding, in_report_order
from icelint.engine.context import RunContext
from icelint.engine.pipeline import Run
from icelint.replay.engine import Outcome, Replay, ReplayResult
from icelint.rules.kit.base import NeedsFuture, Rule, RuleContext, TableHistory, triggers_of, where

if TYPE_CHECKING:
    from icelint.run.packed_findings import PackedFindings


def lint_run(run: Run, rules: Sequence[Rule], dispatch: bool = True) -> list[Finding]:
    """Every rule's findings over every outcome of the replay.

    A rule is called only for outcomes that carry one of its `triggers` (ruff and sqlfluff dispatch
    by node type the same way); `dispatch=False` calls every rule on every outcome (the tests check
    that both give the same findings).
    """
    linter = _Linter(run.result, rules, dispatch)
    visit = linter.visit
    for outcome in run.result.outcomes:
        visit(outcome)
    return linter.findings()


def lint_replay(
    replay: Replay,
    steps: Sequence[ch.Step],
    rules: Sequence[Rule],
    absent: dict | None = None,
    stats: object = None,
    own_steps: bool = False,
    packed: PackedFindings | None = None,
    resume=None,
) -> tuple[list[Finding] | PackedFindings, ReplayResult]:
    """Replay `steps` and lint each outcome as it comes (the same findings as `lint_run` on the
    replay's whole result): an outcome linted is replaced in `result.outcomes` by its slimmed form,
    unless a rule asked about the statements after it (`NeedsFuture`): that rule's check runs again
    on it once the replay is over. `absent` and `stats` are set on the result as `ReplayResult` says.

    `own_steps`: `steps` is a list that nothing else holds; each step linted is replaced in it, and
    in its outcome, by `changes.linted(step)` (what later rules read of it), so that a long run does
    not keep every column type and comment it parsed to the end.

    `packed`: a `run.packed_findings.PackedFindings` the findings go into as they are found (its
    `spill` takes the linter's list so far), returned instead of a list: for a caller that reads them
    once it has let go of the result.

    `resume` (a `run.checkpoint.Resume`): `replay` holds the state a checkpoint kept after the
    first steps, whose outcomes and linter state `resume` gives back; the run goes on from there, and
    leaves checkpoints of its own after each of `resume.boundaries` steps."""
    done = resume.outcomes() if resume is not None else None
    result, outcomes = replay.stream(steps, done)
    result.absent, result.stats = absent or {}, stats
    linter = _Linter(result, rules) if done is None else resume.linter(result)
    linter.packed = packed
    visit, kept, last = linter.visit, result.outcomes, {} if done is None else resume.last()
    lean = ch.linted if own_steps else None
    stops = resume.boundaries if resume is not None else ()
    # one outcome per step, in order: outcome i is of steps[i]; in parts when checkpoints are taken between them
    parts = [islice(outcomes, b - a) for a, b in zip((len(kept), *stops), stops)] if stops else []
    for part in (*parts, outcomes):
        for i, outcome in enumerate(part, len(kept)):
            if visit(outcome):
                step = None
                if lean is not None:
                    step = lean(outcome.step)
                    if step is not outcome.step:
                        steps[i] = step  # type: ignore[index]
                kept[i] = outcome.slimmed(last, step)
        if part is not outcomes:
            resume.save(replay, result, linter, last, steps)
    linter.run_deferred()
    if linter.packed is not None:
        linter.packed.keep_loose(linter._findings)
        return linter.packed, result
    return linter.findings(), result


class _Linter:
    """The rules' walk over a run's outcomes, in order: each table's history kept up to date."""

    def __init__(self, result: ReplayResult, rules: Sequence[Rule], dispatch: bool = True) -> None:
        rules = [r for r in rules if r.check is not None]  # the rules over files run elsewhere (`rules/kit/files.py`)
        self.result = result
        self.run = RunContext(result)  # what the rules build once over this run (look-ups, budgets)
        self.histories: dict[str, TableHistory] = {}
        self._findings: list[Finding] = []
        self.always = [r for r in rules if r.triggers is None or not dispatch]
        self.by_trigger: dict[object, list[Rule]] = {}
        if dispatch:
            for r in rules:
                for t in r.triggers or ():
                    self.by_trigger.setdefault(t, []).append(r)
        self.order = {r.code: i for i, r in enumerate(rules)}
        self.chosen: dict[tuple, list] = {}  # trigger kinds → the `check` of each rule to call, in order
        self.always_checks = [r.check for r in self.always]
        self.deferred: list[tuple] = []  # (check, outcome, history as it was, table name): see `NeedsFuture`
        self.packed: PackedFindings | None = None  # where the findings so far go, if packing (`spill`)

    def visit(self, outcome: Outcome) -> bool:
        """Lint one outcome (the next in the run); False when a rule asked to see it again at the end."""
        result, histories = self.result, self.histories
        key = outcome.table
        if key is not None and key not in histories:
            initial = result.initial.get(key)
            histories[key] = TableHistory.from_metadata(initial) if initial is not None else TableHistory()
        history = histories.get(key) if key is not None else TableHistory()
        assert history is not None
        ctx = RuleContext(outcome, result, history, result.display_names.get(key, key) if key else "", self.run)
        checks = self.always_checks
        kinds = None
        if self.by_trigger:
            kinds = tuple(triggers_of(outcome))
            checks = self.chosen.get(kinds)  # few distinct combinations: choose once for each
            if checks is None:
                picked = {r.code: r for t in kinds for r in self.by_trigger.get(t, ())}
                selected = sorted([*self.always, *picked.values()], key=lambda r: self.order[r.code])
                checks = self.chosen[kinds] = [r.check for r in selected]
        findings = self._findings
        extend = findings.extend
        whole = True
        for check in checks:
            n = len(findings)
            try:
                extend(check(ctx))
            except NeedsFuture:
                del findings[n:]
                self.deferred.append((check, outcome, history.snapshot(), ctx.table_name))
                whole = False
        d = ctx.diff
        if d.removed or d.changed:
            history.record(d, where(outcome.step.span) if d.removed else "")  # the place names a drop only
        if outcome.accepted:
            for _, f in d.added:
                history.added_at[f.id] = outcome.step.index
            # `kinds` holds the class of each change (WriteData has no subclass): none written, none to look at
            if (kinds is None or ch.WriteData in kinds) and any(
                isinstance(c, ch.WriteData) and not c.kind.startswith("truncate") for c in ctx.changes
            ):
                history.last_write = outcome.step.index
        if isinstance(outcome.step, ch.Commit) and outcome.after is None and outcome.before is not None:
            histories.pop(key, None)  # dropped or renamed away: a later CREATE starts a new history
        if self.packed is not None:
            self._findings = self.packed.spill(findings)
        return whole

    def resumed(self, result: ReplayResult) -> _Linter:
        """A copy of this walk's state, going on over `result` (a run continuing from a checkpoint,
        `run.checkpoint`): the histories, findings and deferred checks are its own, this one's
        stay as they are."""
        out = _Linter.__new__(_Linter)
        out.__dict__.update(self.__dict__)
        out.result = result
        out.run = RunContext(result)  # its look-ups are made again over `result`; the budget spent so far goes on
        out.run.suggestions = self.run.suggestions
        out.histories = {k: h.snapshot() for k, h in self.histories.items()}
        out._findings = list(self._findings)
        out.chosen = dict(self.chosen)
        out.deferred = list(self.deferred)
        return out

    def run_deferred(self) -> None:
        """The checks that needed the statements after their own, now that the replay is over."""
        for check, outcome, history, name in self.deferred:
            self._findings.extend(check(RuleContext(outcome, self.result, history, name, self.run)))
        self.deferred = []

    def findings(self) -> list[Finding]:
        return in_report_order(self._findings)
