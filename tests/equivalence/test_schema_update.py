"""`replay/schema_update.py`'s shortcuts give what the full passes give: parents noted on the way down a
path, identifier fields looked up in the update's own schema, the top level patched through the
locator, and a column comparison skipped when the update recorded no top-level change.
"""

from __future__ import annotations

import random

import pytest

from icelint.engine.pipeline import parse_sources, replay_sources
from icelint.model.table import Schema
from icelint.model.types import NestedField, PrimitiveType
from icelint.replay.engine import Replay
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs


def _key(entries):
    return sorted(repr(e) for e in entries)


def test_update_parents_noted_on_the_way_equal_the_schema_index() -> None:
    """`SchemaUpdate._find` notes each nested field's parent as it walks a path: the same parent
    as the schema's full index names, for every path of nested schemas (structs, lists, maps)."""
    from icelint.engine.pipeline import replay_text
    from icelint.replay.schema_update import SchemaUpdate

    sql = ("CREATE TABLE db.t (id bigint, s struct<a: int, b: struct<c: int, d: array<struct<e: int>>>>, "
           "m map<string, struct<x: int, y: map<int, struct<z: int>>>>, l array<array<struct<q: int>>>) USING iceberg;\n")  # fmt: skip
    schema = replay_text(sql).result.tables["db.t"].schema
    paths = [p for p, _ in schema.all_fields()]
    assert len(paths) > 15
    for path in paths:
        upd = SchemaUpdate(schema, 100)
        assert upd._find(path) == schema.find(path) is not None
        assert upd.parents_seen or len(path) == 1
        for fid, parent in upd.parents_seen.items():
            assert parent == schema.parent_id(fid), (path, fid)
        assert upd._find(path + ("nope",)) is None and upd._find(("nope",) + path) is None


def _identifier_script(rng: random.Random) -> str:
    """A table with identifier fields (top-level, and nested in a required struct), then schema
    changes of every kind, some on the identifier columns themselves (renamed, widened, made
    optional, dropped, replaced by REPLACE COLUMNS, moved), some rejected."""
    out = ["CREATE TABLE db.t (id bigint NOT NULL, k int NOT NULL, s struct<a: int NOT NULL, b: int> NOT NULL, "
           "o struct<z: int NOT NULL>, v string) USING iceberg;",
           rng.choice(["ALTER TABLE db.t SET IDENTIFIER FIELDS id, k;", "ALTER TABLE db.t SET IDENTIFIER FIELDS id, s.a;",
                       "ALTER TABLE db.t SET IDENTIFIER FIELDS k;", "ALTER TABLE db.t SET IDENTIFIER FIELDS o.z;"])]  # fmt: skip
    names = ["id", "k", "v", "s", "o"]
    for i in range(rng.randint(5, 25)):
        c = rng.choice(names)
        out.append(rng.choice([
            f"ALTER TABLE db.t ADD COLUMN n{i} int;",
            f"ALTER TABLE db.t RENAME COLUMN {c} TO r{i};",
            "ALTER TABLE db.t ALTER COLUMN k TYPE bigint;",
            f"ALTER TABLE db.t ALTER COLUMN {c} DROP NOT NULL;",
            f"ALTER TABLE db.t DROP COLUMN {c};",
            f"ALTER TABLE db.t ALTER COLUMN {c} COMMENT 'c{i}';",
            f"ALTER TABLE db.t ALTER COLUMN {c} FIRST;",
            "ALTER TABLE db.t RENAME COLUMN s.a TO aa;",
            "ALTER TABLE db.t ADD COLUMN s.c int;",
            "ALTER TABLE db.t REPLACE COLUMNS (id bigint, k int, w string);",
            "ALTER TABLE db.t REPLACE COLUMNS (id bigint NOT NULL, w string);",
            "ALTER TABLE db.t REPLACE COLUMNS (id bigint NOT NULL, k int NOT NULL, s struct<a: int NOT NULL> NOT NULL);",
            "ALTER TABLE db.t SET IDENTIFIER FIELDS id;",
            "ALTER TABLE db.t DROP IDENTIFIER FIELDS k;",
        ]))  # fmt: skip
        if "RENAME COLUMN" in out[-1] and " s.a " not in out[-1]:
            names[names.index(c)] = f"r{i}"
    return "\n".join(out) + "\n"


def test_identifier_lookups_in_an_update_equal_the_new_schemas(monkeypatch) -> None:
    """`SchemaUpdate.apply` finds and validates the identifier fields in the schema it made from the
    old version's lookup tables and its record of the replaced fields (`schema_update._Updated`): the
    same answers as the new schema's own look-ups, and the same verdicts and errors."""
    from icelint.engine.pipeline import replay_text
    from icelint.replay import schema_update

    asked = []

    class Checked(schema_update._Updated):
        def find(self, path):
            got = super().find(path)
            assert got is self.new.find(path), path
            asked.append(path)
            return got

        def field_by_id(self, field_id):
            got = super().field_by_id(field_id)
            assert got is self.new.field_by_id(field_id), field_id
            return got

        def name_of(self, field_id):
            assert super().name_of(field_id) == self.new.name_of(field_id), field_id
            return super().name_of(field_id)

        def ancestors(self, field_id):
            assert super().ancestors(field_id) == self.new.ancestors(field_id), field_id
            return super().ancestors(field_id)

    rejected = 0
    for seed in range(80):
        sql = _identifier_script(random.Random(seed))
        monkeypatch.setattr(schema_update, "_Updated", Checked)
        run = replay_text(sql)
        monkeypatch.setattr(schema_update, "_Updated", lambda old, new, top: new)  # the new schema itself
        plain = replay_text(sql)
        verdicts = [(o.accepted, o.error.message if o.error else None) for o in run.result.outcomes]
        assert verdicts == [(o.accepted, o.error.message if o.error else None) for o in plain.result.outcomes]
        assert run.result.tables["db.t"].to_json() == plain.result.tables["db.t"].to_json()
        rejected += sum("identifier field" in (m or "") for _, m in verdicts)
    assert len(asked) > 300 and rejected > 20  # identifier fields found, and some rejected, in the updates


def test_a_field_an_update_replaced_is_not_found_under_its_old_name() -> None:
    """No SQL reaches it (an identifier column renamed is looked up by its new name; one deleted is
    refused before), but `_Updated` answers as the new schema would: the old name is gone."""
    from icelint.replay.schema_update import _Updated

    t = PrimitiveType("int")
    a, b = NestedField(1, "a", t, True), NestedField(2, "b", t, True)
    old = Schema(0, (a, b))
    a2 = NestedField(1, "a2", t, True)
    new = Schema(0, (a2, b))
    view = _Updated(old, new, {1: (a, a2)})
    for path in (("a",), ("a2",), ("b",), ("c",)):
        assert view.find(path) is new.find(path)
    assert view.field_by_id(1) is a2 and view.name_of(1) == "a2" and view.ancestors(1) == []
    gone = _Updated(old, Schema(0, (b,)), {1: (a, None)})
    assert gone.find(("a",)) is None and gone.field_by_id(1) is None and gone.name_of(1) is None


SCRIPTS = corpus_runs()


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
