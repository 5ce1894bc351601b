"""`values/source.py`: offsets → (line, column): `LineIndex.span` against a naive count of newlines, and the parser's
compact `TextSpan` read, compared, ordered and pickled as the `Span` it stands for; a line index shared
by the texts that are the same, and an edit's rows read from the line starts, as computed afresh."""

from __future__ import annotations

import pickle
import random

import pytest

from icelint.values.source import LineIndex, Span, TextSpan
from icelint.values.findings import Severity
from icelint.values.fix import Edit
from tests.corpus import generated_texts


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
        assert s.positions() == (s.line, s.column, s.end_line, s.end_column) == s.as_span().positions()


def _pos(s) -> tuple[int, int, int, int]:
    return s.line, s.column, s.end_line, s.end_column


def test_span_at_line_boundaries() -> None:
    text = "ab\ncd\n\nef"
    index = LineIndex("f.sql", text)
    assert _pos(index.span(0, 2)) == (1, 1, 1, 2)
    assert _pos(index.span(2, 3)) == (1, 3, 1, 3)  # the newline itself belongs to line 1
    assert _pos(index.span(1, 5)) == (1, 2, 2, 2)
    assert _pos(index.span(6, 7)) == (3, 1, 3, 1)
    assert _pos(index.span(7, 9)) == (4, 1, 4, 2)
    assert _pos(index.span(9, 9)) == (4, 3, 4, 3)  # empty span at the very end


def test_a_text_span_holds_three_slots_and_reads_as_its_span() -> None:
    text = "ab\ncd\n\nef"
    index = LineIndex("f.sql", text)
    s = index.span(1, 5)
    assert type(s) is TextSpan and tuple.__len__(s) == 3  # its text's index and two offsets: no line or column kept
    full = Span("f.sql", 1, 2, 2, 2, 1, 5)
    assert s.as_span() == full and hash(s) == hash(LineIndex("f.sql", text).span(1, 5))
    assert str(s) == str(full) == "f.sql:1:2" and repr(s) == repr(full)
    # two parses of one text give equal spans; another text or another place does not
    assert s == LineIndex("f.sql", "ab\ncd\n\nef").span(1, 5)
    assert s != LineIndex("f.sql", "ab\ncd\n\neF").span(1, 5) and s != index.span(1, 6)
    assert s != LineIndex("g.sql", text).span(1, 5)
    # ordered as the spans they stand for
    spans = [index.span(7, 9), index.span(0, 2), LineIndex("a.sql", text).span(3, 4), index.span(0, 1)]
    assert [x.as_span() for x in sorted(spans)] == sorted(x.as_span() for x in spans) and sorted(spans)[0].path == "a.sql"
    assert index.span(0, 2) < s < index.span(7, 9) and index.span(7, 9) >= s and s <= s
    # pickled as the Span it reads as, without its file's text
    data = pickle.dumps(s)
    assert pickle.loads(data) == full and type(pickle.loads(data)) is Span and b"cd" not in data
    assert s._replace(path="g.sql") == Span("g.sql", 1, 2, 2, 2, 1, 5)


@pytest.mark.parametrize("seed", range(30))
def test_edit_rows_from_line_starts_equal_the_scan(seed: int) -> None:
    from icelint.values.source import line_starts

    rng = random.Random(seed)
    text = "".join(rng.choice(["a", ";", " ", "\n", "\r\n", "é", "\n\n"]) for _ in range(rng.randint(0, 200)))
    starts = line_starts(text)
    for _ in range(50):
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        assert Edit.at(text, a, b, "x", starts) == Edit.at(text, a, b, "x")


def test_shared_line_index_follows_the_text() -> None:
    for text in generated_texts(50, 1407):
        shared = LineIndex.shared("t.sql", text)
        fresh = LineIndex("t.sql", text)
        assert shared.text is text and shared._starts == fresh._starts
        assert LineIndex.shared("t.sql", text) is shared
        other = text + "\nx"
        assert LineIndex.shared("t.sql", other)._starts == LineIndex("t.sql", other)._starts
        assert LineIndex.shared("u.sql", text).path == "u.sql"
    assert Severity.ERROR.rank == 2 and Severity.WARNING.rank == 1 and Severity.INFO.rank == 0
