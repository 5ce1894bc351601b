"""A large file is tokenized and parsed a piece at a time (`syntax/parser.py _pieces`): the result
must be the one of parsing the whole text at once. Every SQL file of the corpus, and texts built to
put a `;` where a piece must not end, are parsed both ways (pieces of one byte: a cut after every
`;` that can end one) and compared."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.values.source import LineIndex
from icelint.syntax import parser
from tests.corpus import corpus_runs

FILES = sorted({p for run in corpus_runs() for p in run})

TRICKY = [
    "CREATE TABLE db.t (id bigint) USING iceberg;\nALTER TABLE db.t ADD COLUMN `a;b` string;\nALTER TABLE db.t ADD COLUMN c string COMMENT 'x;y';",
    "-- a comment; with a semicolon\nCREATE TABLE db.t (id bigint) USING iceberg; /* block; comment */ ALTER TABLE db.t DROP COLUMN id;",
    "/* nested /* ; */ still; */ CREATE TABLE db.t (id bigint) USING iceberg;;;\nSHOW TABLES; SET x = a;b;",
    "CREATE TABLE db.t (id bigint) USING iceberg;\nINSERT INTO db.t VALUES (1); 'unterminated; string",
    "CREATE TABLE db.t (id bigint) USING iceberg; ALTER TABLE db.t ADD COLUMN c string COMMENT 'it''s; \\'fine\\';';\n/* never closed;",
    "ALTER TABLE db.t SET TBLPROPERTIES ('a' = 'b;c'); ALTER TABLE db.t ADD COLUMN `x`` ;y` int; -- trailing;",
    "",
    ";",
    "ALTER TABLE db.t ADD COLUMN c int",
]


def _both(text: str):
    li = LineIndex("f.sql", text)
    whole = parser._parse(text, "f.sql", li, piece=len(text) + 1)
    pieces = parser._parse(text, "f.sql", li, piece=1)
    return whole, pieces


@pytest.mark.parametrize("path", FILES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_pieces_parse_as_the_whole_file(path: Path) -> None:
    whole, pieces = _both(path.read_text(encoding="utf-8"))
    assert pieces == whole


@pytest.mark.parametrize("text", TRICKY)
def test_a_semicolon_inside_a_token_never_ends_a_piece(text: str) -> None:
    whole, pieces = _both(text)
    assert pieces == whole
    assert repr(pieces) == repr(whole)


def test_pieces_are_cut_after_semicolon_tokens_only() -> None:
    text = "SELECT 'a;b'; SELECT 1 /* ; */; -- ;\nSELECT `c;d`; SELECT 2"
    ends = [e for _, e, _, ok in parser._pieces(text, 1)]
    assert ends == [text.index("';") + 2, text.index("*/;") + 3, text.index("`;") + 2, len(text)]
    assert all(ok for *_, ok in parser._pieces(text, 1))
