"""Run the rules over a replay: outcomes → findings (sorted, deduplicated)."""

from __future__ import annotations

from typing import Sequence

from icelint import changes as ch
from icelint.findings import Finding
from icelint.pipeline import Run
from icelint.rules._base import Rule, RuleContext, TableHistory, triggers_of, where


def lint_run(run: Run, rules: Sequence[Rule], dispatch: bool = True) -> list[Finding]:
    """Every rule's findings over every outcome of the replay.

    A rule is called only for outcomes that carry one of its `triggers` (ruff and sqlfluff dispatch
    by node type the same way); `dispatch=False` calls every rule on every outcome (the tests check
    that both give the same findings).
    """
    result = run.result
    histories: dict[str, TableHistory] = {}
    findings: list[Finding] = []
    always = [r for r in rules if r.triggers is None or not dispatch]
    by_trigger: dict[object, list[Rule]] = {}
    if dispatch:
        for r in rules:
            for t in r.triggers or ():
                by_trigger.setdefault(t, []).append(r)
    order = {r.code: i for i, r in enumerate(rules)}
    chosen: dict[tuple, list] = {}  # trigger kinds → the `check` of each rule to call, in order
    always_checks = [r.check for r in always]
    extend = findings.extend
    for outcome in result.outcomes:
        key = outcome.table
        if key is not None and key not in histories:
            initial = result.initial.get(key)
            histories[key] = TableHistory.from_metadata(initial) if initial is not None else TableHistory()
        history = histories.get(key) if key is not None else TableHistory()
        assert history is not None
        ctx = RuleContext(outcome, result, history, result.display_names.get(key, key) if key else "")
        checks = always_checks
        kinds = None
        if by_trigger:
            kinds = tuple(triggers_of(outcome))
            checks = chosen.get(kinds)  # few distinct combinations: choose once for each
            if checks is None:
                picked = {r.code: r for t in kinds for r in by_trigger.get(t, ())}
                selected = sorted([*always, *picked.values()], key=lambda r: order[r.code])
                checks = chosen[kinds] = [r.check for r in selected]
        for check in checks:
            extend(check(ctx))
        d = ctx.diff
        if d.removed or d.changed:
            history.record(d, where(outcome.step.span))
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
    return sorted(set(findings), key=lambda f: f.sort_key)
