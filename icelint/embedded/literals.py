"""Python string literals read character by character: each character of a literal's value with
the offset in the source it came from, so positions in the SQL map back to the file.

`decode(src, pos)` reads one literal token (prefix, quotes, escapes, f-string fields) starting at
`pos`; `decode_run(src, start, end)` reads the literals that Python concatenates between `start`
and `end` (`"a" "b"`, across lines inside parentheses). The value is checked against what Python's
own `ast` made of the same literal by the caller (`python_sql`), so a reading error here can only
cost positions, never SQL.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

_PREFIX = re.compile(r"([rRbBuUfF]{0,2})('''|\"\"\"|'|\")")
_SIMPLE = {"\\": "\\", "'": "'", '"': '"', "a": "\a", "b": "\b", "f": "\f", "n": "\n", "r": "\r", "t": "\t", "v": "\v"}
NAME = re.compile(r"[A-Za-z_][\w.]*")


class LiteralError(ValueError):
    """Not a string literal this reader knows (a bytes literal, or text it cannot follow)."""


@dataclass
class Field:
    """An f-string replacement field `{expr}`: its expression's source and where it is."""

    expr: str
    start: int  # offset of `{`
    end: int  # offset after `}`
    expr_start: int


@dataclass
class Literal:
    """One literal token: its value's pieces (text characters with their source offsets, and fields)."""

    start: int  # offset of the prefix (or the quote)
    end: int  # offset after the closing quote
    content_start: int  # offset after the opening quote
    content_end: int  # offset of the closing quote
    quote: str  # ' " ''' """
    raw: bool
    fstring: bool
    # ("text", characters, offset of the first: each of them is at the next offset, or a character
    # written as an escape at the offset of its backslash) or ("field", Field)
    pieces: list = field(default_factory=list)

    @property
    def triple(self) -> bool:
        return len(self.quote) == 3


def decode(src: str, pos: int, formatted: bool = False) -> Literal:
    """`formatted`: `{name}` fields as in an f-string, for a plain literal that `str.format` fills
    (pyspark's `spark.sql("... {t}", t=df)`)."""
    m = _PREFIX.match(src, pos)
    if not m:
        raise LiteralError("not a string literal")
    prefix, quote = m.group(1).lower(), m.group(2)
    if "b" in prefix:
        raise LiteralError("a bytes literal")
    raw, fstr = "r" in prefix, "f" in prefix or formatted
    lit = Literal(pos, 0, m.end(), 0, quote, raw, fstr)
    out = lit.pieces
    i, n = m.end(), len(src)
    special = _special(quote, fstr)
    while True:
        plain = special.search(src, i)  # the characters up to the next quote, backslash, brace or line break: as written
        j = plain.start() if plain is not None else n
        if j > i:
            out.append(("text", src[i:j], i))
            i = j
        if i >= n:
            raise LiteralError("unterminated string")
        c = src[i]
        if src.startswith(quote, i):
            lit.content_end, lit.end = i, i + len(quote)
            return lit
        if c == "\\":
            nxt = src[i + 1 : i + 2]
            if raw:
                out.append(("text", "\\", i))
                if nxt in (quote[0], "\\"):  # kept, but does not end the string
                    out.append(("text", nxt, i + 1))
                    i += 2
                else:
                    i += 1
                continue
            if nxt == "\n":
                i += 2
                continue
            if nxt == "\r":
                i += 3 if src[i + 2 : i + 3] == "\n" else 2
                continue
            if nxt in _SIMPLE:
                out.append(("text", _SIMPLE[nxt], i))
                i += 2
                continue
            if nxt in "01234567" and nxt:
                k = i + 1
                while k < i + 4 and k < n and src[k] in "01234567":
                    k += 1
                out.append(("text", chr(int(src[i + 1 : k], 8)), i))
                i = k
                continue
            width = {"x": 2, "u": 4, "U": 8}.get(nxt)
            if width:
                digits = src[i + 2 : i + 2 + width]
                if len(digits) != width or not all(ch in "0123456789abcdefABCDEF" for ch in digits):
                    raise LiteralError("bad escape")
                out.append(("text", chr(int(digits, 16)), i))
                i += 2 + width
                continue
            if nxt == "N" and src[i + 2 : i + 3] == "{":
                close = src.find("}", i + 3)
                if close < 0:
                    raise LiteralError("bad \\N escape")
                try:
                    out.append(("text", unicodedata.lookup(src[i + 3 : close]), i))
                except KeyError:
                    raise LiteralError("bad \\N escape") from None
                i = close + 1
                continue
            out.append(("text", "\\", i))  # an unknown escape keeps its backslash
            i += 1
            continue
        if fstr and c in "{}":
            if src[i + 1 : i + 2] == c:
                out.append(("text", c, i))
                i += 2
                continue
            if c == "}":
                raise LiteralError("single '}' in f-string")
            i = _field(src, i, lit)
            continue
        if c == "\r":
            out.append(("text", "\n", i))  # Python reads CRLF source lines as LF
            i += 2 if src[i + 1 : i + 2] == "\n" else 1
            continue
        if c == "\n" and not lit.triple:
            raise LiteralError("unterminated string")
        out.append(("text", c, i))
        i += 1


def _field(src: str, i: int, lit: Literal) -> int:
    """Read the replacement field starting at `src[i] == "{"`; returns the offset after its `}`."""
    depth, k, n = 0, i + 1, len(src)
    expr_end = None
    while k < n:
        c = src[k]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                if c != "}":
                    raise LiteralError("unbalanced f-string field")
                break
            depth -= 1
        elif c in "'\"":
            close = src.find(c, k + 1)
            if close < 0:
                raise LiteralError("unterminated string in f-string field")
            k = close
        elif depth == 0 and expr_end is None and (c == ":" or (c == "!" and src[k + 1 : k + 2] != "=")):
            expr_end = k
            if c == ":":  # a format spec may hold nested fields: skip to the matching brace
                inner = 0
                while k < n and not (src[k] == "}" and inner == 0):
                    inner += {"{": 1, "}": -1}.get(src[k], 0)
                    k += 1
                break
        k += 1
    if k >= n:
        raise LiteralError("unterminated f-string field")
    expr = src[i + 1 : expr_end if expr_end is not None else k]
    bare = expr.rstrip()
    if bare.endswith("=") and not bare.endswith(("==", "!=", "<=", ">=")):  # `{x=}`: Python writes `x=` first
        lit.pieces.append(("text", expr, i + 1))
        bare = bare[:-1]
    lit.pieces.append(("field", Field(bare.strip(), i, k + 1, i + 1 + (len(expr) - len(expr.lstrip())))))
    return k + 1


_SPECIALS: dict = {}


def _special(quote: str, fstr: bool) -> re.Pattern:
    """What ends a run of characters that are their own value in a literal of this kind."""
    key = (quote, fstr)
    got = _SPECIALS.get(key)
    if got is None:
        got = _SPECIALS[key] = re.compile("[" + re.escape(quote[0] + "\\\r\n" + ("{}" if fstr else "")) + "]")
    return got


_GAP = re.compile(r"(?:[ \t\f]+|\\\r?\n|\r?\n|#[^\r\n]*)*")


def decode_run(src: str, start: int, end: int, formatted: bool = False) -> list[Literal]:
    """The literal tokens between `start` and `end` (implicit concatenation; blanks, comments and
    line joins between them; a parenthesised group's parentheses are outside the node)."""
    out = []
    i = start
    while i < end:
        out.append(decode(src, i, formatted))
        i = _GAP.match(src, out[-1].end).end()
    if not out or out[-1].end != end:
        raise LiteralError("not a literal run")
    return out


def placeholder_name(expr: str) -> str:
    """The `${...}` name an f-string expression becomes: itself when it is a name (`db`, `cfg.db`),
    else its characters outside letters, digits, `_` and `.` made `_` (`tables["x"]` → `tables_x`)."""
    if NAME.fullmatch(expr):
        return expr
    name = re.sub(r"[^\w.]+", "_", expr).strip("_.") or "expr"
    return name if NAME.fullmatch(name) else "_" + name
