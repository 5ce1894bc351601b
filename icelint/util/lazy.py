"""`cached_property` without a lock, and `ByIdentity`: derived values of objects that cannot hold them.

Python 3.11's `functools.cached_property` takes a lock on every first access (removed in 3.12).
The replay makes one schema and one table state per statement and reads several derived values
of each once, so that lock showed up in profiles. icelint runs single-threaded: this is the plain
descriptor (computed once, then found in the instance dict without calling the descriptor again).
"""

from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

T = TypeVar("T")


class cached_property(Generic[T]):  # noqa: N801 - a drop-in for functools.cached_property
    def __init__(self, func: Callable[[Any], T]) -> None:
        self.func = func
        self.name = func.__name__
        self.__doc__ = func.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            return self
        value = obj.__dict__[self.name] = self.func(obj)
        return value


class ByIdentity(Generic[T]):
    """`build(obj)` for the newest few objects asked about (tuples, frozen states: they hold no
    derived values of their own), found by identity; `appended` moves one on to the tuple that
    appends an item (the value has an `add(item)`): a long replay makes one tuple per statement,
    and rebuilding its index from every item each time would be quadratic."""

    def __init__(self, build: Callable[[Any], T], keep: int = 8) -> None:
        self.build = build
        self.keep = keep  # a few tables' newest: the replay asks about the current one
        self.held: dict[int, tuple[Any, T]] = {}  # id(obj) → (obj, its value): the entry holds obj, so no id is reused

    def of(self, obj: Any) -> T:
        hit = self.held.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        value = self.build(obj)
        self._hold(obj, value)
        return value

    def appended(self, items: tuple, item: Any) -> tuple:
        """`items + (item,)`, with the value of `items` (if it has one) moved to it, `item` added."""
        out = (*items, item)
        hit = self.held.pop(id(items), None)
        if hit is not None and hit[0] is items:
            hit[1].add(item)  # type: ignore[attr-defined]
            self._hold(out, hit[1])
        return out

    def _hold(self, obj: Any, value: T) -> None:
        self.held[id(obj)] = (obj, value)
        if len(self.held) > self.keep:
            del self.held[next(iter(self.held))]
