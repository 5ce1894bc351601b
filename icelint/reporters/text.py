"""The text report: ruff/squawk-shaped blocks, colour only on a terminal."""

from __future__ import annotations

from typing import IO

from icelint.values.findings import Finding, Severity
from icelint.reporters.report import Report
from icelint.values.source import LineIndex

_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold blue"}


def _layout(text: str) -> tuple[str, list[int]]:
    """The line as shown (tabs expanded to 4-column stops) and, for each character index, the screen
    column where it starts (one more entry: the line's width). Wide East Asian characters take two
    columns, combining marks none, so that carets line up under what the terminal shows."""
    if text.isascii() and "\t" not in text:
        return text, list(range(len(text) + 1))
    import unicodedata

    shown: list[str] = []
    starts: list[int] = []
    col = 0
    for ch in text:
        starts.append(col)
        if ch == "\t":
            w = 4 - col % 4
            shown.append(" " * w)
        else:
            w = 0 if unicodedata.combining(ch) else 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
            shown.append(ch)
        col += w
    starts.append(col)
    return "".join(shown), starts


# A source line longer than this (in characters) is shown cut to this many around the finding's start,
# with `...` where it was cut: a one-line file of thousands of columns, or a struct type of thousands
# of fields, would otherwise be printed whole under every finding on it (rustc cuts long lines too).
MAX_SHOWN = 320
_LEAD = 40  # characters shown before the finding's start on a cut line


def _cut(text: str, start: int, end: int) -> tuple[str, int, int]:
    """`text` (a source line) and the 1-based, inclusive columns `start`..`end` on it; a line longer
    than `MAX_SHOWN` cut around `start`, with the columns moved to the cut line (`end` kept inside it)."""
    if len(text) <= MAX_SHOWN:
        return text, start, end
    lo = max(0, min(start - 1, len(text)) - _LEAD)
    hi = min(len(text), lo + MAX_SHOWN)
    head = "..." if lo else ""
    shift = len(head) - lo
    cut = head + text[lo:hi] + ("..." if hi < len(text) else "")
    return cut, start + shift, min(end, hi) + shift if end >= start else end


def _snippet(f: Finding, index: LineIndex | None) -> list[str]:
    if index is None:
        return []
    if f.line == f.end_line:  # the common case, one plain line: what the loop below makes of it
        n = f.line
        try:
            text = index.line_text(n)
        except IndexError:
            text = None
        start, end = f.column, f.end_column
        if text is not None and len(text) > MAX_SHOWN:
            text, start, end = _cut(text, start, end)
        if text is not None and start >= 1 and text.isascii() and "\t" not in text:
            pad = " " * len(str(n))
            if end < start:
                return [f"{pad} |", f"{n} | {text}"]
            size = len(text)
            first = start - 1 if start - 1 < size else size
            after = end if end < size else size
            return [f"{pad} |", f"{n} | {text}", f"{pad} | {' ' * first}{'^' * max(after - first, 1)}"]
    return _snippet_plain(f, index)


def _snippet_plain(f: Finding, index: LineIndex) -> list[str]:
    """The general case of `_snippet` (tests/equivalence/test_reporters_text.py compares the two)."""
    last_line = min(f.end_line, f.line + 4)
    width = len(str(last_line))
    pad = " " * width
    lines = [f"{pad} |"]
    for n in range(f.line, last_line + 1):
        try:
            text = index.line_text(n)
        except IndexError:
            break
        start = f.column if n == f.line else 1 + (len(text) - len(text.lstrip()))
        end = f.end_column if n == f.end_line else len(text)  # 1-based, inclusive
        text, start, end = _cut(text, start, end)
        shown, starts = _layout(text)
        lines.append(f"{n:>{width}} | {shown}")
        if end >= start:
            first = starts[min(start - 1, len(text))]
            after = starts[min(end, len(text))]
            lines.append(f"{pad} | {' ' * first}{'^' * max(after - first, 1)}")
    if f.end_line > last_line:
        lines.append(f"{pad} | ...")
    return lines


def _fix_lines(f: Finding, text: str, unsafe: bool, counter) -> list[tuple[str, str]]:
    """The fix under the help, as (line, style): its label and message, then the lines it changes
    (`counter`: the report's `fixes.apply.LineCounter`)."""
    from icelint.fixes import apply as fixing

    lines = [(f"  = {fixing.label(f.fix, unsafe)}: {f.fix.message}", "green")]
    lines += [(f"    {line}", "red" if sign == "-" else "green") for sign, line in fixing.preview(f.fix, text, counter)]
    return lines


def render(report: Report, out: IO[str], color: bool | None = None, quiet: bool = False, **_: object) -> None:
    from icelint.cli import color as colors
    from icelint.fixes.apply import LineCounter

    counter = LineCounter()  # the line of each fix previewed, counted once per text
    indexes = {s.path: LineIndex.shared(s.path, s.text) for s in report.sources}
    indexes.update({path: LineIndex(path, text) for path, text in report.parts.items()})  # a notebook's cells
    use_color = colors.use_color(out) if color is None else color
    links = colors.use_links(out)
    console = colors.console(out) if use_color else None

    def emit(text: str, style: str | None = None) -> None:
        if console is not None and style:
            from rich.text import Text

            console.print(Text(text, style=style))
        elif console is not None:
            from rich.text import Text

            console.print(Text(text))
        else:
            out.write(text + "\n")

    def header(f: Finding) -> None:
        head, tail = f"{f.path}:{f.line}:{f.column}: ", f" [{f.severity.value}] {f.message}"
        if not links:
            emit(head + f.rule + tail, _STYLE[f.severity])
            return
        from icelint.rules.kit.docs_url import rule_url

        url = rule_url(f.rule, f.name, report.docs_url)
        if console is None:
            out.write(head + colors.osc8(url, f.rule) + tail + "\n")
        else:
            from rich.style import Style
            from rich.text import Text

            text = Text(head, style=_STYLE[f.severity])
            text.append(f.rule, style=Style.parse(_STYLE[f.severity]) + Style(link=url))
            text.append(tail, style=_STYLE[f.severity])
            console.print(text)

    if console is None and not links:  # plain text: no styles to work out, written in batches
        buf: list[str] = []
        for f in report.findings:
            buf.append(f"{f.path}:{f.line}:{f.column}: {f.rule} [{f.severity._value_}] {f.message}")
            if not quiet:
                buf += _snippet(f, indexes.get(f.path))
                if f.help:
                    buf.append(f"  = help: {f.help}")
                if f.fix is not None and f.fix.edits and f.path in indexes:
                    buf += [line for line, _ in _fix_lines(f, indexes[f.path].text, report.unsafe_fixes, counter)]
                buf.append("")
            if len(buf) > 4096:
                out.write("\n".join(buf) + "\n")
                buf.clear()
        if buf:
            out.write("\n".join(buf) + "\n")
    for f in report.findings if console is not None or links else ():
        header(f)
        if not quiet:
            for line in _snippet(f, indexes.get(f.path)):
                emit(line, "cyan" if line.rstrip().endswith("|") or set(line.split("|", 1)[-1].strip()) <= {"^"} else None)
            if f.help:
                emit(f"  = help: {f.help}", "green")
            if f.fix is not None and f.fix.edits and f.path in indexes:
                for line, style in _fix_lines(f, indexes[f.path].text, report.unsafe_fixes, counter):
                    emit(line, style)
            emit("")
    s = report.summary
    parts = [f"{s['errors']} error{'s' if s['errors'] != 1 else ''}", f"{s['warnings']} warning{'s' if s['warnings'] != 1 else ''}"]
    if s["infos"]:
        parts.append(f"{s['infos']} info")  # a mass noun: "2 info", as in the GitHub summary
    if s["suppressed"]:
        parts.append(f"{s['suppressed']} suppressed")
    tail = ", ".join(parts)
    context = f" (and {report.context_files} as context)" if report.context_files else ""
    if report.fixed is not None:
        tail += f" ({report.fixed} fixed, {len(report.findings)} remaining)"
    emit(
        f"Checked {s['files']} file{'s' if s['files'] != 1 else ''}{context}, {s['statements']} statement{'s' if s['statements'] != 1 else ''}: {tail}.",
        "bold" if s["errors"] or s["warnings"] else "bold green",
    )
    for line in report.inferred:
        emit(f"State: {line}.")
    if any(f.fix is not None for f in report.findings):
        from icelint.fixes import apply as fixing

        line = fixing.summary(report.findings, report.unsafe_fixes, report.fixed)
        if line:
            emit(line)
