"""The SQL of a Python file: every string literal passed to `spark.sql(...)` (and the other SQL
callables), found with Python's own `ast` (the code is never run), in source order.

`calls(text, callables)` lists the calls; `Builder.add_call` appends a call's SQL to the text the
engine checks, each character with the offset in the file it came from.
"""

from __future__ import annotations

import ast
import re
from array import array
from dataclasses import dataclass, field
from typing import Iterable

from icelint.embedded.literals import Literal, LiteralError, decode_run, placeholder_name

_ARG_KEYWORDS = ("sqlQuery", "query", "sql")  # pyspark's SparkSession.sql(sqlQuery, ...)
_NEWLINE = re.compile(r"\r\n|\r|\n")


class PythonSyntaxError(ValueError):
    """The file is not Python: (message, line, column), 1-based, in the text given."""

    def __init__(self, message: str, line: int, column: int) -> None:
        super().__init__(message)
        self.message, self.line, self.column = message, line, column


@dataclass
class Unread:
    """A call whose SQL argument is not a literal: where, and what it is."""

    callable: str
    argument: str | None  # the argument's source, None: no SQL argument at all
    start: int  # origin offsets of the argument (or of the call), end exclusive
    end: int


@dataclass
class Extracted:
    """The SQL the engine checks, and where each of its characters came from in the origin text
    (the `.py` file's text; a notebook's cells one after the other)."""

    sql: list = field(default_factory=list)  # characters, joined by `text`
    src_of: array = field(default_factory=lambda: array("q"))  # per SQL character: its origin offset
    lit_of: array = field(default_factory=lambda: array("l"))  # per SQL character: its fixable literal, -1 none
    literals: list = field(default_factory=list)  # fixable literal index → [Literal, SQL start, SQL end]
    unread: list = field(default_factory=list)  # [Unread]

    @property
    def text(self) -> str:
        if not isinstance(self.sql, str):
            self.sql = "".join(self.sql)
        return self.sql

    def add(self, chars: str, offset: int, lit: int = -1) -> None:
        """Characters that all come from one place (a separator, a placeholder's `${`)."""
        n = len(chars)
        self.sql.append(chars)
        self.src_of.extend([offset] * n)
        self.lit_of.extend([lit] * n)

    def add_run(self, chars: str, offset: int, lit: int = -1) -> None:
        """Characters written one after the other from `offset` on (a single one: an escape's value)."""
        n = len(chars)
        self.sql.append(chars)
        self.src_of.extend(range(offset, offset + n))
        self.lit_of.extend([lit] * n)

    def end_statement(self, offset: int) -> None:
        """Close a call's SQL: `spark.sql` runs one statement, which may or may not end in `;`."""
        tail = ""
        for piece in reversed(self.sql):
            tail = piece.rstrip()
            if tail:
                break
        self.add("\n" if tail.endswith(";") or not tail else "\n;\n", offset)


def dotted(node: ast.AST) -> str | None:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class Offsets:
    """ast's (line, UTF-8 byte column) → character offsets of the text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = [0] + [m.end() for m in _NEWLINE.finditer(text)]

    def __call__(self, line: int, col: int) -> int:
        start = self.starts[line - 1]
        nxt = self.starts[line] if line < len(self.starts) else len(self.text)
        row = self.text[start:nxt]
        if row.isascii():
            return start + col
        return start + len(row.encode("utf-8")[:col].decode("utf-8", "ignore"))


def calls(text: str, callables: Iterable[str]) -> tuple[list[tuple[ast.Call, str]], Offsets]:
    """The calls of `callables` in `text`, in source order; a syntax error raises `PythonSyntaxError`."""
    names = set(callables)
    try:
        tree = ast.parse(text)
    except SyntaxError as e:
        raise PythonSyntaxError(e.msg, e.lineno or 1, e.offset or 1) from None
    except ValueError as e:  # a NUL byte
        raise PythonSyntaxError(str(e), 1, 1) from None
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = dotted(node.func)
            if name is not None and name in names:
                found.append((node, name))
    found.sort(key=lambda c: (c[0].lineno, c[0].col_offset))
    return found, Offsets(text)


def sql_argument(call: ast.Call) -> ast.AST | None:
    if call.args:
        return None if isinstance(call.args[0], ast.Starred) else call.args[0]
    for kw in call.keywords:
        if kw.arg in _ARG_KEYWORDS:
            return kw.value
    return None


def _parts(node: ast.AST) -> list[ast.AST] | None:
    """The literal nodes a string expression concatenates (`"a" "b"` is one node, `"a" + "b"` two), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node]
    if isinstance(node, ast.JoinedStr):
        return [node]
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _parts(node.left), _parts(node.right)
        return None if left is None or right is None else left + right
    return None


def _expected(node: ast.AST, formatted: bool = False) -> list:
    """What Python made of a literal node: texts and fields, adjacent texts merged (`formatted`: the
    fields `str.format` fills)."""
    if isinstance(node, ast.Constant) and formatted:
        import string

        out: list = []
        try:
            for text, name, _, _ in string.Formatter().parse(node.value):
                if text and out and out[-1] is not None:
                    out[-1] += text
                elif text:
                    out.append(text)
                if name is not None:
                    out.append(None)
        except ValueError:
            return [node.value]
        return out
    if isinstance(node, ast.Constant):
        return [node.value] if node.value else []
    out: list = []
    for v in node.values:  # type: ignore[attr-defined]
        if isinstance(v, ast.Constant):
            if out and isinstance(out[-1], str):
                out[-1] += v.value
            elif v.value:
                out.append(v.value)
        else:
            out.append(None)
    return out


def _decoded(run: list[Literal]) -> list:
    out: list = []
    for lit in run:
        for p in lit.pieces:
            if p[0] == "text":
                if out and isinstance(out[-1], str):
                    out[-1] += p[1]
                else:
                    out.append(p[1])
            else:
                out.append(None)
    return out


def add_call(ex: Extracted, call: ast.Call, name: str, text: str, offsets: Offsets, base: int = 0) -> None:
    """Append the SQL of one call (or, when its argument is not a literal, an `Unread` record).
    `base`: the origin offset of `text` (a notebook cell's place among the cells)."""

    def span(node: ast.AST) -> tuple[int, int]:
        return offsets(node.lineno, node.col_offset), offsets(node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined,arg-type]

    arg = sql_argument(call)
    parts = _parts(arg) if arg is not None else None
    if parts is None:
        a, b = span(arg if arg is not None else call)
        ex.unread.append(Unread(name, text[a:b] if arg is not None else None, base + a, base + b))
        return
    # keyword arguments beyond the SQL's: pyspark fills `{name}` fields of the SQL with them (str.format)
    formatted = any(kw.arg not in (None, "args", *_ARG_KEYWORDS) for kw in call.keywords)
    single = len(parts) == 1 and not formatted
    last = 0
    for node in parts:
        a, b = span(node)
        try:
            run = decode_run(text, a, b, formatted)
            if _decoded(run) != _expected(node, formatted):
                raise LiteralError("read differently from Python")
        except LiteralError:
            _add_from_ast(ex, node, base + a)  # positions: the literal's start
            last = base + b - 1
            continue
        fixable = single and len(run) == 1 and not run[0].fstring
        lit_index = -1
        sql_start = len(ex.src_of)
        if fixable:
            lit_index = len(ex.literals)
            ex.literals.append([run[0], sql_start, sql_start])  # the literal, and its SQL's range
        for lit in run:
            for p in lit.pieces:
                if p[0] == "text":
                    ex.add_run(p[1], base + p[2], lit_index)
                else:
                    f = p[1]
                    _add_field(ex, placeholder_name(f.expr), base + f.start, base + f.expr_start, base + f.end)
            last = base + lit.content_end
        if fixable:
            ex.literals[lit_index][2] = len(ex.src_of)
    ex.end_statement(last)


def _add_field(ex: Extracted, name: str, start: int, expr_start: int, end: int) -> None:
    ex.add("${", start)
    for i, c in enumerate(name):
        ex.add(c, min(expr_start + i, end - 2))
    ex.add("}", end - 1)


def _add_from_ast(ex: Extracted, node: ast.AST, at: int) -> None:
    if isinstance(node, ast.Constant):
        ex.add(node.value, at)
        return
    for v in node.values:  # type: ignore[attr-defined]
        if isinstance(v, ast.Constant):
            ex.add(v.value, at)
        else:
            _add_field(ex, placeholder_name(ast.unparse(v.value)), at, at, at + 2)  # type: ignore[attr-defined]


def extract_python(text: str, callables: Iterable[str], ex: Extracted | None = None, base: int = 0) -> Extracted:
    """The SQL of a Python text (see the module docstring)."""
    ex = ex if ex is not None else Extracted()
    found, offsets = calls(text, callables)
    for call, name in found:
        add_call(ex, call, name, text, offsets, base)
    return ex
