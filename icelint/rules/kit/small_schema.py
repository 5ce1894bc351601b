"""Schema look-ups for the help recipes, by a scan of a narrow schema's columns.

The replay moves a schema's lookup tables to the next version (`Schema.carry_indexes`); a rule asking
an older version walks or moves them back (`model/schema.py` `_older`, `model/storage/lookups.py` `_move_table`), and the help of
N drops and re-adds asks two different old versions per finding, so the tables travel back and forth
(a long run's cost). For a schema of a few columns a scan of `schema.fields` gives the same answer for less.
Each function returns exactly what the `Schema` method it names returns (tests/equivalence/test_small_schema.py
compares them, case twins and nested fields included); wide schemas and nested paths use that method.
"""

from __future__ import annotations

from operator import attrgetter, indexOf

_field_id = attrgetter("id")

SMALL = 64  # columns up to which a scan costs less than a look-up in an older version's tables


def find(schema, path: tuple[str, ...]):
    """`schema.find(path, case_sensitive=False)`."""
    fields = schema.fields
    if len(path) != 1 or len(fields) > SMALL:
        return schema.find(path, case_sensitive=False)
    name = path[0]
    low = name.lower()
    first = exact = None
    for f in fields:
        n = f.name
        if n == name:
            exact = f  # `_exact_names` keeps the last one
            if first is None:
                first = f
        elif first is None and n.lower() == low:
            first = f  # `_lower_names` keeps the first one
    # top_level: the first case-insensitive match when it has the exact name, else the exact one, else it
    if first is None or first.name == name:
        return first
    return exact if exact is not None else first


def path_of(schema, field_id: int):
    """`schema.path_of(field_id)`."""
    fields = schema.fields
    if len(fields) <= SMALL:
        for f in reversed(fields):  # `_top_ids` keeps the last one
            if f.id == field_id:
                return (f.name,)
    elif _own_ids(schema) is None:  # an older version: see `_column`
        f = _column(fields, field_id)
        if f is not None:
            return (f.name,)
        if not schema.nested_top:
            return None
    return schema.path_of(field_id)


def name_of(schema, field_id: int):
    """`schema.name_of(field_id)`."""
    p = path_of(schema, field_id)
    return ".".join(p) if p else None


def _column(fields, field_id: int):
    """The column with id `field_id` of an older wide version, by one pass over its columns in C, not
    a lookup table of them built for one question (the replay never builds `_top_ids` on some
    histories, so no neighbour's table can be moved to an old version); None when none has it."""
    try:
        return fields[indexOf(map(_field_id, fields), field_id)]  # top-level ids are unique
    except ValueError:
        return None


def _own_ids(schema):
    """The id table of the newest version of a wide table (the one holding the name table), built
    once if it has none yet: the replay moves it on to each next version (`Schema.carry_indexes`) for
    a few entries each. None for an older version, whose tables went to its successor (see `_column`)."""
    d = schema.__dict__
    own = d.get("_top_ids")
    if own is None and "_lower_names" in d:
        own = schema._top_ids
    return own


def has_id(schema, field_id: int) -> bool:
    """`schema.field_by_id(field_id) is not None` (and so `schema.has_field_id(field_id)`)."""
    fields = schema.fields
    if len(fields) > SMALL:
        own = _own_ids(schema)
        if own is not None:  # the newest version holds its table
            return field_id in own or schema.field_by_id(field_id) is not None
        if _column(fields, field_id) is not None:  # an older version
            return True
        return bool(schema.nested_top) and schema.field_by_id(field_id) is not None
    nested = False
    for f in fields:
        if f.id == field_id:
            return True
        if not f.type.is_primitive:
            nested = True
    # not a column: a field inside a struct, list or map column, or nowhere
    return nested and schema.field_by_id(field_id) is not None
