"""`reporters/text.py`: the snippet under a finding, cut for speed, is the general case's, over the
corpus's findings and over generated texts.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from icelint.reporters import text as text_report
from icelint.values.findings import Finding, Severity
from icelint.values.source import LineIndex
from tests.corpus import corpus_runs, generated_texts, lint_files, run_id

RUNS = corpus_runs()


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_snippet_over_the_corpus(files: list[Path]) -> None:
    sources, findings = lint_files(files)
    indexes = {s.path: LineIndex(s.path, s.text) for s in sources}
    for f in findings:
        index = indexes[f.path]
        assert text_report._snippet(f, index) == text_report._snippet_plain(f, index), f


def test_snippet_over_generated_texts() -> None:
    rng = random.Random(1402)
    for text in generated_texts(600, 1401):
        index = LineIndex("t.sql", text)
        lines = text.count("\n") + 1
        for _ in range(6):
            line = rng.randrange(1, lines + 2)
            end_line = line + rng.choice([0, 0, 0, 1, 6])
            f = Finding("ICE001", "x", Severity.ERROR, "t.sql", line, rng.randrange(0, 12), end_line, rng.randrange(-1, 14), "m")
            assert text_report._snippet(f, index) == text_report._snippet_plain(f, index), (text, f)
