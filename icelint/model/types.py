"""Iceberg's type system as immutable values, with metadata.json's JSON form.

Kept free of pyiceberg on purpose: `icelint check` must start fast, and the replay needs exact
control over ids. The JSON produced here is what Iceberg's `SchemaParser.toJson` writes.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Iterator


class Type:
    """Base of every Iceberg type."""

    __slots__ = ()

    @property
    def is_primitive(self) -> bool:
        return True

    @property
    def is_nested(self) -> bool:
        return not self.is_primitive

    def to_json(self) -> Any:
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class PrimitiveType(Type):
    """`int`, `long`, `string`, `timestamptz`, `decimal(10, 2)`, `fixed[16]`, ... by their Iceberg name."""

    name: str

    def __str__(self) -> str:
        return self.name

    def to_json(self) -> Any:
        return self.name


@dataclass(frozen=True, slots=True)
class DecimalType(PrimitiveType):
    """decimal(precision, scale)."""

    precision: int = 0
    scale: int = 0

    @staticmethod
    def of(precision: int, scale: int) -> DecimalType:
        return DecimalType(f"decimal({precision}, {scale})", precision, scale)


@dataclass(frozen=True, slots=True)
class FixedType(PrimitiveType):
    """fixed[length]: a byte array of a fixed length."""

    length: int = 0

    @staticmethod
    def of(length: int) -> FixedType:
        return FixedType(f"fixed[{length}]", length)


@dataclass(frozen=True, slots=True)
class UntypedType(Type):
    r"""A column whose type icelint cannot know: not an Iceberg type, and never in a metadata.json Iceberg
    writes. A `CREATE TABLE ... AS SELECT` gives it to a projection over a table icelint does not know,
    or to a function it does not type; `reason` says which (`table \`ext.t\` is not known here`).
    Checks that need the column's type skip it; everything else (names, ids, order) is replayed."""

    reason: str
    # It may be a struct, list or map: Spark numbers nested fields after every top-level column, so
    # the ids icelint gives to later nested fields and added columns may then be lower than Spark's.
    maybe_nested: bool = True

    def __str__(self) -> str:
        return f"<type not known: {self.reason}>"

    def to_json(self) -> Any:
        return {"type": UNTYPED_JSON, "reason": self.reason}


UNTYPED_JSON = "icelint-unknown"  # the JSON form's "type" (`icelint schema --format json`)


def is_untyped(t: Type) -> bool:
    return type(t) is UntypedType


BOOLEAN = PrimitiveType("boolean")
INT = PrimitiveType("int")
LONG = PrimitiveType("long")
FLOAT = PrimitiveType("float")
DOUBLE = PrimitiveType("double")
DATE = PrimitiveType("date")
TIME = PrimitiveType("time")
TIMESTAMP = PrimitiveType("timestamp")
TIMESTAMPTZ = PrimitiveType("timestamptz")
TIMESTAMP_NS = PrimitiveType("timestamp_ns")
TIMESTAMPTZ_NS = PrimitiveType("timestamptz_ns")
STRING = PrimitiveType("string")
UUID = PrimitiveType("uuid")
BINARY = PrimitiveType("binary")
UNKNOWN = PrimitiveType("unknown")
VARIANT = PrimitiveType("variant")

_SIMPLE = {
    t.name: t
    for t in (
        BOOLEAN, INT, LONG, FLOAT, DOUBLE, DATE, TIME, TIMESTAMP, TIMESTAMPTZ, TIMESTAMP_NS,
        TIMESTAMPTZ_NS, STRING, UUID, BINARY, UNKNOWN, VARIANT,
    )
}
V3_ONLY = frozenset({"timestamp_ns", "timestamptz_ns", "unknown", "variant", "geometry", "geography"})


@dataclass(frozen=True)
class NestedField:
    """A column or a nested field: its permanent id, its name, its type, required or not, and its comment."""

    id: int
    name: str
    type: Type
    required: bool = False
    doc: str | None = None

    def __hash__(self) -> int:  # cached: schemas are compared by hash on every commit
        try:  # not `self.__dict__.get`: asking for `__dict__` makes the instance a dict object of its own (64 bytes)
            return self._hash  # type: ignore[attr-defined,has-type]
        except AttributeError:
            h = hash((self.id, self.name, self.type, self.required, self.doc))
            object.__setattr__(self, "_hash", h)
            return h

    def __str__(self) -> str:
        req = "required" if self.required else "optional"
        return f"{self.id}: {self.name}: {req} {self.type}"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "name": self.name, "required": self.required, "type": self.type.to_json()}
        if self.doc is not None:
            out["doc"] = self.doc
        return out


@dataclass(frozen=True)
class StructType(Type):
    """struct<...>: its fields, in order."""

    fields: tuple[NestedField, ...]

    def __hash__(self) -> int:
        try:  # see `NestedField.__hash__`
            return self._hash  # type: ignore[attr-defined,has-type]
        except AttributeError:
            h = hash(self.fields)
            object.__setattr__(self, "_hash", h)
            return h

    @property
    def is_primitive(self) -> bool:
        return False

    def field(self, name: str, case_sensitive: bool = True) -> NestedField | None:
        if case_sensitive:
            for f in self.fields:
                if f.name == name:
                    return f
            return None
        low = name.lower()
        for f in self.fields:
            if f.name.lower() == low:
                return f
        return None

    def __str__(self) -> str:
        return "struct<" + ", ".join(f"{f.name}: {f.type}" for f in self.fields) + ">"

    def to_json(self) -> Any:
        return {"type": "struct", "fields": [f.to_json() for f in self.fields]}


@dataclass(frozen=True, slots=True)
class ListType(Type):
    """array<element>: the element's own field id and type."""

    element_id: int
    element: Type
    element_required: bool = False

    @property
    def is_primitive(self) -> bool:
        return False

    @property
    def element_field(self) -> NestedField:
        return NestedField(self.element_id, "element", self.element, self.element_required)

    def __str__(self) -> str:
        return f"list<{self.element}>"

    def to_json(self) -> Any:
        return {
            "type": "list",
            "element-id": self.element_id,
            "element": self.element.to_json(),
            "element-required": self.element_required,
        }


@dataclass(frozen=True, slots=True)
class MapType(Type):
    """map<key, value>: the key's and the value's own field ids and types."""

    key_id: int
    key: Type
    value_id: int
    value: Type
    value_required: bool = False

    @property
    def is_primitive(self) -> bool:
        return False

    @property
    def key_field(self) -> NestedField:
        return NestedField(self.key_id, "key", self.key, True)

    @property
    def value_field(self) -> NestedField:
        return NestedField(self.value_id, "value", self.value, self.value_required)

    def __str__(self) -> str:
        return f"map<{self.key}, {self.value}>"

    def to_json(self) -> Any:
        return {
            "type": "map",
            "key-id": self.key_id,
            "key": self.key.to_json(),
            "value-id": self.value_id,
            "value": self.value.to_json(),
            "value-required": self.value_required,
        }


def children(t: Type) -> tuple[NestedField, ...]:
    """The direct child fields of a nested type, in Iceberg's order (map: key, value)."""
    if isinstance(t, StructType):
        return t.fields
    if isinstance(t, ListType):
        return (t.element_field,)
    if isinstance(t, MapType):
        return (t.key_field, t.value_field)
    return ()


def walk(fields: tuple[NestedField, ...], prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], NestedField]]:
    """Every field below `fields`, depth first, with its full path (list/map children as element/key/value)."""
    for f in fields:
        path = prefix + (f.name,)
        yield path, f
        kids = children(f.type)
        if kids:
            yield from walk(kids, path)


def max_id(t: Type) -> int:
    best = 0
    for _, f in walk(children(t)):
        best = max(best, f.id)
    return best


# ---------------------------------------------------------------------------- JSON


class TypeParseError(ValueError):
    pass


# How deeply types may nest (a primitive column is 1 level, `struct<a: int>` 2): the walks over the
# type model are recursive, and this bound keeps them well inside Python's stack. Iceberg has none.
MAX_TYPE_DEPTH = 100


def primitive_from_string(s: str) -> PrimitiveType:
    s = s.strip()
    t = _SIMPLE.get(s)
    if t is not None:
        return t
    if s.startswith("decimal(") and s.endswith(")"):
        p, _, sc = s[8:-1].partition(",")
        try:
            return DecimalType.of(int(p), int(sc))
        except ValueError:
            raise TypeParseError(f"invalid decimal type: {s!r}") from None
    if s.startswith("fixed[") and s.endswith("]"):
        try:
            return FixedType.of(int(s[6:-1]))
        except ValueError:
            raise TypeParseError(f"invalid fixed type: {s!r}") from None
    if s.startswith(("geometry", "geography")):
        return PrimitiveType(s)
    raise TypeParseError(f"unknown Iceberg type: {s!r}")


def type_from_json(obj: Any, depth: int = 1) -> Type:
    """A type from its JSON form; `depth` is how deeply it nests (a top-level column's type is 1)."""
    if isinstance(obj, str):
        return primitive_from_string(obj)
    if not isinstance(obj, dict):
        raise TypeParseError(f"invalid type: {obj!r}")
    if depth >= MAX_TYPE_DEPTH:
        raise TypeParseError(f"types nested deeper than {MAX_TYPE_DEPTH} levels are not supported by icelint")
    kind = obj.get("type")
    try:
        if kind == "struct":
            return StructType(tuple(field_from_json(f, depth + 1) for f in obj["fields"]))
        if kind == "list":
            return ListType(int(obj["element-id"]), type_from_json(obj["element"], depth + 1), bool(obj["element-required"]))
        if kind == "map":
            return MapType(
                int(obj["key-id"]),
                type_from_json(obj["key"], depth + 1),
                int(obj["value-id"]),
                type_from_json(obj["value"], depth + 1),
                bool(obj["value-required"]),
            )
    except (KeyError, TypeError) as e:
        raise TypeParseError(f"invalid {kind} type: missing {e}") from None
    raise TypeParseError(f"invalid type: {kind!r}")


def field_from_json(obj: Any, depth: int = 1) -> NestedField:
    try:
        fid, name, required, doc = obj["id"], obj["name"], obj["required"], obj.get("doc")
        if type(fid) is not int or type(name) is not str or type(required) is not bool or not (doc is None or type(doc) is str):
            raise TypeParseError("invalid field: id, name, required or doc of the wrong type")
        return NestedField(fid, name, type_from_json(obj["type"], depth), required, doc)
    except (KeyError, TypeError, AttributeError) as e:
        raise TypeParseError(f"invalid field: missing {e}") from None


def repeated_id(fields: tuple[NestedField, ...]) -> int | None:
    """The first field id used twice below `fields` (list element and map key/value ids included), or
    None. Iceberg's `Schema` refuses such a schema (its id index: "Multiple entries with same key");
    icelint's walks up a schema would loop on it."""
    seen: set[int] = set()
    stack = list(fields)
    while stack:
        f = stack.pop()
        if f.id in seen:
            return f.id
        seen.add(f.id)
        stack.extend(children(f.type))
    return None


def with_type(f: NestedField, t: Type) -> NestedField:
    return replace(f, type=t)
