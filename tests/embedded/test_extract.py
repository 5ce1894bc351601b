"""`icelint.embedded`: Python literals read character by character, the SQL of a file and the way
back from each SQL character to the file."""

from __future__ import annotations

import ast
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icelint import embedded
from icelint.embedded.literals import LiteralError, decode, decode_run, placeholder_name
from icelint.values.source import InputError


def value(lit) -> str:
    return "".join(p[1] if p[0] == "text" else "${" + p[1].expr + "}" for p in lit.pieces)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # `\q`: Python keeps an unknown escape, and warns
@pytest.mark.parametrize(
    "src",
    [
        r'"a\nb\tc\\d\"e\'f"',
        r"'\x41\u00e9\U0001F600\N{BULLET}\101\0'",
        '"""one\ntwo "quoted" \\\nthree"""',
        r'r"C:\path\to\"x"',
        r"R'\d+\''",
        r'"\q stays"',
        "'''a\r\nb'''",
        'u"unicode prefix"',
    ],
)
def test_literal_values_equal_pythons(src: str) -> None:
    lit = decode(src, 0)
    assert value(lit) == ast.literal_eval(src.replace("\r\n", "\n"))
    assert lit.end == len(src)
    for p in lit.pieces:  # characters written as they are point at themselves; an escape at its backslash
        assert src[p[2] : p[2] + len(p[1])] == p[1] or (len(p[1]) == 1 and src[p[2]] in ("\\", "\r"))


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40), st.sampled_from(["plain", "triple", "raw"]))
def test_any_text_round_trips(text: str, style: str) -> None:
    if style != "plain" and "\x00" in text:  # a NUL byte cannot stand in source text
        return
    if style == "plain":
        src = repr(text)
    elif style == "triple":
        src = '"""' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\r", "\\r") + '"""'
    else:
        if "\\" in text or "'" in text or "\n" in text or "\r" in text:
            return
        src = "r'" + text + "'"
    lit = decode(src, 0)
    assert value(lit) == ast.literal_eval(src) == text


def test_fstring_fields_become_placeholders() -> None:
    src = 'f"ALTER TABLE {db}.{cfg.table!r:>{width}} ADD {{x}} {tables[\'a\']}"'
    lit = decode(src, 0)
    fields = [p[1] for p in lit.pieces if p[0] == "field"]
    assert [f.expr for f in fields] == ["db", "cfg.table", "tables['a']"]
    assert [src[f.start] for f in fields] == ["{", "{", "{"] and [src[f.end - 1] for f in fields] == ["}", "}", "}"]
    assert "{x}" in value(lit)
    assert [placeholder_name(f.expr) for f in fields] == ["db", "cfg.table", "tables_a"]


def test_not_literals() -> None:
    for src in ('b"bytes"', "x", '"unterminated', '"a\nb"'):
        with pytest.raises(LiteralError):
            decode(src, 0)


def test_implicit_concatenation_across_lines_and_comments() -> None:
    src = '"a" \'b\'  # c\n  r"\\d" \\\n "e"'
    run = decode_run(src, 0, len(src))
    assert "".join(value(lit) for lit in run) == ast.literal_eval("(" + src + ")")


# --------------------------------------------------------------------------- files


def positions(path: str, code: str, needle: str) -> tuple[str, int, int]:
    """Where the SQL character at the start of `needle` comes from in the file."""
    sql, m = embedded.extract(path, code)
    return m.locate(m.origin_offset(sql.index(needle)))[:3]


def test_calls_in_source_order_in_functions_and_classes() -> None:
    code = (
        "class Job:\n"
        "    def run(self):\n"
        "        self.spark.sql('SELECT 2')\n"
        "def first(session):\n"
        "    session.sql('''SELECT 3''')\n"
        "spark.sql('SELECT 1')\n"
        "other.sql('SELECT 4')\n"  # not a SQL callable
    )
    sql, _ = embedded.extract("x.py", code)
    assert sql == "SELECT 2\n;\nSELECT 3\n;\nSELECT 1\n;\n"


def test_positions_in_the_file_with_non_ascii_before_the_literal() -> None:
    code = "naïve = 1; spark.sql('ALTER TABLE db.t DROP COLUMN é')\n"
    assert positions("x.py", code, "DROP") == ("x.py", 1, code.index("DROP") + 1)
    assert positions("x.py", code, "é") == ("x.py", 1, code.index("é") + 1)


def test_escapes_map_to_their_backslash() -> None:
    code = 'spark.sql("ALTER TABLE db.t\\n  DROP COLUMN\\tc")\n'
    assert positions("x.py", code, "DROP") == ("x.py", 1, code.index("DROP") + 1)
    assert positions("x.py", code, "\t") == ("x.py", 1, code.index("\\t") + 1)


def test_keyword_argument_and_configured_callables() -> None:
    code = "spark.sql(sqlQuery='SELECT 1')\njobs.run_sql('SELECT 2')\n"
    assert embedded.extract("x.py", code)[0] == "SELECT 1\n;\n"
    assert embedded.extract("x.py", code, ["jobs.run_sql"])[0] == "SELECT 1\n;\nSELECT 2\n;\n"


def test_unread_calls_are_listed() -> None:
    code = "spark.sql(q)\nspark.sql('SELECT ' + n)\nspark.sql(*args)\nspark.sql('x'.format())\n"
    _, m = embedded.extract("x.py", code)
    assert [(u.callable, u.argument) for u in m.ex.unread] == [("spark.sql", "q"), ("spark.sql", "'SELECT ' + n"), ("spark.sql", None), ("spark.sql", "'x'.format()")]


def test_notebook_cells() -> None:
    nb = {
        "nbformat": 4,
        "cells": [
            {"cell_type": "markdown", "source": ["spark.sql('SELECT 0')"]},
            {"cell_type": "code", "source": ["%matplotlib inline\n", "spark.sql('SELECT 1')\n"]},
            {"cell_type": "code", "source": "%%sql\nSELECT 2"},
            {"cell_type": "code", "source": "%sql\nSELECT 3;"},
            {"cell_type": "code", "source": "%%timeit\nspark.sql('SELECT 4')"},
        ],
    }
    sql, m = embedded.extract("nb.ipynb", json.dumps(nb))
    assert sql == "SELECT 1\n;\nSELECT 2\n;\nSELECT 3;\n"
    assert m.locate(m.origin_offset(sql.index("SELECT 1")))[:3] == ("nb.ipynb:cell 2", 2, 12)
    assert m.locate(m.origin_offset(sql.index("SELECT 2")))[:3] == ("nb.ipynb:cell 3", 2, 1)
    assert m.locate(m.origin_offset(sql.index("SELECT 3")))[:3] == ("nb.ipynb:cell 4", 2, 1)


def test_syntax_error_names_the_place() -> None:
    with pytest.raises(InputError, match=r"^x\.py:2:\d+: Python syntax error: "):
        embedded.extract("x.py", "spark.sql('SELECT 1')\nif:\n")


def test_keyword_arguments_fill_format_fields() -> None:
    """pyspark formats the SQL with its keyword arguments (`spark.sql("... {t}", t=df)`): fields become placeholders."""
    code = 'spark.sql("SELECT * FROM {t} WHERE x = \'{{y}}\'", t=df)\nspark.sql("SELECT {a}", args={"a": 1})\n'
    sql, m = embedded.extract("x.py", code)
    assert sql == "SELECT * FROM ${t} WHERE x = '{y}'\n;\nSELECT {a}\n;\n"
    assert m.locate(m.origin_offset(sql.index("${t}")))[:3] == ("x.py", 1, code.index("{t}") + 1)


def test_standard_library_literals_read_as_python_reads_them() -> None:
    """Every string literal and f-string of a few standard-library modules: the reader's value (fields
    as markers) equals the one Python's `ast` gives, and no literal is refused."""
    import sys
    from pathlib import Path

    from icelint.embedded import python_sql as ps

    lib = Path(ast.__file__).parent
    checked = 0
    for name in ("typing.py", "random.py", "argparse.py", "dataclasses.py", "pathlib.py", "string.py", "textwrap.py", "ast.py", "inspect.py"):
        text = (lib / name).read_text(encoding="utf-8")
        tree = ast.parse(text)
        inner = {id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in ast.walk(node) if v is not node}
        off = ps.Offsets(text)
        for node in ast.walk(tree):
            if id(node) in inner or not (isinstance(node, ast.JoinedStr) or (isinstance(node, ast.Constant) and isinstance(node.value, str))):
                continue
            run = decode_run(text, off(node.lineno, node.col_offset), off(node.end_lineno, node.end_col_offset))
            assert ps._decoded(run) == ps._expected(node), (name, node.lineno)
            checked += 1
    assert checked > 1000, sys.version
