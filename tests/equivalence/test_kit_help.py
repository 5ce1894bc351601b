"""`rules/kit/help.py`'s shortcuts answer as the plain computations. `_help.simple_statements` (help SQL of two simple shapes split without parsing) answers only what
the parser answers: every statement parsed, each spanning exactly the part it returns. Over
generated texts (plain names, every keyword's words, quoted names, spacing variants) and over every
SQL the help lines of the fixture corpus propose. The type's SQL cached, the proposals of a help
found without searching the whole prefix, a free name found as before, and the "did you mean"
suggestions bounded per run."""

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
from pathlib import Path
from tests.corpus import lint_files, run_id
from icelint.rules.kit.help import free_name

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


def test_suggestions_are_bounded_per_run_and_start_afresh() -> None:
    """Thousands of unknown tables beside thousands of known ones: the first get "did you mean",
    within the run's budget of name comparisons; later ones go without; the next run starts afresh
    (its first unknown table gets its suggestion again)."""
    from icelint.engine.checker import lint_run
    from icelint.config import load_config
    from icelint.engine.pipeline import replay_text
    from icelint.rules.kit import help as _help

    n = 400
    sql = "".join(f"CREATE TABLE db.orders_{i} (id int) USING iceberg;\n" for i in range(n))
    sql += "".join(f"ALTER TABLE db.order_{i} ADD COLUMN c int;\n" for i in range(n))
    rules = load_config().rules()
    for _ in range(2):
        found = [f for f in lint_run(replay_text(sql), rules) if f.rule == "ICE005"]
        assert len(found) == n
        hinted = [f for f in found if "did you mean" in (f.help or "")]
        assert found[0].help.startswith("did you mean `db.orders_0`?")
        # each asks over n names: the budget (ICE005 and ICE028 ask once each) allows about this many
        assert 0 < len(hinted) < n and abs(len(hinted) - _help.SUGGESTION_BUDGET // (2 * n)) <= 1
        assert all("did you mean" in (f.help or "") for f in found[: len(hinted)])


RUNS = corpus_runs()


def test_type_sql_cache() -> None:
    from icelint.model import types as it
    from icelint.rules.kit import help as _help

    names = ["int", "long", "string", "timestamp", "timestamptz", "binary", "uuid", "date", "float", "double", "boolean", "time", "unknown"]
    types = [it.PrimitiveType(n) for n in names] + [it.DecimalType.of(p, s) for p in (9, 10, 38) for s in (0, 2)]
    types += [it.FixedType("fixed[4]", 4), it.PrimitiveType("decimal(10, 2)")]  # same text, another class
    for t in types + types[::-1]:
        assert _help.type_sql(t) == _help._type_sql(t), t


def _proposals_plain(help_text: str) -> list[tuple[tuple[str, int] | None, str]]:
    """`_help.proposals` without its look at the prefix's end before searching for the target."""
    from icelint.rules.kit import help as _help

    out: list[tuple[tuple[str, int] | None, str]] = []
    for m in _help._BACKTICKED.finditer(help_text):
        text = (m.group("double") or m.group("single")).strip()
        if not _help._is_statements(text):
            continue
        t = _help._TARGET.search(help_text[: m.start()])
        out.append(((t.group("path"), int(t.group("line"))) if t else None, text))
    return out


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_proposals_over_the_corpus(files: list[Path]) -> None:
    from icelint.rules.kit import help as _help

    _, findings = lint_files(files)
    for f in findings:
        if f.help:
            assert _help.proposals(f.help) == _proposals_plain(f.help), f.help
            for variant in (f.help.replace(" with `", " with \n`"), f.help.replace(" with ", " with  ")):
                assert _help.proposals(variant) == _proposals_plain(variant), variant


def test_proposals_targets_are_reached() -> None:
    from icelint.rules.kit import help as _help

    seen = 0
    for files in RUNS:
        for f in lint_files(files)[1]:
            seen += sum(1 for target, _ in _help.proposals(f.help or "") if target is not None)
    assert seen > 5


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
