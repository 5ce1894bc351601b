"""The statement parser's cursor over one statement's tokens: looking ahead, accepting, names,
literals, and the errors it raises (`ParseError`, with Spark's words where they are known)."""

from __future__ import annotations

from collections.abc import Callable
from sys import intern

from icelint.values.source import LineIndex, Span
from icelint.syntax.ast import Name
from icelint.syntax.tokens import NUMBER, QIDENT, STRING, WORD, Tok, join_tokens

_new_tuple = tuple.__new__  # a named tuple without its __new__'s argument handling


class ParseError(Exception):
    def __init__(self, message: str, tok: Tok | None, help: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.tok = tok
        self.help = help  # what to write instead, when the parser knows (ICE006's help)


def _nul_error(tok: Tok) -> ParseError:
    """Spark's lexer allows letters, digits and `_` in an unquoted identifier: a NUL byte is a syntax error."""
    return ParseError("a NUL byte (\\x00) is not allowed in an identifier", tok)


def backticked(sql: str) -> str:
    """SQL ready to paste in a help line, as `rules._help.sql` writes it (double backticks when the SQL
    holds one); the parser's helps are built here, below the rules."""
    return f"`` {sql} ``" if "`" in sql else f"`{sql}`"


def quote(s: str, limit: int = 60) -> str:
    s = " ".join(s.split())
    if len(s) > limit:
        s = "..." + s[-(limit - 3) :]
    return f"'{s}'"


class Cursor:
    """One statement's tokens (`t`, `n` of them), the position `i`, and the start of the clause that
    error messages name (`ctx`); the statement parsers (`syntax/elements.py` and the statement kinds
    below it) read through it."""

    __slots__ = ("text", "li", "t", "n", "i", "ctx")

    def __init__(self, text: str, li: LineIndex) -> None:
        self.text = text
        self.li = li
        self.t: list[Tok] = []
        self.n = 0
        self.i = 0
        self.ctx = 0  # start offset of the clause named in error messages

    def kw(self, k: int = 0) -> str | None:
        j = self.i + k
        return self.t[j].kw if j < self.n else None

    def at(self, *kws: str) -> bool:
        return self.i < self.n and self.t[self.i].kw in kws

    def accept(self, kw: str) -> bool:
        if self.i < self.n and self.t[self.i].kw == kw:
            self.i += 1
            return True
        return False

    def accept_seq(self, *kws: str) -> bool:
        i, n, t = self.i, self.n, self.t
        if i + len(kws) > n:
            return False
        for k, kw in enumerate(kws):
            if t[i + k].kw != kw:
                return False
        self.i = i + len(kws)
        return True

    def at_end(self) -> bool:
        return self.i >= self.n

    def error(self, expected: str) -> ParseError:
        prev_end = self.t[self.i - 1].end if self.i else self.ctx
        ctx = self.text[self.ctx : prev_end] if prev_end > self.ctx else ""
        where = f" after {quote(ctx)}" if ctx else ""
        if self.i < self.n:
            tok = self.t[self.i]
            found = quote(self.text[tok.start : tok.end], 40)
        else:
            tok = None
            found = "end of statement"
        return ParseError(f"expected {expected}{where}, found {found}", tok)

    def spark_syntax_error(self, hint: str, extra: bool = False, missing: str | None = None, help: str | None = None) -> ParseError:
        """Spark 3.5's own words for a syntax error at the current token, then what icelint knows."""
        tok = self.t[self.i]
        near = self.text[tok.start : tok.end]
        detail = f": extra input '{near}'" if extra else f": missing '{missing}'" if missing else ""
        return ParseError(f"[PARSE_SYNTAX_ERROR] Syntax error at or near '{near}'{detail}. {hint}", tok, help)

    def tokens_text(self, begin: int, end: int) -> str:
        """The text of tokens `begin` to `end` (exclusive) on one line: one space where the text
        had any space or comment between two tokens, none where it had none (`decimal(10,2)`)."""
        return join_tokens(self.text, self.t, begin, end)

    def iceberg_mismatch(self, expecting: str, hint: str) -> ParseError:
        """The words of Iceberg's SQL-extensions parser (ANTLR's) for an unexpected token."""
        tok = self.t[self.i]
        return ParseError(f"mismatched input '{self.text[tok.start : tok.end]}' expecting {expecting}. {hint}", tok)

    def expect(self, kw: str, expected: str | None = None) -> Tok:
        if self.i < self.n and self.t[self.i].kw == kw:
            self.i += 1
            return self.t[self.i - 1]
        raise self.error(expected or (kw if kw[0].isalpha() else f"'{kw}'"))

    def expect_end(self) -> None:
        if self.i < self.n:
            raise self.error("end of statement")

    def span(self, start: int, end: int) -> Span:
        return self.li.span(start, end)

    def prev_end(self) -> int:
        return self.t[self.i - 1].end

    # ------------------------------------------------------------------ pieces

    def ident(self, what: str = "a name") -> Tok:
        if self.i < self.n:
            tok = self.t[self.i]
            if tok.kind == WORD or tok.kind == QIDENT:
                if tok.kind == WORD and "\x00" in tok.text:
                    raise _nul_error(tok)
                self.i += 1
                return tok
        raise self.error(what)

    def name(self, what: str = "a name") -> Name:
        first = self.ident(what)
        i = self.i
        if i >= self.n or self.t[i].kw != ".":  # the common case, one part: what the loop below makes of it
            return _new_tuple(Name, ((intern(first.text),), self.li.span(first.start, first.end)))
        parts = [intern(first.text)]
        last = first
        while self.i + 1 < self.n and self.t[self.i].kw == ".":
            nxt = self.t[self.i + 1]
            if nxt.kind != WORD and nxt.kind != QIDENT:
                self.i += 1
                raise self.error("a name")
            if nxt.kind == WORD and "\x00" in nxt.text:
                raise _nul_error(nxt)
            parts.append(intern(nxt.text))
            last = nxt
            self.i += 2
        if self.i < self.n and self.t[self.i].kw == "." and self.i + 1 >= self.n:
            self.i += 1
            raise self.error("a name")
        return Name(tuple(parts), self.li.span(first.start, last.end))

    def single_name(self, what: str = "a name") -> Name:
        tok = self.ident(what)
        return Name((intern(tok.text),), self.li.span(tok.start, tok.end))

    def names(self, what: str = "a column name") -> tuple[Name, ...]:
        out = [self.name(what)]
        while self.accept(","):
            out.append(self.name(what))
        return tuple(out)

    def string(self, what: str = "a string literal") -> str:
        # One literal: Spark concatenates 'a' 'b' in expressions, but COMMENT, LOCATION and
        # property keys/values take a single one ('it''s' is a syntax error there).
        if self.i < self.n and self.t[self.i].kind == STRING:
            self.i += 1
            return self.t[self.i - 1].text
        raise self.error(what)

    def integer(self, what: str = "an integer") -> int:
        if self.i < self.n and self.t[self.i].kind == NUMBER:
            try:
                value = int(self.t[self.i].text)
            except ValueError:
                raise self.error(what) from None
            self.i += 1
            return value
        raise self.error(what)

    def expression_text(self, stop: Callable[[], bool] | None = None) -> str:
        """Raw text of an expression: up to the end, or at depth 0 up to ',' / ')' / `stop()`."""
        start_i = self.i
        depth = 0
        while self.i < self.n:
            k = self.t[self.i].kw
            if depth == 0 and (k == "," or k == ")" or (stop is not None and stop())):
                break
            if k in ("(", "[", "{"):
                depth += 1
            elif k in (")", "]", "}"):
                depth -= 1
            self.i += 1
        if self.i == start_i:
            raise self.error("an expression")
        return self.text[self.t[start_i].start : self.t[self.i - 1].end]
