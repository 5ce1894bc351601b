"""ICE017's shortcuts (`column_reorder._shifts`, `_order`) give what the plain computations below give: over
every schema change of the fixture and differential corpus, and over generated reorders of tuples
and Ropes (shared fields at both ends, as the replay makes them, and fields rebuilt in place)."""

from __future__ import annotations

import random
from itertools import chain

import pytest

from icelint.model import types as it
from icelint.model.storage.chain import share
from icelint.model.table import Schema
from icelint.engine.pipeline import replay_sources
from icelint.rules import column_reorder as cr
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, run_id

RUNS = corpus_runs()


def _order_plain(fields, moved: int) -> str:
    names = [f.name for f in fields]
    if len(names) <= cr.ORDER_IN_FULL:
        return ", ".join(names)
    i = next((k for k, f in enumerate(fields) if f.id == moved), 0)
    lo, hi = max(0, i - cr.WINDOW), min(len(names), i + cr.WINDOW + 1)
    window = ", ".join(f"{k + 1}. {names[k]}" for k in range(lo, hi))
    return (f"{'…, ' if lo else ''}{window}{', …' if hi < len(names) else ''} ({len(names)} columns; "
            "`icelint schema` on the migrations prints them all)")


def _shifted_plain(before: Schema, after: Schema, parent) -> list[tuple[str, int, int]]:
    """(name, old position, new position) of the existing fields of a struct whose position changed."""
    old = cr._siblings(before, parent)
    new = cr._siblings(after, parent)
    if old is None or new is None:
        return []
    old_pos = {f.id: i for i, f in enumerate(old)}
    return [(f.name, old_pos[f.id], i) for i, f in enumerate(new) if f.id in old_pos and old_pos[f.id] != i]


def _same(before: Schema, after: Schema, parent, limit: int = cr.SHIFTS_NAMED) -> None:
    plain = _shifted_plain(before, after, parent)
    named, total = cr._shifts(before, after, parent, limit)
    assert total == len(plain)
    assert named[:limit] == plain[:limit] and named == plain[: len(named)]


def _parents(schema: Schema):
    yield None
    for _, f in schema.all_fields():
        if isinstance(f.type, it.StructType):
            yield f.id


@pytest.mark.parametrize("files", RUNS, ids=[run_id(r) for r in RUNS])
def test_shifts_match_the_plain_comparison_on_the_corpus(files) -> None:
    run = replay_sources([SourceFile.read(p) for p in files])
    for o in run.result.outcomes:
        if o.before is None or o.after is None or o.before.schema is o.after.schema:
            continue
        before, after = o.before.schema, o.after.schema
        for parent in _parents(after):
            _same(before, after, parent)
        for f in after.fields:
            assert cr._order(after.fields, f.id) == _order_plain(after.fields, f.id)


def _field(i: int) -> it.NestedField:
    return it.NestedField(i, f"c{i}", it.INT if i % 3 else it.STRING)


@pytest.mark.parametrize("seed", range(40))
def test_shifts_match_the_plain_comparison_on_generated_reorders(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.choice([0, 1, 3, 20, 64, 65, 100, 300])
    old = [_field(i) for i in range(1, n + 1)]
    new = list(old)
    next_id = n + 1
    for _ in range(rng.randrange(1, 4)):
        what = rng.choice(["move", "add", "drop", "rebuild", "swap"])
        if what == "add" or not new:
            new.insert(rng.randrange(len(new) + 1), _field(next_id))
            next_id += 1
        elif what == "move":
            f = new.pop(rng.randrange(len(new)))
            new.insert(rng.randrange(len(new) + 1), f)
        elif what == "drop":
            new.pop(rng.randrange(len(new)))
        elif what == "rebuild":  # same id and place, another object (a comment or type changed)
            k = rng.randrange(len(new))
            new[k] = it.NestedField(new[k].id, new[k].name + "_x", new[k].type)
        elif len(new) > 1:
            a, b = rng.sample(range(len(new)), 2)
            new[a], new[b] = new[b], new[a]
    for old_fields, new_fields in ((tuple(old), tuple(new)), (share((), old), None)):
        if new_fields is None:
            new_fields = share(old_fields, new)  # a Rope sharing chunks with the old one when wide
        before, after = Schema(0, old_fields), Schema(1, new_fields)
        for limit in (0, 1, cr.SHIFTS_NAMED, 1000):
            _same(before, after, None, limit)
        for f in chain(new[:3], new[-3:], rng.sample(new, min(len(new), 5))):
            assert cr._order(after.fields, f.id) == _order_plain(after.fields, f.id)
        assert cr._order(after.fields, -1) == _order_plain(after.fields, -1)
