"""`model/storage/chain.py`: the `Chain` and `Rope` sequences a long run keeps schema fields in read as
the tuples they stand for, share what they did not change, and `same_ends` and `patch` answer as the
item-by-item passes over the tuples. Timing is measured by `bench/scale.py`, never here.
"""

from __future__ import annotations

import random

import pytest

SEEDS = range(200)


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
