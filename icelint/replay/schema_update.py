"""A port of Iceberg 1.10's `SchemaUpdate`: pending schema changes applied as one new schema.

Same validation order and messages (`Cannot delete missing column: x`, `Cannot change column type:
id: long -> int`, ...), the same id assignment (`last-column-id + 1`, nested fields numbered by
`AssignFreshIds`), the same ordering of adds and moves. Names arrive already resolved by Spark
(`spark.py`), so lookups here are case-sensitive, as Iceberg's are by default.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import compress
from operator import attrgetter, itemgetter
from typing import Callable

from icelint.model.storage.chain import Rope, appended, patch, share
from icelint.model.diff import ROOT  # the schema's own struct, in `changes_at` as in the diff that reads it
from icelint.model.table import Schema
from icelint.model.types import (
    DecimalType,
    ListType,
    MapType,
    NestedField,
    PrimitiveType,
    StructType,
    Type,
    children,
    is_untyped,
)
from icelint.replay.errors import ReplayError

_field_id = attrgetter("id")
_first = itemgetter(0)
Path = tuple[str, ...]


def dotted(path: Path) -> str:
    return ".".join(path)


def promotion_allowed(frm: Type, to: Type) -> bool:
    """Iceberg's `TypeUtil.isPromotionAllowed` (no format-version dependence in 1.10)."""
    if frm == to or is_untyped(frm):  # a CTAS column of unknown type: icelint cannot tell, so it allows
        return True
    if not isinstance(frm, PrimitiveType) or not isinstance(to, PrimitiveType):
        return False
    if frm.name == "int":
        return to.name == "long"
    if frm.name == "float":
        return to.name == "double"
    if isinstance(frm, DecimalType):
        return isinstance(to, DecimalType) and to.scale == frm.scale and to.precision >= frm.precision
    return False


def _iae(message: str, kind: str, **kw) -> ReplayError:
    """An IllegalArgumentException inside Spark's alterTable: Spark shows `Unsupported table change: ...`."""
    return ReplayError(kind, message, "iceberg-wrapped", **kw)


@dataclass
class _Move:
    """A pending FIRST / AFTER move of a column, applied when the update is committed."""

    field_id: int
    kind: str  # first | after
    ref_id: int | None = None


class SchemaUpdate:
    def __init__(self, schema: Schema, last_column_id: int) -> None:
        self.schema = schema
        self.last_column_id = last_column_id
        self.deletes: dict[int, None] = {}  # ordered, and a lookup per added column (not a scan)
        self.updates: dict[int, NestedField] = {}
        self.parent_to_added: dict[int, list[int]] = {}
        self.added_name_to_id: dict[Path, int] = {}
        self.added_parent: dict[int, int] = {}  # parents of fields added by this update
        self.added_ids: set[int] = set()
        self.moves: dict[int, list[_Move]] = {}
        # field id → its parent's id (None: a column), for the nested fields `_find` walked through: the
        # parents `_touched_ids` asks for without a table of every field of the schema (built per version,
        # it made N changes to nested fields of a growing table quadratic)
        self.parents_seen: dict[int, int | None] = {}
        ids = schema.identifier_field_ids
        self.identifier_names: set[Path] = {p for p in (schema.path_of(i) for i in ids) if p is not None} if ids else set()

    # ------------------------------------------------------------------ helpers
    def _find(self, path: Path) -> NestedField | None:
        """`self.schema.find(path)` (case-sensitive), noting the parent of each nested field on the way."""
        if len(path) == 1 or not path:
            return self.schema.find(path)
        f = self.schema.top_level(path[0], True)
        if f is None:
            return None
        seen = self.parents_seen
        seen[f.id] = None
        for part in path[1:]:
            for k in children(f.type):
                if k.name == part:
                    seen[k.id] = f.id
                    f = k
                    break
            else:
                return None
        return f

    def _parent(self, field_id: int | None) -> int | None:
        if field_id is None:
            return None
        if field_id in self.added_ids:
            return self.added_parent.get(field_id)
        seen = self.parents_seen
        if field_id in seen:
            return seen[field_id]
        return self.schema.parent_id(field_id)

    def _next_id(self) -> int:
        self.last_column_id += 1
        return self.last_column_id

    def _find_for_update(self, path: Path) -> NestedField | None:
        existing = self._find(path)
        if existing is not None:
            return self.updates.get(existing.id, existing)
        added = self.added_name_to_id.get(path)
        return self.updates.get(added) if added is not None else None

    # ------------------------------------------------------------------ API
    def add_column(
        self, parent: Path, name: str, make_type: Callable[[Callable[[], int]], Type], required: bool, doc: str | None
    ) -> int:
        parent_id = ROOT
        if parent:
            parent_field = self._find(parent)
            if parent_field is None:
                raise _iae(f"Cannot find parent struct: {dotted(parent)}", "unknown-column")
            pt = parent_field.type
            if isinstance(pt, (MapType, ListType)):
                inner = pt.value_field if isinstance(pt, MapType) else pt.element_field
                self.parents_seen[inner.id] = parent_field.id
                parent_field = inner
            if not isinstance(parent_field.type, StructType):
                raise _iae(
                    f"Cannot add to non-struct column: {dotted(parent)}: {parent_field.type}", "unsupported"
                )
            parent_id = parent_field.id
            current = self._find(parent + (name,))
            if parent_id in self.deletes:
                raise _iae(f"Cannot add to a column that will be deleted: {dotted(parent)}", "unsupported")
            if current is not None and current.id not in self.deletes:
                raise _iae(f"Cannot add column, name already exists: {dotted(parent)}.{name}", "duplicate-column")
            full = tuple(self.schema.path_of(parent_id) or parent) + (name,)
        else:
            current = self._find((name,))
            if current is not None and current.id not in self.deletes:
                raise _iae(f"Cannot add column, name already exists: {name}", "duplicate-column")
            full = (name,)
        if required:
            raise _iae(
                f"Incompatible change: cannot add required column without a default value: {dotted(full)}",
                "required-column",
            )
        new_id = self._next_id()
        self.added_name_to_id[full] = new_id
        self.added_ids.add(new_id)
        if parent_id != ROOT:
            self.added_parent[new_id] = parent_id
        field = NestedField(new_id, name, make_type(self._next_id), required, doc)
        self.updates[new_id] = field
        self.parent_to_added.setdefault(parent_id, []).append(new_id)
        return new_id

    def delete_column(self, path: Path) -> None:
        f = self._find(path)
        if f is None:
            raise _iae(f"Cannot delete missing column: {dotted(path)}", "unknown-column")
        if f.id in self.parent_to_added:
            raise _iae(f"Cannot delete a column that has additions: {dotted(path)}", "unsupported")
        if f.id in self.updates:
            raise _iae(f"Cannot delete a column that has updates: {dotted(path)}", "unsupported")
        self.deletes[f.id] = None

    def rename_column(self, path: Path, new_name: str) -> None:
        f = self._find(path)
        if f is None:
            raise _iae(f"Cannot rename missing column: {dotted(path)}", "unknown-column")
        if f.id in self.deletes:
            raise _iae(f"Cannot rename a column that will be deleted: {f.name}", "unsupported")
        u = self.updates.get(f.id, f)
        self.updates[f.id] = NestedField(u.id, new_name, u.type, u.required, u.doc)  # `replace`, without its keyword handling
        if path in self.identifier_names:
            self.identifier_names.discard(path)
            self.identifier_names.add((new_name,) if len(path) == 1 else (new_name,))

    def update_column(self, path: Path, new_type: PrimitiveType) -> None:
        f = self._find_for_update(path)
        if f is None:
            raise _iae(f"Cannot update missing column: {dotted(path)}", "unknown-column")
        if f.id in self.deletes:
            raise _iae(f"Cannot update a column that will be deleted: {f.name}", "unsupported")
        if f.type == new_type:
            return
        if not promotion_allowed(f.type, new_type):
            raise _iae(
                f"Cannot change column type: {dotted(path)}: {f.type} -> {new_type}",
                "type-change",
                field_id=f.id,
                column=dotted(path),
            )
        self.updates[f.id] = NestedField(f.id, f.name, new_type, f.required, f.doc)

    def update_doc(self, path: Path, doc: str | None) -> None:
        f = self._find_for_update(path)
        if f is None:
            raise _iae(f"Cannot update missing column: {dotted(path)}", "unknown-column")
        if f.id in self.deletes:
            raise _iae(f"Cannot update a column that will be deleted: {f.name}", "unsupported")
        if f.doc == doc:
            return
        self.updates[f.id] = NestedField(f.id, f.name, f.type, f.required, doc)

    def update_required(self, path: Path, required: bool) -> None:
        f = self._find_for_update(path)
        if f is None:
            raise _iae(f"Cannot update missing column: {dotted(path)}", "unknown-column")
        if f.required == required:
            return
        if required:
            raise _iae(f"Cannot change column nullability: {dotted(path)}: optional -> required", "nullability")
        if f.id in self.deletes:
            raise _iae(f"Cannot update a column that will be deleted: {f.name}", "unsupported")
        self.updates[f.id] = replace(f, required=False)

    def _find_for_move(self, path: Path) -> int | None:
        added = self.added_name_to_id.get(path)
        if added is not None:
            return added
        f = self._find(path)
        return f.id if f else None

    def move_first(self, path: Path) -> None:
        fid = self._find_for_move(path)
        if fid is None:
            raise _iae(f"Cannot move missing column: {dotted(path)}", "unknown-column")
        self._move(path, _Move(fid, "first"))

    def move_after(self, path: Path, ref: Path) -> None:
        fid = self._find_for_move(path)
        if fid is None:
            raise _iae(f"Cannot move missing column: {dotted(path)}", "unknown-column")
        ref_id = self._find_for_move(ref)
        if ref_id is None:
            raise _iae(f"Cannot move {dotted(path)} after missing column: {dotted(ref)}", "unknown-column")
        if ref_id == fid:
            raise _iae(f"Cannot move {dotted(path)} after itself", "move")
        self._move(path, _Move(fid, "after", ref_id))

    def _move(self, path: Path, move: _Move) -> None:
        parent_id = self._parent(move.field_id)
        if parent_id is not None:
            parent = self.schema.field_by_id(parent_id)
            if parent is not None and not isinstance(parent.type, StructType):
                raise _iae(f"Cannot move fields in non-struct type: {parent.type}", "move")
            if move.kind == "after" and self._parent(move.ref_id) != parent_id:  # type: ignore[arg-type]
                raise _iae(f"Cannot move field {dotted(path)} to a different struct", "move")
            self.moves.setdefault(parent_id, []).append(move)
        else:
            if move.kind == "after" and self._parent(move.ref_id) is not None:  # type: ignore[arg-type]
                raise _iae(f"Cannot move field {dotted(path)} to a different struct", "move")
            self.moves.setdefault(ROOT, []).append(move)

    def set_identifier_fields(self, paths: list[Path]) -> None:
        self.identifier_names = set(paths)

    # ------------------------------------------------------------------ apply
    def apply(self) -> Schema:
        """The new schema (schema id still the old one; the table assigns it). Raises ReplayError."""
        schema = self.schema
        for name in sorted(self.identifier_names) if self.identifier_names else ():
            f = schema.find(name)
            if f is not None:
                if f.id in self.deletes:
                    raise _iae(
                        f"Cannot delete identifier field {f}. To force deletion, also call setIdentifierFields "
                        "to update identifier fields.",
                        "identifier",
                        field_id=f.id,
                        column=dotted(name),
                    )
                for anc in schema.ancestors(f.id):
                    if anc.id in self.deletes:
                        raise _iae(
                            f"Cannot delete field {anc} as it will delete nested identifier field {f}",
                            "identifier",
                            field_id=f.id,
                        )
        # struct (ROOT: the schema) → field id → (old field, new field), None for added / deleted: every
        # field object this update replaced, so that the diff never looks at the unchanged ones
        self.changes_at: dict[int, dict[int, tuple[NestedField | None, NestedField | None]]] = {}
        self._touched = self._touched_ids()
        self._work = {i for i in (*self.deletes, *self.updates, *self._touched) if i not in self.added_ids}
        if ROOT not in self.moves and not self._pending_at(schema.fields, True):
            # columns appended, nothing else at the top level: no pass over the existing columns
            added = [self.updates[i] for i in self.parent_to_added.get(ROOT, ())]
            self.changes_at[ROOT] = {f.id: (None, f) for f in added}
            new = Schema(schema.schema_id, appended(schema.fields, added))
        else:
            patched = self._patch_top(schema)
            if patched is None:
                patched = share(schema.fields, self._apply_struct(schema.fields, ROOT))  # chunks shared with the old version
            new = Schema(schema.schema_id, patched)
        if not self.identifier_names:
            return new
        view = _Updated(schema, new, self.changes_at.get(ROOT) or {})
        ids: list[int] = []
        for name in sorted(self.identifier_names):
            f = view.find(name)
            if f is None:
                raise _iae(
                    f"Cannot add field {dotted(name)} as an identifier field: not found in current schema or added columns",
                    "identifier",
                )
            ids.append(f.id)
        for fid in sorted(ids):
            validate_identifier_field(view, fid)  # type: ignore[arg-type]
        return Schema(schema.schema_id, new.fields, tuple(sorted(ids)))

    def _patch_top(self, schema: Schema):
        """`share(schema.fields, self._apply_struct(schema.fields, ROOT))` as a patch of the old
        version's chunks (`model/chain.py patch`): the touched and moved columns are found by id,
        not by a pass over every column. None when the patch does not apply."""
        fields = schema.fields
        if not isinstance(fields, Rope):
            return None
        top_ids = schema._top_ids
        found = [f for f in map(top_ids.get, self._work) if f is not None]
        if len(found) > 1:  # in column order, as `_apply_struct` meets them (its errors, its record)
            places = list(map(fields.place, found))
            if None in places:
                return None
            found = [f for _, f in sorted(zip(places, found), key=_first)]
        added, record = self._added_at(ROOT)
        changed = []
        for f in found:
            if f.id in self.deletes:
                record[f.id] = (f, None)
                changed.append((f, None))
                continue
            new = self._updated(f)
            if new is not f:
                record[f.id] = (f, new)
                changed.append((f, new))
        moves = [(m.field_id, m.ref_id if m.kind == "after" else None) for m in self.moves.get(ROOT, ())]
        return patch(fields, changed, added, moves)

    def _added_at(self, parent_id: int) -> tuple[list[NestedField], dict]:
        """The fields added under `parent_id`, already recorded as added in its change record (returned too)."""
        added = [self.updates[i] for i in self.parent_to_added.get(parent_id, ())]
        record = self.changes_at.setdefault(parent_id, {})
        for f in added:
            record[f.id] = (None, f)
        return added, record

    def _updated(self, f: NestedField) -> NestedField:
        """An existing field after its pending update (rename, doc, type, nullability) and the changes below it."""
        t = self._apply_type(f)
        upd = self.updates.get(f.id)
        if upd is None:
            return f if t is f.type else replace(f, type=t)
        return upd if t is upd.type else replace(upd, type=t)

    def _touched_ids(self) -> set[int]:
        """Every field whose subtree holds a pending change (nested types elsewhere are reused as is)."""
        touched: set[int] = set()
        for fid in (*self.deletes, *self.updates, *self.parent_to_added, *self.moves):
            pid: int | None = fid
            while pid is not None and pid != ROOT and pid not in touched:
                touched.add(pid)
                pid = self._parent(pid)
        return touched

    def _apply_struct(self, fields: tuple[NestedField, ...], parent_id: int) -> list[NestedField]:
        top = parent_id == ROOT
        added, record = self._added_at(parent_id)
        if not self._pending_at(fields, top):  # only additions and moves here: no per-field work
            out = list(fields)
            out.extend(added)
            return self._apply_moves(out, parent_id)
        # Untouched fields stay the same objects (later diffs skip them by identity); the positions
        # of the touched ones are found with C-level passes, not a Python loop over every column.
        work = self._work
        hits = compress(range(len(fields)), map(work.__contains__, map(_field_id, fields)))
        out = list(fields)
        deleted: list[int] = []
        for i in hits:
            f = fields[i]
            if f.id in self.deletes:
                record[f.id] = (f, None)
                deleted.append(i)
                continue
            new = out[i] = self._updated(f)
            if new is not f:
                record[f.id] = (f, new)
        for i in reversed(deleted):
            del out[i]
        out.extend(added)
        return self._apply_moves(out, parent_id)

    def _pending_at(self, fields: tuple[NestedField, ...], top: bool) -> bool:
        """Does any existing field of this struct level get deleted, updated, or changed below?"""
        ids = self._work
        if not ids:
            return False
        if top:  # the schema's own id index answers for the top level
            top_ids = self.schema._top_ids
            return any(i in top_ids for i in ids)
        return not ids.isdisjoint([f.id for f in fields])

    def _apply_moves(self, out: list[NestedField], parent_id: int) -> list[NestedField]:
        if not self.moves:
            return out
        for m in self.moves.get(parent_id, ()):
            # positions by id: `list.remove`/`index` would call the dataclass `__eq__` on every field before it
            ids = list(map(_field_id, out))
            i = ids.index(m.field_id)
            moving = out.pop(i)
            if m.kind == "first":
                out.insert(0, moving)
            else:
                del ids[i]
                out.insert(ids.index(m.ref_id) + 1, moving)
        return out

    def _apply_type(self, f: NestedField) -> Type:
        upd = self.updates.get(f.id)
        if upd is not None and upd.type != f.type and not children(f.type):
            return upd.type
        t = f.type
        if t.is_primitive or f.id not in self._touched:
            return t
        if isinstance(t, StructType):
            return StructType(tuple(self._apply_struct(t.fields, f.id)))
        if isinstance(t, ListType):
            ef = t.element_field
            if ef.id in self.deletes:
                raise _iae(f"Cannot delete element type from list: {t}", "unsupported")
            et = self._apply_type(ef)
            eu = self.updates.get(ef.id)
            req = eu.required if eu is not None else t.element_required
            return ListType(t.element_id, et, req)
        if isinstance(t, MapType):
            kf, vf = t.key_field, t.value_field
            if kf.id in self.deletes:
                raise _iae(f"Cannot delete map keys: {t}", "map-key", field_id=f.id, column=self.schema.name_of(f.id))
            if kf.id in self.updates:
                raise _iae(f"Cannot update map keys: {t}", "map-key", field_id=f.id, column=self.schema.name_of(f.id))
            if kf.id in self.parent_to_added:
                raise _iae(f"Cannot add fields to map keys: {t}", "map-key", field_id=f.id, column=self.schema.name_of(f.id))
            if self._apply_type(kf) != t.key:
                raise _iae(f"Cannot alter map keys: {t}", "map-key", field_id=f.id, column=self.schema.name_of(f.id))
            if vf.id in self.deletes:
                raise _iae(f"Cannot delete value type from map: {t}", "unsupported")
            vt = self._apply_type(vf)
            vu = self.updates.get(vf.id)
            req = vu.required if vu is not None else t.value_required
            return MapType(t.key_id, t.key, t.value_id, vt, req)
        return t


class _Updated:
    """The look-ups `SchemaUpdate.apply` makes in the schema it made (the identifier fields found by
    name, then validated), answered for top-level fields from the old version's lookup tables and
    the update's record of the top-level fields it replaced, added or deleted (`changes_at[ROOT]`):
    the new `Schema` has no lookup tables yet, and building them is a pass over every column, once
    per statement on a table with identifier fields. Nested paths ask the new schema itself."""

    def __init__(self, old: Schema, new: Schema, top: dict) -> None:
        self.old, self.new, self.top = old, new, top
        self.made = {n.name: n for o, n in top.values() if n is not None}  # exact names, as `find` matches
        self.nested: dict[int, tuple[NestedField, str, list[NestedField]]] = {}  # found below a column: field, name, ancestors

    def find(self, path) -> NestedField | None:
        if len(path) != 1:  # `Schema.find` below its column, the ancestors noted on the way
            found = self.find(path[:1])
            ancestors: list[NestedField] = []
            for part in path[1:]:
                if found is None:
                    return None
                ancestors.append(found)
                found = next((f for f in children(found.type) if f.name == part), None)
            if found is not None:
                self.nested[found.id] = (found, ".".join(path), ancestors[::-1])  # nearest first, as `Schema.ancestors`
            return found
        hit = self.made.get(path[0])
        if hit is not None:
            return hit
        f = self.old.top_level(path[0])
        return None if f is None or f.id in self.top else f  # replaced: under its new name, if any, in `made`

    def field_by_id(self, field_id: int) -> NestedField | None:
        entry = self.top.get(field_id)
        if entry is not None:
            return entry[1]
        below = self.nested.get(field_id)
        if below is not None:
            return below[0]
        return self.old.top_field(field_id) or self.new.field_by_id(field_id)

    def _is_top(self, field_id: int) -> bool:
        entry = self.top.get(field_id)
        return entry[1] is not None if entry is not None else self.old.top_field(field_id) is not None

    def name_of(self, field_id: int) -> str | None:
        if self._is_top(field_id):
            f = self.field_by_id(field_id)
            return f.name if f is not None else None
        below = self.nested.get(field_id)
        return below[1] if below is not None else self.new.name_of(field_id)

    def ancestors(self, field_id: int) -> list[NestedField]:
        if self._is_top(field_id):
            return []
        below = self.nested.get(field_id)
        return list(below[2]) if below is not None else self.new.ancestors(field_id)


def validate_identifier_field(schema: Schema, field_id: int) -> None:
    """Iceberg's `Schema.validateIdentifierField` (ValidationException / IAE texts)."""
    f = schema.field_by_id(field_id)
    if f is None:
        raise _iae(f"Cannot add fieldId {field_id} as an identifier field: field does not exist", "identifier")
    name = f.name
    if not f.type.is_primitive:
        raise _iae(f"Cannot add field {name} as an identifier field: not a primitive type field", "identifier", field_id=field_id, column=schema.name_of(field_id))
    if not f.required:
        raise _iae(f"Cannot add field {name} as an identifier field: not a required field", "identifier", field_id=field_id, column=schema.name_of(field_id))
    if isinstance(f.type, PrimitiveType) and f.type.name in ("float", "double"):
        raise _iae(f"Cannot add field {name} as an identifier field: must not be float or double field", "identifier", field_id=field_id, column=schema.name_of(field_id))
    for anc in schema.ancestors(field_id):
        if isinstance(anc.type, (ListType, MapType)):
            raise _iae(f"Cannot add field {name} as an identifier field: must not be nested in {anc.type}", "identifier", field_id=field_id, column=schema.name_of(field_id))
        if not anc.required:
            raise _iae(f"Cannot add field {name} as an identifier field: must not be nested in an optional field {anc}", "identifier", field_id=field_id, column=schema.name_of(field_id))
