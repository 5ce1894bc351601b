"""Older schema versions kept as their difference from the next one (`model/versions.py`): each
reads back as the version it was, by identity of every field, whichever order they are read in;
linting and the tables' final states are the same as without; copies and pickles are whole."""

from __future__ import annotations

import copy
import pickle
import random
from pathlib import Path

import pytest

from icelint.engine.checker import lint_replay
from icelint.model.storage import versions
from icelint.model.storage.chain import Rope
from icelint.model.table import Schema
from icelint.engine.pipeline import parse_sources
from icelint.replay import engine
from icelint.replay.engine import Replay
from icelint.rules import ALL_RULES
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, run_id

RUNS = corpus_runs()


def _long_script(seed: int, width: int, statements: int) -> str:
    """One table of `width` columns (a Rope when over 64, a tuple below) and a nested struct, then
    `statements` schema changes of every kind: adds, drops, renames, widenings, comments, moves
    (near and far), nested adds, identifier fields, and an add undone by a drop (Iceberg reuses
    the older schema: a version seen twice)."""
    rnd = random.Random(seed)
    cols = [f"c{i}" for i in range(width)]
    types = {c: "int" for c in cols}
    out = [f"CREATE TABLE db.t (id bigint NOT NULL, s struct<a: int>, {', '.join(f'{c} int' for c in cols)}) USING iceberg;"]
    n = width
    for _ in range(statements):
        k = rnd.randrange(9)
        c = rnd.choice(cols)
        if k == 0 or len(cols) < 8:
            cols.append(f"c{n}")
            types[f"c{n}"] = "int"
            out.append(f"ALTER TABLE db.t ADD COLUMN c{n} int;")
            n += 1
        elif k == 1:
            cols.remove(c)
            out.append(f"ALTER TABLE db.t DROP COLUMN {c};")
        elif k == 2:
            new = f"c{n}"
            n += 1
            cols[cols.index(c)] = new
            types[new] = types.pop(c)
            out.append(f"ALTER TABLE db.t RENAME COLUMN {c} TO {new};")
        elif k == 3 and types[c] == "int":
            types[c] = "bigint"
            out.append(f"ALTER TABLE db.t ALTER COLUMN {c} TYPE bigint;")
        elif k == 4:
            out.append(f"ALTER TABLE db.t ALTER COLUMN {c} COMMENT 'note {n}';")
            n += 1
        elif k == 5:
            out.append(f"ALTER TABLE db.t ALTER COLUMN {c} FIRST;")
        elif k == 6:
            other = rnd.choice(cols)
            if other != c:
                out.append(f"ALTER TABLE db.t ALTER COLUMN {c} AFTER {other};")
        elif k == 7:
            out.append(f"ALTER TABLE db.t ADD COLUMN s.x{n} int;")
            n += 1
        else:
            out.append(f"ALTER TABLE db.t ADD COLUMN tmp{n} int;")
            out.append(f"ALTER TABLE db.t DROP COLUMN tmp{n};")  # the schema before the add, reused
            n += 1
        if rnd.randrange(40) == 0:
            out.append("ALTER TABLE db.t SET IDENTIFIER FIELDS id;")
    return "\n".join(out) + "\n"


def _stream(text: str):
    """Lint `text` streamed; each schema version as it was when it was last made current (its
    fields, its JSON): a version reused later takes the fields of the one its commit made (`adopt`)."""
    parsed = parse_sources([SourceFile("long.sql", text)])
    seen: dict[int, tuple[Schema, tuple, dict]] = {}
    ropes = _ROPES
    ropes.clear()
    result, outcomes = Replay(None).stream(parsed.steps)
    last = None
    for o in outcomes:
        s = o.after.schema if o.after is not None else None
        if s is not None and s is not last and not versions.is_retired(s):
            if id(s) not in seen:
                ropes.append(isinstance(s.fields, Rope))
            seen[id(s)] = (s, tuple(s.fields), s.to_json())
        last = s
    return result, list(seen.values())


_ROPES: list[bool] = []  # per version made by the last `_stream`: its fields were a Rope


@pytest.fixture
def retire_soon(monkeypatch):
    """Versions retired one behind the newest, not `UNDO_KEPT` (128): every test file exercises it."""
    monkeypatch.setattr(engine, "UNDO_KEPT", 1)


@pytest.mark.parametrize("seed,width", [(1, 20), (2, 90), (3, 200), (4, 600)])
def test_every_version_reads_back_as_it_was(retire_soon, seed: int, width: int) -> None:
    result, made = _stream(_long_script(seed, width, 500))
    retired = [s for s, _, _ in made if versions.is_retired(s)]
    assert len(retired) > len(made) // 2  # most versions were retired: the test reads them back
    assert any(_ROPES) == (width > 64)
    order = list(made)
    random.Random(seed).shuffle(order)  # from the middle of the chains, not only oldest or newest first
    for s, fields, js in order:
        assert len(s.fields) == len(fields) and all(a is b for a, b in zip(s.fields, fields))
        assert s.to_json() == js
        assert not versions.is_retired(s)  # revived: read from its own fields from now on
    table = result.tables["db.t"]
    assert [x.to_json() for x in table.schemas] == [js for _, _, js in sorted(made, key=lambda m: m[0].schema_id)]


def test_a_retired_version_keeps_only_its_difference(retire_soon) -> None:
    result, made = _stream(_long_script(5, 300, 200))
    s = next(s for s, _, _ in made if versions.is_retired(s))
    newer, start, removed, *items = s.__dict__["_retired"]
    assert set(s.__dict__) <= {"schema_id", "identifier_field_ids", "_retired", "_tables"}  # `_tables`: the lineage's store
    assert len(items) <= versions.MAX_SPLICE and start + removed <= len(newer.fields)


def _walk(s: Schema) -> int:
    """How many retired versions reading `s`'s fields passes through."""
    n = 0
    while versions.is_retired(s):
        n += 1
        s = s.__dict__["_retired"][0]
    return n


def test_reading_the_oldest_first_walks_each_chain_once(retire_soon) -> None:
    """Reading every version from the oldest walks a chain once; each later read stops at the
    nearest version revived on the way (`CHECKPOINT`), not at the chain's end."""
    cols = ", ".join(f"c{i} int" for i in range(100))
    script = f"CREATE TABLE db.t ({cols}) USING iceberg;\n" + "".join(
        f"ALTER TABLE db.t ADD COLUMN a{i} int;\nALTER TABLE db.t RENAME COLUMN c{i} TO r{i};\n" for i in range(300)
    )
    result, made = _stream(script)
    schemas = result.tables["db.t"].schemas
    retired = sum(versions.is_retired(s) for s in schemas)
    assert retired > len(schemas) // 2
    walks = []
    for s in schemas:
        walks.append(_walk(s))
        assert tuple(s.fields) and not versions.is_retired(s)
    assert max(walks) > 4 * versions.CHECKPOINT  # the first read of a long chain
    assert sum(walks) < retired * (versions.CHECKPOINT + 4) // 2  # not the chain's length per read
    assert all(not versions.is_retired(s) for s in schemas)


def test_copies_pickles_and_equality_see_the_whole_version(retire_soon) -> None:
    result, made = _stream(_long_script(7, 100, 150))
    retired = [(s, f, js) for s, f, js in made if versions.is_retired(s)]
    s, fields, js = retired[len(retired) // 2]
    twin = Schema(s.schema_id, tuple(fields), s.identifier_field_ids)
    assert s == twin and hash(s) == hash(twin)
    s2, fields2, js2 = retired[len(retired) // 2 + 1]
    for back in (pickle.loads(pickle.dumps(s2)), copy.deepcopy(s2)):
        assert back.to_json() == js2 and not versions.is_retired(back)


def test_retire_refuses_what_it_cannot_keep() -> None:
    from icelint.model.types import INT, NestedField

    fields = [NestedField(i, f"c{i}", INT) for i in range(300)]
    old = Schema(0, Rope(fields))
    far = Schema(1, Rope(list(reversed(fields))))  # every field moved: the difference is the whole schema
    assert not versions.retire(old, far) and "fields" in old.__dict__ and not versions.is_retired(old)
    near = Schema(2, Rope(fields[:-1]))
    assert versions.retire(old, near)
    assert not versions.retire(near, old)  # towards a retired version: no link to one
    assert not versions.retire(old, near)  # already retired
    assert tuple(old.fields) == tuple(fields)


@pytest.mark.parametrize("src,dest", [(250, 0), (3, 280), (299, 1), (0, 299)])
def test_a_column_moved_far_is_kept_as_the_move(src: int, dest: int) -> None:
    from icelint.model.types import INT, NestedField

    fields = [NestedField(i, f"c{i}", INT) for i in range(300)]
    moved = list(fields)
    moved.insert(dest, moved.pop(src))
    for old, new in ((fields, moved), (moved, fields)):
        a, b = Schema(0, Rope(old)), Schema(1, Rope(new))
        assert versions.retire(a, b)
        newer, start, n, *way = a.__dict__["_retired"]
        assert n < 0 and len(way) == 1  # the move, not the columns between
        assert list(a.fields) == old and all(x is y for x, y in zip(a.fields, old))


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_the_corpus_lints_the_same_with_every_version_retired(monkeypatch, files: list[Path]) -> None:
    texts = [SourceFile(str(p), p.read_text(encoding="utf-8")) for p in files]

    def lint():
        parsed = parse_sources(texts)
        found, result = lint_replay(Replay(None), parsed.steps, ALL_RULES)
        return found, {k: v.to_json() if v is not None else None for k, v in result.tables.items()}

    monkeypatch.setattr(engine, "retire", lambda older, newer: False)
    expected = lint()
    monkeypatch.setattr(engine, "retire", versions.retire)
    monkeypatch.setattr(engine, "UNDO_KEPT", 1)
    assert lint() == expected


def test_the_corpus_retires_versions(monkeypatch) -> None:
    """Without this, the equivalence above could hold because nothing is retired."""
    monkeypatch.setattr(engine, "UNDO_KEPT", 1)
    done = []

    def counting(older, newer):
        ok = versions.retire(older, newer)
        done.append(ok)
        return ok

    monkeypatch.setattr(engine, "retire", counting)
    for files in RUNS:
        parsed = parse_sources([SourceFile(str(p), p.read_text(encoding="utf-8")) for p in files])
        lint_replay(Replay(None), parsed.steps, ALL_RULES)
    assert sum(done) >= 100


@pytest.mark.parametrize("seed", range(6))
def test_splice_of_shared_chunks_is_the_splice_of_the_fields(seed: int) -> None:
    """Between Ropes that share chunks (`chain.patch`: one chunk changed in place, a chunk that lost
    an item and joined its neighbour, columns appended) the splice is the one found on the plain
    field lists, and undoing it gives the old fields back."""
    from icelint.model.storage.chain import patch, same_ends
    from icelint.model.types import INT, NestedField

    rng = random.Random(seed)
    fields = [NestedField(i, f"c{i}", INT) for i in range(300)]
    old = Rope(fields)
    next_id = 300
    seen_in_place = seen_other = 0
    for _ in range(200):
        cur = list(old)
        changed, added = [], []
        for f in rng.sample(cur, rng.choice((1, 1, 1, 2))):
            changed.append((f, None if rng.random() < 0.3 else NestedField(f.id, f.name + "x", INT)))
        if rng.random() < 0.3:
            added.append(NestedField(next_id, f"n{next_id}", INT))
            next_id += 1
        new = patch(old, changed, added)
        assert new is not None
        mine, theirs = old._chunks, new._chunks
        head, tail = same_ends(mine, theirs)
        if head + tail + 1 == len(mine) == len(theirs):
            seen_in_place += 1
        else:
            seen_other += 1
        got = versions.splice(old, new)
        assert got == versions.splice(tuple(old), tuple(new))
        if got is None:  # two changes far apart: more than `MAX_SPLICE` between them, kept whole
            old = new
            continue
        start, n, *items = got
        back = list(new)
        back[start : start + n] = items
        assert len(back) == len(cur) and all(x is y for x, y in zip(back, cur))
        old = new
    assert seen_in_place and seen_other  # both ways through `splice` were taken


def _renames_back(width: int, times: int, cycle: int = 1) -> str:
    """A table of `width` columns, then `times` renames of `cycle` columns in turn, away and back:
    from the second statement on, each commit gives the table an older schema id again."""
    out = [f"CREATE TABLE db.t (id bigint, {', '.join(f'c{i} int' for i in range(width))}) USING iceberg;"]
    for i in range(times):
        c = i % cycle
        away = (i // cycle) % 2 == 0
        out.append(f"ALTER TABLE db.t RENAME COLUMN c{c} TO x{c};" if away else f"ALTER TABLE db.t RENAME COLUMN x{c} TO c{c};")
    return "\n".join(out) + "\n"


def test_a_reused_version_moves_on_at_the_cost_of_the_change(monkeypatch) -> None:
    """A rename undone gives the table its older schema id again (Iceberg's `reuseOrCreateNewSchemaId`):
    the older version becomes current, takes the fields of the version the commit made (equal to its
    own) and what the replay carried to it, and the next commit moves its lookup tables and locator
    on from there. Neither is built again from every column per statement (quadratic on a table as
    wide as the script is long), and the version is not retired while it is among the newest."""
    from icelint.model.storage import chain

    located, revived = [], []
    locate, revive = chain._locate, versions.revive
    monkeypatch.setattr(chain, "_locate", lambda chunks: located.append(1) or locate(chunks))
    monkeypatch.setattr(versions, "revive", lambda schema: revived.append(1) or revive(schema))
    result, made = _stream(_renames_back(300, 400))
    schemas = result.tables["db.t"].schemas
    assert [s.schema_id for s in schemas] == [0, 1]  # two versions, each current 200 times
    current = [o.after.schema for o in result.outcomes]
    assert all(s is schemas[i % 2] for i, s in enumerate(current))
    assert len(located) <= 2 and not revived  # was: a locator of 300 columns and a revival per statement
    assert schemas[0].top_level("c0") is schemas[0].fields[1] and schemas[1].top_level("x0") is schemas[1].fields[1]
    assert schemas[0].top_level("x0") is None and schemas[1].top_level("c0") is None


def _lint(text: str):
    parsed = parse_sources([SourceFile("long.sql", text)])
    found, result = lint_replay(Replay(None), parsed.steps, ALL_RULES)
    ids = [o.after.schema.schema_id if o.after is not None else None for o in result.outcomes]
    return found, ids, {k: v.to_json() if v is not None else None for k, v in result.tables.items()}


def test_a_version_reused_again_and_again_is_revived_once(monkeypatch) -> None:
    """Renames of 150 columns in turn, away and back: each commit reuses a version last current 300
    statements before, retired since. Revived once, it is kept whole from then on (not retired and
    revived at each round): about one revival per version, not one per statement."""
    revived = []
    revive = versions.revive
    monkeypatch.setattr(versions, "revive", lambda schema: revived.append(schema) or revive(schema))
    result, made = _stream(_renames_back(300, 1500, 150))
    assert len(result.tables["db.t"].schemas) == 300
    assert 150 <= len(revived) <= 300  # not one per statement (1,200 reuses)


@pytest.mark.parametrize(
    "width,times,cycle,replace",
    [(40, 300, 1, False), (300, 400, 1, False), (300, 900, 150, False), (100, 700, 20, False), (300, 700, 1, True), (100, 900, 150, True)],
)
def test_reused_versions_lint_and_read_as_without_adopting(monkeypatch, width: int, times: int, cycle: int, replace: bool) -> None:
    """Adopting, and keeping a reused version whole while it is among the newest, change nothing
    anyone reads: the findings, each statement's schema id, every version's JSON are those of a
    replay that does neither and retires nothing (`replace`: the table dropped and created again
    halfway, while versions reused are among the newest)."""
    from icelint.replay import schemas as replay_schemas

    text = _renames_back(width, times, cycle)
    if replace:
        lines = text.splitlines(keepends=True)
        half = len(lines) // 2
        text = "".join([*lines[:half], "DROP TABLE db.t;\n", lines[0], *lines[half:]])
    adopted = []
    monkeypatch.setattr(replay_schemas, "adopt", lambda older, new: adopted.append(1) or versions.adopt(older, new))
    got = _lint(text)
    if not replace:
        assert len(adopted) == times - (2 * cycle - 1)  # every commit after the first round trip reused an older version
    monkeypatch.setattr(engine, "UNDO_KEPT", 3)
    assert _lint(text) == got  # reused versions retired and revived all along
    monkeypatch.setattr(replay_schemas, "adopt", lambda older, new: None)
    monkeypatch.setattr(engine, "retire", lambda older, newer: False)
    monkeypatch.setattr(engine, "UNDO_KEPT", versions.CHECKPOINT * 4)
    assert _lint(text) == got


def test_a_retired_version_reused_is_compared_without_its_identity() -> None:
    """`same_as` on an older version that let its derived values go decides by the fields (its
    identity would be a pass over every field); the answer is the same both ways round."""
    from icelint.model.types import INT, NestedField

    fields = [NestedField(i, f"c{i}", INT) for i in range(300)]
    old, newer = Schema(0, Rope(fields)), Schema(1, Rope([*fields[:5], NestedField(5, "x", INT), *fields[6:]]))
    old.__dict__["_retired"] = newer.__dict__["_retired"] = None  # as a replay's versions hold it
    assert versions.retire(old, newer)
    twin = Schema(2, Rope(list(fields)))
    assert old.same_as(twin) and twin.same_as(old)
    assert "_identity" not in old.__dict__ and "_index" not in old.__dict__
    assert not old.same_as(newer) and not newer.same_as(old)


def _two_schema_metadata(width: int) -> bytes:
    """A v2 table of `width` columns whose current schema (id 1) renamed `c0` (id 2) to `x`."""
    import json

    fields = [{"id": 1, "name": "id", "required": False, "type": "long"}]
    fields += [{"id": i + 2, "name": f"c{i}", "required": False, "type": "int"} for i in range(width)]
    renamed = [dict(f) for f in fields]
    renamed[1]["name"] = "x"
    meta = {
        "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "s3://b/db/t",
        "last-sequence-number": 0, "last-updated-ms": 1700000000000, "last-column-id": width + 1,
        "schemas": [{"type": "struct", "schema-id": 0, "fields": fields}, {"type": "struct", "schema-id": 1, "fields": renamed}],
        "current-schema-id": 1, "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}],
        "last-partition-id": 999, "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}],
        "properties": {}, "current-snapshot-id": -1, "refs": {}, "snapshots": [], "snapshot-log": [], "metadata-log": [],
    }  # fmt: skip
    return json.dumps(meta).encode()


@pytest.mark.parametrize("fast", [False, True])
def test_a_metadata_files_older_schema_reused_keeps_its_json(monkeypatch, fast: bool) -> None:
    """Renaming back to a metadata file's older schema (read lazily; from the text, `fast`, for files
    of 4 MB or more) gives the table that schema's id again: it adopts the fields the commit made
    like a replayed version, keeps the rest of what it read (its JSON passed through as written),
    and lints and reads as without adopting; no lookup table or locator is built per statement."""
    from icelint.model.storage import chain
    from icelint.model.storage import fastload
    from icelint.model.metadata import parse_metadata_bytes
    from icelint.model.table import LazySchema
    from icelint.replay import schemas as replay_schemas

    if fast:
        monkeypatch.setattr(fastload, "THRESHOLD", 0)
    data = _two_schema_metadata(300)
    text = "".join("ALTER TABLE db.t RENAME COLUMN x TO c0;\n" if i % 2 == 0 else "ALTER TABLE db.t RENAME COLUMN c0 TO x;\n" for i in range(400))
    steps = parse_sources([SourceFile("m.sql", text)]).steps

    def lint():
        meta = parse_metadata_bytes(data, "t.metadata.json")
        older = meta.schemas[0]
        assert isinstance(older, LazySchema) and (older.__class__.__name__ == "TextSchema") == fast
        found, result = lint_replay(Replay({"db.t": meta}), steps, ALL_RULES)
        ids = [o.after.schema.schema_id for o in result.outcomes]
        return older, found, ids, result.tables["db.t"].to_json()

    located = []
    locate = chain._locate
    monkeypatch.setattr(chain, "_locate", lambda chunks: located.append(1) or locate(chunks))
    older, *got = lint()
    assert got[1] == [0, 1] * 200 and len(got[2]["schemas"]) == 2
    assert len(located) <= 4  # was: one locator of 300 columns per statement
    assert older.__dict__.get("_adopted") and older.to_json()["fields"] is older._raw["fields"]
    assert older.top_level("c0") is older.fields[1] and older.top_level("x") is None
    monkeypatch.setattr(replay_schemas, "adopt", lambda older, new: None)
    assert list(lint()[1:]) == got
