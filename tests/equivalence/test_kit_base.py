"""`rules/kit/base.py`: a table's former names, deduplicated as they are remembered, are the scan's.
"""

from __future__ import annotations

import random

import pytest

from icelint.rules.kit.base import FormerField, TableHistory

SEEDS = range(200)


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
