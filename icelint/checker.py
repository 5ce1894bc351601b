"""Run the rules over a replay: outcomes → findings (sorted, deduplicated)."""

from __future__ import annotations

from typing import Sequence

from icelint import changes as ch
from icelint.findings import Finding
from icelint.pipeline import Run
from icelint.rules._base import Rule, RuleContext, TableHistory, where


def lint_run(run: Run, rules: Sequence[Rule]) -> list[Finding]:
    result = run.result
    histories: dict[str, TableHistory] = {}
    findings: list[Finding] = []
    for outcome in result.outcomes:
        key = outcome.table
        if key is not None and key not in histories:
            initial = result.initial.get(key)
            histories[key] = TableHistory.from_metadata(initial) if initial is not None else TableHistory()
        history = histories.get(key) if key is not None else TableHistory()
        assert history is not None
        ctx = RuleContext(outcome, result, history, result.display_names.get(key, key) if key else "")
        for rule in rules:
            findings.extend(rule.check(ctx))
        if ctx.diff.removed or ctx.diff.changed:
            history.record(ctx.diff, where(outcome.step.span))
        if outcome.accepted:
            for _, f in ctx.diff.added:
                history.added_at[f.id] = outcome.step.index
            if any(isinstance(c, ch.WriteData) and not c.kind.startswith("truncate") for c in ctx.changes):
                history.last_write = outcome.step.index
        if isinstance(outcome.step, ch.Commit) and outcome.after is None and outcome.before is not None:
            histories.pop(key, None)  # dropped or renamed away: a later CREATE starts a new history
    return sorted(set(findings), key=lambda f: f.sort_key)
