"""`rules/kit/help_columns.py`: the drop a re-add's help looks back at, the newest snapshot that still
had a field, and the free column name a help proposes, each found by lookups, are what the scans
and the plain lists they replaced give: directly, and as the findings over the corpus.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from icelint.engine.checker import lint_run
from icelint.rules.kit import help_columns as _help_columns
from icelint.values.findings import Severity
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, everything_shown, lint_files, lint_files_afresh, run_id


def _drop_outcome_by_scan(ctx, field_id: int):
    """`rules/_help_columns.drop_outcome` as it was: a scan back over every earlier outcome."""
    from bisect import bisect_left

    outcomes = ctx.result.outcomes
    end = bisect_left(outcomes, ctx.step.index, key=lambda o: o.step.index)
    for k in range(end - 1, -1, -1):
        o = outcomes[k]
        if o.table != ctx.outcome.table or not o.accepted or o.before is None or o.after is None:
            continue
        if o.before.schema.field_by_id(field_id) is not None and o.after.schema.field_by_id(field_id) is None:
            return o
    return None


def _drop_scripts() -> list[str]:
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from scale import big, drop_add

    more = ("CREATE TABLE db.u (id bigint, s struct<a: int, b: int>, m map<string, struct<x: int>>) USING iceberg;\n"
            "ALTER TABLE db.u DROP COLUMN s.a;\nALTER TABLE db.u ADD COLUMN s.a int;\nALTER TABLE db.u DROP COLUMN m;\n"
            "ALTER TABLE db.u ADD COLUMN m int;\nCREATE OR REPLACE TABLE db.u (id bigint, q int) USING iceberg;\n"
            "ALTER TABLE db.u ADD COLUMN s int;\nALTER TABLE db.u REPLACE COLUMNS (id bigint, z int);\n"
            "ALTER TABLE db.u ADD COLUMN q int;\nALTER TABLE db.u RENAME COLUMN z TO y;\nALTER TABLE db.u DROP COLUMN y;\n")  # fmt: skip
    return [big(40_000, columns=20), drop_add(60), more]


def test_drop_outcome_index_equals_the_scan() -> None:
    """`drop_outcome` looks only at the steps the run's index names for the field id
    (`rules/_outcome_index.drop_candidates`): the same answer as scanning every earlier outcome,
    for every id of every schema version, at every statement of every corpus script and of scripts
    that drop and re-add columns (nested, replaced tables, REPLACE COLUMNS)."""
    from types import SimpleNamespace

    from icelint.engine.context import RunContext
    from icelint.engine.pipeline import replay_sources
    from icelint.rules.kit.help_columns import drop_outcome
    from tests.corpus import corpus_runs

    runs = [[SourceFile.read(p) for p in files] for files in corpus_runs()]
    runs += [[SourceFile(f"s{i}.sql", text)] for i, text in enumerate(_drop_scripts())]
    found = 0
    for sources in runs:
        result = replay_sources(sources).result
        run = RunContext(result)
        ids = {f.id for o in result.outcomes for m in (o.before, o.after) if m is not None for _, f in m.schema.all_fields()}
        for o in result.outcomes[-60:] if len(result.outcomes) > 400 else result.outcomes:
            if o.table is None:
                continue
            ctx = SimpleNamespace(result=result, run=run, step=o.step, outcome=o, memo={})
            for fid in sorted(ids | {-1})[:40]:
                want = _drop_outcome_by_scan(ctx, fid)
                assert drop_outcome(ctx, fid) is want, (o.step.span, fid)
                found += want is not None
    assert found > 100


def _snapshot_before_drop_by_scan(meta, field_id):
    """`_help_columns.snapshot_before_drop` before: a scan of the schemas per snapshot."""
    best = None
    for s in meta.snapshots:
        if s.schema_id is None:
            continue
        schema = meta.schema_by_id(s.schema_id)
        if schema is not None and schema.field_by_id(field_id) is not None:
            if best is None or s.timestamp_ms >= best.timestamp_ms:
                best = s
    return best


@pytest.mark.parametrize("seed", range(30))
def test_snapshot_before_drop_equals_the_scan(seed: int) -> None:
    """The newest snapshot whose schema still had a field: each schema asked once, through the
    state's schemas by id, gives the scan's answer (ties on the timestamp: the later snapshot)."""
    import dataclasses

    from icelint.engine.pipeline import replay_text
    from icelint.model.table import Snapshot, TableMetadata
    from icelint.rules.kit.help_columns import snapshot_before_drop

    rng = random.Random(seed)
    sql = "CREATE TABLE db.t (id bigint, a int, b int, c int, s struct<x: int, y: array<int>>, m map<int, int>) USING iceberg;\n" + "".join(
        rng.choice(["ALTER TABLE db.t DROP COLUMN {x};\n", "ALTER TABLE db.t ADD COLUMN {x} int;\n", "ALTER TABLE db.t DROP COLUMN s.x;\n",
                    "ALTER TABLE db.t ADD COLUMN s.x int;\n", "ALTER TABLE db.t DROP COLUMN m;\n"]).format(x=rng.choice("abcd"))
        for _ in range(12)
    )
    meta: TableMetadata = replay_text(sql).result.tables["db.t"]
    ids = [s.schema_id for s in meta.schemas] + [None, 999]
    snaps = tuple(Snapshot(i, rng.choice(ids), rng.randint(1, 20)) for i in range(rng.randint(0, 60)))
    meta = dataclasses.replace(meta, snapshots=snaps)
    for field_id in rng.sample(range(1, 30), 29):  # in any order: each answer from what the earlier ones walked
        assert snapshot_before_drop(meta, field_id) is _snapshot_before_drop_by_scan(meta, field_id)


RUNS = corpus_runs()


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_drop_outcome_memo_over_the_corpus(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The drop a re-add's help and fix both look for, worked out once per statement, gives the
    findings that working it out at every ask gives."""
    _, fast = lint_files(files)
    monkeypatch.setattr(_help_columns, "drop_outcome", _help_columns._find_drop_outcome)
    _, plain = lint_files_afresh(files)
    assert everything_shown(fast) == everything_shown(plain)


def _free_column_name_plain(ctx, parent, base, suffixes=_help_columns.DEFAULT_SUFFIXES, also=()):
    from icelint.rules.kit.help import free_name

    return free_name(_help_columns.taken_names(ctx, parent) + list(also), base, suffixes)


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_free_column_name_over_the_corpus(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A help's free name found by lookups gives the findings that the list of every current and
    former name gives."""
    _, fast = lint_files(files)
    monkeypatch.setattr(_help_columns, "free_column_name", _free_column_name_plain)
    import icelint.rules.kit.help_tables as help_tables

    monkeypatch.setattr(help_tables, "free_column_name", _free_column_name_plain)
    _, plain = lint_files_afresh(files)
    assert everything_shown(fast) == everything_shown(plain)


FREE_NAME_SCRIPT = """CREATE TABLE db.t (id bigint, Amount int, amount_V2 int, s struct<x: int, X_v2: int, ü: int>, é int) USING iceberg;
INSERT INTO db.t VALUES (1, 1, 1, named_struct('x', 1, 'X_v2', 1, 'ü', 1), 1);
ALTER TABLE db.t DROP COLUMN amount_V2;
ALTER TABLE db.t ADD COLUMN amount_v3 int;
ALTER TABLE db.t DROP COLUMN amount_v3;
ALTER TABLE db.t DROP COLUMN s.X_v2;
ALTER TABLE db.t ADD COLUMN s.x_V3 int;
ALTER TABLE db.t ADD COLUMN `amount_v4` string;
ALTER TABLE db.t RENAME COLUMN é TO É_v2;
"""


@pytest.mark.parametrize("small_table", [64, 0], ids=["listed", "looked-up"])
def test_free_column_name_on_every_step(small_table: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Directly, on every step of a script with case twins, nested fields, non-ASCII names and former
    names at the top level and in a struct: every base and suffix set the helps use (compared inside
    a probe rule, while each step's history is the one the rules see)."""
    from icelint.engine.pipeline import replay_text
    from icelint.rules.kit.base import Rule
    from icelint.rules.kit.help import free_name

    monkeypatch.setattr(_help_columns, "SMALL_TABLE", small_table)  # both ways of finding a top-level name
    seen = []

    def probe(ctx):
        if ctx.before is None or ctx.after is None:
            return
        for parent in ((), ("s",), ("S",), ("nope",)):
            for base in ("amount", "Amount", "x", "X", "ü", "é", "É", "id", "s"):
                for suffixes in (_help_columns.DEFAULT_SUFFIXES, ("_old", "_old2", "_old3"), ("", "_2", "_3")):
                    for also in ((), ("amount_v2",), ("X_V2", "x_v3")):
                        got = _help_columns.free_column_name(ctx, parent, base, suffixes, also)
                        want = free_name(_help_columns.taken_names(ctx, parent) + list(also), base, suffixes)
                        assert got == want, (ctx.outcome.step, parent, base, suffixes, also)
                        seen.append(got)
        yield from ()

    lint_run(replay_text(FREE_NAME_SCRIPT, None, path="m.sql"), [Rule("ICE999", "probe", Severity.INFO, probe, "")])
    assert len(seen) > 1000
    assert {"amount_new", "x_v5", "É_v3"} & set(seen)  # former and current names were in the way
