"""Parse Spark SQL migration files (with Iceberg's SQL extensions) into typed statements.

The whole file is tokenized (`syntax/tokens.py`: sqlglot's Spark tokens, normalised), split into
statements on semicolons, and each statement is read by a small recursive-descent parser,
`_StatementParser`, made of one part per kind of statement: `syntax/alter.py` (ALTER TABLE),
`syntax/create.py` (CREATE TABLE), `syntax/commands.py` (everything else), over the pieces they
share (`syntax/elements.py`: types, columns, transforms, properties) and the token cursor
(`syntax/cursor.py`). Nothing here raises: a statement that does not match the grammar becomes an
`Unparsed` node and parsing continues with the next one.
"""

from __future__ import annotations

import gc

from icelint.values.source import LineIndex, SourceFile, Span
from icelint.syntax.alter import AlterTableParser
from icelint.syntax.ast import Comment, ParsedFile, Statement, Unparsed
from icelint.syntax.commands import CommandParser
from icelint.syntax.create import CreateTableParser
from icelint.syntax.cursor import ParseError, quote
from icelint.syntax.tokens import PUNCT, SEMICOLON, Tok, collect_comments, convert, scan_gap, sqlglot_tokens

__all__ = ["parse_file", "parse_text"]


class _StatementParser(AlterTableParser, CreateTableParser, CommandParser):
    __slots__ = ()

    def parse(self, toks: list[Tok]) -> Statement:
        self.t = toks
        self.n = len(toks)
        self.i = 0
        self.ctx = toks[0].start
        span = self.li.span(toks[0].start, toks[-1].end)
        try:
            return self.statement(span)
        except ParseError as e:
            tok = e.tok or toks[-1]
            return Unparsed(e.message, span, self.li.span(tok.start, tok.end), e.help)
        except RecursionError:  # a limit of icelint's, not the user's syntax error: say so
            tok = toks[min(self.i, self.n - 1)]
            return Unparsed("this statement nests deeper than icelint's parser supports", span, self.li.span(tok.start, tok.end))
        except Exception as e:  # a bug here must not stop the linter
            tok = toks[min(self.i, self.n - 1)]
            return Unparsed(
                f"internal parser error: {type(e).__name__}: {e}", span, self.li.span(tok.start, tok.end)
            )

    def statement(self, span: Span) -> Statement:
        first = self.t[0]
        k = first.kw
        if k == "ALTER":
            if self.kw(1) == "TABLE":
                return self.alter_table(span)
            return self.other(span)
        if (k == "CREATE" or k == "DROP") and self.kw(1) == "INDEX":
            index = self.index_statement(k, span)
            if index is not None:
                return index
            return self.other(span)
        if k == "CREATE" or (k == "REPLACE" and self.kw(1) == "TABLE"):
            return self.create(span)
        if k == "DROP":
            if self.kw(1) == "TABLE":
                return self.drop_table(span)
            return self.other(span)
        if k == "SET":
            return self.set_config(span)
        if k == "RESET":
            return self.reset_config(span)
        if k == "USE":
            return self.use(span)
        if k == "CALL":
            return self.call(span)
        if k == "COMMENT" and self.kw(1) == "ON" and self.kw(2) == "TABLE":
            return self.comment_on_table(span)
        if k == "COMMENT" and self.kw(1) == "ON" and self.kw(2) == "COLUMN":
            self.comment_on_column()
        if k in ("OPTIMIZE", "VACUUM"):
            self.delta_command(k)
        if k in ("GRANT", "REVOKE"):
            raise ParseError(
                f"Operation not allowed: {k}.",
                first,
                "Spark SQL grants nothing on its own tables: grant access in the catalog's access control (Hive, Glue, "
                "Unity, Polaris, Ranger), outside this migration, and remove this statement",
            )
        return self.other(span)


# ---------------------------------------------------------------------------- files


def _unterminated_message(text: str, pos: int) -> str:
    c = text[pos] if pos < len(text) else ""
    if c in "'\"":
        return f"unterminated string literal (the quote {c} is never closed)"
    if c == "`":
        return "unterminated quoted identifier (the backtick ` is never closed)"
    if text.startswith("/*", pos):
        return "unterminated comment (/* is never closed)"
    if c and c in "rRxXbB" and pos + 1 < len(text) and text[pos + 1] in "'\"":
        return f"unterminated string literal (the quote {text[pos + 1]} is never closed)"
    return f"cannot tokenize the text starting with {quote(text[pos : pos + 20], 30)}"


def _split(toks: list[Tok]) -> list[list[Tok]]:
    statements: list[list[Tok]] = []
    begin = 0
    for j, tok in enumerate(toks):
        if tok.kw == ";" and tok.kind == PUNCT:
            if j > begin:
                statements.append(toks[begin:j])
            begin = j + 1
    if begin < len(toks):
        statements.append(toks[begin:])
    return statements


def parse_text(text: str, path: str = "<string>") -> ParsedFile:
    """Parse SQL `text` (the contents of `path`) into statements and comments. Never raises."""
    li = LineIndex.shared(path, text)
    # Tens of thousands of small acyclic objects are made here: the cyclic garbage collector's
    # passes over them cost about a third of the time, so it is paused while parsing.
    gc_was_enabled = gc.isenabled()
    gc.disable()
    try:
        return _parse(text, path, li)
    except Exception as e:  # pragma: no cover - last resort: never let a bug stop the linter
        end = max(len(text), 1)
        span = li.span(0, end)
        return ParsedFile(path, (Unparsed(f"internal parser error: {type(e).__name__}: {e}", span, span),))
    finally:
        if gc_was_enabled:
            gc.enable()


def parse_file(source: SourceFile) -> ParsedFile:
    return parse_text(source.text, source.path)


# A whole file's sqlglot tokens cost about 70 bytes per byte of text (a 34 MB file: 2.4 GB), so a
# large file is tokenized and parsed a piece at a time (pieces end after a `;` token); a file up to
# one piece is parsed as before, in one. 64 KB, not 256: a piece's tokens (~4.5 MB) are freed
# between the statements the parse keeps, and the freed memory that could not go back to the
# system was most of the parse's peak (the benchmark x20's: 148 MB, now 133).
_PIECE = 64 * 1024


def _pieces(text: str, size: int = 0):
    """(begin, end, sqlglot tokens of text[begin:end], tokenizing completed) of consecutive pieces of
    `text`, each ending right after a `;` token (the last one: at the end of the text). A piece is
    cut only where tokenizing it alone ends with a `;` token at its last character: a `;` inside a
    string, a comment or a quoted name makes tokenizing fail or end otherwise, and the next `;` is
    tried (after a few, the rest of the text is one piece)."""
    size = size or _PIECE
    n = len(text)
    begin = 0
    while n - begin > size:
        j = text.find(";", begin + size)
        for _ in range(4):
            if j < 0:
                break
            raw, ok = sqlglot_tokens(text[begin : j + 1])
            if ok and raw and raw[-1].token_type == SEMICOLON and raw[-1].start == j - begin:
                yield begin, j + 1, raw, True
                begin = j + 1
                break
            j = text.find(";", j + 1)
        else:
            break
        if j < 0:
            break
    raw, ok = sqlglot_tokens(text[begin:] if begin else text)
    yield begin, n, raw, ok


def _parse(text: str, path: str, li: LineIndex, piece: int = 0) -> ParsedFile:
    parser = _StatementParser(text, li)
    statements: list[Statement] = []
    comments: list[Comment] = []
    for begin, end, raw, ok in _pieces(text, piece):
        statements += _parse_piece(text, li, parser, begin, end, raw, ok, comments)
    return ParsedFile(path, tuple(statements), tuple(comments))


def _parse_piece(
    text: str, li: LineIndex, parser: _StatementParser, begin: int, end: int, raw: list, ok: bool, comments: list[Comment]
) -> list[Statement]:
    """The statements of text[begin:end] (tokenized as `raw`, completely if `ok`); its comments go to `comments`."""
    toks: list[Tok] = []
    failure: Unparsed | None = None
    if ok:
        convert(raw, text, begin, toks)
        collect_comments(text, toks, end, li, comments, begin)
    else:
        # Keep the statements up to the last semicolon tokenized before the failure; the rest of
        # the file is one Unparsed statement.
        cut = len(raw)
        while cut and raw[cut - 1].token_type != SEMICOLON:
            cut -= 1
        convert(raw[:cut], text, begin, toks)
        rest: list[Tok] = []
        convert(raw[cut:], text, begin, rest)
        everything = toks + rest
        pos = everything[-1].end if everything else begin
        bad, _ = scan_gap(text, pos, len(text), li, [])
        if bad >= len(text):  # no visible culprit: blame the last token read
            bad = everything[-1].start if everything else begin
        collect_comments(text, everything, bad, li, comments, begin)
        first = rest[0].start if rest else bad
        end = max(len(text.rstrip()), bad + 1)
        width = 2 if text.startswith("/*", bad) else 1
        failure = Unparsed(
            _unterminated_message(text, bad),
            li.span(first, end),
            li.span(bad, min(bad + width, len(text))),
        )
    statements: list[Statement] = [parser.parse(s) for s in _split(toks)]
    if failure is not None:
        statements.append(failure)
    return statements
