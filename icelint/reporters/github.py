"""GitHub Actions: workflow-command annotations on stdout, and a Markdown job summary.

`::error file=F,line=L,col=C,endLine=EL,endColumn=EC,title=ICE001 drop-then-add::message`, with
the escapes of the Actions toolkit (`%`, CR and LF in the message; also `:` and `,` in properties).
GitHub shows only the first annotations of a step on the pull request, so when
`$GITHUB_STEP_SUMMARY` is set the full list (and what was suppressed, with the reasons) is
appended to the job summary as Markdown.
"""

from __future__ import annotations

import os
from typing import IO

from icelint.values.findings import Finding, Severity
from icelint.reporters.report import Report

COMMAND = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice"}
ICON = {Severity.ERROR: "🔴", Severity.WARNING: "🟡", Severity.INFO: "🔵"}
MAX_ROWS = 200


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n != 1 else ''}"


def escape_data(s: str) -> str:
    return s.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(s: str) -> str:
    return escape_data(s).replace(":", "%3A").replace(",", "%2C")


def _file(path: str) -> str:
    """Relative to the workspace (the current directory) where possible: GitHub matches repository paths."""
    if os.path.isabs(path):
        rel = os.path.relpath(path)
        if not rel.startswith(".."):
            path = rel
    return path.replace(os.sep, "/")


def annotation(f: Finding) -> str:
    props = {
        "file": _file(f.path),
        "line": str(f.line),
        "col": str(f.column),
        "endLine": str(f.end_line),
        "endColumn": str(f.end_column + 1),
        "title": f"{f.rule} {f.name}",
    }
    text = f.message + (f"\nhelp: {f.help}" if f.help else "")
    joined = ",".join(f"{k}={escape_property(v)}" for k, v in props.items())
    return f"::{COMMAND[f.severity]} {joined}::{escape_data(text)}"


def _cell(s: str) -> str:
    return " ".join(s.split()).replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")


def _where(f: Finding) -> str:
    label = f"{f.path}:{f.line}:{f.column}".replace(os.sep, "/")
    server, repo, sha = (os.environ.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_SHA"))
    if server and repo and sha and not os.path.isabs(f.path) and not f.path.startswith(".."):
        path = os.path.normpath(f.path).replace(os.sep, "/")
        return f"[`{label}`]({server}/{repo}/blob/{sha}/{path}#L{f.line})"
    return f"`{label}`"


def markdown_summary(report: Report) -> str:
    s = report.summary
    counts = []
    for n, word in ((s["errors"], "error"), (s["warnings"], "warning"), (s["infos"], "info")):
        counts.append(f"{n} {word}{'s' if n != 1 and word != 'info' else ''}")
    head = "❌" if s["errors"] else ("⚠️" if s["warnings"] or s["infos"] else "✅")
    files = f"{s['files']} file{'s' if s['files'] != 1 else ''}, {s['statements']} statement{'s' if s['statements'] != 1 else ''}"
    lines = ["## icelint", "", f"{head} **{', '.join(counts)}** in {files}" + (f"; {s['suppressed']} suppressed" if s["suppressed"] else "") + ".", ""]
    if report.findings:
        lines += ["| Severity | Rule | Location | Message |", "| --- | --- | --- | --- |"]
        for f in report.findings[:MAX_ROWS]:
            msg = _cell(f.message) + (f"<br>*help:* {_cell(f.help)}" if f.help else "")
            lines.append(f"| {ICON[f.severity]} {f.severity.value} | `{f.rule}` {f.name} | {_where(f)} | {msg} |")
        if len(report.findings) > MAX_ROWS:
            lines.append(f"\n…and {len(report.findings) - MAX_ROWS} more (run `icelint check` locally for all of them).")
        lines.append("")
    if report.suppressed:
        n = len(report.suppressed)
        lines += [f"<details><summary>{n} suppressed finding{'s' if n != 1 else ''}</summary>", ""]
        lines += ["| Rule | Location | Reason | Message |", "| --- | --- | --- | --- |"]
        for f in report.suppressed[:MAX_ROWS]:
            reason = _cell(f.suppressed_reason) if f.suppressed_reason else "*(no reason given)*"
            lines.append(f"| `{f.rule}` {f.name} | {_where(f)} | {reason} | {_cell(f.message)} |")
        lines += ["", "</details>", ""]
    return "\n".join(lines) + "\n"


def render(report: Report, out: IO[str], **_: object) -> None:
    for f in report.findings:
        out.write(annotation(f) + "\n")
    s = report.summary
    out.write(
        f"icelint: {plural(s['files'], 'file')}, {plural(s['statements'], 'statement')}: "
        f"{plural(s['errors'], 'error')}, {plural(s['warnings'], 'warning')}, {s['infos']} info, {s['suppressed']} suppressed\n"
    )
    summary_path = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary_path:
        with open(summary_path, "a", encoding="utf-8") as fh:
            fh.write(markdown_summary(report))
