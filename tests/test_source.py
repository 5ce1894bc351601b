"""Offsets → (line, column): `LineIndex.span` against a naive count of newlines."""

from __future__ import annotations

import random

import pytest

from icelint.source import LineIndex


def _naive(text: str, offset: int) -> tuple[int, int]:
    before = text[:offset].split("\n")
    return len(before), len(before[-1]) + 1


@pytest.mark.parametrize("seed", range(5))
def test_span_positions_match_a_naive_count(seed: int) -> None:
    rng = random.Random(seed)
    text = "".join(rng.choice("ab \n\r") for _ in range(2000))
    index = LineIndex("f.sql", text)
    for _ in range(2000):
        start = rng.randrange(0, len(text))
        end = rng.randrange(start, len(text) + 1)
        s = index.span(start, end)
        assert (s.line, s.column) == _naive(text, start)
        assert (s.end_line, s.end_column) == _naive(text, max(start, end - 1))
        assert (s.start, s.end) == (start, end)


def test_span_at_line_boundaries() -> None:
    text = "ab\ncd\n\nef"
    index = LineIndex("f.sql", text)
    assert index.span(0, 2)[1:5] == (1, 1, 1, 2)
    assert index.span(2, 3)[1:5] == (1, 3, 1, 3)  # the newline itself belongs to line 1
    assert index.span(1, 5)[1:5] == (1, 2, 2, 2)
    assert index.span(6, 7)[1:5] == (3, 1, 3, 1)
    assert index.span(7, 9)[1:5] == (4, 1, 4, 2)
    assert index.span(9, 9)[1:5] == (4, 3, 4, 3)  # empty span at the very end
