"""metadata.json as text: decoded as Iceberg's Java reader decodes it, written back at any depth.

`NaN` and `Infinity` are refused (Python's json accepts them, Jackson does not), and so is JSON
nested more than `MAX_JSON_DEPTH` levels (Jackson's default limit), exactly, whatever the depth of
the caller's stack: the decoder is retried with more room only when it runs out.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any

from icelint.values.source import InputError

# Iceberg's Java reader (Jackson's StreamReadConstraints) refuses JSON nested more than 1000 levels.
MAX_JSON_DEPTH = 1000


class _Constant(ValueError):
    pass


def _reject_constant(name: str) -> Any:
    raise _Constant(name)


DECODER = json.JSONDecoder(parse_constant=_reject_constant)


def loads(text: str, origin: str) -> Any:
    """`json.loads` as Iceberg's reader decodes: NaN and Infinity refused, nesting bounded."""
    try:
        return decode(text)
    except (ValueError, RecursionError) as e:
        raise not_json(origin, e) from None


def decode(text: str, start: int | None = None) -> Any:
    """`DECODER.decode(text)` (or `raw_decode(text, start)`'s value) of JSON up to `MAX_JSON_DEPTH`
    levels deep, whatever the stack depth of the caller; deeper JSON raises `RecursionError`.

    The common case costs nothing extra: only when the decoder runs out of stack is the depth
    measured, and the text decoded again with more room."""
    run = DECODER.decode if start is None else (lambda t: DECODER.raw_decode(t, start)[0])
    try:
        return run(text)
    except RecursionError:
        pass
    if nesting_depth(text, start or 0) > MAX_JSON_DEPTH:
        raise RecursionError
    with deep_enough(MAX_JSON_DEPTH + 500):
        return run(text)


_TOKENS = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


def nesting_depth(text: str, start: int = 0) -> int:
    """How deeply the JSON value at `start` nests arrays and objects (strings skipped)."""
    depth = deepest = 0
    for m in _TOKENS.finditer(text, start):
        c = m.group()
        if c == "[" or c == "{":
            depth += 1
            deepest = max(deepest, depth)
        elif c == "]" or c == "}":
            depth -= 1
            if depth <= 0:
                break
    return deepest


def json_problem(e: BaseException) -> str:
    """What is wrong with JSON text that `DECODER` refused, without a position."""
    if isinstance(e, _Constant):
        return f"{e} is not a JSON number (Iceberg's reader refuses NaN and Infinity)"
    if isinstance(e, RecursionError):
        return f"arrays and objects nested more than {MAX_JSON_DEPTH} levels deep (Iceberg's reader refuses them too)"
    if isinstance(e, json.JSONDecodeError):
        return e.msg
    return str(e)


def not_json(origin: str, e: BaseException) -> InputError:
    """The error for text that `DECODER` refused."""
    if isinstance(e, json.JSONDecodeError):
        return InputError(f"{origin}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})")
    return InputError(f"{origin}: not valid JSON: {json_problem(e)}")


def dumps(obj: Any, **kwargs: Any) -> str:
    """`json.dumps` of anything `loads` accepted, inside a report that nests it a few levels more.

    The pure-Python encoder (used with `indent`) takes about two frames per level."""
    with deep_enough(2 * MAX_JSON_DEPTH + 100):
        return json.dumps(obj, **kwargs)


class deep_enough:  # noqa: N801 - used as a context manager
    """Room on the stack for `levels` more levels of recursion (the C decoder counts each JSON level)."""

    def __init__(self, levels: int = MAX_JSON_DEPTH + 500) -> None:
        self.levels = levels

    def __enter__(self) -> None:
        self.old = sys.getrecursionlimit()
        depth = 0
        frame = sys._getframe()
        while frame is not None:
            depth += 1
            frame = frame.f_back  # type: ignore[assignment]
        sys.setrecursionlimit(max(self.old, depth + self.levels))

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.old)
