"""Writing `help:` lines: SQL with the table's real names that works when pasted.

The convention every rule follows (and `tests/rules/test_help_replay.py` checks by pasting):

- SQL a user can paste is written in backticks (double backticks, Markdown style, when it quotes an
  identifier with backticks itself): `` `ALTER TABLE db.t DROP COLUMN x` ``. Several statements in
  one pair of backticks are run in that order.
- Such SQL replaces the statement the finding points at: it includes that statement again when it
  should still run after a preparatory step (`DROP IDENTIFIER FIELDS id; ... DROP COLUMN id`).
- SQL meant for another statement says which: "replace the statement at V2__x.sql:3 with `...`"
  (`replace_at`).
- `SELECT` and `CALL` in backticks are follow-up steps (time travel, maintenance), not replacements.
- No placeholders (`<field>`, `...`) where the replay knows the names; advice without SQL still
  names the real table, columns and partition fields.

The recipes built on these live in `_help_columns.py` (column changes) and `_help_tables.py`
(partitions, identifier fields, sort orders, tables); where findings point is `_positions.py`.
"""

from __future__ import annotations

import functools
import re
from functools import lru_cache
from typing import Iterable, NamedTuple

from icelint.model import types as it
from icelint.values.source import Span

_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@lru_cache(maxsize=4096)  # the same few names in every help text
def ident(name: str) -> str:
    """One identifier as Spark SQL reads it: quoted with backticks unless plain."""
    if _SIMPLE.match(name):
        return name
    return "`" + name.replace("`", "``") + "`"


def path_sql(path: Iterable[str] | str) -> str:
    """A column path (`a.b`) with each part quoted as needed."""
    parts = path.split(".") if isinstance(path, str) else list(path)
    return ".".join(ident(p) for p in parts)


@lru_cache(maxsize=1024)
def table_sql(table: str) -> str:
    return ".".join(ident(p) for p in table.split("."))


def sql(*statements: str) -> str:
    """Statements in backticks, ready to paste (double backticks when the SQL holds a backtick)."""
    text = "; ".join(s.strip().rstrip(";") for s in statements)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def replace_at(span: Span, *statements: str) -> str:
    """SQL for a statement other than the flagged one."""
    return f"replace the statement at {span.path}:{span.line} with {sql(*statements)}"


class Proposed(NamedTuple):
    """A help line and the SQL it proposes, as the recipe wrote them: its fix takes the statements from
    here (`_fixes.from_proposed`) instead of parsing them back out of the text (`_fixes.from_help`),
    which cost as much as the recipe on a finding per statement."""

    text: str
    here: tuple[str, ...] | None = None  # the statements that replace the flagged one (`sql(*here)` in `text`)
    elsewhere: tuple[Span, tuple[str, ...]] | None = None  # `replace_at(span, *statements)` in `text`
    aside: str | None = None  # the name `elsewhere` renames a column to instead of dropping it, as SQL


_BACKTICKED = re.compile(r"``\s(?P<double>.+?)\s``|`(?P<single>[^`]+)`")
_TARGET = re.compile(r"replace the statement at (?P<path>\S+):(?P<line>\d+) with $")
_ACTIONS = ("ALTER", "CREATE", "DROP", "REPLACE", "INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE", "SET")


def proposals(help_text: str) -> list[tuple[tuple[str, int] | None, str]]:
    """The SQL a help line proposes: (None for the flagged statement, or (path, line)) and the SQL."""
    out: list[tuple[tuple[str, int] | None, str]] = []
    for m in _BACKTICKED.finditer(help_text):
        text = (m.group("double") or m.group("single")).strip()
        if not _is_statements(text):
            continue
        # `_TARGET` ends with " with $": it can only match a prefix ending in " with " (or " with \n")
        at = m.start()
        t = _TARGET.search(help_text[:at]) if help_text.endswith((" with ", " with \n"), 0, at) else None
        out.append(((t.group("path"), int(t.group("line"))) if t else None, text))
    return out


@functools.lru_cache(maxsize=4096)  # a help text recurs once per finding (N re-adds: N parses of one SQL)
def _is_statements(text: str) -> bool:
    first = text.split(None, 1)[0].upper() if text.split() else ""
    if first not in _ACTIONS or (first == "SET" and "=" not in text and "IDENTIFIER" not in text.upper()):
        return False
    if simple_statements(text) is not None:
        return True
    from icelint.syntax import ast

    statements = parsed_statements(text)
    return bool(statements) and not any(isinstance(s, ast.Unparsed) for s in statements)


@lru_cache(maxsize=1024)
def parsed_statements(text: str) -> tuple:
    """The statements of a help's SQL (parsed once: `_is_statements` and `_fixes.statements_text` both ask)."""
    from icelint.values.source import SourceFile
    from icelint.syntax.parser import parse_file

    return tuple(parse_file(SourceFile("<help>", text)).statements)


# The two shapes of `_help_columns.drop_instead_of`, as `sql()` joins them, with plain names only
# (`ident` quotes the others): one help per dropped column, each otherwise parsed in full.
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PATH = rf"{_NAME}(?:\.{_NAME})*"
_SIMPLE_STATEMENT = re.compile(
    rf"ALTER TABLE {_PATH} (?:RENAME COLUMN {_PATH} TO {_NAME}|DROP COLUMNS? {_PATH}(?:, {_PATH})*)", re.ASCII
)
_MAX_SIMPLE = 4096  # far below the parser's piece size (`syntax/parser._PIECE`)


def simple_statements(text: str) -> tuple[str, ...] | None:
    """The statements of `text` as the parser splits them, when `text` is only statements of the
    simple shapes above (`ALTER TABLE t RENAME COLUMN a.b TO c`, `ALTER TABLE t DROP COLUMN(S) a, b.c`)
    joined by `; `, names plain words: the parser reads each as that statement, spanning exactly it
    (it takes every plain word as a name there, keywords too, as Spark does). None otherwise (then
    ask the parser). tests/equivalence/test_kit_help.py compares this with the parser's
    answer, every keyword in every name position included."""
    if len(text) > _MAX_SIMPLE:
        return None
    parts = text.split("; ")
    for part in parts:
        if _SIMPLE_STATEMENT.fullmatch(part) is None:
            return None
    return tuple(parts)


def type_sql(t: it.Type) -> str:
    """An Iceberg type as Spark SQL writes it (`bigint`, `decimal(10,2)`, `struct<a: int>`)."""
    if isinstance(t, it.StructType):
        return "struct<" + ", ".join(f"{ident(f.name)}: {type_sql(f.type)}" for f in t.fields) + ">"
    if isinstance(t, it.ListType):
        return f"array<{type_sql(t.element)}>"
    if isinstance(t, it.MapType):
        return f"map<{type_sql(t.key)}, {type_sql(t.value)}>"
    if isinstance(t, it.PrimitiveType):  # frozen values: the same few in every help text
        got = _PRIMITIVE_SQL.get(t)
        if got is None:
            got = _PRIMITIVE_SQL[t] = _type_sql(t)
        return got
    return _type_sql(t)


_PRIMITIVE_SQL: dict[it.Type, str] = {}


def _type_sql(t: it.Type) -> str:
    from icelint.replay import spark_types as sp

    return sp.sql_name(sp.from_iceberg(t)).lower()


def free_name(taken: Iterable[str], base: str, suffixes: tuple[str, ...] = ("_v2", "_v3", "_v4", "_new")) -> str:
    """A name like `base_v2` that no current or former column holds (compared case-insensitively)."""
    taken = taken if isinstance(taken, (list, tuple, set, frozenset)) else list(taken)
    # only names as long as a candidate can equal one (lower() keeps the length of ASCII names)
    lengths = {len((base + s).lower()) for s in suffixes}
    low = {t.lower() for t in taken if len(t) in lengths or not t.isascii()}
    for s in suffixes:
        if (base + s).lower() not in low:
            return base + s
    n = 5
    low = {t.lower() for t in taken}
    while f"{base}_v{n}".lower() in low:
        n += 1
    return f"{base}_v{n}"


# `did_you_mean` compares a name with every known one (difflib's ratio: ~10 us a name). Asked once
# per unknown table or column, thousands of times over thousands of names (a run naming many unknown
# tables beside many known ones, unknown columns of a wide table), that was quadratic.
# A run spends at most this many name comparisons on suggestions of more than SMALL names each (what
# it spent so far is its context's `suggestions`: `ctx.run`, icelint.engine.context); past it, those
# helps go without "did you mean" (their other advice stays). Lists of up to SMALL names are always compared.
SUGGESTION_BUDGET = 100_000
SMALL = 64


def may_suggest(count: int, run) -> bool:
    """Whether `did_you_mean` over `count` names fits in what is left of the budget of `run` (the
    `RunContext`), asked before building a long list of names."""
    return count <= SMALL or run.suggestions + count <= SUGGESTION_BUDGET


def did_you_mean(name: str, known: Iterable[str], run) -> str:
    """`; did you mean `amount`?` when a known name is close to `name`, else ''; a long list of
    names is compared only within the budget of `run` (the `RunContext`)."""
    import difflib

    known = list(dict.fromkeys(known))
    if len(known) > SMALL:
        if not may_suggest(len(known), run):
            return ""
        run.suggestions += len(known)
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    if not close or close[0] == name.lower() and by_lower[close[0]] == name:
        return ""
    return f"did you mean `{by_lower[close[0]]}`?"


def column_sql(name_parts, f) -> str:
    out = f"{'.'.join(ident(p) for p in name_parts)} {type_sql(f.type)}"
    if f.required:
        out += " NOT NULL"
    if f.doc:
        out += " COMMENT '" + f.doc.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return out


_TRANSFORM_SQL = {"year": "years", "month": "months", "day": "days", "hour": "hours"}


def transform_sql(transform: str, column: str) -> str:
    """A partition transform as Spark SQL writes it: `bucket[16]` on `id` → `bucket(16, id)`."""
    col = path_sql(column)
    if transform == "identity":
        return col
    if "[" in transform:
        name, arg = transform.rstrip("]").split("[", 1)
        return f"{name}({arg}, {col})"
    return f"{_TRANSFORM_SQL.get(transform, transform)}({col})"


def did_you_mean_column(schema, dotted_path: str, run) -> str:
    """did_you_mean among the siblings of the unknown field (a nested name is only ever confused with
    a field of the same struct), answered with the full path."""
    from icelint.model.types import children

    path = tuple(dotted_path.split("."))
    # the longest prefix that names a field, found from the front (no longer prefix names one once a
    # prefix does not): the suggestion is for the part after it, among that field's children; a path
    # of any length costs only as many lookups as the schema is deep (it once recursed per part)
    parent, k = None, 1
    while k < len(path):
        found = schema.find(path[:k], case_sensitive=False)
        if found is None:
            break
        parent, k = found, k + 1
    if parent is None:
        if not may_suggest(len(schema.fields), run):
            return ""
        return did_you_mean(path[0], [f.name for f in schema.fields], run)
    path = path[:k]
    hint = did_you_mean(path[-1], [f.name for f in children(parent.type)], run)
    if not hint:
        return ""
    real = ".".join(schema.path_of(parent.id) or path[:-1])
    return hint.replace("did you mean `", f"did you mean `{real}.", 1)
