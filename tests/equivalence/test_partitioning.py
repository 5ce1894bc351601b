"""`replay/partitioning.py`'s `SpecIndex` and `OrderIndex` (specs, fields and sort orders looked up in an
index carried from one tuple to the next) give the ids and the recycled fields the scans gave.
"""

from __future__ import annotations

import random

import pytest


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
