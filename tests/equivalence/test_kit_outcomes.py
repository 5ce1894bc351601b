"""`rules/kit/outcomes.py`: the run's index of outcomes (later writes, a statement's span, the first
reference to a table, later adds into a struct) answers as the scan of every outcome it replaced,
after the replay and while it is still going.
"""

from __future__ import annotations

import random


def test_outcome_index_equals_the_scan_of_every_outcome() -> None:
    from icelint.engine.pipeline import replay_text
    from icelint.rules.kit import outcomes as _outcome_index
    from icelint.values import changes as ch

    sql = (
        "CREATE TABLE db.t (id bigint, c string) USING iceberg;\nINSERT INTO db.t VALUES (1, 'a');\n"
        "ALTER TABLE db.t DROP COLUMN c;\nCREATE TABLE db.u (id bigint) USING iceberg;\n"
        "INSERT INTO db.u VALUES (2);\nALTER TABLE db.t ADD COLUMN c string;\nINSERT INTO db.t VALUES (3, 'b');\n"
        "ALTER TABLE db.t DROP COLUMN c;\n"
    )
    from icelint.engine.pipeline import parse_sources
    from icelint.replay.engine import Replay
    from icelint.values.source import SourceFile

    from icelint.engine.context import RunContext

    result = replay_text(sql, path="m.sql").result
    run = RunContext(result)  # the look-ups live on the run's context, built once for it
    outcomes = result.outcomes
    writers = [o for o in outcomes if isinstance(o.step, ch.Commit) and any(isinstance(c, ch.WriteData) for c in o.step.changes)]
    assert writers
    for table in {o.table for o in outcomes}:
        for k in range(-1, len(outcomes) + 1):
            expect = any(o.table == table and o.step.index > k for o in writers)
            assert _outcome_index.writes_after(run, table, k) == expect, (table, k)
    for o in outcomes:
        sp = o.step.span
        assert _outcome_index.statement_span(run, sp.path, sp.line) == sp
    assert _outcome_index.statement_span(run, "m.sql", 99) is None
    # while the replay is still going (`checker.lint_replay`), after each step: the same answers
    # about the steps replayed so far, the steps ahead read by their (qualified) table names
    steps = parse_sources([SourceFile("m.sql", sql)]).steps
    streamed, ahead = Replay().stream(steps)
    streamed_run = RunContext(streamed)  # one context for the whole stream: its look-ups grow with the outcomes
    for done in ahead:
        for table in {o.table for o in outcomes}:
            for k in range(-1, done.step.index + 1):
                expect = any(o.table == table and o.step.index > k for o in writers)
                assert _outcome_index.writes_after(streamed_run, table, k) == expect, (table, k, done.step.index)


def test_outcome_index_spans_over_files_and_shared_lines() -> None:
    """Files with statements on the same line numbers, two statements on one line: the first
    statement starting at each (file, line) answers."""
    from icelint.engine.pipeline import replay_sources
    from icelint.engine.context import RunContext
    from icelint.rules.kit import outcomes as _outcome_index
    from icelint.values.source import SourceFile

    a = "CREATE TABLE db.t (id bigint) USING iceberg; ALTER TABLE db.t ADD COLUMN x int;\nALTER TABLE db.t ADD COLUMN y int;\n"
    b = "ALTER TABLE db.t ADD COLUMN z int;\n\nALTER TABLE db.t DROP COLUMN x;\n"
    result = replay_sources([SourceFile("a.sql", a), SourceFile("b.sql", b), SourceFile("c.sql", a.replace("db.t", "db.u"))]).result
    run = RunContext(result)
    outcomes = result.outcomes
    first: dict = {}
    for o in outcomes:
        first.setdefault((o.step.span.path, o.step.span.line), o.step.span)
    assert len(first) == 6 and len(outcomes) == 8
    for (path, line), sp in first.items():
        assert _outcome_index.statement_span(run, path, line) is sp
    assert _outcome_index.statement_span(run, "b.sql", 2) is None
    assert _outcome_index.statement_span(run, "d.sql", 1) is None
    assert _outcome_index.statement_span(run, "a.sql", 0) is None and _outcome_index.statement_span(run, "a.sql", 3) is None
    # found by the line's first offset: a statement indented on its line, a line inside a statement
    c = "CREATE TABLE db.v (id bigint,\n  x int) USING iceberg;\n   ALTER TABLE db.v ADD COLUMN y int;\n"
    run = RunContext(replay_sources([SourceFile("c.sql", c)]).result)
    second = run.result.outcomes[1].step.span
    assert (second.line, second.column) == (3, 4) and _outcome_index.statement_span(run, "c.sql", 3) is second
    assert _outcome_index.statement_span(run, "c.sql", 2) is None


def _nested_scripts() -> list[str]:
    """Scripts that empty structs, refill them later (by qualified and unqualified names, on other
    tables, after renames), skip statements on unknown tables and switch case-sensitive resolution."""
    rng = random.Random(7)
    out = []
    for n in range(12):
        lines = ["CREATE TABLE db.t (id bigint, s0 struct<a: int>, l0 array<struct<a: int>>, m0 map<string, struct<a: int>>) USING iceberg;",
                 "CREATE TABLE db.u (id bigint, s0 struct<a: int>) USING iceberg;"]  # fmt: skip
        for i in range(40):
            k = rng.randint(0, 3)
            t = rng.choice(["db.t", "db.u", "t", "db.x"])
            pick = rng.random()
            if pick < 0.2:
                lines.append(f"ALTER TABLE {t} ADD COLUMN s{k} struct<a: int>;")
            elif pick < 0.35:
                lines.append(f"ALTER TABLE {t} DROP COLUMN s{k}.a;")
            elif pick < 0.5:
                lines.append(f"ALTER TABLE {t} ADD COLUMN s{k}.b{i} int;")
            elif pick < 0.55:
                lines.append(f"ALTER TABLE {t} DROP COLUMN l0.element.a;")
            elif pick < 0.6:
                lines.append(f"ALTER TABLE {t} ADD COLUMN m0.value.c{i} int;")
            elif pick < 0.65:
                lines.append(rng.choice(["SET spark.sql.caseSensitive = true;", "SET spark.sql.caseSensitive = false;"]))
            elif pick < 0.72:
                lines.append(f"ALTER TABLE {t} ADD COLUMN S{k} int;")
            elif pick < 0.76:
                lines.append(f"ALTER TABLE {t} RENAME COLUMN id TO ID;")
            elif pick < 0.8:
                lines.append("USE db;" if n % 2 else "SET x = 1;")
            else:
                lines.append(f"ALTER TABLE {t} ALTER COLUMN id COMMENT 'c{i}';")
        out.append("\n".join(lines) + "\n")
    return out


def _adds_into_by_scan(result, table, parent, after):
    """What `emptied_struct_help` computed before the index: every later outcome, in order."""
    from icelint.values import changes as ch

    for o in result.outcomes:
        if o.step.index <= after or o.table != table or not isinstance(o.step, ch.Commit):
            continue
        for c in o.step.changes:
            if isinstance(c, ch.AddColumn) and tuple(p.lower() for p in c.column.path[:-1]) == parent:
                return o.step
    return None


def test_first_reference_and_later_adds_equal_the_scans() -> None:
    """`_outcome_index.first_reference` and `adds_into` answer as the scans of every outcome they
    replace, over the corpus and scripts that empty and refill structs; while the replay is still
    going, `adds_into` answers the same from the steps ahead, or raises `NeedsFuture` (an
    unqualified table name ahead), never a different answer."""
    from icelint.engine.context import RunContext
    from icelint.engine.pipeline import parse_sources, replay_sources
    from icelint.replay.engine import Replay
    from icelint.rules.kit import outcomes as _outcome_index
    from icelint.rules.kit.base import NeedsFuture
    from icelint.values.source import SourceFile
    from tests.corpus import corpus_runs

    runs = [[SourceFile.read(p) for p in files] for files in corpus_runs()]
    runs += [[SourceFile(f"n{i}.sql", text)] for i, text in enumerate(_nested_scripts())]
    found = streamed_found = unsure = 0
    for sources in runs:
        result = replay_sources(sources).result
        run = RunContext(result)
        outcomes = result.outcomes
        tables = {o.table for o in outcomes}
        for table in tables:
            assert _outcome_index.first_reference(run, table) == next(o.step.index for o in outcomes if o.table == table)
        assert _outcome_index.first_reference(run, "no.such") == -1
        parents = {tuple(p.lower() for p in path) for o in outcomes for m in (o.after,) if m is not None
                   for path, f in m.schema.all_fields() if not f.type.is_primitive}  # fmt: skip
        parents = sorted(parents)[:12]
        for table in sorted(t for t in tables if t):
            for parent in parents:
                for after in range(-1, len(outcomes) + 1, max(1, len(outcomes) // 30)):
                    want = _adds_into_by_scan(result, table, parent, after)
                    assert _outcome_index.adds_into(run, table, parent, after) is want, (table, parent, after)
                    found += want is not None
        if len(outcomes) > 400:
            continue
        steps = parse_sources(sources).steps
        partial, ahead = Replay().stream(steps)
        partial_run = RunContext(partial)
        for done in ahead:
            for table in sorted(t for t in tables if t):
                for parent in parents:
                    want = _adds_into_by_scan(result, table, parent, done.step.index)
                    try:
                        got = _outcome_index.adds_into(partial_run, table, parent, done.step.index)
                    except NeedsFuture:
                        unsure += 1
                        continue
                    assert (got.index if got is not None else None) == (want.index if want is not None else None)
                    streamed_found += want is not None
    assert found > 100 and streamed_found > 20 and unsure > 0
