"""A long file's text kept compressed once parsed (icelint.run.packed_text): it reads as the
string it stands for, and a check of a packed file says exactly what a check of the plain one says."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from click.testing import CliRunner

from icelint.values import changes as ch
from icelint.run import packed_text
from icelint.cli.main import main
from icelint.run.packed_text import PackedText, pack
from icelint.engine.pipeline import parse_sources
from icelint.values.source import SourceFile

ALPHABET = "ab\n;é\r\U0001f600\ud800"  # a lone surrogate too: stdin text may carry one


@pytest.fixture
def small_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packed_text, "BLOCK", 7)  # every operation crosses blocks


def _args(rnd: random.Random, n: int):
    return rnd.choice([None, rnd.randrange(-5, n + 5)]), rnd.choice([None, rnd.randrange(-5, n + 5)])


@pytest.mark.usefixtures("small_blocks")
def test_a_packed_text_reads_as_its_string() -> None:
    rnd = random.Random(15)
    for _ in range(1500):
        text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(0, 50)))
        p = PackedText(text)
        assert len(p) == len(text) and str(p) == text and p == text and p == PackedText(text)
        assert p != PackedText(text + "x") and p != text + "x"
        for _ in range(12):
            sub = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randrange(0, 4)))
            a, b = _args(rnd, len(text))
            got = (p.find(sub, a, b), p.rfind(sub, a, b), p.count(sub, a, b), p[a:b], sub in p)
            want = (text.find(sub, a, b), text.rfind(sub, a, b), text.count(sub, a, b), text[a:b], sub in text)
            assert got == want, (text, sub, a, b)
            k = rnd.randrange(0, len(text) + 2)
            assert p.startswith(sub, k) == text.startswith(sub, k), (text, sub, k)
            if text:
                i = rnd.randrange(-len(text), len(text))
                assert p[i] == text[i]
        assert p[::2] == text[::2]
        with pytest.raises(IndexError):
            p[len(text)]


def test_only_long_texts_are_packed() -> None:
    assert pack("SELECT 1;") == "SELECT 1;" and isinstance(pack("SELECT 1;"), str)
    long = "ALTER TABLE db.t ADD COLUMN c string;\n" * (packed_text.PACK_MIN // 38 + 1)
    packed = pack(long)
    assert isinstance(packed, PackedText) and packed == long
    assert sum(map(len, packed._blocks)) * 10 < len(long)  # the point: a fraction of the size


SQL = """CREATE TABLE db.events (id bigint, payload string, account_id bigint, `ça` string) USING iceberg;\r
INSERT INTO db.events VALUES (1, 'a', 2, 'x');\r
ALTER TABLE db.events DROP COLUMN payload; -- icelint: ignore[ICE011] dropped on purpose\r
ALTER TABLE db.events ADD COLUMN payload binary;\r
ALTER TABLE db.events ALTER COLUMN account_id TYPE int;\r
INSERT INTO db.events (id, account_id) VALUES (2, 'not a number');\r
ALTER TABLE db.events ADD COLUMN first_one string FIRST;\r
ALTER TABLE db.events RENAME COLUMN `ça` TO ca;\r
CREATE TABLE db.copy AS SELECT * FROM db.events;\r
"""


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github", "junit"])
def test_a_packed_file_is_checked_as_the_plain_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    (tmp_path / "m.sql").write_bytes(SQL.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    args = ["check", "m.sql", "--no-cache", "--format", fmt, "--unsafe-fixes", "--color", "never"]
    plain = CliRunner().invoke(main, args)
    monkeypatch.setattr(packed_text, "PACK_MIN", 1)
    monkeypatch.setattr(packed_text, "BLOCK", 16)
    made: list = []
    monkeypatch.setattr(packed_text, "pack", lambda text: made.append(PackedText(text)) or made[-1])
    packed = CliRunner().invoke(main, args)
    assert plain.exit_code == 1, plain.output
    assert len(made) == 1  # `check` packed the file
    assert (packed.exit_code, packed.output) == (plain.exit_code, plain.output)
    assert "ICE001" in plain.output and "ICE002" in plain.output


def test_the_parsed_run_keeps_only_the_packed_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(packed_text, "PACK_MIN", 1)
    parsed = parse_sources([SourceFile("m.sql", SQL)], trees=False, pack=lambda s: True)
    text = parsed.sources[0].text
    assert isinstance(text, PackedText) and text == SQL
    assert all(st.span[0].text is text for st in parsed.files[0].statements)  # the spans' line index
    writes = [c for s in parsed.steps if isinstance(s, ch.Commit) for c in s.changes if isinstance(c, ch.WriteData)]
    assert writes and all(c.text is text for c in writes)
    assert writes[0].sql == "INSERT INTO db.events VALUES (1, 'a', 2, 'x')"
    unpacked = parse_sources([SourceFile("m.sql", SQL)], trees=False, pack=lambda s: False)
    assert unpacked.sources[0].text is not text and isinstance(unpacked.sources[0].text, str)


@pytest.mark.usefixtures("small_blocks")
@pytest.mark.parametrize("text, deleted", [
    ("A;\nSET x=true;\nB;\n", "SET x=true"),  # a statement on its own line: the line goes
    ("A; SET x=true; B;\n", "SET x=true"),  # sharing its line: the statement and its `;`
    ("A; -- a\n\n-- why\nSET x=true;", "SET x=true"),  # after comments, at the very end (`\Z`)
    ("A;\r\nSET x=true;  \r\nB;\r\n", "SET x=true"),  # CRLF
    ("ALTER TABLE t ADD COLUMN c int\n  NOT NULL;\n", "  NOT NULL"),  # inside a statement: kept as is
])
def test_fixes_are_adapted_to_a_packed_text_as_to_the_string(text: str, deleted: str) -> None:
    # the deletion's terminator and line are matched on the packed text's line (fixing._match_end)
    from icelint.values.findings import Finding, Severity
    from icelint.values.fix import Applicability, Edit, Fix
    from icelint.fixes.apply import adapt, preview

    start = text.index(deleted)
    fix = Fix(Applicability.UNSAFE, "drop", (Edit.at(text, start, start + len(deleted), ""),))
    finding = Finding("ICE008", "x", Severity.WARNING, "a.sql", 1, 1, 1, 1, "m", fix=fix)
    (plain,) = adapt([finding], {"a.sql": text})
    (packed,) = adapt([finding], {"a.sql": PackedText(text)})
    assert packed.fix == plain.fix and preview(packed.fix, PackedText(text)) == preview(plain.fix, text)
