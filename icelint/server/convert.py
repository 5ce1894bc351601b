"""Findings as the editor sees them: diagnostics, quick fixes, suppression comments and hover text.

Positions: a finding's line and column are 1-based and count characters (the column of its last
character is inclusive); LSP positions are 0-based and count UTF-16 code units, the end exclusive.
A byte-order mark is not part of the text icelint checks, but it is part of the editor's first line.

The help goes into the diagnostic's message, after a blank line, as the JSON and text outputs show
it: it is the remedy (SQL that works when pasted), and editors show `relatedInformation` only as
links to other places, which the help is not (ruff's server sends none either).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from lsprotocol import types as lsp

from icelint.values.findings import Finding, Severity

SOURCE = "icelint"
REASON = "<reason>"  # what a suppression comment's reason says until the user writes theirs

SEVERITIES = {
    Severity.ERROR: lsp.DiagnosticSeverity.Error,
    Severity.WARNING: lsp.DiagnosticSeverity.Warning,
    Severity.INFO: lsp.DiagnosticSeverity.Information,
}


class Lines:
    """The editor's text of one document, for positions: 1-based characters → LSP positions."""

    def __init__(self, text: str) -> None:
        self.bom = text.startswith("\ufeff")
        self.text = text
        self.lines = text.split("\n")

    def position(self, line: int, column: int) -> lsp.Position:
        """The LSP position before the character at 1-based `line`, 0-based `column` (of icelint's text)."""
        if self.bom and line == 1:
            column += 1
        n = len(self.lines)
        if line < 1:
            return lsp.Position(0, 0)
        if line > n:
            return lsp.Position(n - 1, _utf16(self.lines[-1], len(self.lines[-1])))
        row = self.lines[line - 1]
        return lsp.Position(line - 1, _utf16(row, max(0, column)))

    def offset_position(self, offset: int) -> lsp.Position:
        """The LSP position of a character offset of the text without its byte-order mark."""
        body = self.text[1:] if self.bom else self.text
        line = body.count("\n", 0, offset)
        start = body.rfind("\n", 0, offset) + 1
        return self.position(line + 1, offset - start)


def _utf16(row: str, chars: int) -> int:
    head = row[:chars]
    if head.isascii():
        return len(head)
    return len(head.encode("utf-16-le", "surrogatepass")) // 2


def finding_range(f: Finding, lines: Lines) -> lsp.Range:
    return lsp.Range(lines.position(f.line, f.column - 1), lines.position(f.end_line, f.end_column))


def diagnostic(f: Finding, lines: Lines, docs_url: str | None) -> lsp.Diagnostic:
    from icelint.rules.kit.docs_url import rule_url

    message = f.message if not f.help else f"{f.message}\n\n{f.help}"
    return lsp.Diagnostic(
        range=finding_range(f, lines),
        message=message,
        severity=SEVERITIES[f.severity],
        code=f.rule,
        code_description=lsp.CodeDescription(href=rule_url(f.rule, f.name, docs_url)),
        source=SOURCE,
    )


def error_diagnostic(text: str) -> lsp.Diagnostic:
    """An input error (a broken configuration, a missing migrations folder): at the file's start."""
    return lsp.Diagnostic(range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), message=f"icelint: {text}",
                          severity=lsp.DiagnosticSeverity.Error, source=SOURCE)


def _overlaps(a: lsp.Range, b: lsp.Range) -> bool:
    def key(p: lsp.Position) -> tuple[int, int]:
        return p.line, p.character

    return key(a.start) <= key(b.end) and key(b.start) <= key(a.end)


def at(findings: Iterable[Finding], lines: Lines, where: lsp.Range) -> list[Finding]:
    """The findings whose range meets `where` (a cursor or a selection)."""
    return [f for f in findings if _overlaps(finding_range(f, lines), where)]


def code_actions(uri: str, findings: Sequence[Finding], lines: Lines, statements: Sequence, docs_url: str | None) -> list[lsp.CodeAction]:
    """The quick fixes of `findings` (safe ones first and preferred, unsafe ones labelled), then a
    suppression comment for each rule on its statement, then for the whole file."""
    from icelint.values.fix import Applicability

    fixes: list[tuple[int, lsp.CodeAction]] = []
    suppress: list[lsp.CodeAction] = []
    seen: set[tuple] = set()
    for f in findings:
        diag = diagnostic(f, lines, docs_url)
        fix = f.fix
        if fix is not None and fix.edits and fix.applicability is not Applicability.DISPLAY_ONLY:
            safe = fix.applicability is Applicability.SAFE
            title = f"{f.rule}: {fix.message}" + ("" if safe else " (unsafe)")
            edits = [lsp.TextEdit(lsp.Range(lines.position(e.row, e.column - 1), lines.position(e.end_row, e.end_column - 1)),
                                  e.content) for e in fix.edits]
            if ("fix", title) not in seen:
                seen.add(("fix", title))
                fixes.append((0 if safe else 1, lsp.CodeAction(
                    title=title, kind=lsp.CodeActionKind.QuickFix, diagnostics=[diag], is_preferred=safe,
                    edit=lsp.WorkspaceEdit(changes={uri: edits}))))
        edit = statement_suppression(f, lines, statements)
        if edit is not None and ("stmt", f.rule, edit.range.start.line) not in seen:
            seen.add(("stmt", f.rule, edit.range.start.line))
            suppress.append(lsp.CodeAction(
                title=f"Suppress {f.rule} ({f.name}) for this statement", kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diag], edit=lsp.WorkspaceEdit(changes={uri: [edit]})))
    for f in findings:
        if ("file", f.rule) in seen:
            continue
        seen.add(("file", f.rule))
        start = lines.position(1, 0)
        suppress.append(lsp.CodeAction(
            title=f"Suppress {f.rule} ({f.name}) in this file", kind=lsp.CodeActionKind.QuickFix,
            diagnostics=[diagnostic(f, lines, docs_url)],
            edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(lsp.Range(start, start), file_comment(f.rule, lines))]})))
    return [a for _, a in sorted(fixes, key=lambda x: x[0])] + suppress


def file_comment(code: str, lines: Lines) -> str:
    newline = "\r\n" if "\r\n" in lines.text else "\n"
    return f"-- icelint: ignore-file {code} -- {REASON}{newline}"


def statement_suppression(f: Finding, lines: Lines, statements: Sequence) -> lsp.TextEdit | None:
    """The edit that puts `-- icelint: ignore CODE -- <reason>` before the finding's statement, as
    `icelint check --add-suppressions` writes it; None when the finding belongs to no statement."""
    from icelint.fixes.add_suppressions import edit

    body = lines.text[1:] if lines.bom else lines.text
    new, n = edit(body, statements, [f], REASON)
    if not n or new == body:
        return None
    # the one change as one edit: what differs between the common start and the common end
    start = 0
    limit = min(len(body), len(new))
    while start < limit and body[start] == new[start]:
        start += 1
    end_old, end_new = len(body), len(new)
    while end_old > start and end_new > start and body[end_old - 1] == new[end_new - 1]:
        end_old -= 1
        end_new -= 1
    return lsp.TextEdit(lsp.Range(lines.offset_position(start), lines.offset_position(end_old)), new[start:end_new])


def explain(code: str) -> str | None:
    """A rule's documentation as `icelint explain CODE` prints it (Markdown)."""
    from icelint import rules

    r = rules.get(code)
    if r is None:
        return None
    return f"# {r.code} {r.name} ({r.severity.value})\n\n" + r.doc.strip() + "\n"


def hover(findings: Sequence[Finding], lines: Lines, pos: lsp.Position) -> lsp.Hover | None:
    """The documentation of the rules whose findings are under the cursor."""
    here = lsp.Range(pos, pos)
    codes = list(dict.fromkeys(f.rule for f in at(findings, lines, here)))
    docs = [d for d in (explain(c) for c in codes) if d]
    if not docs:
        return None
    return lsp.Hover(contents=lsp.MarkupContent(kind=lsp.MarkupKind.Markdown, value="\n---\n\n".join(docs)))
