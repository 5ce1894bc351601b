"""JUnit XML: one `<testsuite>` per file, one `<testcase>` per statement checked, one `<failure>`
per finding on it (CI systems show JUnit reports as test results: Jenkins, GitLab, Azure).

- A test case is named after the statement's place (`V2__x.sql:3:1`); its `classname` is the file.
- Each finding is a `<failure type="ICE001" message="...">` with the position, severity, message
  and help as its text. Findings outside any statement (an unused `ignore-file` suppression) get a
  test case of their own, named after the finding's line.
- Counts (`tests`, `failures`, `errors="0"`, `skipped="0"`) are on `<testsuites>` and each
  `<testsuite>`; `failures` counts failing test cases (a statement with two findings is one); no timestamps and no times, so the same input gives the same bytes.
"""

from __future__ import annotations

import os
from bisect import bisect_right
from typing import IO
from xml.sax.saxutils import escape, quoteattr

from icelint.values.findings import Finding
from icelint.reporters.report import Report


def _attr(value: object) -> str:
    # quoteattr escapes &, <, > and quotes; newlines and tabs in attributes must be character references
    return quoteattr(str(value)).replace("\n", "&#10;").replace("\r", "&#13;").replace("\t", "&#9;")


def _text(value: str) -> str:
    return escape(_clean(value))


def _clean(value: str) -> str:
    """XML 1.0 forbids most control characters, even escaped."""
    return "".join(c for c in value if c in "\t\n\r" or ord(c) >= 0x20)


def _cases(path: str, statements: list[tuple[int, int, int, int]], findings: list[Finding]) -> list[tuple[str, list[Finding]]]:
    """statements: (line, column, end_line, end_column) of each statement of the file."""
    cases: list[tuple[str, list[Finding]]] = [(f"{path}:{st[0]}:{st[1]}", []) for st in statements]
    loose: dict[int, list[Finding]] = {}
    starts = [(st[0], st[1]) for st in statements]
    # a file's statements, in order and apart (each ends before the next starts): the one that can
    # hold a finding is the last to start at or before it, found by a search instead of a scan
    apart = all(starts[i] <= (st[2], st[3]) < starts[i + 1] for i, st in enumerate(statements[:-1]))
    for f in findings:
        at = (f.line, f.column)
        if apart:
            k = bisect_right(starts, at) - 1
            k = k if k >= 0 and at <= (statements[k][2], statements[k][3]) else None
        else:
            k = next((i for i, st in enumerate(statements) if (st[0], st[1]) <= at <= (st[2], st[3])), None)
        if k is None:
            loose.setdefault(f.line, []).append(f)
        else:
            cases[k][1].append(f)
    for line, fs in sorted(loose.items()):
        cases.append((f"{path}:{line}:{fs[0].column}", fs))
    return cases


def render(report: Report, out: IO[str], **_: object) -> None:
    by_path: dict[str, list[Finding]] = {}
    for f in report.findings:
        by_path.setdefault(f.path, []).append(f)
    # a notebook's statements and findings are under its cells (`nb.ipynb:cell 3`): a suite per cell, in its place
    parts = sorted(set(report.parts) & (set(by_path) | set(report.statements_by_file)), key=lambda p: (p.partition(":cell ")[0], int(p.rpartition(" ")[2])))
    paths = []
    for s in report.sources:
        cells = [p for p in parts if p.partition(":cell ")[0] == s.path]
        paths += cells or [s.path]
    paths += [p for p in by_path if p not in set(paths)]
    suites = []
    total_tests = total_failures = 0
    for path in paths:
        cases = _cases(path, report.statements_by_file.get(path, []), by_path.get(path, []))
        failures = sum(1 for _, fs in cases if fs)  # failing test cases, not findings
        total_tests += len(cases)
        total_failures += failures
        lines = [
            f"  <testsuite name={_attr(path.replace(os.sep, '/'))} tests=\"{len(cases)}\" failures=\"{failures}\" errors=\"0\" skipped=\"0\">"
        ]
        for name, fs in cases:
            head = f"    <testcase name={_attr(name.replace(os.sep, '/'))} classname={_attr(path.replace(os.sep, '/'))}"
            if not fs:
                lines.append(head + "/>")
                continue
            lines.append(head + ">")
            for f in fs:
                body = f"{f.path}:{f.line}:{f.column}: {f.rule} {f.name} [{f.severity.value}] {f.message}"
                if f.help:
                    body += f"\nhelp: {f.help}"
                lines.append(
                    f"      <failure type={_attr(f.rule)} message={_attr(_clean(f.message))}>{_text(body)}</failure>"
                )
            lines.append("    </testcase>")
        lines.append("  </testsuite>")
        suites.append("\n".join(lines))
    out.write('<?xml version="1.0" encoding="UTF-8"?>\n')
    out.write(f'<testsuites name="icelint" tests="{total_tests}" failures="{total_failures}" errors="0" skipped="0">\n')
    for s in suites:
        out.write(s + "\n")
    out.write("</testsuites>\n")
