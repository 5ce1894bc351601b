"""ICE003's shared analysis (`rules/partition_source_change.py`: worked out once per statement for the
partition rules) gives the findings that working it out at every ask gives, over the corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.rules import partition_source_change
from tests.corpus import corpus_runs, everything_shown, lint_files, lint_files_afresh, run_id

RUNS = corpus_runs()


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_partition_analysis_memo_over_the_corpus(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The partition rules' shared analysis, worked out once per statement, gives the findings that
    working it out at every ask gives."""
    _, fast = lint_files(files)
    monkeypatch.setattr(partition_source_change, "findings", lambda ctx: list(partition_source_change._findings(ctx)))
    _, plain = lint_files_afresh(files)
    assert everything_shown(fast) == everything_shown(plain)
