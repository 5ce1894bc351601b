"""Spark SQL types: conversion to Iceberg (SparkTypeToType) and Spark's own `Cast.canUpCast` check.

Spark's analyzer checks `ALTER COLUMN ... TYPE` on Spark types before Iceberg sees the change, so a
narrowing such as `smallint` on an Iceberg `int` column fails in Spark even though both are `int` in
Iceberg. Types here are small tuples: ("int",), ("decimal", 10, 2), ("array", elem), ("map", k, v),
("struct", ((name, type), ...)).
"""

from __future__ import annotations

import re
from typing import Callable

from icelint.model import types as it
from icelint.replay.errors import ReplayError
from icelint.syntax.ast import SqlType

SparkType = tuple

_ALIASES = {
    "tinyint": "byte", "byte": "byte", "smallint": "short", "short": "short",
    "int": "int", "integer": "int", "bigint": "long", "long": "long",
    "float": "float", "real": "float", "double": "double",
    "string": "string", "varchar": "varchar", "char": "char", "character": "char",
    "binary": "binary", "boolean": "boolean", "bool": "boolean", "date": "date",
    "timestamp": "timestamp", "timestamp_ltz": "timestamp", "timestamp_ntz": "timestamp_ntz",
    "decimal": "decimal", "dec": "decimal", "numeric": "decimal", "void": "null",
    "array": "array", "map": "map", "struct": "struct",
}  # fmt: skip


def unsupported(t: SqlType) -> ReplayError:
    return ReplayError(
        "unsupported-type", f"Unsupported data type for an Iceberg column: {t.name.upper()}", "spark", span=t.span
    )


def spark_type(t: SqlType) -> SparkType:
    name = _ALIASES.get(t.name)
    if name is None:
        raise unsupported(t)
    if name == "decimal":
        p = t.params[0] if t.params else 10
        s = t.params[1] if len(t.params) > 1 else 0
        return ("decimal", p, s)
    if name in ("varchar", "char"):
        return (name, t.params[0] if t.params else 0)
    if name == "array":
        assert t.element is not None
        return ("array", spark_type(t.element))
    if name == "map":
        assert t.key is not None and t.value is not None
        return ("map", spark_type(t.key), spark_type(t.value))
    if name == "struct":
        return ("struct", tuple((f.name, spark_type(f.type)) for f in t.fields))
    return (name,)


_ICE_TO_SPARK = {
    "boolean": ("boolean",), "int": ("int",), "long": ("long",), "float": ("float",), "double": ("double",),
    "date": ("date",), "timestamptz": ("timestamp",), "timestamp": ("timestamp_ntz",), "string": ("string",),
    "uuid": ("string",), "binary": ("binary",), "unknown": ("null",), "time": ("long",),
}  # fmt: skip


def from_iceberg(t: it.Type) -> SparkType:
    if isinstance(t, it.DecimalType):
        return ("decimal", t.precision, t.scale)
    if isinstance(t, it.FixedType):
        return ("binary",)
    if isinstance(t, it.StructType):
        return ("struct", tuple((f.name, from_iceberg(f.type)) for f in t.fields))
    if isinstance(t, it.ListType):
        return ("array", from_iceberg(t.element))
    if isinstance(t, it.MapType):
        return ("map", from_iceberg(t.key), from_iceberg(t.value))
    if it.is_untyped(t):
        return ("<type>",)  # not known (a CTAS column): shown as `<type>`, never promoted or compared
    assert isinstance(t, it.PrimitiveType)
    return _ICE_TO_SPARK.get(t.name, (t.name,))


def sql_name(t: SparkType) -> str:
    """Spark's display name, as in its error messages (`BIGINT`, `DECIMAL(10,2)`, `ARRAY<INT>`)."""
    names = {"byte": "TINYINT", "short": "SMALLINT", "int": "INT", "long": "BIGINT", "null": "VOID", "<type>": "<type>"}
    k = t[0]
    if k == "decimal":
        return f"DECIMAL({t[1]},{t[2]})"
    if k in ("varchar", "char"):
        return f"{k.upper()}({t[1]})"
    if k == "array":
        return f"ARRAY<{sql_name(t[1])}>"
    if k == "map":
        return f"MAP<{sql_name(t[1])}, {sql_name(t[2])}>"
    if k == "struct":
        return "STRUCT<" + ", ".join(f"{n}: {sql_name(v)}" for n, v in t[1]) + ">"
    return names.get(k, k.upper())


NUMERIC_KINDS = frozenset({"byte", "short", "int", "long", "float", "double", "decimal"})
_DATETIME_KINDS = frozenset({"date", "timestamp", "timestamp_ntz"})
_NESTED_KINDS = frozenset({"struct", "array", "map"})

# literal kind → Spark target types it may be stored into (Cast.canANSIStoreAssign, literal-only subset)
LITERAL_ASSIGNABLE = {
    "number": NUMERIC_KINDS | {"string"},
    "boolean": {"boolean", "string"},
    "date": {"date", "timestamp", "timestamp_ntz", "string"},
    "timestamp": {"timestamp", "timestamp_ntz", "date", "string"},
}



def can_store_assign(src: SparkType, dst: SparkType) -> bool:
    """Spark 3.5's `Cast.canANSIStoreAssign` (the default store assignment policy of INSERT): numbers into
    numbers (overflow is checked as rows are written), any non-nested value into a string, dates and
    timestamps into one another, structs field by field in order, arrays and maps by their parts;
    nothing else but the same type (a string into a number fails before any row is read)."""
    a, b = src[0], dst[0]
    if a == "null" or src == dst:
        return True
    if a in NUMERIC_KINDS and b in NUMERIC_KINDS:
        return True
    if b in ("string", "varchar", "char") and a not in _NESTED_KINDS:
        return True
    if a in _DATETIME_KINDS and b in _DATETIME_KINDS:
        return True
    if a == b == "struct":
        return len(src[1]) == len(dst[1]) and all(can_store_assign(x[1], y[1]) for x, y in zip(src[1], dst[1]))
    if a == b == "array":
        return can_store_assign(src[1], dst[1])
    if a == b == "map":
        return can_store_assign(src[1], dst[1]) and can_store_assign(src[2], dst[2])
    return False


_PLAIN_NAME = re.compile(r"[A-Za-z0-9_]+")


def quote_if_needed(name: str) -> str:
    """Spark's `QuotingUtils.quoteIfNeeded`: a name of ASCII letters, digits and `_` (not digits
    only) as it is, any other in backticks."""
    if _PLAIN_NAME.fullmatch(name) and not name.isdigit():
        return name
    return "`" + name.replace("`", "``") + "`"


def sql_id(parts) -> str:
    """Spark's `toSQLId` of a resolved column path: each part in backticks (`` `s`.`x` ``)."""
    return ".".join("`" + p.replace("`", "``") + "`" for p in parts)


def struct_sql(fields, shown: int | None = None) -> str:
    """Spark's `StructType.sql` of Iceberg fields, as its messages quote a table's schema
    (`STRUCT<id: BIGINT, `a b`: INT COMMENT 'x\\'y'>`: names quoted if needed, comments kept); with
    `shown`, the top-level fields after the first `shown` are counted, not listed."""
    listed = fields if shown is None or len(fields) <= shown else fields[:shown]
    parts = [_field_sql(f) for f in listed]
    if len(listed) < len(fields):
        parts.append(f"... {len(fields) - len(listed)} more fields")
    return "STRUCT<" + ", ".join(parts) + ">"


def _field_sql(f: it.NestedField) -> str:
    comment = "" if f.doc is None else " COMMENT '" + f.doc.replace("'", "\\'") + "'"
    return f"{quote_if_needed(f.name)}: {_type_sql(f.type)}{comment}"


def _type_sql(t: it.Type) -> str:
    if isinstance(t, it.StructType):
        return struct_sql(t.fields)
    if isinstance(t, it.ListType):
        return f"ARRAY<{_type_sql(t.element)}>"
    if isinstance(t, it.MapType):
        return f"MAP<{_type_sql(t.key)}, {_type_sql(t.value)}>"
    return sql_name(from_iceberg(t))


def type_text(t: SqlType) -> str:
    """How to write `t` in Spark SQL (`decimal(18,2)`), or `<type>` for a type Spark cannot use."""
    try:
        return sql_name(spark_type(t)).lower()
    except ReplayError:
        return "<type>"


_NUMERIC_ORDER = ("byte", "short", "int", "long", "float", "double")
_INTEGRAL_DIGITS = {"byte": 3, "short": 5, "int": 10, "long": 20}
_ATOMIC = {"byte", "short", "int", "long", "float", "double", "decimal", "string", "varchar", "char", "binary",
           "boolean", "date", "timestamp", "timestamp_ntz"}  # fmt: skip


def _decimal_of(t: SparkType) -> tuple[int, int] | None:
    if t[0] == "decimal":
        return t[1], t[2]
    if t[0] in _INTEGRAL_DIGITS:
        return _INTEGRAL_DIGITS[t[0]], 0
    return None


def _wider(to: tuple[int, int], frm: tuple[int, int]) -> bool:
    return (to[0] - to[1]) >= (frm[0] - frm[1]) and to[1] >= frm[1]


def can_up_cast(frm: SparkType, to: SparkType) -> bool:
    """Spark 3.5 `Cast.canUpCast` (with CheckAnalysis' char/varchar rules)."""
    if frm == to:
        return True
    f, t = frm[0], to[0]
    if (f, t) == ("char", "char"):
        return frm[1] == to[1]
    if (f, t) in (("char", "varchar"), ("varchar", "varchar")):
        return frm[1] <= to[1]
    if t == "decimal" and f in _INTEGRAL_DIGITS | {"decimal": 0}:
        fd, td = _decimal_of(frm), _decimal_of(to)
        assert fd and td
        return _wider(td, fd)
    if f == "decimal" and t in _NUMERIC_ORDER:
        if t in ("float", "double"):
            return False  # DecimalType.isTighterThan is false for fractional types (NaN, infinities)
        return _wider(_decimal_of(to), _decimal_of(frm))  # type: ignore[arg-type]
    if f in _NUMERIC_ORDER and t in _NUMERIC_ORDER:
        return _NUMERIC_ORDER.index(f) <= _NUMERIC_ORDER.index(t)
    if (f, t) in (("date", "timestamp"), ("date", "timestamp_ntz"), ("timestamp_ntz", "timestamp"), ("timestamp", "timestamp_ntz")):
        return True
    if t == "string" and f in _ATOMIC:
        return True
    if f == "null":
        return True
    if f == "array" and t == "array":
        return can_up_cast(frm[1], to[1])
    if f == "map" and t == "map":
        return can_up_cast(frm[1], to[1]) and can_up_cast(frm[2], to[2])
    if f == "struct" and t == "struct":
        return len(frm[1]) == len(to[1]) and all(
            fn.lower() == tn.lower() and can_up_cast(ft, tt) for (fn, ft), (tn, tt) in zip(frm[1], to[1])
        )
    return False


def to_iceberg(t: SqlType, next_id: Callable[[], int]) -> it.Type:
    """Convert to an Iceberg type, numbering nested fields as Iceberg's AssignFreshIds does."""
    name = _ALIASES.get(t.name)
    if name is None:
        raise unsupported(t)
    if name in ("byte", "short", "int"):
        return it.INT
    if name == "long":
        return it.LONG
    if name == "float":
        return it.FLOAT
    if name == "double":
        return it.DOUBLE
    if name in ("string", "varchar", "char"):
        return it.STRING
    if name == "binary":
        return it.BINARY
    if name == "boolean":
        return it.BOOLEAN
    if name == "date":
        return it.DATE
    if name == "timestamp":
        return it.TIMESTAMPTZ
    if name == "timestamp_ntz":
        return it.TIMESTAMP
    if name == "null":
        return it.UNKNOWN
    if name == "decimal":
        st = spark_type(t)
        return it.DecimalType.of(st[1], st[2])
    if name == "struct":
        ids = [next_id() for _ in t.fields]  # this level first, then recurse in order
        return it.StructType(
            tuple(
                it.NestedField(i, f.name, to_iceberg(f.type, next_id), f.not_null, f.comment)
                for i, f in zip(ids, t.fields)
            )
        )
    if name == "array":
        assert t.element is not None
        eid = next_id()
        return it.ListType(eid, to_iceberg(t.element, next_id), False)
    if name == "map":
        assert t.key is not None and t.value is not None
        kid, vid = next_id(), next_id()
        return it.MapType(kid, to_iceberg(t.key, next_id), vid, to_iceberg(t.value, next_id), False)
    raise unsupported(t)
