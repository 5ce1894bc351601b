"""`engine/placeholders.py`'s `adjust` (the parse errors an unresolved placeholder explains are dropped)
finds the statements the scan of every hole and every parse error found.
"""

from __future__ import annotations

import random

import pytest


def _adjust_by_scan(findings, parsed_files, maps, rules):
    """What `placeholders.adjust` computed before its searches: every hole for every statement,
    every broken statement for every parse error."""
    from icelint.engine.placeholders import PARSE_ERROR, text_findings
    from icelint.values.findings import in_report_order

    if not any(m.unresolved for m in maps.values()):
        return list(findings)
    broken: dict = {}
    files = {f.path: f for f in parsed_files}
    for path, m in maps.items():
        pf = files.get(path)
        if pf is None or not m.unresolved:
            continue
        index = m._sub_index()
        holes = [index.position(start) for _, start, _ in m.unresolved]
        for st in pf.statements:
            sp = st.span
            if any((sp.line, sp.column) <= h <= (sp.end_line, sp.end_column) for h in holes):
                broken.setdefault(path, []).append(((sp.line, sp.column), (sp.end_line, sp.end_column)))
    out = [f for f in findings if not (f.rule == PARSE_ERROR and any(a <= (f.line, f.column) <= b for a, b in broken.get(f.path, ())))]
    out += text_findings({p: m for p, m in maps.items() if p in files}, rules)
    return in_report_order(out)


@pytest.mark.parametrize("seed", range(25))
def test_placeholder_adjust_equals_the_scan(seed: int) -> None:
    """Statements with and without unresolved placeholders, parse errors inside and outside them,
    several on a line: the statements whose parse errors are dropped are the scan's."""
    from icelint.config import load_config
    from icelint.engine import placeholders
    from icelint.engine.checker import lint_run
    from icelint.engine.pipeline import replay_sources
    from icelint.values.source import SourceFile

    rng = random.Random(seed)
    pieces = ["CREATE TABLE ${s}.t (id bigint) USING iceberg;", "ALTER TABLE db.t ADD COLUMN ${c} int;",
              "ALTER TABLE db.t ADD COLUMN ( oops;", "ALTER TABLE ${s}.t DROP COLUMN x ((;", "SELECT 1;",
              "ALTER TABLE db.t ADD COLUMN a${n} int;", "ALTER TABLE db.${t} RENAME COLUMN a TO b;", "\n", "\n", " "]  # fmt: skip
    texts = {f"f{k}.sql": "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))) + "\n" for k in range(2)}
    rules = load_config().rules()
    sources, maps = placeholders.prepare([SourceFile(p, t) for p, t in texts.items()], {"n": "1"} if seed % 2 else {})
    run = replay_sources(sources)
    found = lint_run(run, rules)
    want = _adjust_by_scan(found, run.parsed, maps, rules)
    assert placeholders.adjust(found, run.parsed, maps, rules) == want
    assert any(f.rule == "ICE006" for f in found) or seed % 5  # most seeds have parse errors to drop or keep
