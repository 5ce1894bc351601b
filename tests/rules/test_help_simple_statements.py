"""`_help.simple_statements` (help SQL of two simple shapes split without parsing) answers only what
the parser answers: every statement parsed, each spanning exactly the part it returns. Over
generated texts (plain names, every keyword's words, quoted names, spacing variants) and over every
SQL the help lines of the fixture corpus propose."""

from __future__ import annotations

import random
import re

import pytest

from icelint.engine.checker import lint_run
from icelint.engine.pipeline import replay_sources
from icelint.rules import ALL_RULES
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help as _help
from icelint.values.source import SourceFile
from icelint.syntax import ast
from icelint.syntax.tokenizer import KEYWORDS
from tests.corpus import corpus_runs

KEYWORD_WORDS = sorted({w for k in KEYWORDS for w in re.split(r"[^A-Za-z0-9_]+", k) if w})


def _parser(text: str) -> tuple[str, ...] | None:
    """What the plain path decides: the statements as the parser spans them, None when one is not
    parsed (or there is none)."""
    stmts = _help.parsed_statements.__wrapped__(text)
    if not stmts or any(isinstance(s, ast.Unparsed) for s in stmts):
        return None
    return tuple(text[s.span.start : s.span.end] for s in stmts)


def _agrees(text: str) -> bool:
    """The fast answer, when there is one, is the parser's; returns whether there was one."""
    fast = _help.simple_statements(text)
    if fast is not None:
        assert _parser(text) == fast, text
        assert _help._is_statements.__wrapped__(text)
        assert _fixes.statements_text.__wrapped__(text) == ";\n".join(fast)
    return fast is not None


def _name(rng: random.Random) -> str:
    pick = rng.random()
    if pick < 0.75:
        return rng.choice(["id", "amount", "x", "_a", "c1", "user_id", "Payload", "ref_sku_14", "db", "t"])
    if pick < 0.9:
        w = rng.choice(KEYWORD_WORDS + ["if", "exists", "to", "column", "columns", "retention", "array", "null"])
        return rng.choice([w, w.lower(), w.title()])
    if pick < 0.95:
        return rng.choice(["`a b`", "`x`", "a-b", "1a", "é", "a\x00b", ""])
    return "".join(rng.choice("abc_1") for _ in range(rng.randrange(1, 6)))


def _path(rng: random.Random) -> str:
    return ".".join(_name(rng) for _ in range(rng.choice([1, 1, 2, 3])))


def _statement(rng: random.Random) -> str:
    t = _path(rng)
    if rng.random() < 0.5:
        return f"ALTER TABLE {t} RENAME COLUMN {_path(rng)} TO {_name(rng)}"
    cols = [_path(rng) for _ in range(rng.choice([1, 1, 2, 3]))]
    kw = rng.choice(["COLUMN", "COLUMNS"])
    return f"ALTER TABLE {t} DROP {kw} {', '.join(cols)}"


def _vary(rng: random.Random, text: str) -> str:
    return rng.choice([
        text, text, text,
        text.replace(" ", "  ", 1), text.replace(", ", ",", 1), text + ";", text.lower(), " " + text,
        text.replace(" TO ", " to "), text.replace("COLUMN", "COLUMN IF EXISTS", 1), text + " FIRST",
    ])


@pytest.mark.parametrize("seed", range(20))
def test_simple_statements_agree_with_the_parser_on_generated_texts(seed: int) -> None:
    rng = random.Random(seed)
    fast = 0
    for _ in range(300):
        text = "; ".join(_vary(rng, _statement(rng)) for _ in range(rng.choice([1, 1, 2, 3])))
        fast += _agrees(text)
    assert fast > 5  # the shortcut is taken, not only declined


@pytest.mark.parametrize("word", KEYWORD_WORDS + ["if", "exists", "retention", "array", "Null", "begin"])
def test_every_keyword_in_every_name_position_agrees_with_the_parser(word: str) -> None:
    """The shortcut takes any plain word as a name (Spark does, and so does the parser): a parser
    that reads a keyword otherwise in one of these places makes this fail."""
    w = word
    for text in (
        f"ALTER TABLE db.{w} DROP COLUMN x", f"ALTER TABLE {w} RENAME COLUMN a TO b", f"ALTER TABLE {w}.t DROP COLUMNS a",
        f"ALTER TABLE db.t DROP COLUMN {w}", f"ALTER TABLE db.t DROP COLUMNS a, {w}", f"ALTER TABLE db.t DROP COLUMNS {w}, a",
        f"ALTER TABLE db.t DROP COLUMN {w}.{w}", f"ALTER TABLE db.t RENAME COLUMN {w} TO x",
        f"ALTER TABLE db.t RENAME COLUMN a.{w} TO b", f"ALTER TABLE db.t RENAME COLUMN {w}.a TO b",
        f"ALTER TABLE db.t RENAME COLUMN a TO {w}", f"ALTER TABLE db.t DROP COLUMN a; ALTER TABLE {w} DROP COLUMN {w}",
        f"ALTER TABLE {w} RENAME COLUMN {w} TO {w}; ALTER TABLE {w} DROP COLUMNS {w}, {w}",
    ):
        assert _agrees(text), text


def test_simple_statements_split_as_written() -> None:
    assert _help.simple_statements("ALTER TABLE db.t RENAME COLUMN a.b TO c; ALTER TABLE db.t DROP COLUMNS d, e.f") == (
        "ALTER TABLE db.t RENAME COLUMN a.b TO c", "ALTER TABLE db.t DROP COLUMNS d, e.f")
    assert _help.simple_statements("ALTER TABLE db.t DROP COLUMN `a b`") is None
    assert _help.simple_statements("ALTER TABLE db.t DROP COLUMN a;") is None


def test_simple_statements_agree_with_the_parser_on_the_corpus_helps() -> None:
    fast = 0
    for files in corpus_runs():
        run = replay_sources([SourceFile.read(p) for p in files])
        for f in lint_run(run, ALL_RULES):
            for _, text in _help.proposals(f.help or ""):
                fast += _agrees(text)
    assert fast > 0
