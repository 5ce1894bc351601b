"""Iceberg's `TypeUtil.indexByName` check: two fields whose full dotted names are equal.

A column named `` `utm.source` `` and a field `source` of a struct `utm` both have the full name
`utm.source`; Iceberg's `Schema` refuses that ("Invalid schema: multiple fields for name ..."), so
Spark rejects the statement that would create it. The same check rejects a column added (ADD or
REPLACE COLUMNS) with a struct that names a field twice exactly: Spark's own check of such names runs
for CREATE TABLE only (`replay/tables.py`), so `struct<x: int, X: int>` is added. Only schemas with a
dot in some name, or such a struct, can collide, so the check runs only when one is involved (see
`may_collide`).
"""

from __future__ import annotations

from icelint.values import changes as ch
from icelint.model.table import Schema
from icelint.replay.errors import ReplayError
from icelint.syntax.ast import SqlType


def _dotted_type(t: SqlType) -> bool:
    if not t.nested:
        return False  # a primitive type (most columns): no names inside
    return any("." in f.name or _dotted_type(f.type) for f in t.fields) or any(
        x is not None and _dotted_type(x) for x in (t.element, t.key, t.value)
    )


def repeats_name(t: SqlType, fold=None) -> bool:
    """A struct inside `t` names two fields alike: exactly, as Iceberg compares them, or equal once
    `fold`ed (`str.lower`: names differing only in case)."""
    if not t.nested:
        return False
    if t.fields and len({fold(f.name) if fold else f.name for f in t.fields}) < len(t.fields):
        return True
    return any(repeats_name(f.type, fold) for f in t.fields) or any(x is not None and repeats_name(x, fold) for x in (t.element, t.key, t.value))


def may_collide(changes, schema: Schema | None) -> bool:
    """A change names something with a dot, adds a struct that names a field twice, or adds fields
    next to a top-level dotted name."""
    adds = False
    for c in changes:
        specs = ()
        if isinstance(c, ch.AddColumn):
            specs = (c.column,)
        elif isinstance(c, (ch.ReplaceColumns, ch.CreateTable)):
            specs = c.columns
        elif isinstance(c, ch.RenameColumn) and "." in c.new_name:
            return True
        for s in specs:
            adds = True
            if "." in s.path[-1] or _dotted_type(s.type) or repeats_name(s.type):
                return True
    return adds and schema is not None and schema.dotted_top > 0


def check_unique_names(schema: Schema) -> None:
    seen: dict[str, int] = {}
    for path, f in schema.all_fields():
        name = ".".join(path)
        if name in seen:
            raise ReplayError(
                "duplicate-column",
                f"Invalid schema: multiple fields for name {name}: {seen[name]} and {f.id}",
                "iceberg",
                field_id=f.id,
                column=name,
            )
        seen[name] = f.id
