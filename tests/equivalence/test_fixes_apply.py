"""`fixes/apply.py`'s shortcuts give what the plain computations give: a fix's preview (no difflib
when the changed lines share nothing), fixes adapted to a file's line ends, the line of an offset
counted on from the previous ask, and the lines before an offset, over the corpus's findings and over
generated texts."""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from icelint.fixes import apply as fixing
from icelint.values.findings import Finding
from icelint.values.fix import Applicability, Edit, Fix, apply_fixes
from tests.corpus import corpus_runs, everything_shown, generated_texts, lint_files, run_id

RUNS = corpus_runs()


def _regions(fix: Fix, text: str) -> tuple[int, list[str], list[str]]:
    first = min(e.start for e in fix.edits)
    last = max(e.end for e in fix.edits)
    rs = text.rfind("\n", 0, first) + 1
    nl = text.find("\n", last)
    re_ = len(text) if nl < 0 else nl
    old_region = text[rs:re_]
    shifted = [replace(e, start=e.start - rs, end=e.end - rs) for e in fix.edits]
    new_region, _ = apply_fixes(old_region, [replace(fix, edits=tuple(shifted))])
    old_lines = [ln.rstrip("\r") for ln in old_region.split("\n")]
    new_lines = [ln.rstrip("\r") for ln in new_region.split("\n")]
    return rs, old_lines, new_lines


def _preview_plain(fix: Fix, text: str) -> list[tuple[str, str]]:
    """fixing.preview as it was: every fix through apply_fixes, every region through difflib."""
    rs, old_lines, new_lines = _regions(fix, text)
    row = text.count("\n", 0, rs) + 1
    width = len(str(row + len(old_lines)))
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out += [("-", f"{row + i:>{width}} - {old_lines[i]}") for i in range(i1, i2)]
        out += [("+", f"{'':>{width}} + {new_lines[j]}") for j in range(j1, j2)]
    return out


def _adapt_plain(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """fixing.adapt as it was: every fix rebuilt, every finding with a fix replaced."""
    out = []
    for f in findings:
        if f.fix is not None:
            text = texts.get(f.path)
            fix = None
            if text is not None:
                edits = []
                for e in f.fix.edits:
                    start, end, content = e.start, e.end, e.content
                    if "\r\n" in text and "\n" in content:
                        content = re.sub(r"(?<!\r)\n", "\r\n", content)
                    if content == "" and end > start:
                        start, end = fixing._whole_statement(text, start, end)
                    if (start, end, content) != (e.start, e.end, e.content):
                        e = Edit.at(text, start, end, content)
                    edits.append(e)
                fix = replace(f.fix, edits=tuple(edits))
            f = replace(f, fix=fix)
        out.append(f)
    return out


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_preview_and_adapt_over_the_corpus(files: list[Path]) -> None:
    sources, findings = lint_files(files)
    by_path = {s.path: s.text for s in sources}
    for f in findings:
        if f.fix is not None and f.fix.edits:
            text = by_path[f.path]
            assert fixing.preview(f.fix, text) == _preview_plain(f.fix, text), f
            for crlf in (text, text.replace("\n", "\r\n")):
                assert fixing.preview(f.fix, crlf) == _preview_plain(f.fix, crlf), f
    assert everything_shown(fixing.adapt(findings, by_path)) == everything_shown(_adapt_plain(findings, by_path))
    crlf = {p: t.replace("\n", "\r\n") for p, t in by_path.items()}
    assert everything_shown(fixing.adapt(findings, crlf)) == everything_shown(_adapt_plain(findings, crlf))


def test_the_corpus_reaches_the_shortcuts() -> None:
    """Without this, the equivalences above could hold because no finding takes a shortcut."""
    one_line = fix_disjoint = fix_shared = multi_line = 0
    for files in RUNS:
        sources, findings = lint_files(files)
        by_path = {s.path: s.text for s in sources}
        for f in findings:
            if f.line == f.end_line:
                one_line += 1
            else:
                multi_line += 1
            if f.fix is not None and f.fix.edits:
                _, old, new = _regions(f.fix, by_path[f.path])
                if set(old) & set(new):
                    fix_shared += 1
                else:
                    fix_disjoint += 1
    assert one_line > 100 and multi_line > 0 and fix_disjoint > 20 and fix_shared > 0, (one_line, multi_line, fix_disjoint, fix_shared)


def test_preview_over_generated_texts() -> None:
    rng = random.Random(1403)
    for text in generated_texts(800, 1404):
        for _ in range(4):
            a = rng.randrange(0, len(text) + 1)
            b = rng.randrange(a, len(text) + 1)
            content = "".join(rng.choice(["x", "\n", "a", "bc", ";", " ", "\r\n", ""]) for _ in range(rng.randrange(0, 8)))
            if rng.random() < 0.3:  # content holding a line of the region (difflib then finds it)
                content = text[a:b] + content
            edits = [Edit.at(text, a, b, content)]
            if rng.random() < 0.3 and b < len(text):
                c = rng.randrange(b + 1, len(text) + 1)
                edits.append(Edit.at(text, c, c, "y"))
            fix = Fix(Applicability.SAFE, "m", tuple(edits))
            assert fixing.preview(fix, text) == _preview_plain(fix, text), (text, fix)


@pytest.mark.parametrize("seed", range(5))
def test_lines_before_equals_reversed_splitlines(seed: int) -> None:
    from icelint.fixes.apply import _lines_before

    rng = random.Random(seed)
    text = "".join(rng.choice(["a", ";", " ", "--", "\n", "\r\n", "\r", "\x0c", "\x0b", "\x85", "\u2028", "\n\n"]) for _ in range(300))
    for end in range(len(text) + 1):
        assert list(_lines_before(text, end)) == list(reversed(text[:end].splitlines())), end


NEWLINE_PIECES = ["a", "b;", "-- c", " ", "\n", "\r\n", "\r", "\x0b", "\x85", "\u2028", "x y", ""]


def newline_texts(n: int = 400):
    rng = random.Random(14)
    for _ in range(n):
        yield "".join(rng.choice(NEWLINE_PIECES) for _ in range(rng.randrange(0, 30)))


def test_line_of_counts_newlines() -> None:
    counter = fixing.LineCounter()
    for text in newline_texts():
        for off in range(len(text) + 1):
            assert counter.line_of(text, off) == text.count("\n", 0, off) + 1


def test_line_of_in_any_order() -> None:
    """Asked forwards (counted on from the previous ask), backwards, far ahead, and across texts."""
    import random

    rng = random.Random(1502)
    big = "".join(rng.choice(["a", "\n", "\r\n", "bc\n", "é"]) for _ in range(20_000))
    pool = [t for t in newline_texts() if t] + [big]
    counter = fixing.LineCounter()  # one report's: asked across its texts
    for _ in range(3000):
        text = rng.choice(pool)
        off = rng.randrange(len(text) + 1)
        for o in (off, min(len(text), off + rng.randrange(0, 6000))):
            assert counter.line_of(text, o) == text.count("\n", 0, o) + 1
