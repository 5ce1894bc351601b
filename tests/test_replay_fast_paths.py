"""The replay's shortcuts give the same answers as computing everything afresh.

The replay carries lookups from one schema version to the next (`Schema.carry_indexes`,
`TableMetadata.schema_index` shared along a table's states, `evolve` keeping derived values) and diffs a schema change using the
update's own record of what it touched (`SchemaUpdate.changes_at`). Here every SQL file of the
repository's fixtures is replayed and each state is checked against a from-scratch computation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.model.diff import diff
from icelint.model.table import Schema, TableMetadata
from icelint.engine.pipeline import parse_sources, replay_sources
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


def test_evolve_drops_only_the_values_a_change_invalidates() -> None:
    run = replay_sources([SourceFile("t.sql", "CREATE TABLE db.t (id bigint, name string) USING iceberg PARTITIONED BY (id);")])
    meta = run.result.tables["db.t"]
    assert meta is not None
    schema, spec = meta.schema, meta.spec
    same = meta.evolve(properties={"a": "b"})
    assert same.schema is schema and same.spec is spec and same.properties == {"a": "b"}
    other = meta.evolve(current_schema_id=99, schemas=(Schema(99, schema.fields[:1]),))
    assert other.schema.schema_id == 99 and len(other.schema.fields) == 1
    assert meta.schema is schema  # the original is untouched
    with pytest.raises(TypeError):
        meta.evolve(no_such_field=1)


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


def test_every_derived_value_of_a_state_is_dropped_when_its_inputs_change() -> None:
    """`TableMetadata.evolve` keeps cached values: each must be listed with the fields it reads."""
    from icelint.util.lazy import cached_property
    from icelint.model import table

    cached = {name for name, v in vars(TableMetadata).items() if isinstance(v, cached_property)}
    listed = {d for derived in table._DERIVED.values() for d in derived}
    assert cached == listed


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


def _wide_script(seed: int, statements: int = 300) -> str:
    """Column changes of every kind on a table of ~100 columns (schemas held as Ropes), errors included."""
    import random

    rng = random.Random(seed)
    cols = {f"c{i}": "int" for i in range(100)}
    sql = ["CREATE TABLE db.t (id bigint, s struct<a: int, b: string>, " + ", ".join(f"{c} int" for c in cols) + ") USING iceberg;"]
    n = 100
    for _ in range(statements):
        names = list(cols)
        k = rng.random()
        if k < 0.15:
            sql.append(f"ALTER TABLE db.t ADD COLUMN c{n} int COMMENT 'new';")
            cols[f"c{n}"] = "int"
            n += 1
        elif k < 0.22:
            sql.append(f"ALTER TABLE db.t ADD COLUMNS (c{n} int, c{n + 1} string);")
            cols[f"c{n}"], cols[f"c{n + 1}"] = "int", "string"
            n += 2
        elif k < 0.35 and len(cols) > 70:
            c = rng.choice(names)
            del cols[c]
            sql.append(f"ALTER TABLE db.t DROP COLUMN {c};")
        elif k < 0.42 and len(cols) > 70:
            a, b = rng.sample(names, 2)
            del cols[a], cols[b]
            sql.append(f"ALTER TABLE db.t DROP COLUMNS ({b}, {a});")
        elif k < 0.55:
            c = rng.choice(names)
            cols[f"r{n}"] = cols.pop(c)
            sql.append(f"ALTER TABLE db.t RENAME COLUMN {c} TO r{n};")
            n += 1
        elif k < 0.65:
            c = rng.choice(names)
            sql.append(f"ALTER TABLE db.t ALTER COLUMN {c} TYPE bigint;")  # an error unless int
            cols[c] = "bigint" if cols[c] in ("int", "bigint") else cols[c]
        elif k < 0.75:
            sql.append(f"ALTER TABLE db.t ALTER COLUMN {rng.choice(names)} COMMENT 'v{n}';")
            n += 1
        elif k < 0.8:
            sql.append(f"ALTER TABLE db.t ADD COLUMN s.f{n} double;")
            n += 1
        elif k < 0.85:
            sql.append(f"ALTER TABLE db.t ALTER COLUMN {rng.choice(names)} AFTER {rng.choice(names)};")
        elif k < 0.88:
            sql.append(f"ALTER TABLE db.t ADD COLUMN c{n} int FIRST;")
            cols[f"c{n}"] = "int"
            n += 1
        elif k < 0.92:
            sql.append("ALTER TABLE db.t DROP COLUMN no_such_column;")
        elif k < 0.96:
            c = rng.choice(names)
            sql.append(f"ALTER TABLE db.t ALTER COLUMN {c} COMMENT 'x', ALTER COLUMN s.a TYPE bigint;")
        else:
            sql.append(f"ALTER TABLE db.t RENAME COLUMN {rng.choice(names)} TO id;")  # an error: exists
    return "\n".join(sql)


@pytest.mark.parametrize("seed", range(4))
def test_patched_top_level_equals_the_full_pass(seed: int, monkeypatch) -> None:
    """`SchemaUpdate._patch_top` (the old version's chunks patched through the locator) gives the
    same states, diffs and errors as the pass over every column it replaces."""
    from icelint.model.storage import chain
    from icelint.replay.schema_update import SchemaUpdate

    steps = parse_sources([SourceFile("t.sql", _wide_script(seed))]).steps

    def run() -> list:
        replay = Replay()
        out = []
        for step in steps:
            o = replay.apply(step)
            d = o.diff
            out.append((o.accepted, str(o.error) if o.error else None,
                        tuple(o.after.schema.fields) if o.after else None, o.after.schema.schema_id if o.after else None,
                        tuple(_key(getattr(d, p)) for p in ("added", "removed", "changed", "replaced_top")) if d else None))
        return out

    patched = []
    real = chain.patch
    monkeypatch.setattr("icelint.replay.schema_update.patch", lambda *a: patched.append(1) or real(*a))
    fast = run()
    assert len(patched) > 100  # the patch was taken
    monkeypatch.setattr(SchemaUpdate, "_patch_top", lambda self, schema: None)
    slow = run()
    assert len(fast) == len(slow)
    for i, (a, b) in enumerate(zip(fast, slow)):
        assert a == b, (i, steps[i].span)


def test_a_recorded_top_level_change_means_the_columns_differ(monkeypatch) -> None:
    """`commit_schema` skips comparing a new version's columns with the old ones when the update's
    record shows a column added, removed or changed in value (`schemas._top_level_changed`): on every
    commit of the corpus (and on made-up no-op statements), that verdict holds of the columns."""
    from icelint.replay import schemas

    seen = {True: 0, False: 0}
    real = schemas.commit_schema

    def checked(meta, new_schema, last_column_id, changes_at=None):
        verdict = schemas._top_level_changed(changes_at)
        if verdict:
            assert tuple(new_schema.fields) != tuple(meta.schema.fields)
        seen[verdict] += 1
        return real(meta, new_schema, last_column_id, changes_at)

    monkeypatch.setattr(schemas, "commit_schema", checked)
    from icelint.replay import columns

    monkeypatch.setattr(columns, "commit_schema", checked)
    noop = (
        "CREATE TABLE db.n (a int COMMENT 'x', b struct<c: int>) USING iceberg;\n"
        "ALTER TABLE db.n ALTER COLUMN a COMMENT 'x';\nALTER TABLE db.n ALTER COLUMN a TYPE int;\n"
        "ALTER TABLE db.n ALTER COLUMN a FIRST;\nALTER TABLE db.n ALTER COLUMN b.c COMMENT 'y';\n"
        "ALTER TABLE db.n ALTER COLUMN a DROP NOT NULL;\nALTER TABLE db.n ALTER COLUMN b AFTER a;\n"
    )
    replay_sources([SourceFile("noop.sql", noop)])
    for files in SCRIPTS:
        replay_sources([SourceFile.read(p) for p in files])
    assert seen[True] > 500 and seen[False] > 20
