"""What changed between two schemas, found by field id; unchanged subtrees are skipped by identity.

The replay reuses unchanged `NestedField` objects, so comparing two versions of a 5,000-column
schema costs one identity check per top-level column rather than a walk of every field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Mapping, Sequence

from icelint.model.table import Schema
from icelint.model.types import NestedField, StructType, children, walk

Path = tuple[str, ...]
Changes = Mapping[int, Mapping[int, "tuple[NestedField | None, NestedField | None]"]]
ROOT = -1  # the id of the schema's own struct in `changes_at` (`SchemaUpdate` records under it too)


@dataclass(slots=True)
class SchemaDiff:
    """What one schema change did, by field id: fields added, removed and changed, with their paths.

    Built in lists, kept in tuples (`_kept`): every outcome of a replay holds its diff, most of them
    one changed column, so a diff costs a few small tuples rather than four lists (slots, no dict)."""

    added: Sequence[tuple[Path, NestedField]] = field(default_factory=list)  # new field ids (nested ones too)
    removed: Sequence[tuple[Path, NestedField]] = field(default_factory=list)  # ids gone (nested ones too)
    changed: Sequence[tuple[Path, NestedField, NestedField]] = field(default_factory=list)  # (path now, new, old)
    replaced_top: Sequence[tuple[NestedField, NestedField]] = field(default_factory=list)  # top-level (new, old) objects

    @property
    def renamed(self) -> list[tuple[Path, NestedField, NestedField]]:
        return [c for c in self.changed if c[1].name != c[2].name]

    @property
    def retyped(self) -> list[tuple[Path, NestedField, NestedField]]:
        return [c for c in self.changed if c[1].type.is_primitive and c[1].type != c[2].type]


def diff(before: Schema, after: Schema, changes_at: Changes | None = None) -> SchemaDiff:
    """What changed from `before` to `after`.

    `changes_at` (`SchemaUpdate.changes_at`) lists, per struct, the only field objects that differ:
    with it, the unchanged columns are not even looked at. Without it, both schemas are compared.
    """
    out = SchemaDiff()
    if before.fields is after.fields:
        return _kept(out)
    if changes_at is None:
        _compare(before.fields, after.fields, (), (), out)
    else:
        _match_recorded(changes_at, ROOT, (), (), out)
    return _kept(out)


def _kept(d: SchemaDiff) -> SchemaDiff:
    """`d` with its lists made tuples (an empty one is the shared `()`)."""
    d.added, d.removed, d.changed, d.replaced_top = tuple(d.added), tuple(d.removed), tuple(d.changed), tuple(d.replaced_top)
    return d


NO_CHANGE = _kept(SchemaDiff())  # the diff of a step that changed no schema (shared: tuples, nothing to add to)


def _match_recorded(changes_at: Changes, parent_id: int, old_prefix: Path, new_prefix: Path, out: SchemaDiff) -> None:
    pairs = changes_at.get(parent_id, {}).values()
    gone = [old for old, _ in pairs if old is not None]
    fresh = [new for _, new in pairs if new is not None]
    _match(gone, fresh, old_prefix, new_prefix, out, changes_at)


def _common_prefix(a: tuple, b: tuple) -> int:
    """Length of the longest common prefix, found with C-level slice comparisons (binary search)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _compare(old: tuple[NestedField, ...], new: tuple[NestedField, ...], old_prefix: Path, new_prefix: Path, out: SchemaDiff) -> None:
    if len(old) > 16 and len(new) > 16:  # skip the unchanged head and tail of long structs
        head = _common_prefix(old, new)
        tail = _common_prefix(old[head:][::-1], new[head:][::-1])
        old, new = old[head : len(old) - tail], new[head : len(new) - tail]
    if len(new) >= len(old) and new[: len(old)] == old and all(a is b for a, b in zip(old[-3:], new[len(old) - 3 : len(old)])):
        for f in new[len(old) :]:  # the common case, columns appended: no per-field work
            path = new_prefix + (f.name,)
            out.added.append((path, f))
            out.added.extend((path + p, x) for p, x in walk(children(f.type)))
        return
    _match(old, new, old_prefix, new_prefix, out)


def _match(
    old: Sequence[NestedField], new: Sequence[NestedField], old_prefix: Path, new_prefix: Path, out: SchemaDiff,
    changes_at: Changes | None = None,
) -> None:
    """Pair the fields of one struct level by id: added, removed, changed (and what changed below)."""
    old_by_id = {f.id: f for f in old}
    kept: set[int] = set()
    for f in new:
        prev = old_by_id.get(f.id)
        if prev is f:
            kept.add(f.id)
            continue
        path = new_prefix + (f.name,)
        if prev is None:
            out.added.append((path, f))
            kids = children(f.type)
            if kids:  # a struct, list or map: its fields are new too
                out.added.extend((path + p, x) for p, x in walk(kids))
            continue
        kept.add(f.id)
        if not new_prefix:
            out.replaced_top.append((f, prev))
        if prev.name != f.name or prev.required != f.required or prev.doc != f.doc or (
            f.type.is_primitive and prev.type != f.type
        ) or type(f.type) is not type(prev.type):
            out.changed.append((path, f, prev))
        if f.type is not prev.type:
            if changes_at is not None and isinstance(f.type, StructType) and isinstance(prev.type, StructType):
                _match_recorded(changes_at, f.id, old_prefix + (prev.name,), path, out)
            else:
                _compare(children(prev.type), children(f.type), old_prefix + (prev.name,), path, out)
    for f in old:
        if f.id not in kept:
            path = old_prefix + (f.name,)
            out.removed.append((path, f))
            kids = children(f.type)
            if kids:
                out.removed.extend((path + p, x) for p, x in walk(kids))
