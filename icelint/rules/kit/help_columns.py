"""Help recipes for column changes: re-adds, drops, REPLACE COLUMNS, type and nullability changes, Hive
`CHANGE COLUMN` (the SQL conventions are `_help.py`'s)."""

from __future__ import annotations

import operator

from icelint.values import changes as ch
from icelint.model import types as it
from icelint.util.lazy import ByIdentity
from icelint.rules.kit import small_schema as small
from icelint.rules.kit.outcomes import adds_into, diff_is_whole, drop_candidates, removed_by_diff
from icelint.rules.kit.help import Proposed, column_sql, free_name, ident, path_sql, replace_at, sql, table_sql, type_sql


def snapshot_before_drop(meta, field_id: int):
    """The newest snapshot whose schema still had `field_id` (time travel shows its values there).

    A table keeps thousands of snapshots and dozens of schema versions, and a migration may re-add
    many dropped columns: the snapshots are read once per state (`_NewestWith`), and each schema's
    fields are walked at most once, newest snapshot first, until one has the field."""
    if meta is None:
        return None
    return _NEWEST.of(meta).snapshot(field_id)


class _NewestWith:
    """Field id → the newest snapshot (latest timestamp; of equal ones, the last listed) whose
    schema has it, found by walking the schemas in the order of their newest snapshots."""

    def __init__(self, meta) -> None:
        best: dict[int, tuple[int, int, object]] = {}  # schema id → (timestamp, position, snapshot)
        for pos, s in enumerate(meta.snapshots):
            sid = s.schema_id
            if sid is None:
                continue
            held = best.get(sid)
            if held is None or s.timestamp_ms >= held[0]:
                best[sid] = (s.timestamp_ms, pos, s)
        by_id: dict = {}
        for schema in meta.schemas:
            by_id.setdefault(schema.schema_id, schema)  # the first, as `TableMetadata.schema_by_id`
        newest_first = sorted(best.items(), key=lambda kv: kv[1][:2], reverse=True)  # by (timestamp, position)
        self.todo = [(by_id.get(sid), snap) for sid, (_, _, snap) in newest_first]
        self.walked = 0
        self.found: dict[int, object] = {}

    def snapshot(self, field_id: int):
        found = self.found
        while field_id not in found and self.walked < len(self.todo):
            schema, snap = self.todo[self.walked]
            self.walked += 1
            if schema is not None:
                for _, f in schema.all_fields():
                    found.setdefault(f.id, snap)  # newest first: the first to name a field is its newest
        return found.get(field_id)


_NEWEST = ByIdentity(_NewestWith)  # the states asked about lately


def drop_outcome(ctx, field_id: int):
    """The earlier accepted step of this run that removed `field_id` from the table, if any (found
    once per finding: its help and its fix both ask)."""
    memo = ctx.memo.setdefault("drop_outcome", {})
    if field_id not in memo:
        memo[field_id] = _find_drop_outcome(ctx, field_id)
    return memo[field_id]


def _find_drop_outcome(ctx, field_id: int):
    from bisect import bisect_left

    outcomes = ctx.result.outcomes
    # the newest such step first, among the steps that may have removed it (a scan of the whole
    # history per finding would make N drops and re-adds quadratic)
    end = _position(outcomes, ctx.step.index)
    candidates = drop_candidates(ctx.run, ctx.outcome.table, field_id)
    for k in reversed(candidates[: bisect_left(candidates, end)]):
        o = outcomes[k]
        if o.table != ctx.outcome.table or not o.accepted or o.before is None or o.after is None:
            continue
        if removed_by_diff(ctx.run, o.table, field_id, k) or (
            small.has_id(o.before.schema, field_id) and not small.has_id(o.after.schema, field_id)
        ):
            return o
    return None


def _step_index(o) -> int:
    return o.step.index


def _position(outcomes, index: int) -> int:
    """`bisect_left(outcomes, index, key=_step_index)`: position `index` when it is the boundary (a
    run's outcomes are its steps in order, mostly one each: two reads instead of a search)."""
    n = len(outcomes)
    if 0 <= index <= n and (index == n or outcomes[index].step.index >= index) and (
        index == 0 or outcomes[index - 1].step.index < index
    ):
        return index  # the outcomes are sorted by step index: this is the one boundary
    from bisect import bisect_left

    return bisect_left(outcomes, index, key=_step_index)


def drop_instead_of(table: str, outcome, field_id: int, new_name: str) -> list[str] | None:
    """Statements for a `DROP COLUMN(S)` step that rename `field_id` aside instead (others still dropped)."""
    step = outcome.step
    if not all(isinstance(c, ch.DeleteColumn) for c in step.changes):
        return None
    before = outcome.before.schema
    removed = _removed(outcome)  # the fields this step dropped, from its diff: no look-up in an old version
    path = removed[field_id][0] if field_id in removed else small.path_of(before, field_id)
    if path is None:
        return None
    t = table_sql(table)
    out = [f"ALTER TABLE {t} RENAME COLUMN {path_sql(path)} TO {ident(new_name)}"]
    rest = []
    for c in step.changes:
        f = _dropped_at(removed, c.path) or small.find(before, c.path)
        if f is not None and f.id != field_id:
            rest.append(path_sql((removed[f.id][0] if f.id in removed else small.path_of(before, f.id)) or c.path))
    if rest:
        out.append(f"ALTER TABLE {t} DROP COLUMN{'S' if len(rest) > 1 else ''} {', '.join(rest)}")
    return out


def _removed(outcome) -> dict:
    """Field id → (path, field) of each field an outcome of DROP COLUMN(S) alone removed, from its diff
    (the diff of its one schema commit); empty when the step changed anything else."""
    return {f.id: (p, f) for p, f in outcome.diff.removed} if diff_is_whole(outcome) else {}


def _dropped_at(removed: dict, path: tuple[str, ...]):
    """`small.find(before, path)` among the fields a step removed: the exact name first, then another case."""
    for p, f in removed.values():
        if p == path:
            return f
    low = tuple(x.lower() for x in path)
    for p, f in removed.values():
        if len(p) == len(low) and tuple(x.lower() for x in p) == low:
            return f
    return None


def with_column_renamed(ctx, path: tuple[str, ...], new_leaf: str) -> list[str] | None:
    """The flagged ADD COLUMN(S) statement again, with the column at `path` under `new_leaf` (and
    every other column it adds under a dropped column's name under a free name too)."""
    after = ctx.after.schema
    t = table_sql(ctx.table_name)
    cols = []
    low = tuple(p.lower() for p in path)
    for c in ctx.changes:
        if not isinstance(c, ch.AddColumn):
            return None
        spec = c.column
        f = small.find(after, spec.path)
        if f is None:
            return None
        # a one-part name finds a column, whose path is its name; a nested one, its path by id
        real = (f.name,) if len(spec.path) == 1 else small.path_of(after, f.id) or spec.path
        name = list(real)
        if tuple(p.lower() for p in real) == low:
            name[-1] = new_leaf
        elif any(not small.has_id(after, h.field_id) for h in ctx.history.former.get(".".join(real).lower(), ())):
            name[-1] = free_column_name(ctx, real[:-1], real[-1], also=(new_leaf,))
        text = column_sql(name, f)
        if spec.first:
            text += " FIRST"
        elif spec.after is not None:
            text += f" AFTER {path_sql(spec.after)}"
        cols.append(text)
    if not cols:
        return None
    kw = "COLUMN" if len(cols) == 1 else "COLUMNS"
    return [f"ALTER TABLE {t} ADD {kw} {', '.join(cols)}"]


_field_name = operator.attrgetter("name")
DEFAULT_SUFFIXES = ("_v2", "_v3", "_v4", "_new")
SMALL_TABLE = 64  # top-level columns of the before and after schemas together, below which `free_column_name` lists them


def taken_names(ctx, parent: tuple[str, ...]) -> list[str]:
    """Names a new column under `parent` must not take: current siblings and every former name."""
    sibs = [f.name for schema in (ctx.before.schema, ctx.after.schema) for f in _level(schema, parent)]
    prefix = ".".join(parent).lower() + "." if parent else ""
    former = [k[len(prefix):] for k in ctx.history.former if k.startswith(prefix) and "." not in k[len(prefix):]]
    return sibs + former


def _level(schema, parent: tuple[str, ...]):
    """The fields under `parent` (found case-insensitively; none when it is not there), or the columns."""
    if not parent:
        return schema.fields
    from icelint.model.types import children

    p = schema.find(parent, case_sensitive=False)
    return children(p.type) if p is not None else ()


def free_column_name(ctx, parent: tuple[str, ...], base: str, suffixes: tuple[str, ...] = DEFAULT_SUFFIXES,
                     also: tuple[str, ...] = ()) -> str:
    """`free_name(taken_names(ctx, parent) + also, base, suffixes)` by lookups: the schemas' name
    indexes, the struct's fields and the former names, never a list of every name (a help per
    finding on a table of thousands of columns and a long history)."""
    if ctx.before is None or ctx.after is None:
        return free_name(taken_names(ctx, parent) + list(also), base, suffixes)
    prefix = ".".join(parent).lower() + "." if parent else ""
    former = ctx.history.former  # lower-case paths
    extra = {a.lower() for a in also}
    before, after = ctx.before.schema, ctx.after.schema
    if parent or len(before.fields) + len(after.fields) <= SMALL_TABLE:
        # a struct's fields, or a narrow table's columns: a set of their names costs less than
        # lookups in older versions' indexes (made once per statement and parent: a help asks twice)
        memo = ctx.memo.setdefault("sibling_names", {})
        sibs = memo.get(parent)
        if sibs is None:
            sibs = memo[parent] = {n.lower() for schema in (before, after) for n in map(_field_name, _level(schema, parent))}

        def taken(low: str) -> bool:
            return low in extra or low in sibs or ("." not in low and prefix + low in former)
    else:

        def taken(low: str) -> bool:
            return (
                low in extra
                or before.top_level(low, case_sensitive=False) is not None
                or after.top_level(low, case_sensitive=False) is not None
                or ("." not in low and low in former)
            )

    for s in suffixes:
        if not taken((base + s).lower()):
            return base + s
    n = 5
    while taken(f"{base}_v{n}".lower()):
        n += 1
    return f"{base}_v{n}"


def readd_help(ctx, path: tuple[str, ...], new_field_id: int, old, is_new: bool) -> Proposed:
    """ICE001: the re-added (or renamed-into) name belonged to field id `old.field_id`, already dropped
    (with the SQL proposed for this statement, and for the drop when it is an earlier statement of this run)."""
    table = ctx.table_name
    t = table_sql(table)
    leaf = path[-1]
    other = free_column_name(ctx, path[:-1], leaf)
    here = elsewhere = aside_sql = None
    if is_new:
        stmts = here = with_column_renamed(ctx, path, other)
        first = (
            f"`{leaf}` is already dropped when this runs, so give the new column another name: {sql(*stmts)}"
            if stmts
            else f"`{leaf}` is already dropped when this runs, so give the new column another name, such as `{other}`"
        )
    else:
        prev = ctx.before.schema.path_of(new_field_id)
        if prev is not None:
            here = [f"ALTER TABLE {t} RENAME COLUMN {path_sql(prev)} TO {ident(other)}"]
            first = f"rename it to a name no dropped column had: {sql(*here)}"
        else:
            first = f"rename it to a name no dropped column had, such as `{other}`"
    parts = [first]
    drop = drop_outcome(ctx, old.field_id)
    if drop is not None:
        gone = _removed(drop).get(old.field_id)  # the drop's diff names it: no look-up in an old version
        aside = ".".join(gone[0]) if gone is not None else small.name_of(drop.before.schema, old.field_id)
        aside_leaf = free_column_name(ctx, path[:-1], (aside or leaf).split(".")[-1], ("_old", "_old2", "_old3"))
        stmts = drop_instead_of(table, drop, old.field_id, aside_leaf)
        if stmts is not None:
            elsewhere, aside_sql = (drop.step.span, tuple(stmts)), ident(aside_leaf)
            if drop.step.span.path == ctx.step.span.path:  # the same file: the drop has not run yet
                parts = [
                    f"the drop of `{old.path}` in this file has not run yet, so keep its values under another name: "
                    f"{replace_at(drop.step.span, *stmts)}, then this statement adds the new column; backfill it from "
                    f"`{aside_leaf}`, switch readers, and drop `{aside_leaf}` in a later migration",
                    "or " + first.replace(f"`{leaf}` is already dropped when this runs, so give", "give", 1),
                ]
            else:
                parts.append(
                    f"or, if that drop has not run yet, keep the values under another name: {replace_at(drop.step.span, *stmts)}, "
                    f"backfill the new column from `{aside_leaf}`, switch readers, and drop `{aside_leaf}` in a later migration"
                )
    else:
        snap = snapshot_before_drop(ctx.result.initial.get(ctx.outcome.table), old.field_id)
        if snap is not None:
            parts.append(
                f"field id {old.field_id}'s values are still in the data files: read them by time travel to the last "
                f"snapshot that had it, {sql(f'SELECT * FROM {t} VERSION AS OF {snap.snapshot_id}')}, and copy them "
                f"into the new column with a MERGE on the table's key"
            )
        else:
            parts.append(
                f"field id {old.field_id}'s values are still in the data files: read them by time travel "
                f"(VERSION AS OF the last snapshot before the deployment that dropped `{old.path}`; "
                f"`{table}.snapshots` lists them) and copy them into the new column with a MERGE on the table's key"
            )
    return Proposed("; ".join(parts), tuple(here) if here else None, elsewhere, aside_sql)


def alter_statements(table: str, old: tuple, new: tuple) -> tuple[list[str], list[str]]:
    """The net ADD/DROP/RENAME/ALTER COLUMN statements that turn the columns `old` into `new`, keeping
    field ids, and the changes no ALTER TABLE statement can make (as sentences)."""
    stmts: list[str] = []
    problems: list[str] = []
    _net_struct(table_sql(table), (), old, new, stmts, problems)
    return stmts, problems


def _net_struct(t: str, parent: tuple[str, ...], old: tuple, new: tuple, out: list[str], problems: list[str],
                kept: list[str] | None = None) -> None:
    """The net statements into `out`; with `kept`, a required column listed as optional stays required
    (its path goes to `kept`: a column list cannot say "as it is", so its NOT NULL is not taken as dropped)."""
    from icelint.replay.schema_update import promotion_allowed

    old_by = {f.name.lower(): f for f in old}
    new_by = {f.name.lower(): f for f in new}
    renames: dict[str, str] = {}  # old lower name → new name: same position, same type, both names unmatched
    for i, nf in enumerate(new):
        if nf.name.lower() in old_by or i >= len(old):
            continue
        of = old[i]
        if of.name.lower() not in new_by and type_sql(of.type) == type_sql(nf.type):
            renames[of.name.lower()] = nf.name
    for of in old:
        if of.name.lower() not in new_by and of.name.lower() not in renames:
            out.append(f"ALTER TABLE {t} DROP COLUMN {path_sql(parent + (of.name,))}")
    for of in old:
        if of.name.lower() in renames:
            out.append(f"ALTER TABLE {t} RENAME COLUMN {path_sql(parent + (of.name,))} TO {ident(renames[of.name.lower()])}")
    order = [renames.get(f.name.lower()) or new_by[f.name.lower()].name for f in old if f.name.lower() in new_by or f.name.lower() in renames]
    for i, nf in enumerate(new):
        path = parent + (nf.name,)
        of = old_by.get(nf.name.lower())
        if of is None:
            of = next((o for o in old if renames.get(o.name.lower()) == nf.name), None)
        if of is None:
            if i == len(new) - 1:
                pos = ""
                order.append(nf.name)
            else:
                pos = " FIRST" if i == 0 else f" AFTER {ident(new[i - 1].name)}"
                order.insert(0 if i == 0 else order.index(new[i - 1].name) + 1, nf.name)
            if it.is_untyped(nf.type):  # a CTAS column: no type to write in ADD COLUMN
                problems.append(f"`{'.'.join(path)}` has a type icelint cannot know ({nf.type.reason})")  # type: ignore[attr-defined]
            else:
                out.append(f"ALTER TABLE {t} ADD COLUMN {column_sql(path, nf)}{pos}")
            continue
        if of.name != nf.name and of.name.lower() == nf.name.lower():
            out.append(f"ALTER TABLE {t} RENAME COLUMN {path_sql(parent + (of.name,))} TO {ident(nf.name)}")
        if isinstance(of.type, it.StructType) and isinstance(nf.type, it.StructType):
            _net_struct(t, path, of.type.fields, nf.type.fields, out, problems, kept)
        elif it.is_untyped(nf.type) or it.is_untyped(of.type):
            pass  # a type icelint cannot know (CTAS): no type change it could write or judge
        elif type_sql(of.type) != type_sql(nf.type):
            if promotion_allowed(of.type, nf.type):
                out.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(path)} TYPE {type_sql(nf.type)}")
            else:
                problems.append(f"`{'.'.join(path)}` cannot change from {type_sql(of.type)} to {type_sql(nf.type)}")
        if of.required and not nf.required and kept is not None:
            kept.append(".".join(path))
        elif of.required and not nf.required:
            out.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(path)} DROP NOT NULL")
        elif nf.required and not of.required:
            problems.append(f"`{'.'.join(path)}` cannot become NOT NULL")
        if (of.doc or None) != (nf.doc or None):
            doc = (nf.doc or "").replace("\\", "\\\\").replace("'", "\\'")
            out.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(path)} COMMENT '{doc}'")
    want = [f.name for f in new]
    for i, name in enumerate(want):
        if order[i] != name:
            out.append(
                f"ALTER TABLE {t} ALTER COLUMN {path_sql(parent + (name,))} "
                + ("FIRST" if i == 0 else f"AFTER {ident(want[i - 1])}")
            )
            order.remove(name)
            order.insert(i, name)


def drop_aside_help(ctx, field_id: int) -> Proposed:
    """ICE011: rename the column aside instead of dropping it (other columns of the statement still dropped)."""
    path = small.path_of(ctx.before.schema, field_id) or ()
    base = (path[-1] if path else "col") + "_deprecated"
    new = free_column_name(ctx, path[:-1], base, ("", "_2", "_3"))
    stmts = drop_instead_of(ctx.table_name, ctx.outcome, field_id, new)
    if stmts is None:
        return Proposed(f"if readers may still need it, rename `{'.'.join(path)}` aside to `{new}` first and drop it in a later migration")
    return Proposed(
        f"if readers may still need it, rename it aside and drop it in a later migration: {sql(*stmts)} "
        "(INSERTs that list values by position then need a value for it too)",
        tuple(stmts),
    )


def emptied_struct_help(ctx, path: tuple[str, ...], field_id: int) -> Proposed:
    """ICE007: drop the whole column holding the emptied struct, unless a later statement refills it
    (with the DROP COLUMN proposed for this statement)."""
    t = table_sql(ctx.table_name)
    low = tuple(p.lower() for p in path)
    later = adds_into(ctx.run, ctx.outcome.table, low, ctx.step.index)  # a later statement refilling it
    if later is not None:
        for c in later.changes:
            if isinstance(c, ch.AddColumn) and tuple(p.lower() for p in c.column.path[:-1]) == low:
                return Proposed(
                    f"add the new field first: move the statement at {later.span.path}:{later.span.line} (it adds "
                    f"`{'.'.join(c.column.path)}`) before this drop"
                )
    top = list(path)
    while len(top) > 1 and top[-1].lower() in ("element", "value", "key"):
        top.pop()
    drop = ".".join(top)
    stmt = f"ALTER TABLE {t} DROP COLUMN {path_sql(top)}"
    return Proposed(
        f"drop the whole column instead: {sql(stmt)}, or add `{drop}`'s new field before dropping its last old one",
        (stmt,),
    )


def nested_type_help(ctx, column: str, new_type) -> str:
    """ICE002 on a struct: the nested fields whose type differs, each changed on its own."""
    from icelint.replay import spark_types as sp

    t = table_sql(ctx.table_name)
    old = ctx.before.schema.find(tuple(column.split(".")), case_sensitive=False) if ctx.before else None
    if old is None or not isinstance(old.type, it.StructType) or new_type is None or not new_type.fields:
        return "structs cannot change type as a whole: change their fields one by one with ALTER COLUMN, or add a new column"
    stmts = []
    for nf in new_type.fields:
        of = next((f for f in old.type.fields if f.name.lower() == nf.name.lower()), None)
        if of is None:
            stmts.append(f"ALTER TABLE {t} ADD COLUMN {path_sql(column)}.{ident(nf.name)} {sp.type_text(nf.type)}")
        elif sp.type_text(nf.type) != type_sql(of.type):
            stmts.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(column)}.{ident(of.name)} TYPE {sp.type_text(nf.type)}")
    if not stmts:
        return "structs cannot change type as a whole: change their fields one by one with ALTER COLUMN, or add a new column"
    return f"change the struct's fields one by one: {sql(*stmts)}"


def nullability_finding(ctx, e) -> tuple[str, str]:
    """ICE004: what happens to the table in the user's terms (the engine's words quoted), and what to do."""
    from icelint.replay import spark_types as sp

    table = ctx.table_name
    t = table_sql(table)
    col = e.column or ""
    fid = f" (field id {e.field_id})" if e.field_id is not None else ""
    who = "Spark" if e.layer == "spark" else "Iceberg"
    if e.kind == "required-column":
        msg = (
            f"`{table}`: adding `{col}` as NOT NULL fails and the table is unchanged: existing rows have no value for "
            f"it, and Spark cannot give Iceberg columns a default; {who}: \"{e.quoted}\""
        )
        adds = [c for c in ctx.changes if isinstance(c, ch.AddColumn)]
        if adds and len(adds) == len(ctx.changes):
            cols = []
            for c in adds:
                s = c.column
                text = f"{path_sql(s.path)} {sp.type_text(s.type)}"
                if s.doc:
                    text += " COMMENT '" + s.doc.replace("\\", "\\\\").replace("'", "\\'") + "'"
                if s.first:
                    text += " FIRST"
                elif s.after is not None:
                    text += f" AFTER {path_sql(s.after)}"
                cols.append(text)
            if "<type>" not in " ".join(cols):
                kw = "COLUMN" if len(cols) == 1 else "COLUMNS"
                return msg, (
                    f"add it as optional, backfill it, and enforce non-null values in the writer: "
                    f"{sql(f'ALTER TABLE {t} ADD {kw} ' + ', '.join(cols))}"
                )
        return msg, "add the column as optional, backfill it, and enforce non-null values in the writer"
    if e.kind == "identifier":
        msg = (
            f"`{table}`: making `{col}`{fid} nullable fails and the table is unchanged: it is an identifier field, and "
            f"identifier fields must be required; Iceberg: \"{e.quoted}\""
        )
        return msg, (
            "if rows may really lack it, take it out of the identifier fields first: "
            + sql(f"ALTER TABLE {t} DROP IDENTIFIER FIELDS {path_sql(col)}", f"ALTER TABLE {t} ALTER COLUMN {path_sql(col)} DROP NOT NULL")
        )
    msg = (
        f"`{table}`: making `{col}`{fid} NOT NULL fails and the table is unchanged: existing data files may hold nulls, "
        f"so Iceberg never turns an optional column into a required one; {who}: \"{e.quoted}\""
    )
    return msg, (
        f"keep `{col}` optional and enforce non-null values in the writing job (or check them with a data-quality "
        "test); a new required column cannot be added either"
    )


def hive_change_help(ctx, e) -> str | None:
    """ICE005 on a Hive-style `CHANGE COLUMN` Spark refuses: the statements that do what it asked."""
    from icelint.replay import spark_types as sp
    from icelint.replay.schema_update import promotion_allowed

    c = next((c for c in ctx.changes if isinstance(c, ch.HiveChangeColumn)), None)
    if c is None or ctx.before is None or "Hive-style" not in e.message:
        return None
    t = table_sql(ctx.table_name)
    f = ctx.before.schema.find(c.path, case_sensitive=False)
    if f is None:
        return None
    path = tuple(ctx.before.schema.path_of(f.id) or c.path)
    target = sp.type_text(c.type)
    if target == "<type>":
        return None
    renamed = c.new_name.lower() != path[-1].lower() or c.new_name != path[-1]
    if renamed:
        new_path = path[:-1] + (c.new_name,)
        stmts = [f"ALTER TABLE {t} RENAME COLUMN {path_sql(path)} TO {ident(c.new_name)}"]
        if target != type_sql(f.type):
            if not (f.type.is_primitive and _promotable(f.type, c.type, promotion_allowed)):
                return f"rename it with RENAME COLUMN; `{'.'.join(path)}` cannot change from {type_sql(f.type)} to {target} (see ICE002)"
            stmts.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(new_path)} TYPE {target}")
        if c.doc is not None:
            stmts.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(new_path)} COMMENT '" + c.doc.replace("\\", "\\\\").replace("'", "\\'") + "'")
        if c.first:
            stmts.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(new_path)} FIRST")
        elif c.after is not None:
            stmts.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(new_path)} AFTER {path_sql(c.after[-1:])}")
        return f"Spark renames columns only with RENAME COLUMN: {sql(*stmts)}"
    text = f"ALTER TABLE {t} CHANGE COLUMN {path_sql(path)} {ident(c.new_name)} {target}"
    if c.doc is not None:
        text += " COMMENT '" + c.doc.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if c.first:
        text += " FIRST"
    elif c.after is not None:
        text += f" AFTER {path_sql(c.after[-1:])}"
    if f.required:
        return f"`{'.'.join(path)}` is already required: leave out NOT NULL: {sql(text)}"
    return (
        f"Iceberg cannot make the optional `{'.'.join(path)}` required (existing files may hold nulls); leave out "
        f"NOT NULL and enforce it in the writer: {sql(text)}"
    )


def _promotable(frm, to_sql, promotion_allowed) -> bool:
    from icelint.replay import spark_types as sp

    try:
        to = sp.to_iceberg(to_sql, iter(range(10**6, 10**7)).__next__)
    except Exception:
        return False
    return promotion_allowed(frm, to)


def replace_table_help(ctx) -> str:
    """ICE009: the ALTER TABLE statements that give the new columns while keeping the rows and field ids."""
    table = ctx.table_name
    generic = f"evolve the table with ALTER TABLE {table} ADD/RENAME/ALTER COLUMN statements instead"
    before, after = ctx.before, ctx.after
    if before is None or after is None:
        return generic

    def spec_terms(meta):
        return [(meta.schema.name_of(f.source_id) or "", f.transform) for f in meta.spec.fields if f.transform != "void"]

    if spec_terms(before) != spec_terms(after):
        return generic + ", and change the partitioning with ADD/DROP/REPLACE PARTITION FIELD"
    t = table_sql(table)
    stmts, problems = [], []
    _net_struct(t, (), before.schema.fields, after.schema.fields, stmts, problems)
    if problems:
        return f"{generic} ({'; '.join(problems)}: add a new column for each of these)"
    if not stmts:
        return "the new definition has the table's current columns and partitioning: to keep the rows, delete the statement"
    return f"to keep the rows and field ids, change only what differs: {sql(*stmts)}"
