"""Every rule's docstring is its documentation, in ruff's shape, and its SQL examples are true."""

from __future__ import annotations

import re

import pytest

from icelint.values.findings import Severity
from icelint.engine.pipeline import replay_text
from icelint.rules import ALL_RULES
from icelint.rules.kit.base import Rule
from icelint.values.source import SourceFile

HEADINGS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead")
IDS = [r.code for r in ALL_RULES]


def section(doc: str, heading: str) -> str:
    """The text under `heading`, up to the next `## ` heading."""
    lines = doc.splitlines()
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "\n".join(lines[start:end])


class PythonBlock(str):
    """A ```python example (a rule about SQL inside Python): checked as `icelint check x.py` reads it."""

    def sql(self) -> str:
        from icelint import embedded

        return embedded.extract("example.py", str(self))[0]


def sql_blocks(text: str) -> list[str]:
    return [PythonBlock(code) if lang == "python" else code for lang, code in re.findall(r"```(sql|python)\n(.*?)```", text, flags=re.S)]


def findings(sql: str, rules) -> list:
    """What `icelint check` reports for the SQL (rules, then inline suppressions and ICE100); a
    `-- iceberg-version: 1.9` line sets the target runtime, as `--iceberg-version 1.9` does."""
    from icelint.engine import placeholders  # `${name}` without a value is ICE060, as in `icelint check`

    if isinstance(sql, PythonBlock):
        from icelint import embedded
        from icelint.engine.pipeline import replay_sources

        m = embedded.read(SourceFile("example.py", str(sql)), {})
        return embedded.lint(replay_sources([m.substituted]), list(rules), {"example.py": m}).findings + embedded.source_findings({"example.py": m}, list(rules))
    version = re.search(r"^-- iceberg-version: (\S+)$", sql, re.M)
    return placeholders.lint_text(sql, list(rules), path="example.sql", iceberg_version=version[1] if version else "1.10") + plan_findings(sql, rules)


FILE_HEADER = re.compile(r"^-- file: (?P<name>\S+)(?: \((?P<notes>[^)]*)\))?$", re.M)


def plan_findings(sql: str, rules) -> list:
    """The findings of the rules over the plan's files (`icelint.engine.history`) of an example written as several files.

    Each `-- file: V2__x.sql (notes)` comment starts a file; `applied` in the notes makes it history
    (a file of the migrations folder not under review), `changed since main` also puts an older
    version of it in a throw-away git repository, tagged `main`, as `icelint check --since main` sees it.
    """
    import subprocess
    import tempfile
    from pathlib import Path

    from icelint.engine.history import check_plan
    from icelint.plan.pending import Plan

    heads = list(FILE_HEADER.finditer(sql))
    if not heads:
        return []
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        files, pending, changed = [], [], []
        for i, m in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(sql)
            path = root / m.group("name")
            path.write_text(sql[m.start() : end], encoding="utf-8")
            files.append(path)
            notes = m.group("notes") or ""
            if "applied" not in notes:
                pending.append(path)
            if "changed since main" in notes:
                changed.append(path)
                pending.append(path)
        since = None
        if changed:
            def git(*args: str) -> None:
                subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True, capture_output=True)

            current = {p: p.read_text(encoding="utf-8") for p in changed}
            for p in changed:
                p.write_text(current[p] + "-- as merged\n", encoding="utf-8")
            git("init", "-q")
            git("add", *[p.name for p in files if p not in pending or p in changed])
            git("commit", "-q", "-m", "main")
            git("tag", "main")
            for p in changed:
                p.write_text(current[p], encoding="utf-8")
            since = "main"
        return check_plan(Plan(files, pending), list(rules), since=since, cwd=root)


@pytest.mark.parametrize("rule", ALL_RULES, ids=IDS)
def test_doc_has_summary_and_headings_in_order(rule: Rule) -> None:
    lines = rule.doc.strip().splitlines()
    assert lines[0].strip(), "the doc starts with a one-line summary"
    assert len(lines) > 1 and not lines[1].strip(), "the summary is one line, followed by a blank line"
    assert not lines[0].startswith("#"), "the summary is prose, not a heading"
    assert len(rule.summary) <= 120, f"summary too long for `icelint rules`: {len(rule.summary)} chars"
    assert rule.summary == lines[0].strip()
    doc_lines = [ln.rstrip() for ln in rule.doc.splitlines()]
    positions = []
    for h in HEADINGS:
        assert h in doc_lines, f"missing heading {h!r}"
        positions.append(doc_lines.index(h))
    assert positions == sorted(positions), "headings out of order"
    for h in HEADINGS[:2]:
        assert section(rule.doc, h).strip(), f"{h} is empty"


@pytest.mark.parametrize("rule", ALL_RULES, ids=IDS)
def test_example_and_use_instead_have_one_sql_block(rule: Rule) -> None:
    for h in ("## Example", "## Use instead"):
        blocks = sql_blocks(section(rule.doc, h))
        assert len(blocks) == 1, f"{h}: expected exactly one ```sql block, found {len(blocks)}"


@pytest.mark.parametrize("rule", ALL_RULES, ids=IDS)
def test_example_triggers_the_rule(rule: Rule) -> None:
    (sql,) = sql_blocks(section(rule.doc, "## Example"))
    codes = [f.rule for f in findings(sql, [rule])]
    assert rule.code in codes, f"## Example of {rule.code} does not trigger it:\n{sql}"


@pytest.mark.parametrize("rule", ALL_RULES, ids=IDS)
def test_use_instead_does_not_trigger_the_rule(rule: Rule) -> None:
    (sql,) = sql_blocks(section(rule.doc, "## Use instead"))
    hits = [f"{f.line}: {f.message}" for f in findings(sql, [rule])]
    assert not hits, f"## Use instead of {rule.code} triggers it:\n" + "\n".join(hits)


@pytest.mark.parametrize("rule", ALL_RULES, ids=IDS)
def test_use_instead_has_no_error_from_any_rule(rule: Rule) -> None:
    """The recommended SQL must run: no rule reports an error on it (self-contained, creates its table)."""
    (sql,) = sql_blocks(section(rule.doc, "## Use instead"))
    errors = [f"{f.rule} {f.line}: {f.message}" for f in findings(sql, ALL_RULES) if f.severity is Severity.ERROR]
    assert not errors, "\n".join(errors)


SELF_CONTAINED_XFAIL: dict[str, str] = {}


@pytest.mark.parametrize(
    "rule",
    [
        pytest.param(r, marks=[pytest.mark.xfail(strict=True, reason=SELF_CONTAINED_XFAIL[r.code])] if r.code in SELF_CONTAINED_XFAIL else [])
        for r in ALL_RULES
    ],
    ids=IDS,
)
def test_examples_are_self_contained(rule: Rule) -> None:
    """Examples create the table they alter, so they run without --metadata (no unknown-table finding)."""
    for h in ("## Example", "## Use instead"):
        (sql,) = sql_blocks(section(rule.doc, h))
        run = replay_text(sql.sql() if isinstance(sql, PythonBlock) else sql, path="example.sql")
        unknown = [o.step.span.line for o in run.result.outcomes if o.skipped == "unknown-table"]
        assert not unknown, f"{h}: statements on a table the example does not create, lines {unknown}"
