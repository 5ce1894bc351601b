"""`cached_property` without a lock.

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
