"""The token stream of a migration file: sqlglot's Spark tokens, normalised, and the comments between them.

The whole file is tokenized with sqlglot's Spark tokenizer (`syntax/tokenizer.py`); `convert`
normalises its tokens into `Tok`s, which `syntax/parser.py` splits into statements. Surprises of
sqlglot's tokenizer handled in `convert`:

* command keywords (CALL, SHOW, EXPLAIN, OPTIMIZE, RENAME, EXECUTE, ADD JAR, ...) at the start of
  a statement swallow the rest of the statement into one STRING token with meaningless offsets;
  that text is tokenized again, with offsets shifted;
* number literals with a type suffix (`10L`, `2.0BD`) become NUMBER, DCOLON and a type token that
  all share the literal's offsets: the two synthetic tokens are dropped;
* some keyword pairs (`PARTITIONED BY`, `ORDER BY`, `DOUBLE PRECISION`, ...) arrive as ONE token
  whose text is normalised: they are split back into words at their real offsets;
* `>>` arrives as two GT tokens, `<>` as one NEQ token (`struct<>`).
"""

from __future__ import annotations

import bisect
import re

from icelint.values.source import LineIndex
from icelint.syntax import tokenizer as _tokenizer
from icelint.syntax.ast import Comment

TokenType = _tokenizer.TokenType

# ---------------------------------------------------------------------------- tokens

WORD, QIDENT, STRING, NUMBER, PUNCT, LITERAL = range(6)

SEMICOLON = TokenType.SEMICOLON
_STRING_TYPES = {TokenType.STRING, TokenType.RAW_STRING, TokenType.NATIONAL_STRING}
_STRING_TYPES.update(t for t in (getattr(TokenType, "UNICODE_STRING", None),) if t is not None)
_LITERAL_TYPES = {
    t
    for t in (
        getattr(TokenType, name, None)
        for name in ("HEX_STRING", "BIT_STRING", "BYTE_STRING", "HEREDOC_STRING")
    )
    if t is not None
}
_COMMANDS: frozenset[TokenType] = frozenset(_tokenizer.COMMANDS)
_COMMAND_PREFIX: frozenset[TokenType] = frozenset(_tokenizer.COMMAND_PREFIX_TOKENS)


class Tok:
    """A normalised token: `kw` is the upper-case text of a bare word or the text of a symbol
    (None for quoted identifiers and literals); `text` is the identifier text (backticks removed),
    the string value or the number as written; `end` is exclusive."""

    __slots__ = ("kind", "kw", "text", "start", "end")

    def __init__(self, kind: int, kw: str | None, text: str, start: int, end: int) -> None:
        self.kind = kind
        self.kw = kw
        self.text = text
        self.start = start
        self.end = end

    def __repr__(self) -> str:  # pragma: no cover - debugging aid
        return f"Tok({self.kind}, {self.kw!r}, {self.text!r}, {self.start}, {self.end})"


def sqlglot_tokens(sql: str) -> tuple[list, bool]:
    """sqlglot tokens of `sql` and whether tokenizing completed (else: the tokens before the error)."""
    tokenizer = _tokenizer.new_tokenizer()
    try:
        return tokenizer.tokenize(sql), True
    except Exception:  # TokenError, or an IndexError escaping from an unterminated comment
        try:
            partial = list(tokenizer.tokens)
        except Exception:
            partial = []
        return partial, False


def _fast_kinds() -> dict[TokenType, int]:
    """Token types whose kind does not depend on their text."""
    kinds: dict[TokenType, int] = {TokenType.VAR: WORD, TokenType.IDENTIFIER: QIDENT, TokenType.NUMBER: NUMBER}
    kinds.update((t, STRING) for t in _STRING_TYPES)
    kinds.update((t, LITERAL) for t in _LITERAL_TYPES)
    symbol_types: set[TokenType] = set(_tokenizer.SINGLE_TOKENS.values())
    word_types: set[TokenType] = set()
    for key, tt in _tokenizer.KEYWORDS.items():
        (word_types if key[:1].isalnum() or key[:1] == "_" else symbol_types).add(tt)
    for tt in symbol_types - word_types - _COMMANDS - set(kinds):
        kinds[tt] = PUNCT
    # Keywords always written as one bare word (ALTER, TABLE, NULL): a WORD whose text is as written
    # (a keyword's token text is the source slice). Multi-word keywords (PARTITIONED BY) and commands
    # keep the general path, which splits or re-tokenizes them.
    multi_word = {tt for key, tt in _tokenizer.KEYWORDS.items() if not key.replace("_", "a").isalnum()}
    for tt in word_types - symbol_types - multi_word - _COMMANDS - set(kinds):
        kinds[tt] = WORD
    return kinds


FAST_KINDS = _fast_kinds()


def convert(raw: list, text: str, offset: int, out: list[Tok]) -> None:
    """Append normalised tokens of `raw` (tokens of text[offset:...]) to `out`."""
    append = out.append
    fast = FAST_KINDS.get
    last_start = -1
    skip = 0
    for i, tok in enumerate(raw):
        if skip:
            skip -= 1
            continue
        start = tok.start + offset
        if start <= last_start:  # synthetic DCOLON/type tokens of a suffixed literal (10L)
            continue
        last_start = start
        end = tok.end + offset + 1
        tt = tok.token_type
        kind = fast(tt)
        if kind == WORD:
            t = tok.text
            append(Tok(WORD, t.upper(), t, start, end))
        elif kind == PUNCT:
            t = tok.text
            append(Tok(PUNCT, t, t, start, end))
        elif kind == QIDENT or kind == STRING:
            append(Tok(kind, None, tok.text, start, end))
        elif kind is not None:  # NUMBER, LITERAL: as written (10L, X'0F')
            append(Tok(kind, None, text[start:end], start, end))
        elif tt in _COMMANDS and (i == 0 or raw[i - 1].token_type in _COMMAND_PREFIX):
            _add_word_tokens(text, start, end, out)
            if i + 1 < len(raw) and raw[i + 1].token_type == TokenType.STRING:
                # The rest of the statement was swallowed into one STRING: tokenize it again.
                body_end = raw[i + 2].start + offset if i + 2 < len(raw) else len(text)
                _convert_body(text, end, body_end, out)
                skip = 1
        else:
            t = tok.text
            if t and (t[0].isalnum() or t[0] == "_"):
                if " " in t:  # a multi-word keyword such as PARTITIONED BY
                    _add_word_tokens(text, start, end, out)
                else:
                    append(Tok(WORD, t.upper(), text[start:end], start, end))
            else:
                append(Tok(PUNCT, t, t, start, end))


def _add_word_tokens(text: str, start: int, end: int, out: list[Tok]) -> None:
    """Word tokens for each whitespace-separated word of text[start:end]."""
    i = start
    while i < end:
        while i < end and text[i].isspace():
            i += 1
        j = i
        while j < end and not text[j].isspace():
            j += 1
        if j > i:
            w = text[i:j]
            out.append(Tok(WORD, w.upper(), w, i, j))
        i = j


def _convert_body(text: str, start: int, end: int, out: list[Tok]) -> None:
    raw, ok = sqlglot_tokens(text[start:end])
    if ok:
        convert(raw, text, start, out)
        return
    # Cannot happen (the same text tokenized before); keep the body as one opaque token.
    body = text[start:end]
    stripped = body.lstrip()
    s = start + len(body) - len(stripped)
    e = start + len(body.rstrip())
    if e > s:
        out.append(Tok(LITERAL, None, text[s:e], s, e))


def statement_tokens(text: str) -> list[Tok]:
    """The normalised tokens of one statement's text, comments left out ([] if it does not tokenize)."""
    raw, ok = sqlglot_tokens(text)
    out: list[Tok] = []
    if ok:
        convert(raw, text, 0, out)
    return out


def join_tokens(text: str, toks: list[Tok], begin: int, end: int) -> str:
    """The text of tokens `begin` to `end` (exclusive) on one line: one space where the text had any
    space or comment between two tokens, none where it had none (`decimal(10,2)`)."""
    out = [text[toks[begin].start : toks[begin].end]]
    for j in range(begin + 1, end):
        if toks[j].start > toks[j - 1].end:
            out.append(" ")
        out.append(text[toks[j].start : toks[j].end])
    return "".join(out)


def one_line(text: str) -> str:
    """A statement on one line, as `join_tokens` writes it (the text as it was if it does not tokenize)."""
    toks = statement_tokens(text)
    return join_tokens(text, toks, 0, len(toks)) if toks else text


# ---------------------------------------------------------------------------- comments


_SPACES = re.compile(r"\s+").match
_new_tuple = tuple.__new__  # a named tuple without its __new__'s argument handling


def scan_gap(
    text: str, pos: int, limit: int, li: LineIndex, comments: list[Comment]
) -> tuple[int, bool]:
    """Collect the comments of text[pos:limit], which should hold only whitespace and comments.

    Returns (offset of the first other character or of an unterminated comment, terminated),
    the offset being `limit` when the gap is clean.
    """
    i = pos
    while i < limit:
        c = text[i]
        if c.isspace():
            i = _SPACES(text, i, limit).end()  # a run of whitespace at once (str.isspace's set)
        elif c == "-" and text.startswith("--", i):
            j = text.find("\n", i, limit)
            if j < 0:
                j = limit
            e = j
            if e > i and text[e - 1] == "\r":
                e -= 1
            comments.append(_new_tuple(Comment, (text[i + 2 : e].strip(), li.span(i, e))))  # one line, `--` included
            i = j
        elif c == "/" and text.startswith("/*", i):
            depth = 1
            j = i + 2
            k = -1  # the next "*/" at or after j, kept while j has not passed it (nested: linear)
            while depth and j < limit:
                if k < j:
                    k = text.find("*/", j, limit)
                o = text.find("/*", j, k if k >= 0 else limit)
                if k < 0:
                    j = limit
                    break
                if 0 <= o < k:
                    depth += 1
                    j = o + 2
                else:
                    depth -= 1
                    j = k + 2
            if depth:
                return i, False
            comments.append(Comment(text[i + 2 : j - 2].strip(), li.span(i, j)))
            i = j
        else:
            return i, True
    return limit, True


def collect_comments(
    text: str, toks: list[Tok], limit: int, li: LineIndex, comments: list[Comment], begin: int = 0
) -> None:
    """Comments between the tokens (and before/after them, from `begin` up to `limit`)."""
    starts = [t.start for t in toks]
    n = len(toks)
    pos = begin
    find = text.find
    next_dash = next_slash = -2  # cached next occurrences (-1: none left, -2: not searched)
    while pos < limit:
        if next_dash != -1 and next_dash < pos:
            next_dash = find("--", pos, limit)
        if next_slash != -1 and next_slash < pos:
            next_slash = find("/*", pos, limit)
        if next_dash < 0 and next_slash < 0:
            return
        p = next_dash if next_slash < 0 or (0 <= next_dash < next_slash) else next_slash
        k = bisect.bisect_right(starts, p)  # toks[k-1].start <= p < toks[k].start
        if k and p < toks[k - 1].end:  # inside a token (a string, ...)
            pos = toks[k - 1].end
            continue
        gap_start = toks[k - 1].end if k else begin
        gap_end = toks[k].start if k < n else limit
        i = gap_start
        while i < gap_end:  # a gap should be clean; step over anything else defensively
            i, _ = scan_gap(text, i, gap_end, li, comments)
            if i < gap_end:
                i += 1
        pos = gap_end
