"""The shortcuts that keep icelint linear (issue 15 §3) answer as the plain computations they replace.

Each test runs the shortcut and the plain (quadratic) computation side by side on many generated
inputs. Timing is measured by `bench/scale.py`, never here.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from icelint.model.table import Schema
from icelint.model.types import NestedField, PrimitiveType
from icelint.rules.kit.base import FormerField, TableHistory
from icelint.rules.drop_then_add import last_dropped
from icelint.values.source import LineIndex, Span
from icelint.engine.suppress import Directive, Lookup
from icelint.syntax.tokens import scan_gap

SEEDS = range(200)


# ---------------------------------------------------------------------------- suppressions


def _plain_hit(ds: list[Directive], code: str, stmt: int | None) -> Directive | None:
    """What `suppress.apply` computed before `Lookup`: a scan of every directive."""
    hit = next((d for d in ds if not d.file_level and d.target is not None and d.target == stmt and d.covers(code)), None)
    if hit is None:
        hit = next((d for d in ds if d.file_level and d.covers(code)), None)
    return hit


def _directives(rng: random.Random) -> list[Directive]:
    codes = ["ICE001", "ICE002", "ICE005", "ICE100", None]
    out = []
    for _ in range(rng.randint(0, 12)):
        names = tuple(rng.sample(["a", "b", "c", "d"], rng.randint(0, 3)))
        resolved = tuple(rng.choice(codes) for _ in names)
        file_level = rng.random() < 0.3
        target = None if file_level else rng.choice([None, 0, 1, 2, 3])
        out.append(Directive("f.sql", Span("f.sql", 1, 1, 1, 2, 0, 1), file_level, names, resolved, None, target))
    return out


@pytest.mark.parametrize("seed", SEEDS)
def test_suppression_lookup_equals_a_scan_of_every_directive(seed: int) -> None:
    rng = random.Random(seed)
    ds = _directives(rng)
    lookup = Lookup(ds)
    for code in ("ICE001", "ICE002", "ICE005", "ICE100", "ICE013"):
        for stmt in (None, 0, 1, 2, 3, 4):
            assert lookup.find(code, stmt) is _plain_hit(ds, code, stmt), (code, stmt)
        # the waiver of unused suppressions: the first file-level directive naming ICE100
        waiver = next((x for x in ds if x.file_level and code in x.codes), None)
        assert lookup.find(code, None, any_rule=False) is waiver


# ---------------------------------------------------------------------------- drop-then-add history


def _schema(ids: list[int]) -> Schema:
    return Schema(0, tuple(NestedField(i, f"c{i}", PrimitiveType("int"), False) for i in ids))


@pytest.mark.parametrize("seed", SEEDS)
def test_last_dropped_equals_the_filtered_list(seed: int) -> None:
    rng = random.Random(seed)
    holders = [FormerField(rng.randint(1, 8), "c", f"at f.sql:{i}") for i in range(rng.randint(0, 10))]
    after = _schema(rng.sample(range(1, 9), rng.randint(0, 8)))
    plain = [h for h in holders if after.field_by_id(h.field_id) is None]
    assert last_dropped(holders, after) == plain[-1:]


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


@pytest.mark.parametrize("seed", SEEDS)
def test_former_names_dedup_equals_the_scan(seed: int) -> None:
    rng = random.Random(seed)
    h = TableHistory()
    _ = h.former  # built: `_remember` runs at once
    plain: dict[str, list[FormerField]] = {}
    for i in range(rng.randint(0, 30)):
        path, fid = rng.choice(["c", "C", "d", "s.x"]), rng.randint(1, 6)
        h._remember(path, fid, f"at f.sql:{i}")
        holders = plain.setdefault(path.lower(), [])
        if all(x.field_id != fid for x in holders):
            holders.append(FormerField(fid, path, f"at f.sql:{i}"))
    assert h.former == plain


# ---------------------------------------------------------------------------- nested comments


def _plain_scan_gap(text: str, pos: int, limit: int, li: LineIndex, comments: list) -> tuple[int, bool]:
    """`tokens.scan_gap` before it kept the next `*/` between iterations (a copy of the old code)."""
    from icelint.syntax.ast import Comment

    i = pos
    while i < limit:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "-" and text.startswith("--", i):
            j = text.find("\n", i, limit)
            if j < 0:
                j = limit
            e = j
            if e > i and text[e - 1] == "\r":
                e -= 1
            comments.append(Comment(text[i + 2 : e].strip(), li.span(i, e)))
            i = j
        elif c == "/" and text.startswith("/*", i):
            depth = 1
            j = i + 2
            while depth and j < limit:
                k = text.find("*/", j, limit)
                o = text.find("/*", j, k if k >= 0 else limit)
                if k < 0:
                    j = limit
                    break
                if 0 <= o < k:
                    depth += 1
                    j = o + 2
                else:
                    depth -= 1
                    j = k + 2
            if depth:
                return i, False
            comments.append(Comment(text[i + 2 : j - 2].strip(), li.span(i, j)))
            i = j
        else:
            return i, True
    return limit, True


@pytest.mark.parametrize("seed", range(500))
def test_scan_gap_equals_the_plain_scan(seed: int) -> None:
    rng = random.Random(seed)
    pieces = ["/*", "*/", "/", "*", " ", "\n", "x", "--", "/*/", "*/*"]
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
    if rng.random() < 0.5:
        text = "/*" + text
    li = LineIndex("f.sql", text)
    limit = rng.randint(0, len(text))
    got: list = []
    want: list = []
    assert scan_gap(text, 0, limit, li, got) == _plain_scan_gap(text, 0, limit, li, want)
    assert got == want


def test_deeply_nested_comment_is_one_comment() -> None:
    text = "/* " * 3000 + "deep" + " */" * 3000 + " SELECT"
    comments: list = []
    end, ok = scan_gap(text, 0, len(text), LineIndex("f.sql", text), comments)
    assert ok and text[end:] == "SELECT" and len(comments) == 1 and comments[0].text.count("/*") == 2999


# ---------------------------------------------------------------------------- shared sequences


@pytest.mark.parametrize("seed", SEEDS)
def test_chain_reads_as_the_tuple_it_stands_for(seed: int) -> None:
    from icelint.model.storage.chain import Chain

    rng = random.Random(seed)
    versions: list[tuple[Chain, tuple]] = [(Chain(range(rng.randint(0, 3))), tuple(range(0)))]
    versions[0] = (versions[0][0], tuple(versions[0][0]))
    for i in range(40):
        chain, plain = rng.choice(versions) if rng.random() < 0.2 else versions[-1]  # sometimes a branch
        versions.append((chain.append(i), plain + (i,)))
    for chain, plain in versions:  # extending one never changed another
        assert tuple(chain) == plain and chain == plain and plain == chain and len(chain) == len(plain)
        assert hash(chain) == hash(plain) and repr(chain) == repr(plain) and list(reversed(chain)) == list(reversed(plain))
        for i in range(-len(plain), len(plain)):
            assert chain[i] == plain[i]
        assert chain[1:-1] == plain[1:-1] and chain[::2] == plain[::2]
        with pytest.raises(IndexError):
            chain[len(plain)]
        assert (chain + (7, 8)) == plain + (7, 8) and ((7,) + chain) == (7,) + plain
        assert chain != plain + (None,)


@pytest.mark.parametrize("seed", SEEDS)
def test_rope_shares_chunks_and_reads_as_the_tuple(seed: int) -> None:
    from icelint.model.storage.chain import CHUNK, Rope, share

    rng = random.Random(seed)
    objs = [object() for _ in range(20 * CHUNK)]
    current: list = objs[: rng.randint(0, 6 * CHUNK)]
    version = share((), current)
    for _ in range(30):
        new = list(current)
        op = rng.random()
        if op < 0.3:
            new.append(objs[rng.randrange(len(objs))])
        elif op < 0.5 and new:
            del new[rng.randrange(len(new))]
        elif op < 0.8 and new:
            new[rng.randrange(len(new))] = objs[rng.randrange(len(objs))]
        elif new:
            new.insert(rng.randrange(len(new)), new.pop(rng.randrange(len(new))))
        shared = share(version, new)
        assert tuple(shared) == tuple(new) and shared == tuple(new) and tuple(new) == shared and len(shared) == len(new)
        assert hash(shared) == hash(tuple(new)) and repr(shared) == repr(tuple(new))
        assert list(reversed(shared)) == new[::-1]
        for i in range(-len(new), len(new)):
            assert shared[i] is new[i]
        assert shared[2:-3] == tuple(new)[2:-3]
        if isinstance(shared, Rope) and isinstance(version, Rope) and op < 0.8:  # one position changed: the
            # other chunks are the same objects (a move rebuilds the chunks between its two ends)
            old_ids = {id(c) for c in version._chunks}
            fresh = [c for c in shared._chunks if id(c) not in old_ids]
            assert sum(map(len, fresh)) <= 4 * CHUNK
            assert all(len(c) <= CHUNK for c in shared._chunks)
        assert tuple(version) == tuple(current)  # the old version is unchanged
        version, current = shared, new


@pytest.mark.parametrize("seed", range(40))
def test_same_ends_of_two_ropes_equals_the_item_passes(seed: int) -> None:
    """Between two Ropes, `same_ends` skips the chunks they share at each end: the same counts as the
    item-by-item passes, for versions made from each other (one change, appends, moves, deletes),
    for unrelated Ropes holding the same objects, and for a Rope against itself."""
    from itertools import compress, count
    from operator import is_not

    from icelint.model.storage.chain import CHUNK, Rope, appended, same_ends, share

    def plain(a, b):
        a, b = tuple(a), tuple(b)
        shortest = min(len(a), len(b))
        head = next(compress(count(), map(is_not, a, b)), shortest)
        tail = next(compress(count(), map(is_not, reversed(a), reversed(b))), shortest)
        return head, min(tail, shortest - head)

    rng = random.Random(seed)
    objs = [object() for _ in range(12 * CHUNK)]
    current = objs[: rng.randint(3 * CHUNK, 10 * CHUNK)]
    versions = [Rope(current)]
    for _ in range(25):
        new = list(current)
        op = rng.random()
        if op < 0.25:
            made = appended(versions[-1], [objs[rng.randrange(len(objs))] for _ in range(rng.randint(1, 40))])
            new = list(made)
        else:
            if op < 0.45 and len(new) > 3 * CHUNK:
                del new[rng.randrange(len(new))]
            elif op < 0.75:
                new[rng.randrange(len(new))] = objs[rng.randrange(len(objs))]
            else:
                new.insert(rng.randrange(len(new)), new.pop(rng.randrange(len(new))))
            made = share(versions[-1], new)
        if isinstance(made, Rope):
            versions.append(made)
            current = new
    versions.append(Rope(list(versions[-1])))  # the same objects, chunks of its own
    pairs = [(a, b) for a in versions for b in versions]
    for a, b in rng.sample(pairs, min(len(pairs), 300)) + [(versions[0], versions[0])]:
        assert same_ends(a, b) == plain(a, b)


def test_appended_reads_as_the_tuple_and_keeps_the_old_chunks() -> None:
    from icelint.model.storage.chain import CHUNK, Rope, appended

    old = Rope(range(3 * CHUNK + 5))
    for extra in ([], [1000], list(range(2000, 2000 + 2 * CHUNK))):
        new = appended(old, extra)
        assert tuple(new) == (*range(3 * CHUNK + 5), *extra) and len(new) == 3 * CHUNK + 5 + len(extra)
        assert all(a is b for a, b in zip(old._chunks[:3], new._chunks[:3]))  # full chunks shared
    assert tuple(appended((1, 2), [3])) == (1, 2, 3)


def test_a_new_version_shares_all_but_one_node_of_the_spine() -> None:
    """A table of 2,000 columns changed one column at a time: each version keeps the spine nodes of
    the one before except the node holding the changed chunk (and the last, for an append)."""
    from types import SimpleNamespace

    from icelint.model.storage.chain import CHUNK, SPINE, Rope, appended, patch, share

    fields = [SimpleNamespace(id=i) for i in range(2000)]
    v0 = Rope(fields)
    nodes = v0._nodes
    assert len(nodes) == -(-len(v0._chunks) // SPINE) and all(len(n) <= SPINE for n in nodes)
    new_field = SimpleNamespace(id=5000)
    v1 = patch(v0, [(fields[700], new_field)], [])
    assert v1 is not None and tuple(v1) == (*fields[:700], new_field, *fields[701:])
    fresh = [k for k, n in enumerate(v1._nodes) if n is not v0._nodes[k]]
    assert fresh == [700 // CHUNK // SPINE]  # one node of 16 chunk pointers made, not 63 pointers
    v2 = appended(v1, [SimpleNamespace(id=5001)])
    assert [k for k, n in enumerate(v2._nodes) if k >= len(v1._nodes) or n is not v1._nodes[k]] == [len(v2._nodes) - 1]
    v3 = share(v2, [*v2][:-1])  # the append undone: shares the nodes before the end
    assert tuple(v3) == tuple(v1) and v3 == v1 and all(a is b for a, b in zip(v3._nodes[:-1], v1._nodes[:-1]))


@pytest.mark.parametrize("seed", range(3))
def test_appends_keep_every_spine_node_but_the_last_full(seed: int) -> None:
    from icelint.model.storage.chain import CHUNK, SPINE, Rope, _Nodes, appended

    rng = random.Random(seed)
    items = list(range(3 * CHUNK))
    version = Rope(items)
    for _ in range(300):
        extra = list(range(len(items), len(items) + rng.choice([1, 1, 2, CHUNK - 1, 3 * CHUNK])))
        new = appended(version, extra)
        items += extra
        assert tuple(new) == tuple(items) and len(new) == len(items)
        chunks = new._chunks
        if len(chunks) > SPINE:  # a spine of nodes, every one full but the last
            assert type(new._nodes) is _Nodes and sum(map(len, new._nodes)) == len(chunks)
            assert all(len(node) == SPINE for node in new._nodes[:-1]) and 0 < len(new._nodes[-1]) <= SPINE
            if type(version._nodes) is _Nodes:
                assert all(a is b for a, b in zip(version._nodes[:-1], new._nodes))
        else:  # a narrow rope's spine is the tuple of its chunks
            assert type(new._nodes) is tuple and new._nodes == chunks
        assert all(len(c) == CHUNK for c in chunks[:-1])  # full chunks: an append fills the last one first
        assert all(a is b for a, b in zip(version._chunks[:-1], chunks))
        version = new


@pytest.mark.parametrize("seed", range(5))
def test_lines_before_equals_reversed_splitlines(seed: int) -> None:
    from icelint.fixes.apply import _lines_before

    rng = random.Random(seed)
    text = "".join(rng.choice(["a", ";", " ", "--", "\n", "\r\n", "\r", "\x0c", "\x0b", "\x85", "\u2028", "\n\n"]) for _ in range(300))
    for end in range(len(text) + 1):
        assert list(_lines_before(text, end)) == list(reversed(text[:end].splitlines())), end


def test_outcome_index_equals_the_scan_of_every_outcome() -> None:
    from icelint.values import changes as ch
    from icelint.engine.pipeline import replay_text
    from icelint.rules.kit import outcomes as _outcome_index

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


@pytest.mark.parametrize("seed", range(20))
def test_patch_reads_as_the_edited_tuple(seed: int) -> None:
    """`chain.patch` (items replaced or deleted in place through the locator, then appended) equals
    editing the tuple, keeps the chunks it did not touch, and hands its locator on."""
    import random
    from types import SimpleNamespace

    from icelint.model.storage.chain import CHUNK, Rope, patch

    rng = random.Random(seed)
    next_id = 300
    current = [SimpleNamespace(id=i) for i in range(rng.randint(2 * CHUNK + 1, 300))]
    version = Rope(current)
    for _ in range(60):
        picked = rng.sample(current, min(len(current), rng.choice([1, 1, 2, 3, 40])))
        changed = [(x, None if rng.random() < 0.4 else SimpleNamespace(id=x.id)) for x in picked]
        added = [SimpleNamespace(id=next_id + k) for k in range(rng.choice([0, 0, 1, 5, 40]))]
        next_id += len(added)
        by_item = {id(x): new for x, new in changed}
        new = [by_item.get(id(x), x) for x in current]
        new = [x for x in new if x is not None] + added
        moves = []
        for _ in range(rng.choice([0, 0, 1, 2, 5])):  # as SchemaUpdate._apply_moves makes them
            if len(new) < 2:
                break
            x, ref = rng.sample(new, 2)
            moves.append((x.id, None if rng.random() < 0.3 else ref.id))
            new.remove(x)
            new.insert(0 if moves[-1][1] is None else new.index(ref) + 1, x)
        out = patch(version, changed, added, moves)
        if len(new) <= 2 * CHUNK:
            assert out is None
            break
        assert out is not None and len(out) == len(new) and all(a is b for a, b in zip(out, new))
        assert all(0 < len(c) <= 2 * CHUNK for c in out._chunks)
        if len(picked) == 1 and not added and not moves:  # one chunk made again (merged with its neighbour at most)
            assert len({id(c) for c in out._chunks} - {id(c) for c in version._chunks}) <= 1
        assert version._where is None and out._where is not None  # the locator moved on
        for x in rng.sample(new, 5):
            ci, j = out.place(x)
            assert out._chunks[ci][j] is x
        # ropes chunked differently compare by their items, as tuples do
        for other in (version, Rope(new), Rope(new[:-1] + [SimpleNamespace(id=-1)]), Rope(new[1:] + new[:1])):
            assert (out == other) == (tuple(out) == tuple(other)) == (other == out)
            assert (out != other) == (tuple(out) != tuple(other))
        assert out == Rope(new) and out == tuple(new)
        version, current = out, new


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

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "bench"))
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
    from icelint.values.source import SourceFile
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


# ---------------------------------------------------------------------------- look-ups that were scans per statement


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


def _relied_on_by_scan(run, index: int) -> bool:
    """What `relied_on` computed before `_last_relying`: every later outcome, for each SET."""
    from icelint.rules.case_sensitive_session import _relies

    return any(o.case_sensitive and _relies(o) for o in run.outcomes if o.step.index > index)


def test_relied_on_equals_the_scan_of_every_later_statement() -> None:
    from icelint.values import changes as ch
    from icelint.engine.pipeline import replay_sources
    from icelint.rules.case_sensitive_session import _last_relying
    from icelint.values.source import SourceFile
    from tests.corpus import corpus_runs

    runs = [[SourceFile.read(p) for p in files] for files in corpus_runs()]
    runs += [[SourceFile(f"n{i}.sql", text)] for i, text in enumerate(_nested_scripts())]
    relied = not_relied = 0
    for sources in runs:
        run = replay_sources(sources).result
        sets = [o.step.index for o in run.outcomes if isinstance(o.step, ch.SessionConfig)]
        for index in sets + [-1]:
            want = _relied_on_by_scan(run, index)
            assert (_last_relying(run) > index) == want, (sources[0].path, index)
            relied += want
            not_relied += not want
    assert relied > 5 and not_relied > 5


@pytest.mark.parametrize("seed", range(30))
def test_edit_rows_from_line_starts_equal_the_scan(seed: int) -> None:
    from icelint.values.fix import Edit
    from icelint.values.source import line_starts

    rng = random.Random(seed)
    text = "".join(rng.choice(["a", ";", " ", "\n", "\r\n", "é", "\n\n"]) for _ in range(rng.randint(0, 200)))
    starts = line_starts(text)
    for _ in range(50):
        a = rng.randint(0, len(text))
        b = rng.randint(a, len(text))
        assert Edit.at(text, a, b, "x", starts) == Edit.at(text, a, b, "x")


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


def test_nested_columns_carried_past_many_equal_a_fresh_pass() -> None:
    """More than eight struct columns: the one replaced or dropped is cut out of the carried list of
    nested columns wherever it is (last, recent or first), and the list holds the fields a fresh
    pass over the schema finds."""
    from icelint.model.table import Schema
    from icelint.engine.pipeline import replay_text

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


# ---------------------------------------------------------------------------- bounded suggestions and messages


def test_suggestions_are_bounded_per_run_and_start_afresh() -> None:
    """Thousands of unknown tables beside thousands of known ones: the first get "did you mean",
    within the run's budget of name comparisons; later ones go without; the next run starts afresh
    (its first unknown table gets its suggestion again)."""
    from icelint.engine.checker import lint_run
    from icelint.config import load_config
    from icelint.engine.pipeline import replay_text
    from icelint.rules.kit import help as _help

    n = 400
    sql = "".join(f"CREATE TABLE db.orders_{i} (id int) USING iceberg;\n" for i in range(n))
    sql += "".join(f"ALTER TABLE db.order_{i} ADD COLUMN c int;\n" for i in range(n))
    rules = load_config().rules()
    for _ in range(2):
        found = [f for f in lint_run(replay_text(sql), rules) if f.rule == "ICE005"]
        assert len(found) == n
        hinted = [f for f in found if "did you mean" in (f.help or "")]
        assert found[0].help.startswith("did you mean `db.orders_0`?")
        # each asks over n names: the budget (ICE005 and ICE028 ask once each) allows about this many
        assert 0 < len(hinted) < n and abs(len(hinted) - _help.SUGGESTION_BUDGET // (2 * n)) <= 1
        assert all("did you mean" in (f.help or "") for f in found[: len(hinted)])


def test_a_struct_in_a_message_lists_its_first_fields() -> None:
    from icelint.engine.pipeline import replay_text
    from icelint.replay.common import SHOWN_FIELDS

    for n in (3, SHOWN_FIELDS, SHOWN_FIELDS + 1, 400):
        cols = ", ".join(f"c{i} int" for i in range(n))
        run = replay_text(f"CREATE TABLE db.t ({cols}) USING iceberg;\nALTER TABLE db.t ALTER COLUMN nope COMMENT 'x';\n")
        message = run.result.outcomes[1].error.message
        listed = ", ".join(f"c{i}: int" for i in range(min(n, SHOWN_FIELDS)))
        if n <= SHOWN_FIELDS:
            assert message.endswith(f"with schema: struct<{listed}>")
        else:
            assert message.endswith(f"with schema: struct<{listed}, ... {n - SHOWN_FIELDS} more fields>")


def _adjust_by_scan(findings, parsed_files, maps, enabled, rule):
    """What `placeholders.adjust` computed before its searches: every hole for every statement,
    every broken statement for every parse error."""
    from icelint.values.findings import in_report_order
    from icelint.engine.placeholders import PARSE_ERROR, unresolved_findings

    if not any(m.unresolved for m in maps.values()):
        return list(findings)
    broken: dict = {}
    files = {f.path: f for f in parsed_files}
    for path, m in maps.items():
        pf = files.get(path)
        if pf is None or not m.unresolved:
            continue
        index = m._sub_index()
        holes = [index.position(start) for _, start, _ in m.unresolved]
        for st in pf.statements:
            sp = st.span
            if any((sp.line, sp.column) <= h <= (sp.end_line, sp.end_column) for h in holes):
                broken.setdefault(path, []).append(((sp.line, sp.column), (sp.end_line, sp.end_column)))
    out = [f for f in findings if not (f.rule == PARSE_ERROR and any(a <= (f.line, f.column) <= b for a, b in broken.get(f.path, ())))]
    if rule.code in set(enabled):
        out += unresolved_findings({p: m for p, m in maps.items() if p in files}, rule)
    return in_report_order(out)


@pytest.mark.parametrize("seed", range(25))
def test_placeholder_adjust_equals_the_scan(seed: int) -> None:
    """Statements with and without unresolved placeholders, parse errors inside and outside them,
    several on a line: the statements whose parse errors are dropped are the scan's."""
    from icelint.engine import placeholders
    from icelint.engine.checker import lint_run
    from icelint.config import load_config
    from icelint.engine.pipeline import replay_sources
    from icelint.rules import get
    from icelint.values.source import SourceFile

    rng = random.Random(seed)
    pieces = ["CREATE TABLE ${s}.t (id bigint) USING iceberg;", "ALTER TABLE db.t ADD COLUMN ${c} int;",
              "ALTER TABLE db.t ADD COLUMN ( oops;", "ALTER TABLE ${s}.t DROP COLUMN x ((;", "SELECT 1;",
              "ALTER TABLE db.t ADD COLUMN a${n} int;", "ALTER TABLE db.${t} RENAME COLUMN a TO b;", "\n", "\n", " "]  # fmt: skip
    texts = {f"f{k}.sql": "".join(rng.choice(pieces) for _ in range(rng.randint(1, 40))) + "\n" for k in range(2)}
    rules = load_config().rules()
    sources, maps = placeholders.prepare([SourceFile(p, t) for p, t in texts.items()], {"n": "1"} if seed % 2 else {})
    run = replay_sources(sources)
    found = lint_run(run, rules)
    codes = [r.code for r in rules]
    want = _adjust_by_scan(found, run.parsed, maps, codes, get("ICE060"))
    assert placeholders.adjust(found, run.parsed, maps, codes, get("ICE060")) == want
    assert any(f.rule == "ICE006" for f in found) or seed % 5  # most seeds have parse errors to drop or keep


def _edit_by_scan(text, statements, findings, reason):
    """What `baseline.edit` computed before its searches: a scan of the statements per finding, and
    a list insert per statement from the bottom up."""
    from icelint.fixes.add_suppressions import comment

    def statement_of(f):
        pos = (f.line, f.column)
        for i, (line, col, end_line, end_col) in enumerate(statements):
            if (line, col) <= pos <= (end_line, end_col):
                return i
        return None

    wanted: dict = {}
    for f in findings:
        k = statement_of(f)
        if k is not None and f.rule not in wanted.setdefault(k, []):
            wanted[k].append(f.rule)
    if not wanted:
        return text, 0
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    for k in sorted(wanted, reverse=True):
        line, col = statements[k][0], statements[k][1]
        codes = sorted(wanted[k])
        current = lines[line - 1]
        before = current[: col - 1]
        indent = before[: len(before) - len(before.lstrip(" \t"))]
        if k > 0 and statements[k - 1][2] == line and before.strip():
            lines[line - 1 : line] = [before.rstrip(" \t") + newline, indent + comment(codes, reason) + newline, indent + current[col - 1 :]]
        else:
            lines.insert(line - 1, indent + comment(codes, reason) + newline)
    return "".join(lines), len(wanted)


@pytest.mark.parametrize("seed", range(40))
def test_add_suppressions_edit_equals_the_scan(seed: int) -> None:
    """Statements several to a line, indented, spread over lines, after comments, CRLF; findings
    inside and outside them, several per statement: the same text and count as the scan."""
    from icelint.fixes.add_suppressions import edit
    from icelint.values.findings import Finding, Severity
    from icelint.syntax.parser import parse_text

    rng = random.Random(seed)
    pieces = ["ALTER TABLE db.t ADD COLUMN c int;", "  DROP TABLE db.u;", "/* x */ ALTER TABLE db.t\n  DROP COLUMN c;",
              "-- note\n", "\n", " ", "\t", "SELECT 1;"]  # fmt: skip
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 30))) + "\n"
    if seed % 3 == 0:
        text = text.replace("\n", "\r\n")
    statements = [(s.span.line, s.span.column, s.span.end_line, s.span.end_column) for s in parse_text(text, "m.sql").statements]
    findings = []
    for _ in range(rng.randint(0, 25)):
        line = rng.randint(1, text.count("\n") + 1)
        findings.append(Finding(rule=rng.choice(["ICE001", "ICE011", "ICE019"]), name="n", severity=Severity.ERROR, path="m.sql",
                                line=line, column=rng.randint(1, 40), end_line=line, end_column=41, message="m", help=None))  # fmt: skip
    assert edit(text, statements, findings, "why") == _edit_by_scan(text, statements, findings, "why")


# ---------------------------------------------------------------------------- identifier fields


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


# ---------------------------------------------------------------------------- partition specs


def _add_spec_by_scan(specs, new):
    """`layout.add_spec` before `SpecIndex`: a scan of every spec."""
    from icelint.model.table import PartitionSpec

    new_id = 0
    for s in specs:
        if new.compatible_with(s):
            return specs, s.spec_id
        if new_id <= s.spec_id:
            new_id = s.spec_id + 1
    return specs + (PartitionSpec(new_id, new.fields),), new_id


def _recycle_by_scan(specs, source_id, transform, name):
    """`SpecUpdate._recycle_or_create`'s search before `SpecIndex`."""
    seen: set = set()
    for spec in specs:
        for f in spec.fields:
            if f in seen:
                continue
            seen.add(f)
            if f.source_id == source_id and f.transform == transform and (name is None or f.name == name):
                return f
    return None


@pytest.mark.parametrize("seed", range(40))
def test_spec_index_equals_the_scans_of_every_spec(seed: int) -> None:
    """A long partition evolution looks specs and fields up in an index moved from one specs tuple to
    the next (`partitioning.SpecIndex`): the same spec ids, specs and recycled fields as the scans."""
    from icelint.model.table import PartitionField, PartitionSpec
    from icelint.replay import partitioning as pt
    from icelint.replay.layout import add_spec

    rng = random.Random(seed)
    pool = [PartitionField(rng.randint(1, 4), 1000 + i, rng.choice(["a", "b", "c"]), rng.choice(["identity", "bucket[4]", "day"]))
            for i in range(12)]  # fmt: skip
    specs: tuple = (PartitionSpec(0, ()),)
    if seed % 2:  # as a metadata file may hold them: two compatible specs (the first is the one reused)
        specs += (PartitionSpec(1, (pool[0],)), PartitionSpec(2, (pool[0],)))
    plain = specs
    for _ in range(120):
        new = PartitionSpec(0, tuple(rng.sample(pool, rng.randint(0, 3))))
        specs, sid = add_spec(specs, new)
        plain, plain_id = _add_spec_by_scan(plain, new)
        assert sid == plain_id and specs == plain
        assert pt.spec_index(specs).by_id[sid] == next(s for s in plain if s.spec_id == sid)
        for source_id in range(1, 5):
            for transform in ("identity", "bucket[4]", "day"):
                for name in (None, "a", "b", "c"):
                    assert pt.spec_index(specs).first(source_id, transform, name) is _recycle_by_scan(plain, source_id, transform, name)
        if rng.random() < 0.1:  # an index built afresh for a tuple it was not moved to answers the same
            pt._SPECS.held.clear()


def _add_sort_order_by_scan(orders, new):
    """`layout._add_sort_order` before `OrderIndex`: a scan of every order."""
    from icelint.model.table import UNSORTED, SortOrder

    if not new.fields:
        if not any(o.order_id == 0 for o in orders):
            orders = (UNSORTED,) + orders
        return orders, 0
    new_id = 1
    for o in orders:
        if o.fields == new.fields:
            return orders, o.order_id
        if new_id <= o.order_id:
            new_id = o.order_id + 1
    return orders + (SortOrder(new_id, new.fields),), new_id


@pytest.mark.parametrize("seed", range(40))
def test_order_index_equals_the_scan_of_every_order(seed: int) -> None:
    """`WRITE ORDERED BY` looks the table's sort orders up in an index moved from one orders tuple to
    the next (`partitioning.OrderIndex`): the same order ids and orders as the scan, unsorted included."""
    from icelint.model.table import SortField, SortOrder
    from icelint.replay import partitioning as pt
    from icelint.replay.layout import _add_sort_order

    rng = random.Random(seed)
    pool = [SortField(rng.randint(1, 5), rng.choice(["identity", "bucket[4]"]), rng.choice(["asc", "desc"]), "nulls-first")
            for _ in range(8)]  # fmt: skip
    orders: tuple = () if seed % 3 == 0 else (SortOrder(0, ()),)
    if seed % 3 == 2:  # as a metadata file may hold them: two orders of the same fields (the first is reused)
        orders += (SortOrder(3, (pool[0],)), SortOrder(5, (pool[0],)))
    plain = orders
    for _ in range(100):
        new = SortOrder(0, tuple(rng.sample(pool, rng.randint(0, 3))))
        orders, oid = _add_sort_order(orders, new)
        plain, plain_id = _add_sort_order_by_scan(plain, new)
        assert oid == plain_id and orders == plain
        if rng.random() < 0.1:
            pt._ORDERS.held.clear()


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

    from icelint.model.table import Snapshot, TableMetadata
    from icelint.engine.pipeline import replay_text
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


# ---------------------------------------------------------------------------- findings at one place


def test_findings_at_one_place_on_other_fields_are_not_compared_text_by_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A struct's fields reported at one place (ICE029 on `struct<f0, F0, f1, F1, ...>`): findings that
    differ only in their field hash apart, so deduplicating them compares no pair of texts (each
    comparison unpacked two long messages: quadratic before); equal findings still collapse."""
    from icelint.values import findings as fmod
    from icelint.values.findings import Finding, Severity, in_report_order

    made = [Finding(rule="ICE029", name="n", severity=Severity.ERROR, path="m.sql", line=2, column=29, end_line=2,
                    end_column=60, message=f"`s.F{i}` (field id {i}) " + "x" * 300, help="h" * 300, column_path=f"s.F{i}",
                    field_id=i) for i in range(2000)]  # fmt: skip
    compared = [0]
    eq = Finding.__eq__

    def counting(a, b):
        compared[0] += 1
        return eq(a, b)

    monkeypatch.setattr(fmod.Finding, "__eq__", counting)
    out = in_report_order(made + made[:10])
    assert len(out) == 2000 and {f.field_id for f in out} == set(range(2000))
    assert compared[0] < 100  # the ten repeats, and no more than a few hash collisions
