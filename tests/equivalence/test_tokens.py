"""`syntax/tokens.py`'s `scan_gap` (comments and spaces between tokens, keeping the next `*/` between
iterations) answers as the plain scan it replaced, and a deeply nested comment is one comment.
"""

from __future__ import annotations

import random

import pytest

from icelint.syntax.tokens import scan_gap
from icelint.values.source import LineIndex


def _plain_scan_gap(text: str, pos: int, limit: int, li: LineIndex, comments: list) -> tuple[int, bool]:
    """`tokens.scan_gap` before it kept the next `*/` between iterations (a copy of the old code)."""
    from icelint.syntax.ast import Comment

    i = pos
    while i < limit:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "-" and text.startswith("--", i):
            j = text.find("\n", i, limit)
            if j < 0:
                j = limit
            e = j
            if e > i and text[e - 1] == "\r":
                e -= 1
            comments.append(Comment(text[i + 2 : e].strip(), li.span(i, e)))
            i = j
        elif c == "/" and text.startswith("/*", i):
            depth = 1
            j = i + 2
            while depth and j < limit:
                k = text.find("*/", j, limit)
                o = text.find("/*", j, k if k >= 0 else limit)
                if k < 0:
                    j = limit
                    break
                if 0 <= o < k:
                    depth += 1
                    j = o + 2
                else:
                    depth -= 1
                    j = k + 2
            if depth:
                return i, False
            comments.append(Comment(text[i + 2 : j - 2].strip(), li.span(i, j)))
            i = j
        else:
            return i, True
    return limit, True


@pytest.mark.parametrize("seed", range(500))
def test_scan_gap_equals_the_plain_scan(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["/*", "*/", "/", "*", " ", "\n", "x", "--", "/*/", "*/*"]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
    if rng.random() < 0.5:
        text = "/*" + text
    li = LineIndex("f.sql", text)
    limit = rng.randint(0, len(text))
    got: list = []
    want: list = []
    assert scan_gap(text, 0, limit, li, got) == _plain_scan_gap(text, 0, limit, li, want)
    assert got == want


def test_deeply_nested_comment_is_one_comment() -> None:
    text = "/* " * 3000 + "deep" + " */" * 3000 + " SELECT"
    comments: list = []
    end, ok = scan_gap(text, 0, len(text), LineIndex("f.sql", text), comments)
    assert ok and text[end:] == "SELECT" and len(comments) == 1 and comments[0].text.count("/*") == 2999
