"""`rules/kit/small_schema.py` (scans of a narrow schema's columns, taken for speed) answers
exactly as the `Schema` methods it stands for, over every schema version of the fixture and
differential corpus and over made-up schemas with case twins, nested fields and many columns."""

from __future__ import annotations

import pytest

from icelint.model import types as it
from icelint.model.table import Schema
from icelint.engine.pipeline import replay_sources
from icelint.rules.kit import small_schema as small
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, run_id

RUNS = corpus_runs()


def _names(schema) -> set[str]:
    out = {"", "nope", "x_v2"}
    for f in schema.fields:
        out |= {f.name, f.name.lower(), f.name.upper(), f.name.swapcase(), f.name + "_old"}
    return out


def _same(schema) -> int:
    """Compare every answer; return how many were compared."""
    ids = [fid for _, f in schema.all_fields() for fid in (f.id,)] + [0, -1, 10_000]
    n = 0
    for fid in set(ids) | {i + 1 for i in ids}:
        assert small.path_of(schema, fid) == schema.path_of(fid), fid
        assert small.name_of(schema, fid) == schema.name_of(fid), fid
        assert small.has_id(schema, fid) == (schema.field_by_id(fid) is not None) == schema.has_field_id(fid), fid
        n += 1
    paths = [(name,) for name in _names(schema)] + [p for p, _ in schema.all_fields()]
    paths += [tuple(x.upper() for x in p) for p in paths] + [("nope", "x")]
    for path in paths:
        got, want = small.find(schema, path), schema.find(path, case_sensitive=False)
        # the same object for a column (a list's or map's children are made anew on each ask)
        assert (got is want) if len(path) == 1 else (got == want), path
        n += 1
    return n


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_same_answers_over_the_corpus(files):
    run = replay_sources([SourceFile.read(p) for p in files])
    for o in run.result.outcomes:
        for state in (o.before, o.after):
            if state is not None:
                _same(state.schema)


def _f(fid: int, name: str, t=it.STRING) -> it.NestedField:
    return it.NestedField(fid, name, t)


SCHEMAS = {
    "case twins": Schema(0, (_f(1, "Status"), _f(2, "status"), _f(3, "STATUS"), _f(4, "id", it.LONG))),
    "twin, exact later": Schema(0, (_f(1, "a"), _f(2, "B"), _f(3, "b"))),
    "nested": Schema(
        0,
        (
            _f(1, "id", it.LONG),
            _f(2, "s", it.StructType((_f(5, "x"), _f(6, "Y", it.StructType((_f(7, "z"),)))))),
            _f(3, "l", it.ListType(8, it.StructType((_f(9, "e"),)))),
            _f(4, "S2"),
        ),
    ),
    "wide": Schema(0, tuple(_f(i, f"c{i}") for i in range(1, 200)) + (_f(200, "C1"),)),
    "empty": Schema(0, ()),
}


@pytest.mark.parametrize("name", SCHEMAS)
def test_same_answers_on_made_up_schemas(name):
    assert _same(SCHEMAS[name]) > 0


def test_the_scans_are_the_ones_compared():
    """The made-up schemas go through the scans (narrow) and through the general path (wide)."""
    twins = SCHEMAS["case twins"]
    assert small.find(twins, ("status",)).id == 2
    assert small.find(twins, ("sTaTuS",)).id == 1
    assert small.path_of(SCHEMAS["nested"], 9) == ("l", "element", "e")
    assert small.has_id(SCHEMAS["nested"], 7) and not small.has_id(SCHEMAS["nested"], 99)


def test_same_answers_on_every_version_of_a_replayed_wide_table():
    """Older versions of a table wider than `SMALL` do not hold their lookup tables (the replay moved
    them on): `has_id` and `path_of` scan their columns then; the newest one asks its own table."""
    cols = ", ".join(f"c{i} int" for i in range(100))
    sql = f"CREATE TABLE db.w (id bigint, s struct<a: int, b: struct<c: int>>, {cols}) USING iceberg;\n"
    sql += "".join(
        f"ALTER TABLE db.w DROP COLUMN c{i};\nALTER TABLE db.w ADD COLUMN c{i} string;\nALTER TABLE db.w RENAME COLUMN c{i + 1} TO d{i + 1};\n"
        for i in range(0, 30, 3)
    )
    sql += "ALTER TABLE db.w DROP COLUMN s.b;\nALTER TABLE db.w ADD COLUMN s.b2 int;\n"
    run = replay_sources([SourceFile("w.sql", sql)])
    schemas = [m.schema for o in run.result.outcomes for m in (o.before, o.after) if m is not None]
    assert all(o.accepted for o in run.result.outcomes) and len({id(s) for s in schemas}) > 30
    old = [s for s in schemas if "_top_ids" not in s.__dict__ and len(s.fields) > small.SMALL]
    assert len(old) > 20  # the scans are what is compared
    for s in schemas:
        assert _same(s) > 0


def test_the_newest_wide_version_builds_its_id_table_once_and_passes_it_on(monkeypatch):
    """`has_id` asked of the newest version of a wide table (the one holding the name table) builds
    its id table once; the replay moves it on to each next version (`Schema.carry_indexes`), so a
    later question is a look-up, not a pass over every column (a re-add on the 50 MB file
    scanned its 500 columns per finding)."""
    from icelint.engine.pipeline import parse_sources
    from icelint.replay.engine import Replay

    cols = ", ".join(f"c{i} int" for i in range(100))
    # appending a column resolves names only: no id table is built
    sql = f"CREATE TABLE db.w (id bigint, {cols}) USING iceberg;\n" + (
        "SET spark.sql.shuffle.partitions = 1;\nSET spark.sql.shuffle.partitions = 2;\n"
        "ALTER TABLE db.w ADD COLUMN e0 int;\nALTER TABLE db.w ADD COLUMN e1 int;\nALTER TABLE db.w ADD COLUMN e2 int;\n"
    )
    steps = parse_sources([SourceFile("w.sql", sql)], trees=False).steps
    replay = Replay()
    newest = [o.after.schema for o in map(replay.apply, steps[:5]) if o.after is not None][-1]
    assert "_lower_names" in newest.__dict__ and "_top_ids" not in newest.__dict__

    def no_scan(*_):
        raise AssertionError("scanned the columns")

    monkeypatch.setattr(small, "_column", no_scan)
    assert small.has_id(newest, 102) and not small.has_id(newest, 999)
    assert small.path_of(newest, 103) == ("e1",) and small.path_of(newest, 999) is None
    after = replay.apply(steps[5]).after.schema
    assert "_top_ids" in after.__dict__  # moved on (appending a column builds none), patched with the new column
    for fid in (1, 5, 101, 102, 103, 104, 105, 999):
        assert small.has_id(after, fid) == (fid <= 104)
        assert small.path_of(after, fid) == after.path_of(fid)
    assert after.__dict__["_top_ids"][104].name == "e2"
