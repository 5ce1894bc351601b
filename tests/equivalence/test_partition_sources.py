"""The partition rules' shared analysis (`rules/partition_sources/analysis.py`: worked out once per
statement for ICE003, ICE025, ICE026, ICE027) gives the findings that working it out at every ask gives, over the corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.rules.partition_sources import analysis
from tests.corpus import corpus_runs, everything_shown, lint_files, lint_files_afresh, run_id

RUNS = corpus_runs()


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_partition_analysis_memo_over_the_corpus(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The partition rules' shared analysis, worked out once per statement, gives the findings that
    working it out at every ask gives."""
    _, fast = lint_files(files)
    monkeypatch.setattr(analysis, "findings", lambda ctx: list(analysis._findings(ctx)))
    _, plain = lint_files_afresh(files)
    assert everything_shown(fast) == everything_shown(plain)
