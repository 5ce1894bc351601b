"""ICE001's `last_dropped` (`rules/drop_then_add.py`) answers as the filtered list it replaced.
"""

from __future__ import annotations

import random

import pytest

from icelint.model.table import Schema
from icelint.model.types import NestedField, PrimitiveType
from icelint.rules.dropped_names.analysis import last_dropped
from icelint.rules.kit.base import FormerField

SEEDS = range(200)


def _schema(ids: list[int]) -> Schema:
    return Schema(0, tuple(NestedField(i, f"c{i}", PrimitiveType("int"), False) for i in ids))


@pytest.mark.parametrize("seed", SEEDS)
def test_last_dropped_equals_the_filtered_list(seed: int) -> None:
    rng = random.Random(seed)
    holders = [FormerField(rng.randint(1, 8), "c", f"at f.sql:{i}") for i in range(rng.randint(0, 10))]
    after = _schema(rng.sample(range(1, 9), rng.randint(0, 8)))
    plain = [h for h in holders if after.field_by_id(h.field_id) is None]
    assert last_dropped(holders, after) == plain[-1:]
