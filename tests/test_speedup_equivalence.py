"""Helpers rewritten for speed (issue 14, the 2,000-statement check) give what the plain versions gave."""

from __future__ import annotations

import random

from icelint.fixes import apply as fixing
from icelint.rules.kit.help import free_name

PIECES = ["a", "b;", "-- c", " ", "\n", "\r\n", "\r", "\x0b", "\x85", "\u2028", "x y", ""]


def texts(n: int = 400):
    rng = random.Random(14)
    for _ in range(n):
        yield "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 30)))


def test_line_of_counts_newlines() -> None:
    counter = fixing.LineCounter()
    for text in texts():
        for off in range(len(text) + 1):
            assert counter.line_of(text, off) == text.count("\n", 0, off) + 1


def test_line_of_in_any_order() -> None:
    """Asked forwards (counted on from the previous ask), backwards, far ahead, and across texts."""
    import random

    rng = random.Random(1502)
    big = "".join(rng.choice(["a", "\n", "\r\n", "bc\n", "é"]) for _ in range(20_000))
    pool = [t for t in texts() if t] + [big]
    counter = fixing.LineCounter()  # one report's: asked across its texts
    for _ in range(3000):
        text = rng.choice(pool)
        off = rng.randrange(len(text) + 1)
        for o in (off, min(len(text), off + rng.randrange(0, 6000))):
            assert counter.line_of(text, o) == text.count("\n", 0, o) + 1


def _free_name_plain(taken, base, suffixes=("_v2", "_v3", "_v4", "_new")):
    low = {t.lower() for t in taken}
    for s in suffixes:
        if (base + s).lower() not in low:
            return base + s
    n = 5
    while f"{base}_v{n}".lower() in low:
        n += 1
    return f"{base}_v{n}"


def test_free_name_as_before() -> None:
    rng = random.Random(15)
    alphabet = ["a", "B", "_", "İ", "i̇", "ß", "ẞ", "K", "K", "1"]  # lower() changes length or letters
    for _ in range(3000):
        base = "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 4)))
        suffixes = rng.choice([("_v2", "_v3", "_v4", "_new"), ("", "_2", "_3"), ("_old", "_old2")])
        cands = [base + s for s in suffixes] + [f"{base}_v{n}" for n in range(5, 8)]
        taken = [rng.choice([c, c.upper(), c.lower(), c + "x"]) for c in cands if rng.random() < 0.7]
        taken += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 6))) for _ in range(5)]
        assert free_name(taken, base, suffixes) == _free_name_plain(taken, base, suffixes), (taken, base, suffixes)
        assert free_name(iter(taken), base, suffixes) == _free_name_plain(taken, base, suffixes)
