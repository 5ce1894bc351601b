"""The JUnit report puts each finding in the test case of the statement holding it: found by a binary
search over a file's statements (a scan per finding made 12,500 findings take 14 s), the same case
as the scan it replaced, on random layouts (statements apart, touching, overlapping, out of order)."""

from __future__ import annotations

import random

import pytest

from icelint.values.findings import Finding, Severity
from icelint.reporters.junit import _cases


def scan(path, statements, findings):
    """The scan it replaced: the first statement holding the finding, else a case of its line."""
    cases = [(f"{path}:{st[0]}:{st[1]}", []) for st in statements]
    loose: dict = {}
    for f in findings:
        k = next((i for i, st in enumerate(statements) if (st[0], st[1]) <= (f.line, f.column) <= (st[2], st[3])), None)
        (loose.setdefault(f.line, []) if k is None else cases[k][1]).append(f)
    return cases + [(f"{path}:{line}:{fs[0].column}", fs) for line, fs in sorted(loose.items())]


def finding(line: int, column: int) -> Finding:
    return Finding("ICE001", "drop-then-add", Severity.ERROR, "V1__x.sql", line, column, line, column + 3, "m")


@pytest.mark.parametrize("seed", range(40))
def test_same_cases_as_the_scan(seed: int) -> None:
    rng = random.Random(seed)
    statements = []
    line = 1
    for _ in range(rng.randrange(0, 12)):
        line += rng.choice([0, 0, 1, 2])
        col = rng.randrange(1, 30)
        end_line = line + rng.choice([0, 0, 1, 3])
        statements.append((line, col, end_line, rng.randrange(1, 40) if end_line > line else col + rng.randrange(0, 20)))
        line = end_line
    if rng.random() < 0.2:
        rng.shuffle(statements)
    findings = sorted((finding(rng.randrange(1, line + 3), rng.randrange(1, 45)) for _ in range(rng.randrange(0, 25))),
                      key=lambda f: f.sort_key)  # fmt: skip
    assert _cases("V1__x.sql", statements, findings) == scan("V1__x.sql", statements, findings)
