"""`model/table.py`: `TableMetadata.evolve` keeps the values derived from a state and drops exactly those
a change invalidates.
"""

from __future__ import annotations

import pytest

from icelint.engine.pipeline import replay_sources
from icelint.model.table import Schema, TableMetadata
from icelint.values.source import SourceFile


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


def test_every_derived_value_of_a_state_is_dropped_when_its_inputs_change() -> None:
    """`TableMetadata.evolve` keeps cached values: each must be listed with the fields it reads."""
    from icelint.model import table
    from icelint.util.lazy import cached_property

    cached = {name for name, v in vars(TableMetadata).items() if isinstance(v, cached_property)}
    listed = {d for derived in table._DERIVED.values() for d in derived}
    assert cached == listed
