"""Help that works when it is followed.

For every finding over the rule cases (`fixtures/rules`), the replay fixtures (`fixtures/replay`),
the story (`fixtures/story`) and the differential cases (`tests/differential/cases`, their
`setup.sql` replayed as SQL before the migration) whose `help` proposes SQL, the SQL is pasted in
place of the statement it is meant for, the input is replayed and linted again, and:

- the finding is gone: the same rule reports nothing about the same column on the pasted statements;
- no new error appears: no error finding on the pasted statements, and no error finding elsewhere
  that was not there before (compared by rule, file and line: the paste keeps every line number),
  except a later statement that Spark now rejects (ICE005) or a later INSERT: those were written for
  the table without the help's change and are the user's to adapt; data damage (ICE001, ICE003, ...)
  anywhere still fails the test.

What counts as proposed SQL is defined by `icelint.rules.kit.help` (its docstring): every backticked
text that parses as statements and does something (not `SELECT` or `CALL`). It replaces the flagged
statement, or the statement named right before it as "replace the statement at FILE:LINE with".

Also: no help contains a placeholder (`<field>`, `...`) where the replay knows the names.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from icelint.engine import suppress
from icelint.values.findings import Finding, Severity
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES
from icelint.rules.kit.help import proposals
from icelint.values.source import SourceFile
from icelint.sources import StateOptions, load_states
from icelint.syntax.parser import parse_file
from tests.rules.test_rule_cases import CASES

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class Input:
    id: str
    files: tuple[tuple[str, str], ...]  # (path, text), in run order
    metadata: tuple[str, ...] = ()
    reviewed: frozenset[str] | None = None  # paths whose findings count (None: all)
    iceberg_version: str = "1.10"  # a rule case's `-- iceberg-version:`


def _inputs() -> list[Input]:
    out = []
    for c in CASES:
        out.append(Input(f"rules/{c.id}", tuple((str(f), f.read_text(encoding="utf-8")) for f in c.files), tuple(c.metadata),
                         iceberg_version=c.iceberg_version))
    for d in sorted((ROOT / "fixtures" / "replay").iterdir()):
        mig = d / "migration.sql"
        if not mig.is_file():
            continue
        meta = tuple(f"{p.name[: -len('.metadata.json')]}={p}" for p in sorted((d / "before").glob("*.metadata.json")))
        if meta:
            out.append(Input(f"replay/{d.name}", ((str(mig), mig.read_text()),), meta))
        else:
            setup = d / "setup.sql"
            files = ((str(setup), setup.read_text()),) if setup.is_file() else ()
            out.append(Input(f"replay/{d.name}", files + ((str(mig), mig.read_text()),), reviewed=frozenset({str(mig)})))
    story_meta = ROOT / "fixtures" / "replay" / "36_realistic_events_repartition" / "expected" / "db.events.metadata.json"
    for d in sorted(p for p in (ROOT / "fixtures" / "story").iterdir() if p.is_dir()):
        files = tuple((str(p), p.read_text()) for p in sorted(d.glob("*.sql")))
        out.append(Input(f"story/{d.name}", files, (f"db.events={story_meta}",)))
    for d in sorted((ROOT / "tests" / "differential" / "cases").iterdir()):
        if not (d / "setup.sql").is_file():
            continue
        from icelint.plan.discovery import discover

        mig = [Path(p) for p in discover([str(d / "migrations")])] if (d / "migrations").is_dir() else [d / "migration.sql"]
        files = ((str(d / "setup.sql"), (d / "setup.sql").read_text()),) + tuple((str(p), p.read_text()) for p in mig)
        out.append(Input(f"differential/{d.name}", files, reviewed=frozenset(str(p) for p in mig)))
    return out


INPUTS = _inputs()


def lint(inp: Input, files: tuple[tuple[str, str], ...] | None = None) -> list[Finding]:
    parsed = parse_sources(SourceFile(p, t) for p, t in (files or inp.files))
    states = load_states(StateOptions(metadata=list(inp.metadata))).assign(parsed.referenced_tables, parsed.created_tables)
    found = suppress.lint(replay(parsed, states, iceberg_version=inp.iceberg_version), ALL_RULES).findings
    return [f for f in found if inp.reviewed is None or f.path in inp.reviewed]


def _statement_at(path: str, text: str, line: int, column: int | None = None):
    """The span of the statement holding (line, column), or the first statement starting on `line`."""
    for s in parse_file(SourceFile(path, text)).statements:
        sp = s.span
        if column is None:
            if sp.line == line:
                return sp
        elif (sp.line, sp.column) <= (line, column) <= (sp.end_line, sp.end_column):
            return sp
    return None


def _data_writes(files) -> set[tuple[str, int]]:
    """(path, line) of every INSERT/UPDATE/DELETE/MERGE statement."""
    out = set()
    for p, t in files:
        for s in parse_file(SourceFile(p, t)).statements:
            if type(s).__name__ == "Other" and s.keyword.split()[0] in ("insert", "update", "delete", "merge"):
                out.update((p, n) for n in range(s.span.line, s.span.end_line + 1))
    return out


def _paste(files, path: str, span, sql: str):
    out = []
    for p, t in files:
        if p == path:
            lines_kept = t[span.start : span.end].count("\n")
            t = t[: span.start] + sql.rstrip().rstrip(";") + "\n" * lines_kept + t[span.end :]
        out.append((p, t))
    return tuple(out)


def check_help(inp: Input, before: list[Finding]) -> list[str]:
    """Every way a finding's proposed SQL fails when followed, one line each."""
    problems = []
    errors_before = {(f.rule, f.path, f.line) for f in before if f.severity is Severity.ERROR}
    texts = dict(inp.files)
    for f in before:
        for target, sql in proposals(f.help or ""):
            path, line, column = (f.path, f.line, f.column) if target is None else (target[0], target[1], None)
            if path not in texts:
                problems.append(f"{f.path}:{f.line} {f.rule}: help names {path}, not an input file: {f.help}")
                continue
            span = _statement_at(path, texts[path], line, column)
            if span is None:
                problems.append(f"{f.path}:{f.line} {f.rule}: no statement at {path}:{line} for the help's SQL")
                continue
            pasted = _paste(inp.files, path, span, sql)
            after = lint(inp, pasted)
            writes = _data_writes(pasted)
            lines = range(span.line, span.line + texts[path][span.start : span.end].count("\n") + 1)
            here = [g for g in after if g.path == path and g.line in lines]
            still = [g for g in here if g.rule == f.rule and g.column_path == f.column_path]
            # errors on the pasted statements that the original statement had too (another column's finding)
            had = {(g.rule, g.column_path) for g in before if g.path == path and g.line in lines and g is not f}
            new_errors = [g for g in here if g.severity is Severity.ERROR and (g.rule, g.column_path) not in had] + [
                g
                for g in after
                if g.severity is Severity.ERROR and (g.rule, g.path, g.line) not in errors_before
                and not (g.path == path and g.line in lines)
                and (g.path, g.line) not in writes  # rows written for the old column list: the user's to adapt
                # a later statement written for the table as it was without the help (most differential cases
                # probe one failure per statement): Spark rejecting it is the user's to adapt, not data damage
                and g.rule != "ICE005"
            ]
            for g in dict.fromkeys(still + new_errors):
                problems.append(
                    f"{f.path}:{f.line} {f.rule}: following `{sql}` -> {g.rule} {g.severity.value} at {g.path}:{g.line}: "
                    f"{g.message[:200]}"
                )
    return problems


@pytest.mark.parametrize("inp", INPUTS, ids=[i.id for i in INPUTS])
def test_help_sql_works_when_followed(inp: Input) -> None:
    problems = check_help(inp, lint(inp))
    assert not problems, "help that fails when followed:\n" + "\n".join(problems)


PLACEHOLDER = re.compile(r"<[a-z_ -]+>|\.\.\.|…")


def test_no_placeholders_where_names_are_known() -> None:
    bad = []
    for inp in INPUTS:
        for f in lint(inp):
            if PLACEHOLDER.search(f.help or ""):
                bad.append(f"{inp.id} {f.path}:{f.line} {f.rule}: {f.help}")
    assert not bad, "placeholders in findings:\n" + "\n".join(bad)


def test_some_help_is_checked() -> None:
    """The substitution test is not vacuous: many findings propose SQL, of several rules."""
    rules = set()
    count = 0
    for inp in INPUTS:
        for f in lint(inp):
            if proposals(f.help or ""):
                rules.add(f.rule)
                count += 1
    assert count >= 40 and len(rules) >= 6, (count, sorted(rules))
