"""Rule dispatch by trigger loses nothing: calling every rule on every outcome finds the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.checker import lint_run
from icelint.pipeline import replay_sources
from icelint.rules import ALL_RULES
from icelint.source import SourceFile
from tests.corpus import corpus_runs, run_id

RUNS = corpus_runs()


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_dispatch_finds_what_calling_every_rule_finds(files: list[Path]) -> None:
    run = replay_sources([SourceFile.read(p) for p in files])
    assert lint_run(run, ALL_RULES) == lint_run(run, ALL_RULES, dispatch=False)


def test_the_corpus_makes_every_rule_report() -> None:
    """Without this, the equivalence above could hold because no rule ever reports."""
    seen = set()
    for files in RUNS:
        run = replay_sources([SourceFile.read(p) for p in files])
        seen.update(f.rule for f in lint_run(run, ALL_RULES, dispatch=False))
    # rules with no trigger report outside the replay: ICE100 (suppress.py), ICE022-ICE024 (migration_history.py)
    assert seen >= {r.code for r in ALL_RULES if r.triggers}


def test_every_rule_declares_its_triggers() -> None:
    for rule in ALL_RULES:
        assert rule.triggers is not None, rule.code
