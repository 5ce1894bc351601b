"""`model/schema.py`: the lookups a schema version carries give the same answers as computing them afresh.

The replay carries lookups from one schema version to the next (`Schema.carry_indexes`,
`TableMetadata.schema_index` shared along a table's states, `evolve` keeping derived values) and diffs a schema change using the
update's own record of what it touched (`SchemaUpdate.changes_at`). Here every SQL file of the
repository's fixtures is replayed and each state is checked against a from-scratch computation.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from icelint.engine.pipeline import parse_sources
from icelint.model.diff import diff
from icelint.model.table import Schema, TableMetadata
from icelint.replay.engine import Replay
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, deployments, run_id

SCRIPTS = corpus_runs()


def _key(entries):
    return sorted(repr(e) for e in entries)


def _fresh(schema: Schema) -> Schema:
    return Schema(schema.schema_id, schema.fields, schema.identifier_field_ids)


def test_the_corpus_is_large() -> None:
    assert len(SCRIPTS) > 150


@pytest.mark.parametrize("files", SCRIPTS, ids=run_id)
def test_carried_state_equals_a_fresh_computation(files: list[Path]) -> None:
    # step by step, each new state checked before the next step takes its lookup tables; runs of
    # several files with a deployment between them (replay/deploy.py evolves every table's state)
    replay = Replay(deployments=deployments(files) if len(files) > 1 else None)
    outcomes = []
    for step in parse_sources([SourceFile.read(p) for p in files]).steps:
        o = replay.apply(step)
        outcomes.append(o)
        if o.accepted and o.after is not None:
            _check_metadata(o.after)
            _check_older_versions(o.after, 10)
    checked = 0
    for o in outcomes:  # after the replay, as the rules ask: each statement's before and after
        for m in (o.before, o.after, o.before):
            if m is not None:
                _check_lookups(m.schema)
    for o in outcomes:  # after every step: the versions that gave their tables away still answer
        if o.after is not None:
            _check_older_versions(o.after, len(o.after.schemas))
    for o in outcomes:
        before, after = o.before, o.after
        if not o.accepted or before is None or after is None:
            continue
        if o.diff is not None:  # the update-driven diff equals the generic one
            generic = diff(before.schema, after.schema)
            for part in ("added", "removed", "changed", "replaced_top"):
                assert _key(getattr(o.diff, part)) == _key(getattr(generic, part)), (o.step.span, part)
            checked += 1
    if any(o.diff is not None for o in outcomes):
        assert checked


def _check_metadata(meta: TableMetadata) -> None:
    rebuilt = TableMetadata(**{k: getattr(meta, k) for k in meta.__dataclass_fields__})
    assert meta.schema is rebuilt.schema or meta.schema == rebuilt.schema
    assert meta.spec == rebuilt.spec and meta.sort_order == rebuilt.sort_order
    assert meta.partition_names == rebuilt.partition_names
    assert meta.partition_sources == rebuilt.partition_sources
    for s in meta.schemas:  # the index shared along the chain answers as one built for this state
        # (candidates may differ: a schema is filed under its `id_xor` only when that was known)
        shared = [x.schema_id for x in meta.schemas_like(s) if x.same_as(s)]
        assert shared == [x.schema_id for x in rebuilt.schemas_like(s) if x.same_as(s)]
        # and holds every schema that could be reused (`same_as`), in the order of `schemas`
        assert shared == [x.schema_id for x in meta.schemas if x.same_as(s)]
    schema, fresh = meta.schema, _fresh(meta.schema)
    for attr in ("_top_ids", "_lower_names"):
        carried = schema.__dict__.get(attr)
        if carried is not None:
            assert carried == getattr(fresh, attr), attr
    assert schema.field_count == fresh.field_count
    if "nested_top" in schema.__dict__:  # carried: the same field objects as a fresh pass finds
        assert sorted(map(id, schema.__dict__["nested_top"])) == sorted(map(id, fresh.nested_top))
    for attr in ("id_xor", "top_hash"):  # carried from version to version
        if attr in schema.__dict__:
            assert schema.__dict__[attr] == getattr(fresh, attr), attr


def _check_lookups(s: Schema) -> None:
    fresh = _fresh(s)
    for f in s.fields:
        assert s.top_level(f.name.upper(), case_sensitive=False) is fresh.top_level(f.name.upper(), case_sensitive=False)
        assert s.top_level(f.name) is fresh.top_level(f.name) and s.top_field(f.id) is fresh.top_field(f.id)
    assert s.top_level("no such column") is None and s.top_field(-5) is None


def _check_older_versions(meta: TableMetadata, last: int) -> None:
    """Lookups in the newest `last` schema versions (those that gave their tables to a successor are
    answered from the successor's table and the entries it overwrote, `model/table.py _older`)
    equal lookups in a fresh copy of each, for every name and id of the version and of the newest."""
    from icelint.model.schema import _older

    newest = meta.schemas[-1]
    for s in list(meta.schemas)[-last:]:
        fresh = _fresh(s)
        names = {f.name.lower() for f in (*s.fields, *newest.fields)} | {"no such column"}
        ids = {f.id for f in (*s.fields, *newest.fields)} | {-5}
        for n in names:
            assert _older(s, "_lower_names", 1, n) is fresh._lower_names.get(n), (s.schema_id, n)
            assert s.top_level(n, case_sensitive=False) is fresh.top_level(n, case_sensitive=False), (s.schema_id, n)
        for i in ids:
            assert _older(s, "_top_ids", 2, i) is fresh._top_ids.get(i), (s.schema_id, i)
            assert s.top_field(i) is fresh.top_field(i), (s.schema_id, i)
        for i in {f.id for x in (s, newest) for _, f in x.all_fields()} | {-5}:  # nested ones too
            hit = fresh._by_id.get(i)
            assert s.field_by_id(i) == (hit[1] if hit else None), (s.schema_id, i)  # list/map children are made on demand
            assert s.has_field_id(i) == (hit is not None), (s.schema_id, i)


def test_older_versions_answer_from_the_newest_table() -> None:
    """The walk of `_older` is taken (no table built) for the version before the newest."""
    sql = "CREATE TABLE db.t (id bigint, a string, b int) USING iceberg;\n" + "\n".join(
        f"ALTER TABLE db.t ADD COLUMN c{i} string;" for i in range(3)
    ) + "\nALTER TABLE db.t RENAME COLUMN a TO a2;\nALTER TABLE db.t DROP COLUMN b;\nALTER TABLE db.t ADD COLUMN b int;"
    replay = Replay()
    for step in parse_sources([SourceFile("t.sql", sql)]).steps:
        replay.apply(step)
        replay.tables["db.t"].schema.top_level("id")  # the newest builds or keeps its table
    schemas = list(replay.tables["db.t"].schemas)
    store = schemas[-1].__dict__["_tables"]  # the tables built for the table's versions: one store, handed on
    assert all(s.__dict__["_tables"] is store for s in schemas)
    store.clear()
    before = schemas[-2]  # before the last ADD: no `b`
    assert "_undo" in before.__dict__ and "_lower_names" not in before.__dict__
    assert before.top_level("b") is None and schemas[-1].top_level("b") is not None
    assert before.top_level("a2") is not None and before.top_level("a") is None
    assert schemas[-3].top_level("b") is not None and schemas[-3].top_level("a2") is not None  # before the DROP
    assert schemas[-4].top_level("a") is not None and schemas[-4].top_level("a2") is None  # before the RENAME
    assert not store  # answered by walking, nothing built
    _check_older_versions(replay.tables["db.t"], len(schemas))


def test_lookup_tables_move_to_the_newest_schema() -> None:
    sql = "CREATE TABLE db.t (id bigint, a string, b int) USING iceberg;\n" + "\n".join(
        f"ALTER TABLE db.t ADD COLUMN c{i} string;" for i in range(5)
    ) + "\nALTER TABLE db.t RENAME COLUMN a TO a2;\nALTER TABLE db.t DROP COLUMN b;"
    replay = Replay()
    previous = None
    for step in parse_sources([SourceFile("t.sql", sql)]).steps:
        o = replay.apply(step)
        schema = o.after.schema
        assert schema.top_level("ID", case_sensitive=False) is not None  # builds or uses the lookup table
        table = schema.__dict__.get("_lower_names")
        if table is None:  # built for a schema without its own: among its lineage's newest few (model/storage/lookups.py)
            table = schema.__dict__["_tables"][(id(schema), "_lower_names")][1]
        if previous is not None:
            assert table is previous  # moved and patched, not copied or rebuilt
        previous = table
        _check_metadata(o.after)
    assert set(previous) == {"id", "a2", "c0", "c1", "c2", "c3", "c4"}
    first = replay.tables["db.t"].schemas[0]
    assert "_lower_names" not in first.__dict__  # given away; rebuilt only when asked
    assert first.top_level("a") is not None and first.top_level("a2") is None


@pytest.mark.parametrize("seed", range(4))
def test_tables_moved_between_far_versions_equal_fresh_ones(seed: int, monkeypatch) -> None:
    """After the replay, a lookup table is moved from version to version (`model/table.py
    _move_table`, patched with the entries each statement changed) as the rules ask, in any order:
    each answer equals a table built afresh for that version."""
    import random

    from icelint.model.storage import lookups as model

    rng = random.Random(seed)
    cols = [f"c{i}" for i in range(70)]
    gone: list[str] = []
    sql = ["CREATE TABLE db.t (id bigint, " + ", ".join(f"{c} int" for c in cols) + ") USING iceberg;"]
    n = len(cols)
    for _ in range(400):
        k = rng.random()
        if k < 0.25 or len(cols) < 10:
            new = gone.pop(rng.randrange(len(gone))) if gone and rng.random() < 0.5 else f"c{n}"
            n += 1
            cols.append(new)
            sql.append(f"ALTER TABLE db.t ADD COLUMN {new} int;")
        elif k < 0.5:
            c = cols.pop(rng.randrange(len(cols)))
            gone.append(c)
            sql.append(f"ALTER TABLE db.t DROP COLUMN {c};")
        elif k < 0.8:
            i = rng.randrange(len(cols))
            new = gone.pop(rng.randrange(len(gone))) if gone and rng.random() < 0.5 else f"c{n}"
            n += 1
            gone.append(cols[i])
            sql.append(f"ALTER TABLE db.t RENAME COLUMN {cols[i]} TO {new};")
            cols[i] = new
        else:
            sql.append(f"ALTER TABLE db.t ALTER COLUMN {rng.choice(cols)} COMMENT 'v{n}';")
            n += 1
    replay = Replay()
    for step in parse_sources([SourceFile("t.sql", "\n".join(sql))]).steps:
        assert replay.apply(step).accepted
        replay.tables["db.t"].schema.top_level("id")  # the newest holds its tables, as in a check
        replay.tables["db.t"].schema.top_field(1)
    schemas = list(replay.tables["db.t"].schemas)
    names = {f.name.lower() for s in schemas for f in s.fields}
    ids = {f.id for s in schemas for f in s.fields}
    moved = []
    real = model._move_table
    monkeypatch.setattr(model, "_move_table", lambda s, name: moved.append(name) or real(s, name))

    def check(s: Schema) -> None:
        lower: dict = {}
        for f in s.fields:
            lower.setdefault(f.name.lower(), f)
        by_id = {f.id: f for f in s.fields}
        for name in names:
            assert s.top_level(name, case_sensitive=False) is lower.get(name), (s.schema_id, name)
        for i in ids:
            assert s.top_field(i) is by_id.get(i), (s.schema_id, i)

    schemas[-1].__dict__["_tables"].clear()  # the lineage's store: nothing built yet
    order = list(range(0, len(schemas), rng.randint(1, 40)))  # forward with gaps, as the rules ask
    order += order[::-1] + [rng.randrange(len(schemas)) for _ in range(30)]  # backward, then anywhere
    for i in order:
        check(schemas[i])
        if i:
            check(schemas[i - 1])  # a statement's before
    assert len(moved) > len(order) // 2


def test_has_field_id_equals_field_by_id() -> None:
    from icelint.engine.pipeline import replay_text

    sql = (
        "CREATE TABLE db.t (id bigint, s struct<a: int, b: map<string, array<struct<x: int>>>>, c int) USING iceberg;\n"
        "ALTER TABLE db.t DROP COLUMN c;\nALTER TABLE db.t ADD COLUMN s.d int;\n"
    )
    states = [o.after for o in replay_text(sql).result.outcomes if o.after is not None]
    assert len(states) == 3
    for meta in states:
        for built in (False, True):  # with and without the lookup tables
            schema = Schema(meta.schema.schema_id, meta.schema.fields)
            if built:
                schema.field_by_id(0)
            for fid in range(0, 15):
                assert schema.has_field_id(fid) == (Schema(0, schema.fields).field_by_id(fid) is not None), fid


def test_nested_columns_carried_past_many_equal_a_fresh_pass() -> None:
    """More than eight struct columns: the one replaced or dropped is cut out of the carried list of
    nested columns wherever it is (last, recent or first), and the list holds the fields a fresh
    pass over the schema finds."""
    from icelint.engine.pipeline import replay_text
    from icelint.model.table import Schema

    cols = ", ".join(f"s{i} struct<a: int, b: int>" for i in range(12))
    lines = [f"CREATE TABLE db.t (id bigint, {cols}) USING iceberg;"]
    rng = random.Random(3)
    for i in range(120):
        k = rng.randint(0, 15)
        lines.append(rng.choice([f"ALTER TABLE db.t DROP COLUMN s{k}.a;", f"ALTER TABLE db.t ADD COLUMN s{k}.c{i} int;",
                                 f"ALTER TABLE db.t ADD COLUMN s{12 + i} struct<a: int>;", f"ALTER TABLE db.t DROP COLUMN s{k};",
                                 f"ALTER TABLE db.t ALTER COLUMN s{k}.b COMMENT 'x{i}';", "ALTER TABLE db.t ADD COLUMN p{i} int;"]))  # fmt: skip
    run = replay_text("\n".join(lines) + "\n")
    checked = 0
    for o in run.result.outcomes:
        if o.accepted and o.after is not None and "nested_top" in o.after.schema.__dict__:
            s = o.after.schema
            fresh = Schema(s.schema_id, s.fields, s.identifier_field_ids)
            assert sorted(map(id, s.__dict__["nested_top"])) == sorted(map(id, fresh.nested_top)), o.step.span
            checked += len(s.__dict__["nested_top"]) > 8
    assert checked > 40


def test_paths_and_ancestors_below_the_nested_columns_equal_the_index() -> None:
    """A replayed version finds a nested field's path and ancestors below the nested columns it
    carries (`Schema._below_nested`), not in an index of every field: the same answers as the index."""
    from icelint.engine.pipeline import replay_text

    sql = (
        "CREATE TABLE db.t (id bigint NOT NULL, s struct<a: int NOT NULL, b: map<string, array<struct<x: int>>>> NOT NULL, "
        "c int, l array<struct<y: int, z: struct<w: int>>>) USING iceberg;\n"
        "ALTER TABLE db.t SET IDENTIFIER FIELDS s.a;\nALTER TABLE db.t DROP COLUMN c;\nALTER TABLE db.t ADD COLUMN s.d int;\n"
        "ALTER TABLE db.t ADD COLUMN e int;\nALTER TABLE db.t RENAME COLUMN l TO l2;\n"
    )
    states = [o.after for o in replay_text(sql).result.outcomes if o.after is not None]
    searched = 0
    for meta in states:
        schema = meta.schema
        whole = Schema(0, schema.fields)  # the same fields, answered from its index
        for fid in range(0, 30):
            searched += schema._below_nested(fid) is not None
            assert schema.path_of(fid) == whole.path_of(fid), fid
            assert schema.ancestors(fid) == whole.ancestors(fid), fid
    assert searched > 60  # most versions answered by the search, not by an index
