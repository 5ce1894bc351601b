"""`engine/suppress.py`'s `Lookup` (a suppression found by code and statement without scanning every
directive) answers as the scan of every directive it replaced, over generated directives.
"""

from __future__ import annotations

import random

import pytest

from icelint.engine.suppress import Directive, Lookup
from icelint.values.source import Span

SEEDS = range(200)


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
