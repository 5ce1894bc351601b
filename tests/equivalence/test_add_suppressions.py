"""`fixes/add_suppressions.py`'s `edit` gives the text and the count the scan of the statements per
finding gave, on generated layouts.
"""

from __future__ import annotations

import random

import pytest


def _edit_by_scan(text, statements, findings, reason):
    """What `baseline.edit` computed before its searches: a scan of the statements per finding, and
    a list insert per statement from the bottom up."""
    from icelint.fixes.add_suppressions import comment

    def statement_of(f):
        pos = (f.line, f.column)
        for i, (line, col, end_line, end_col) in enumerate(statements):
            if (line, col) <= pos <= (end_line, end_col):
                return i
        return None

    wanted: dict = {}
    for f in findings:
        k = statement_of(f)
        if k is not None and f.rule not in wanted.setdefault(k, []):
            wanted[k].append(f.rule)
    if not wanted:
        return text, 0
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    for k in sorted(wanted, reverse=True):
        line, col = statements[k][0], statements[k][1]
        codes = sorted(wanted[k])
        current = lines[line - 1]
        before = current[: col - 1]
        indent = before[: len(before) - len(before.lstrip(" \t"))]
        if k > 0 and statements[k - 1][2] == line and before.strip():
            lines[line - 1 : line] = [before.rstrip(" \t") + newline, indent + comment(codes, reason) + newline, indent + current[col - 1 :]]
        else:
            lines.insert(line - 1, indent + comment(codes, reason) + newline)
    return "".join(lines), len(wanted)


@pytest.mark.parametrize("seed", range(40))
def test_add_suppressions_edit_equals_the_scan(seed: int) -> None:
    """Statements several to a line, indented, spread over lines, after comments, CRLF; findings
    inside and outside them, several per statement: the same text and count as the scan."""
    from icelint.fixes.add_suppressions import edit
    from icelint.syntax.parser import parse_text
    from icelint.values.findings import Finding, Severity

    rng = random.Random(seed)
    pieces = ["ALTER TABLE db.t ADD COLUMN c int;", "  DROP TABLE db.u;", "/* x */ ALTER TABLE db.t\n  DROP COLUMN c;",
              "-- note\n", "\n", " ", "\t", "SELECT 1;"]  # fmt: skip
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))) + "\n"
    if seed % 3 == 0:
        text = text.replace("\n", "\r\n")
    statements = [(s.span.line, s.span.column, s.span.end_line, s.span.end_column) for s in parse_text(text, "m.sql").statements]
    findings = []
    for _ in range(rng.randint(0, 25)):
        line = rng.randint(1, text.count("\n") + 1)
        findings.append(Finding(rule=rng.choice(["ICE001", "ICE011", "ICE019"]), name="n", severity=Severity.ERROR, path="m.sql",
                                line=line, column=rng.randint(1, 40), end_line=line, end_column=41, message="m", help=None))  # fmt: skip
    assert edit(text, statements, findings, "why") == _edit_by_scan(text, statements, findings, "why")
