"""Rule dispatch by trigger loses nothing: calling every rule on every outcome finds the same."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.engine.checker import lint_run
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, deployments, iceberg_version, run_id

RUNS = corpus_runs()


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_dispatch_finds_what_calling_every_rule_finds(files: list[Path]) -> None:
    run = replay(parse_sources([SourceFile.read(p) for p in files]), iceberg_version=iceberg_version(files))
    assert lint_run(run, ALL_RULES) == lint_run(run, ALL_RULES, dispatch=False)
    if len(files) > 1:  # and with a deployment between the files (tables presumed to hold data)
        parsed = parse_sources([SourceFile.read(p) for p in files])
        parsed.deployments = deployments(files)
        run = replay(parsed)
        assert lint_run(run, ALL_RULES) == lint_run(run, ALL_RULES, dispatch=False)


def test_the_corpus_makes_every_rule_report() -> None:
    """Without this, the equivalence above could hold because no rule ever reports."""
    seen = set()
    for files in RUNS:
        run = replay(parse_sources([SourceFile.read(p) for p in files]), iceberg_version=iceberg_version(files))
        seen.update(f.rule for f in lint_run(run, ALL_RULES, dispatch=False))
    # rules with no trigger (ICE100, ICE060) report from passes after the rules: suppressions, placeholders
    assert seen >= {r.code for r in ALL_RULES if r.triggers != frozenset()}
    assert {"ICE100", "ICE060"} <= {r.code for r in ALL_RULES if r.triggers == frozenset()}


def test_every_rule_declares_its_triggers() -> None:
    for rule in ALL_RULES:
        assert rule.triggers is not None, rule.code
