"""Where a metadata.json is malformed: the JSON path of its first problem, for a one-line error.

The loaders (`metadata.py`, `fastload.py`) parse optimistically: the fast path builds the model
without checking every value. When it trips (a `KeyError`, a `TypeError` deep in the type model, a
lazily decoded older schema), `explain` walks the same JSON strictly, the way Iceberg's Java
`TableMetadataParser` reads it, and names the first value it refuses:

    db.t.metadata.json: invalid Iceberg metadata: schemas[0].fields[3]: missing "type"

Every walk here is iterative: a hostile file cannot exhaust the interpreter's stack.
"""

from __future__ import annotations

import json
from typing import Any

from icelint.model.table import LazySchema
from icelint.model.types import MAX_TYPE_DEPTH
from icelint.values.source import InputError

# What a malformed file makes the optimistic parsers raise.
FAULTS = (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError)


class MetadataError(InputError):
    """A malformed metadata file: its name, the JSON path of the problem and the problem."""

    def __init__(self, origin: str, where: str, problem: str) -> None:
        self.origin, self.where, self.problem = origin, where, problem
        if len(where) > 160:  # a path hundreds of levels deep: its two ends say where it is
            where = f"{where[:70]}...{where[-70:]}"
        at = f"{where}: " if where else ""
        super().__init__(f"{origin}: invalid Iceberg metadata: {at}{problem}")

    def __reduce__(self):  # picklable (a forked worker may carry one)
        return (MetadataError, (self.origin, self.where, self.problem))


def type_depth_problem() -> str:
    return f"types nested deeper than {MAX_TYPE_DEPTH} levels are not supported by icelint"


# ---------------------------------------------------------------------------- the strict walk


class _Bad(Exception):
    def __init__(self, where: str, problem: str) -> None:
        super().__init__(where, problem)
        self.where, self.problem = where, problem


def _at(where: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if where else key


def _show(v: Any) -> str:
    if isinstance(v, dict):
        return "an object"
    if isinstance(v, list):
        return "a list"
    try:
        text = json.dumps(v)
    except (TypeError, ValueError):
        text = repr(v)
    return text if len(text) <= 40 else text[:37] + "..."


_KINDS = {
    "int": ("an integer", lambda v: type(v) is int and -(2**31) <= v < 2**31),
    "long": ("an integer", lambda v: type(v) is int and -(2**63) <= v < 2**63),
    "str": ("a string", lambda v: isinstance(v, str)),
    "bool": ("true or false", lambda v: isinstance(v, bool)),
    "list": ("a list", lambda v: isinstance(v, list)),
    "object": ("an object", lambda v: isinstance(v, dict)),
}


def _check(v: Any, kind: str, where: str) -> Any:
    what, ok = _KINDS[kind]
    if not ok(v):
        raise _Bad(where, f"expected {what}, found {_show(v)}")
    return v


def _req(obj: dict, key: str, kind: str, where: str) -> Any:
    if key not in obj:
        raise _Bad(where, f'missing "{key}"')
    return _check(obj[key], kind, _at(where, key))


def _opt(obj: dict, key: str, kind: str, where: str, nullable: bool = False) -> Any:
    if key not in obj or (nullable and obj[key] is None):
        return None
    return _check(obj[key], kind, _at(where, key))


def _int_list(obj: dict, key: str, where: str, required: bool = False, non_empty: bool = False) -> None:
    values = _req(obj, key, "list", where) if required else _opt(obj, key, "list", where)
    if values is None:
        return
    if non_empty and not values:
        raise _Bad(_at(where, key), "expected at least one field id, found an empty list")
    for i, v in enumerate(values):
        _check(v, "int", _at(_at(where, key), i))


def _schema(s: Any, where: str) -> None:
    _check(s, "object", where)
    if "type" in s and s["type"] != "struct":
        raise _Bad(_at(where, "type"), f'expected "struct", found {_show(s["type"])}')
    _opt(s, "schema-id", "int", where)
    _int_list(s, "identifier-field-ids", where)
    fields = _req(s, "fields", "list", where)
    _type_tree(fields, _at(where, "fields"))


def _type_tree(fields: list, where: str) -> None:
    """Every field below a struct's `fields`, in document order, without recursion."""
    from icelint.model.types import TypeParseError, primitive_from_string

    todo: list[tuple[str, Any, str, int]] = [("fields", fields, where, 1)]
    ids: dict[int, str] = {}  # field id → where it was first seen: one schema's ids are all distinct

    def unique(fid: int, w: str) -> None:
        if fid in ids:
            raise _Bad(w, f"field id {fid} is used twice (also at {ids[fid]})")
        ids[fid] = w

    while todo:
        kind, value, w, depth = todo.pop()
        if kind == "fields":
            _check(value, "list", w)
            later = []
            for i, f in enumerate(value):
                fw = _at(w, i)
                _check(f, "object", fw)
                unique(_req(f, "id", "int", fw), _at(fw, "id"))
                _req(f, "name", "str", fw)
                _req(f, "required", "bool", fw)
                _opt(f, "doc", "str", fw, nullable=True)
                if "type" not in f:
                    raise _Bad(fw, 'missing "type"')
                later.append(("type", f["type"], _at(fw, "type"), depth))
            todo.extend(reversed(later))
            continue
        t = value
        if isinstance(t, str):
            try:
                primitive_from_string(t)
            except TypeParseError as e:
                raise _Bad(w, str(e)) from None
            continue
        if not isinstance(t, dict):
            raise _Bad(w, f"expected a type name or a type object, found {_show(t)}")
        if depth >= MAX_TYPE_DEPTH:
            raise _Bad(w, type_depth_problem())
        tk = t.get("type")
        if tk == "struct":
            todo.append(("fields", _req(t, "fields", "list", w), _at(w, "fields"), depth + 1))
        elif tk == "list":
            unique(_req(t, "element-id", "int", w), _at(w, "element-id"))
            _req(t, "element-required", "bool", w)
            if "element" not in t:
                raise _Bad(w, 'missing "element"')
            todo.append(("type", t["element"], _at(w, "element"), depth + 1))
        elif tk == "map":
            unique(_req(t, "key-id", "int", w), _at(w, "key-id"))
            unique(_req(t, "value-id", "int", w), _at(w, "value-id"))
            _req(t, "value-required", "bool", w)
            for k in ("key", "value"):
                if k not in t:
                    raise _Bad(w, f'missing "{k}"')
            todo.append(("type", t["value"], _at(w, "value"), depth + 1))
            todo.append(("type", t["key"], _at(w, "key"), depth + 1))
        elif "type" not in t:
            raise _Bad(w, 'missing "type"')
        else:
            raise _Bad(_at(w, "type"), f'unknown nested type {_show(tk)} (expected "struct", "list" or "map")')


def _source_ids(f: dict, fw: str) -> None:
    """A partition or sort field's source: `source-id` (v1/v2) or a non-empty `source-ids` (v3)."""
    if "source-id" in f:
        _check(f["source-id"], "int", _at(fw, "source-id"))
    else:
        _int_list(f, "source-ids", fw, required=True, non_empty=True)


def _partition_fields(fields: Any, where: str) -> None:
    _check(fields, "list", where)
    for i, f in enumerate(fields):
        fw = _at(where, i)
        _check(f, "object", fw)
        _opt(f, "field-id", "int", fw)
        _source_ids(f, fw)
        _req(f, "name", "str", fw)
        _req(f, "transform", "str", fw)


def _sort_fields(fields: Any, where: str) -> None:
    _check(fields, "list", where)
    for i, f in enumerate(fields):
        fw = _at(where, i)
        _check(f, "object", fw)
        _req(f, "transform", "str", fw)
        _source_ids(f, fw)
        _req(f, "direction", "str", fw)
        _req(f, "null-order", "str", fw)


def _metadata(obj: dict, version: int) -> None:
    from icelint.model.table import Schema

    if "schemas" in obj:
        _req(obj, "current-schema-id", "int", "")
        schemas = _req(obj, "schemas", "list", "")
        for i, s in enumerate(schemas):
            if not isinstance(s, Schema):  # the fast loader's older schemas: checked when read
                _schema(s, _at("schemas", i))
    elif version == 1 and "schema" in obj:
        _schema(obj["schema"], "schema")
    else:
        raise _Bad("", 'missing "schemas"')
    if "partition-specs" in obj:
        for i, s in enumerate(_req(obj, "partition-specs", "list", "")):
            sw = _at("partition-specs", i)
            _check(s, "object", sw)
            _req(s, "spec-id", "int", sw)
            _partition_fields(s.get("fields", []), _at(sw, "fields"))
        _req(obj, "default-spec-id", "int", "")
    elif version == 1 and "partition-spec" in obj:
        _partition_fields(obj["partition-spec"], "partition-spec")
    else:
        raise _Bad("", 'missing "partition-specs"')
    _opt(obj, "last-partition-id", "int", "")
    if "sort-orders" in obj:
        for i, o in enumerate(_req(obj, "sort-orders", "list", "")):
            ow = _at("sort-orders", i)
            _check(o, "object", ow)
            _req(o, "order-id", "int", ow)
            _sort_fields(o.get("fields", []), _at(ow, "fields"))
        _opt(obj, "default-sort-order-id", "int", "")
    for i, s in enumerate(_opt(obj, "snapshots", "list", "", nullable=True) or ()):
        sw = _at("snapshots", i)
        _check(s, "object", sw)
        _req(s, "snapshot-id", "long", sw)
        _opt(s, "schema-id", "int", sw, nullable=True)
        _opt(s, "timestamp-ms", "long", sw)
    _opt(obj, "current-snapshot-id", "long", "", nullable=True)
    props = _opt(obj, "properties", "object", "", nullable=True) or {}
    for k, v in props.items():
        _check(v, "str", _at("properties", k))
    _req(obj, "last-column-id", "int", "")
    _opt(obj, "location", "str", "", nullable=True)
    _opt(obj, "table-uuid", "str", "", nullable=True)
    refs = _opt(obj, "refs", "object", "", nullable=True) or {}
    for k, v in refs.items():
        rw = _at("refs", k)
        _check(v, "object", rw)
        _opt(v, "type", "str", rw)


def _fallback(e: BaseException) -> str:
    if isinstance(e, KeyError):
        return f"missing {json.dumps(e.args[0]) if e.args and isinstance(e.args[0], str) else e}"
    if isinstance(e, RecursionError):
        return type_depth_problem()
    return str(e) or type(e).__name__


def explain(origin: str, obj: Any, version: int, e: BaseException) -> MetadataError:
    """The error for a file whose parse raised `e`: the first problem the strict walk finds."""
    try:
        _metadata(obj, version)
    except _Bad as bad:
        return MetadataError(origin, bad.where, bad.problem)
    return MetadataError(origin, "", _fallback(e))


def explain_schema(origin: str, where: str, raw: Any, e: BaseException) -> MetadataError:
    """The error for an older schema (decoded on first use) whose parse raised `e`."""
    try:
        _schema(raw, where)
    except _Bad as bad:
        return MetadataError(origin, bad.where, bad.problem)
    return MetadataError(origin, where, _fallback(e))


class CheckedLazySchema(LazySchema):
    """A `LazySchema` whose late errors are input errors naming the file and the JSON path.

    Older schema versions are decoded on first use, which may be in the middle of a rule or in a
    forked worker: whatever is wrong with them then still ends as one `MetadataError`.
    """

    def __init__(self, raw: dict[str, Any], parse, origin: str, where: str) -> None:  # noqa: D107
        super().__init__(raw, parse)
        object.__setattr__(self, "_where", (origin, where))

    @property  # type: ignore[override]
    def fields(self):
        raw = self._raw
        try:
            return LazySchema.fields.fget(self)  # type: ignore[attr-defined]
        except FAULTS as e:
            raise explain_schema(*self._where, raw, e) from None

    def raw_paths(self):
        raw = self._raw
        try:
            for path, fid in LazySchema.raw_paths(self):
                if type(fid) is not int or type(path[-1]) is not str:
                    raise TypeError("a field's id or name")
                yield path, fid
        except FAULTS as e:
            raise explain_schema(*self._where, raw, e) from None
