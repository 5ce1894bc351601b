"""sqlglot's Spark tokenizer loaded without the rest of sqlglot (icelint/syntax/tokenizer.py): the
snapshot of its settings is current, its tokens are the Spark dialect's own, a one-file check does
not import what it does not need, and the rest of sqlglot still works when something needs it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SQL_FILES = sorted((ROOT / "fixtures").rglob("*.sql"))


def _env() -> dict[str, str]:
    drop = ("ICELINT_NO_CACHE", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "FORCE_COLOR", "NO_COLOR", "ICELINT_DEBUG")
    return {k: v for k, v in os.environ.items() if k not in drop}


def _python(code: str, cwd: Path = ROOT) -> str:
    r = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=cwd, capture_output=True, text=True, env=_env(), timeout=120)
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_snapshot_is_current() -> None:
    import sqlglot
    from sqlglot.tokens import TokenType

    from icelint.syntax import _spark_tokenizer as snap
    from icelint.syntax.tokenizer import CORE_ARGS, spark_settings_from_sqlglot

    hint = "stale: run python scripts/gen_spark_tokenizer.py --write"
    assert snap.SQLGLOT_VERSION == sqlglot.__version__, hint
    live, saved = spark_settings_from_sqlglot(), snap.settings(TokenType)
    assert list(saved) == list(CORE_ARGS)
    for name in CORE_ARGS:
        assert saved[name] == live[name], f"{name} {hint}"
    r = subprocess.run([sys.executable, str(ROOT / "scripts" / "gen_spark_tokenizer.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr


def _tokens(tokens: list) -> list[tuple]:
    return [(t.token_type, t.text, t.start, t.end, t.line, t.col, t.comments) for t in tokens]


def test_tokens_are_the_spark_dialects() -> None:
    from sqlglot.dialects.spark import Spark

    from icelint.syntax import tokenizer

    assert tokenizer.FAST  # the snapshot is used: otherwise this test compares sqlglot with itself
    dialect = Spark()
    texts = [p.read_text(encoding="utf-8") for p in SQL_FILES]
    texts += ["SELECT 10L, 2.0BD, X'0F', r'a\\b', '\\u0041', `a``b`; CALL x.y(); SHOW TABLES; /* /* */ -- x", "'unterminated"]
    assert len(texts) > 100
    for text in texts:
        ours, theirs = tokenizer.new_tokenizer(), dialect.tokenizer_class(dialect=dialect)
        try:
            expected = _tokens(theirs.tokenize(text))
        except Exception as e:  # noqa: BLE001 - the same error, and the same tokens before it
            with pytest.raises(type(e)):
                ours.tokenize(text)
            assert _tokens(ours.tokens) == _tokens(theirs.tokens)
        else:
            assert _tokens(ours.tokenize(text)) == expected


def test_one_file_check_imports_only_the_tokenizer(tmp_path: Path) -> None:
    """Neither sqlglot's parser, generator and dialects, nor rich (no terminal), pyiceberg or
    importlib.metadata; with and without the (empty) cache."""
    (tmp_path / "one.sql").write_text("CREATE TABLE db.e (id bigint, p string) USING iceberg;\nALTER TABLE db.e DROP COLUMN p;\n"
                                      "ALTER TABLE db.e ADD COLUMN p binary;\n")
    for extra in (["--no-cache"], []):
        r = subprocess.run([sys.executable, "-X", "importtime", "-m", "icelint", "check", *extra, "one.sql"], cwd=tmp_path,
                           capture_output=True, text=True, env=_env(), timeout=120)  # fmt: skip
        assert r.returncode == 0 and "ICE015" in r.stdout, r.stdout + r.stderr
        imported = {line.rsplit("|", 1)[-1].strip() for line in r.stderr.splitlines() if line.startswith("import time:")}
        assert "sqlglot.tokenizer_core" in imported and "icelint.syntax.parser" in imported  # the check below can fail
        modules = {m for m in imported if not m.endswith("__mypyc")}  # not sqlglotc's libraries: their modules' code
        unwanted = {m for m in modules if m.split(".")[0] in ("rich", "pyiceberg", "pyarrow")}
        unwanted |= {m for m in modules if m.startswith(("importlib.metadata", "sqlglot.parser", "sqlglot.generator",
                                                         "sqlglot.dialects", "sqlglot.expressions.", "sqlglot.optimizer"))}
        assert not unwanted, (extra, sorted(unwanted))


def test_the_rest_of_sqlglot_works_after_the_tokenizer() -> None:
    out = _python("""
        import sys
        from icelint.syntax import tokenizer
        assert tokenizer.FAST and "sqlglot.parser" not in sys.modules and "sqlglot.dialects" not in sys.modules
        import sqlglot
        print(sqlglot.parse_one("INSERT INTO t VALUES (1, 2L)", read="spark").sql("spark"))
        from sqlglot.expressions import Column
        import sqlglot.expressions as e
        from sqlglot import exp
        assert Column is e.Column is exp.Column
        from sqlglot.optimizer.qualify import qualify
        from sqlglot.dialects.spark import Spark
        print(sqlglot.transpile("SELECT a FROM t", read="spark", write="duckdb")[0], sqlglot.__version__ != "")
        print(type(sqlglot.tokenize("SELECT 1")[0].token_type) is tokenizer.TokenType)
    """)
    assert out.split("\n")[:3] == ["INSERT INTO t VALUES (1, CAST(2 AS BIGINT))", "SELECT a FROM t True", "True"]


def test_dml_and_ctas_replay_the_same_whoever_imported_sqlglot_first(tmp_path: Path) -> None:
    """The DML and CTAS replay import sqlglot's parser and optimizer after the tokenizer: the same
    output as when sqlglot was imported whole first."""
    files = [str(p) for p in sorted((ROOT / "fixtures" / "rules" / "ICE005").glob("*.sql")) if p.name.startswith(("ctas", "dml"))]
    assert files
    run = "import runpy, sys; sys.argv = ['icelint', 'check', '--no-cache', *sys.argv[1:]]; runpy.run_module('icelint', run_name='__main__')"
    outs = []
    for pre in ("", "import sqlglot; "):
        r = subprocess.run([sys.executable, "-c", pre + run, *files], cwd=tmp_path, capture_output=True, text=True, env=_env(), timeout=120)
        assert r.returncode in (0, 1) and r.stdout, r.stderr
        outs.append(r.stdout)
    assert outs[0] == outs[1]


def test_another_sqlglot_version_uses_the_spark_dialect() -> None:
    out = _python("""
        import sys, types
        stale = types.ModuleType("icelint.syntax._spark_tokenizer")
        stale.SQLGLOT_VERSION = "0.0.0"
        stale.settings = lambda T: {}
        sys.modules[stale.__name__] = stale
        from icelint.syntax import tokenizer
        from icelint.syntax.parser import parse_text
        assert not tokenizer.FAST and "sqlglot.dialects.spark" in sys.modules
        print(len(parse_text("ALTER TABLE db.t ADD COLUMN c bigint; SELECT 10L;").statements))
    """)
    assert out.strip() == "2"


def test_one_word_keywords_take_the_fast_path_as_the_general_one_would() -> None:
    """`tokens.convert` makes a one-word keyword a WORD token without looking at its text; that must be
    what the general path makes of it (upper-case `kw`, the text as written), for every keyword in
    any case, and multi-word keywords and commands must still take the general path."""
    from icelint.syntax import tokens as p
    from icelint.syntax.tokenizer import KEYWORDS

    fast = {tt for tt, kind in p.FAST_KINDS.items() if kind == p.WORD}
    assert len(fast) > 100  # ALTER, TABLE, COLUMN, NULL, the type names...
    words = [k for k in KEYWORDS if k.replace("_", "a").isalnum()]
    for spelling in (words, [w.lower() for w in words], [w[:1] + w[1:].lower() for w in words]):
        text = " ".join(spelling)
        raw, ok = p.sqlglot_tokens(text)
        assert ok
        out: list = []
        p.convert(raw, text, 0, out)
        for tok, made in zip(raw, out):
            if tok.token_type in fast:
                assert (made.kind, made.kw, made.text) == (p.WORD, text[made.start : made.end].upper(), text[made.start : made.end])
    multi = {tt for k, tt in KEYWORDS.items() if " " in k}
    assert multi and not multi & fast
    assert not fast & p._COMMANDS
