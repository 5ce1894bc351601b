"""`spark_types.can_store_assign`: Spark 3.5's ANSI store assignment of INSERT ... SELECT, as measured
(differential case 630) and as `Cast.canANSIStoreAssign` lists it."""

from __future__ import annotations

import pytest

from icelint.replay.spark_types import can_store_assign

S = ("string",)
I, L, D = ("int",), ("long",), ("decimal", 10, 2)
TS, NTZ, DATE, B, BIN = ("timestamp",), ("timestamp_ntz",), ("date",), ("boolean",), ("binary",)


@pytest.mark.parametrize(
    "src, dst, ok",
    [
        (L, I, True), (I, D, True), (D, ("double",), True), (("null",), I, True),  # numbers into numbers
        (I, S, True), (B, S, True), (DATE, S, True), (TS, S, True), (BIN, S, True),  # flat values into strings
        (DATE, TS, True), (TS, DATE, True), (NTZ, TS, True), (TS, NTZ, True), (DATE, NTZ, True),
        (S, I, False), (S, TS, False), (S, DATE, False), (S, B, False),  # a string into anything else
        (TS, I, False), (L, TS, False), (B, I, False), (I, B, False), (BIN, I, False),
        (("struct", (("x", I), ("y", S))), ("struct", (("x", L), ("y", S))), True),  # field by field, in order
        (("struct", (("x", I),)), ("struct", (("x", I), ("y", S))), False),
        (("struct", (("x", S),)), ("struct", (("x", I),)), False),
        (("array", I), ("array", L), True), (("array", S), ("array", I), False),
        (("map", S, I), ("map", S, L), True), (("map", S, S), ("map", S, I), False),
        (("array", I), S, False), (("struct", (("x", I),)), S, False),  # nested values are not stored as strings
    ],
)
def test_store_assignment(src, dst, ok):
    assert can_store_assign(src, dst) is ok
