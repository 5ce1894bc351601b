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
from icelint.pipeline import parse_sources, replay_sources
from icelint.replay.engine import Replay
from icelint.source import SourceFile
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
    checked = 0
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
    for attr in ("id_xor", "top_hash"):  # carried from version to version
        if attr in schema.__dict__:
            assert schema.__dict__[attr] == getattr(fresh, attr), attr


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
        if table is None:  # built for a schema without its own: among the newest few (model/table.py)
            from icelint.model.table import _BUILT

            table = _BUILT[(id(schema), "_lower_names")][1]
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
    from icelint.lazy import cached_property
    from icelint.model import table

    cached = {name for name, v in vars(TableMetadata).items() if isinstance(v, cached_property)}
    listed = {d for derived in table._DERIVED.values() for d in derived}
    assert cached == listed
