"""Fixes that work when applied.

Over every input of `tests/rules/test_help_replay.py` (the rule cases, the replay fixtures, the story
and the differential cases, their `setup.sql` replayed before the migration), the fixes that `--fix
--unsafe-fixes` applies (`Fix.applies(unsafe=True)`: safe and unsafe, never display-only) are applied
with `icelint.values.fix.apply_fixes`, the files are replayed and linted again, and:

- the finding is gone: fewer findings of the same rule on the same table and column (lines move:
  a fix may write several statements where there was one);
- no new error appears: every error finding after the fix (by rule, file, table and column) was
  there before, except (as in test_help_replay) a later statement on the same table that Spark now
  rejects because a fixed statement that Spark rejected now runs (`adapt_later`);
- field ids are kept: every field id of the original final schema that the table had before the
  migration (in its state, or from the statement creating it) is in the fixed final schema, under
  the same name unless an applied fix renames it (its edit says `RENAME COLUMN ... TO <name>`);
- a table whose fixes were all safe rewrites of statements Spark accepted (REPLACE COLUMNS, char/
  varchar) ends with exactly the original's columns (names, types, nullability, docs, order): the
  fix changes the field ids kept, nothing else.

Fixes are computed against the replayed state of the original migration, and most of them change
that state (a rejected statement now runs), so a later fix on the same table may be stale: each
pass applies the first fix of every table (in run order, as `--fix` must: one fix per table, then
lint again), until none is left. That must happen within a few passes (a fix whose result offers a
fix for the same thing again would loop).
"""

from __future__ import annotations

from collections import Counter

import pytest

from icelint.engine import suppress
from icelint.values.findings import Finding, Severity
from icelint.values.fix import Applicability, Fix, apply_fixes
from icelint.engine.pipeline import parse_sources, replay
from icelint.replay.engine import table_key
from icelint.rules import ALL_RULES
from icelint.values.source import SourceFile
from icelint.sources import StateOptions, load_states
from tests.rules.test_help_replay import INPUTS, Input

MAX_PASSES = 12


def lint_run(inp: Input, files: tuple[tuple[str, str], ...]):
    parsed = parse_sources(SourceFile(p, t) for p, t in files)
    states = load_states(StateOptions(metadata=list(inp.metadata))).assign(parsed.referenced_tables, parsed.created_tables)
    run = replay(parsed, states)
    return run, suppress.lint(run, ALL_RULES).findings


def reviewed(inp: Input, findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if inp.reviewed is None or f.path in inp.reviewed]


def first_fix_per_table(inp: Input, findings: list[Finding]) -> list[Finding]:
    """The findings whose fix this pass applies: the first applicable one of each table, in run order."""
    order = {p: i for i, (p, _) in enumerate(inp.files)}
    chosen: dict[str, Finding] = {}
    for f in sorted(
        (f for f in reviewed(inp, findings) if f.fix is not None and f.fix.applies(unsafe=True)),
        key=lambda f: (order.get(f.path, 0), min(e.start for e in f.fix.edits)),
    ):
        chosen.setdefault((f.table or f.path).lower(), f)
    return list(chosen.values())


def apply_to_files(files, fixes_by_path: dict[str, list[Fix]]):
    out = []
    for p, t in files:
        if p in fixes_by_path:
            t, taken = apply_fixes(t, fixes_by_path[p])
            assert taken, f"{p}: no fix applied"
        out.append((p, t))
    return tuple(out)


def key(f: Finding) -> tuple:
    return (f.rule, f.path, (f.table or "").lower(), (f.column_path or "").lower())


def first_schemas(run) -> dict[str, object]:
    """table → its schema before the migration (its state) or as the migration first created it."""
    out = {k: v.schema for k, v in run.result.initial.items() if v is not None}
    for o in run.result.outcomes:
        if o.table and o.table not in out and o.after is not None and o.before is None:
            out[o.table] = o.after.schema
    return out


def shape(schema) -> list[tuple]:
    """A schema without its field ids: every field's path, type, nullability and doc, in order."""
    return [(tuple(p.lower() for p in path), str(f.type), f.required, f.doc or None) for path, f in schema.all_fields()]


def schema_problems(run0, run1, exact_tables: set[str]) -> list[str]:
    """Tables whose fixes were all safe rewrites of accepted statements must reach the same columns."""
    problems = []
    for table in exact_tables:
        m0, m1 = run0.result.tables.get(table), run1.result.tables.get(table)
        if m0 is None or m1 is None:
            continue
        a, b = shape(m0.schema), shape(m1.schema)
        if a != b:
            problems.append(f"{table}: safe fixes changed the columns: {[x for x in a if x not in b]} -> {[x for x in b if x not in a]}")
    return problems


def field_id_problems(run0, run1, applied: list[Fix]) -> list[str]:
    problems = []
    first = first_schemas(run0)
    renamed_to = " ".join(e.content for fx in applied for e in fx.edits if "RENAME COLUMN" in e.content)
    for table, meta0 in run0.result.tables.items():
        if meta0 is None or table not in first:
            continue
        meta1 = run1.result.tables.get(table)
        if meta1 is None:
            problems.append(f"{table}: dropped after the fixes")
            continue
        had = {f.id for _, f in first[table].all_fields()}
        for path, f in meta0.schema.all_fields():
            if f.id not in had:
                continue  # a field the migration added: its id is whatever the (fixed) migration gives it
            now = meta1.schema.path_of(f.id)
            if now is None:
                problems.append(f"{table}: field id {f.id} (`{'.'.join(path)}`) is gone after the fixes")
            elif tuple(p.lower() for p in now) != tuple(p.lower() for p in path) and f" TO {now[-1]}" not in renamed_to and f" TO `{now[-1]}`" not in renamed_to:
                problems.append(f"{table}: field id {f.id} is `{'.'.join(now)}` after the fixes, `{'.'.join(path)}` before, and no fix renames it")
    return problems


REJECTED_RULES = {"ICE002", "ICE003", "ICE004", "ICE005"}  # they report statements Spark or Iceberg rejects


def adapt_later(g: Finding, chosen: list[Finding]) -> bool:
    """A later statement of the same file, on the same table, that Spark now rejects (ICE005) because a
    fixed statement that Spark rejected now runs: it was written for the table without that change (the
    differential cases probe one rejection per statement). As in test_help_replay, the user's to adapt."""
    return g.rule == "ICE005" and any(
        f.rule in REJECTED_RULES and f.path == g.path and (f.table or "").lower() == (g.table or "").lower()
        and g.line > max(e.row + e.content.count("\n") for e in f.fix.edits)
        for f in chosen
    )


def fix_problems(inp: Input) -> tuple[list[str], int]:
    """Every way applying the fixes fails, and how many fixes were applied."""
    _, applied, problems = apply_fix_passes(inp)
    return problems, len(applied)


def apply_fix_passes(inp: Input) -> tuple[tuple[tuple[str, str], ...], list[Fix], list[str]]:
    """The input's files with every applicable fix applied (pass after pass), the fixes applied, and
    every way that failed."""
    files = inp.files
    run0, found0 = lint_run(inp, files)
    problems: list[str] = []
    applied: list[Fix] = []
    exact: dict[str, bool] = {}  # table → only safe fixes of statements Spark accepted
    current = found0
    for _ in range(MAX_PASSES):
        chosen = first_fix_per_table(inp, current)
        if not chosen:
            break
        by_path: dict[str, list[Fix]] = {}
        for f in chosen:
            by_path.setdefault(f.path, []).append(f.fix)
        files = apply_to_files(files, by_path)
        applied += [f.fix for f in chosen]
        for f in chosen:
            t = table_key(f.table or "")
            exact[t] = exact.get(t, True) and f.fix.applicability is Applicability.SAFE and f.rule not in REJECTED_RULES
        run1, after = lint_run(inp, files)
        before_keys = Counter(key(f) for f in reviewed(inp, current))
        after_keys = Counter(key(f) for f in reviewed(inp, after))
        for f in chosen:
            if after_keys[key(f)] >= before_keys[key(f)]:
                problems.append(f"{f.path}:{f.line} {f.rule} `{f.column_path}`: still reported after its fix {f.fix.message!r}")
        errors_before = Counter(key(f) for f in reviewed(inp, current) if f.severity is Severity.ERROR)
        for g in reviewed(inp, after):
            if g.severity is Severity.ERROR and errors_before[key(g)] == 0 and not adapt_later(g, chosen):
                problems.append(f"new error after fixing {[f.rule + ':' + str(f.line) for f in chosen]}: {g.rule} at {g.path}:{g.line}: {g.message[:200]}")
        if problems:
            break
        current = after
    else:
        problems.append(f"fixes still offered after {MAX_PASSES} passes: {[f.rule for f in first_fix_per_table(inp, current)]}")
    if applied and not problems:
        problems += field_id_problems(run0, run1, applied)
        problems += schema_problems(run0, run1, {t for t, ok in exact.items() if ok})
    return files, applied, problems


FIXED = Counter()


@pytest.mark.parametrize("inp", INPUTS, ids=[i.id for i in INPUTS])
def test_fixes_work_when_applied(inp: Input) -> None:
    problems, n = fix_problems(inp)
    FIXED[inp.id] = n
    assert not problems, f"fixes that fail when applied ({n} applied):\n" + "\n".join(problems)


def test_fixes_are_offered_and_display_only_is_never_applied() -> None:
    """Not vacuous: fixes of several rules and all three applicabilities are offered over the inputs;
    display-only fixes are never selected (not even with --unsafe-fixes)."""
    rules: Counter = Counter()
    kinds: Counter = Counter()
    for inp in INPUTS:
        _, found = lint_run(inp, inp.files)
        for f in reviewed(inp, found):
            if f.fix is None:
                continue
            rules[f.rule] += 1
            kinds[f.fix.applicability] += 1
            if f.fix.applicability is Applicability.DISPLAY_ONLY:
                assert not f.fix.applies(unsafe=True) and not f.fix.applies(unsafe=False)
                assert f not in first_fix_per_table(inp, found)
    assert set(kinds) == set(Applicability), kinds
    assert sum(rules.values()) >= 40 and len(rules) >= 6, rules


def test_fix_edits_keep_terminator_and_comments() -> None:
    """A fix replaces the statement only: its `;`, the comments around it and CRLF line ends stay."""
    text = (
        "CREATE TABLE db.t (id bigint, payload string) USING iceberg;\r\n"
        "INSERT INTO db.t VALUES (1, 'a');\r\n"
        "-- drop it\r\n"
        "ALTER TABLE db.t DROP COLUMN payload; -- after\r\n"
        "ALTER TABLE db.t ADD COLUMN payload binary;\r\n"
    )
    inp = Input("crlf", (("V1__x.sql", text),))
    _, found = lint_run(inp, inp.files)
    fixes = [f.fix for f in found if f.rule == "ICE001" and f.fix is not None]
    assert fixes, [f.rule for f in found]
    new, taken = apply_fixes(text, fixes)
    assert taken == fixes[:1]
    assert new == text.replace("DROP COLUMN payload;", "RENAME COLUMN payload TO payload_old;")
    _, again = lint_run(inp, (("V1__x.sql", new),))
    assert not [f for f in again if f.fix is not None and f.fix.applies(unsafe=True)], "a second --fix changes more"
