"""icelint's lock-free `cached_property`: computed once per instance, then a plain attribute."""

from __future__ import annotations

from dataclasses import dataclass

from icelint.util.lazy import cached_property


@dataclass(frozen=True)
class Thing:
    n: int

    @cached_property
    def doubled(self) -> int:
        calls.append(self.n)
        return self.n * 2


calls: list[int] = []


def test_computed_once_per_instance_even_on_frozen_dataclasses() -> None:
    calls.clear()
    a, b = Thing(1), Thing(2)
    assert (a.doubled, a.doubled, b.doubled) == (2, 2, 4)
    assert calls == [1, 2]
    assert a.__dict__["doubled"] == 2
    assert isinstance(Thing.doubled, cached_property) and Thing.doubled.__doc__ is None
