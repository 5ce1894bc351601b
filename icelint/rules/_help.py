"""Writing `help:` lines: SQL with the table's real names that works when pasted.

The convention every rule follows (and `tests/rules/test_help_replay.py` checks by pasting):

- SQL a user can paste is written in backticks (double backticks, Markdown style, when it quotes an
  identifier with backticks itself): `` `ALTER TABLE db.t DROP COLUMN x` ``. Several statements in
  one pair of backticks are run in that order.
- Such SQL replaces the statement the finding points at: it includes that statement again when it
  should still run after a preparatory step (`DROP IDENTIFIER FIELDS id; ... DROP COLUMN id`).
- SQL meant for another statement says which: "replace the statement at V2__x.sql:3 with `...`"
  (`replace_at`).
- `SELECT` and `CALL` in backticks are follow-up steps (time travel, maintenance), not replacements.
- No placeholders (`<field>`, `...`) where the replay knows the names; advice without SQL still
  names the real table, columns and partition fields.
"""

from __future__ import annotations

import re
from typing import Iterable

from icelint.model import types as it
from icelint.source import Span

_SIMPLE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


def ident(name: str) -> str:
    """One identifier as Spark SQL reads it: quoted with backticks unless plain."""
    if _SIMPLE.match(name):
        return name
    return "`" + name.replace("`", "``") + "`"


def path_sql(path: Iterable[str] | str) -> str:
    """A column path (`a.b`) with each part quoted as needed."""
    parts = path.split(".") if isinstance(path, str) else list(path)
    return ".".join(ident(p) for p in parts)


def table_sql(table: str) -> str:
    return ".".join(ident(p) for p in table.split("."))


def sql(*statements: str) -> str:
    """Statements in backticks, ready to paste (double backticks when the SQL holds a backtick)."""
    text = "; ".join(s.strip().rstrip(";") for s in statements)
    return f"`` {text} ``" if "`" in text else f"`{text}`"


def replace_at(span: Span, *statements: str) -> str:
    """SQL for a statement other than the flagged one."""
    return f"replace the statement at {span.path}:{span.line} with {sql(*statements)}"


_BACKTICKED = re.compile(r"``\s(?P<double>.+?)\s``|`(?P<single>[^`]+)`")
_TARGET = re.compile(r"replace the statement at (?P<path>\S+):(?P<line>\d+) with $")
_ACTIONS = ("ALTER", "CREATE", "DROP", "REPLACE", "INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE", "SET")


def proposals(help_text: str) -> list[tuple[tuple[str, int] | None, str]]:
    """The SQL a help line proposes: (None for the flagged statement, or (path, line)) and the SQL."""
    out: list[tuple[tuple[str, int] | None, str]] = []
    for m in _BACKTICKED.finditer(help_text):
        text = (m.group("double") or m.group("single")).strip()
        if not _is_statements(text):
            continue
        t = _TARGET.search(help_text[: m.start()])
        out.append(((t.group("path"), int(t.group("line"))) if t else None, text))
    return out


def _is_statements(text: str) -> bool:
    first = text.split(None, 1)[0].upper() if text.split() else ""
    if first not in _ACTIONS or (first == "SET" and "=" not in text and "IDENTIFIER" not in text.upper()):
        return False
    from icelint.source import SourceFile
    from icelint.syntax import ast
    from icelint.syntax.parser import parse_file

    parsed = parse_file(SourceFile("<help>", text))
    return bool(parsed.statements) and not any(isinstance(s, ast.Unparsed) for s in parsed.statements)


# ---------------------------------------------------------------------------------- types


def type_sql(t: it.Type) -> str:
    """An Iceberg type as Spark SQL writes it (`bigint`, `decimal(10,2)`, `struct<a: int>`)."""
    if isinstance(t, it.StructType):
        return "struct<" + ", ".join(f"{ident(f.name)}: {type_sql(f.type)}" for f in t.fields) + ">"
    if isinstance(t, it.ListType):
        return f"array<{type_sql(t.element)}>"
    if isinstance(t, it.MapType):
        return f"map<{type_sql(t.key)}, {type_sql(t.value)}>"
    from icelint.replay import spark_types as sp

    return sp.sql_name(sp.from_iceberg(t)).lower()


# ---------------------------------------------------------------------------------- names


def free_name(taken: Iterable[str], base: str, suffixes: tuple[str, ...] = ("_v2", "_v3", "_v4", "_new")) -> str:
    """A name like `base_v2` that no current or former column holds (compared case-insensitively)."""
    low = {t.lower() for t in taken}
    for s in suffixes:
        if (base + s).lower() not in low:
            return base + s
    n = 5
    while f"{base}_v{n}".lower() in low:
        n += 1
    return f"{base}_v{n}"


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """`; did you mean `amount`?` when a known name is close to `name`, else ''."""
    import difflib

    known = list(dict.fromkeys(known))
    by_lower = {k.lower(): k for k in known}
    close = difflib.get_close_matches(name.lower(), list(by_lower), n=1, cutoff=0.6)
    if not close or close[0] == name.lower() and by_lower[close[0]] == name:
        return ""
    return f"did you mean `{by_lower[close[0]]}`?"


def snapshot_before_drop(meta, field_id: int):
    """The newest snapshot whose schema still had `field_id` (time travel shows its values there)."""
    if meta is None:
        return None
    best = None
    for s in meta.snapshots:
        if s.schema_id is None:
            continue
        schema = meta.schema_by_id(s.schema_id)
        if schema is not None and schema.field_by_id(field_id) is not None:
            if best is None or s.timestamp_ms >= best.timestamp_ms:
                best = s
    return best


# ---------------------------------------------------------------------------------- statements


def drop_outcome(ctx, field_id: int):
    """The earlier accepted step of this run that removed `field_id` from the table, if any."""
    found = None
    for o in ctx.result.outcomes:
        if o.step.index >= ctx.step.index:
            break
        if o.table != ctx.outcome.table or not o.accepted or o.before is None or o.after is None:
            continue
        if o.before.schema.field_by_id(field_id) is not None and o.after.schema.field_by_id(field_id) is None:
            found = o
    return found


def drop_instead_of(table: str, outcome, field_id: int, new_name: str) -> list[str] | None:
    """Statements for a `DROP COLUMN(S)` step that rename `field_id` aside instead (others still dropped)."""
    from icelint import changes as ch

    step = outcome.step
    if not all(isinstance(c, ch.DeleteColumn) for c in step.changes):
        return None
    before = outcome.before.schema
    path = before.path_of(field_id)
    if path is None:
        return None
    t = table_sql(table)
    out = [f"ALTER TABLE {t} RENAME COLUMN {path_sql(path)} TO {ident(new_name)}"]
    rest = []
    for c in step.changes:
        f = before.find(c.path, case_sensitive=False)
        if f is not None and f.id != field_id:
            rest.append(path_sql(before.path_of(f.id) or c.path))
    if rest:
        out.append(f"ALTER TABLE {t} DROP COLUMN{'S' if len(rest) > 1 else ''} {', '.join(rest)}")
    return out


def with_column_renamed(ctx, path: tuple[str, ...], new_leaf: str) -> list[str] | None:
    """The flagged ADD COLUMN(S) statement again, with the column at `path` under `new_leaf` (and
    every other column it adds under a dropped column's name under a free name too)."""
    from icelint import changes as ch

    after = ctx.after.schema
    t = table_sql(ctx.table_name)
    cols = []
    low = tuple(p.lower() for p in path)
    for c in ctx.changes:
        if not isinstance(c, ch.AddColumn):
            return None
        spec = c.column
        f = after.find(spec.path, case_sensitive=False)
        if f is None:
            return None
        real = after.path_of(f.id) or spec.path
        name = list(real)
        if tuple(p.lower() for p in real) == low:
            name[-1] = new_leaf
        elif any(after.field_by_id(h.field_id) is None for h in ctx.history.former.get(".".join(real).lower(), ())):
            name[-1] = free_name(taken_names(ctx, real[:-1]) + [new_leaf], real[-1])
        text = _col(name, f)
        if spec.first:
            text += " FIRST"
        elif spec.after is not None:
            text += f" AFTER {path_sql(spec.after)}"
        cols.append(text)
    if not cols:
        return None
    kw = "COLUMN" if len(cols) == 1 else "COLUMNS"
    return [f"ALTER TABLE {t} ADD {kw} {', '.join(cols)}"]


def _col(name_parts, f) -> str:
    out = f"{'.'.join(ident(p) for p in name_parts)} {type_sql(f.type)}"
    if f.required:
        out += " NOT NULL"
    if f.doc:
        out += " COMMENT '" + f.doc.replace("\\", "\\\\").replace("'", "\\'") + "'"
    return out


def taken_names(ctx, parent: tuple[str, ...]) -> list[str]:
    """Names a new column under `parent` must not take: current siblings and every former name."""
    from icelint.model.types import children

    sibs = []
    for schema in (ctx.before.schema, ctx.after.schema):
        if parent:
            p = schema.find(parent, case_sensitive=False)
            sibs += [f.name for f in children(p.type)] if p is not None else []
        else:
            sibs += [f.name for f in schema.fields]
    prefix = ".".join(parent).lower() + "." if parent else ""
    former = [k[len(prefix):] for k in ctx.history.former if k.startswith(prefix) and "." not in k[len(prefix):]]
    return sibs + former


def readd_help(ctx, path: tuple[str, ...], new_field_id: int, old, is_new: bool) -> str:
    """ICE001: the re-added (or renamed-into) name belonged to field id `old.field_id`, already dropped."""
    table = ctx.table_name
    t = table_sql(table)
    leaf = path[-1]
    other = free_name(taken_names(ctx, path[:-1]), leaf)
    if is_new:
        stmts = with_column_renamed(ctx, path, other)
        first = (
            f"`{leaf}` is already dropped when this runs, so give the new column another name: {sql(*stmts)}"
            if stmts
            else f"`{leaf}` is already dropped when this runs, so give the new column another name, such as `{other}`"
        )
    else:
        prev = ctx.before.schema.path_of(new_field_id)
        if prev is not None:
            first = (
                f"rename it to a name no dropped column had: "
                f"{sql(f'ALTER TABLE {t} RENAME COLUMN {path_sql(prev)} TO {ident(other)}')}"
            )
        else:
            first = f"rename it to a name no dropped column had, such as `{other}`"
    parts = [first]
    drop = drop_outcome(ctx, old.field_id)
    if drop is not None:
        aside = drop.before.schema.name_of(old.field_id)
        aside_leaf = free_name(taken_names(ctx, path[:-1]), (aside or leaf).split(".")[-1], ("_old", "_old2", "_old3"))
        stmts = drop_instead_of(table, drop, old.field_id, aside_leaf)
        if stmts is not None:
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
    return "; ".join(parts)


def replace_columns_help(ctx) -> str:
    """REPLACE COLUMNS: the net ADD/DROP/RENAME/ALTER COLUMN statements that give the listed schema, keeping ids."""
    t = table_sql(ctx.table_name)
    stmts, problems = [], []
    _net_struct(t, (), ctx.before.schema.fields, ctx.after.schema.fields, stmts, problems)
    head = "REPLACE COLUMNS drops every column and re-adds it under a new field id"
    if problems:
        return f"{head}; the listed columns cannot all keep their ids ({'; '.join(problems)}): change the other columns with ADD/DROP/RENAME/ALTER COLUMN statements, and add a new column for each of these"
    if not stmts:
        return f"{head}; the listed columns are the table's current columns, so delete the statement"
    return f"{head}; the same columns, keeping ids: {sql(*stmts)}"


def _net_struct(t: str, parent: tuple[str, ...], old: tuple, new: tuple, out: list[str], problems: list[str]) -> None:
    from icelint.replay.schema_update import promotion_allowed

    old_by = {f.name.lower(): f for f in old}
    new_by = {f.name.lower(): f for f in new}
    renames: dict[str, str] = {}  # old lower name → new name: same position, same type, both names unmatched
    for i, nf in enumerate(new):
        if nf.name.lower() in old_by or i >= len(old):
            continue
        of = old[i]
        if of.name.lower() not in new_by and of.type == nf.type:
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
            out.append(f"ALTER TABLE {t} ADD COLUMN {_col(path, nf)}{pos}")
            continue
        if of.name != nf.name and of.name.lower() == nf.name.lower():
            out.append(f"ALTER TABLE {t} RENAME COLUMN {path_sql(parent + (of.name,))} TO {ident(nf.name)}")
        if isinstance(of.type, it.StructType) and isinstance(nf.type, it.StructType):
            _net_struct(t, path, of.type.fields, nf.type.fields, out, problems)
        elif of.type != nf.type:
            if promotion_allowed(of.type, nf.type):
                out.append(f"ALTER TABLE {t} ALTER COLUMN {path_sql(path)} TYPE {type_sql(nf.type)}")
            else:
                problems.append(f"`{'.'.join(path)}` cannot change from {type_sql(of.type)} to {type_sql(nf.type)}")
        if of.required and not nf.required:
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


# ---------------------------------------------------------------------------------- per rule


def drop_aside_help(ctx, field_id: int) -> str:
    """ICE011: rename the column aside instead of dropping it (other columns of the statement still dropped)."""
    path = ctx.before.schema.path_of(field_id) or ()
    base = (path[-1] if path else "col") + "_deprecated"
    new = free_name(taken_names(ctx, path[:-1]), base, ("", "_2", "_3"))
    stmts = drop_instead_of(ctx.table_name, ctx.outcome, field_id, new)
    if stmts is None:
        return f"if readers may still need it, rename `{'.'.join(path)}` aside to `{new}` first and drop it in a later migration"
    return (
        f"if readers may still need it, rename it aside and drop it in a later migration: {sql(*stmts)} "
        "(INSERTs that list values by position then need a value for it too)"
    )


_TRANSFORM_SQL = {"year": "years", "month": "months", "day": "days", "hour": "hours"}


def transform_sql(transform: str, column: str) -> str:
    """A partition transform as Spark SQL writes it: `bucket[16]` on `id` → `bucket(16, id)`."""
    col = path_sql(column)
    if transform == "identity":
        return col
    if "[" in transform:
        name, arg = transform.rstrip("]").split("[", 1)
        return f"{name}({arg}, {col})"
    return f"{_TRANSFORM_SQL.get(transform, transform)}({col})"


def rename_source_help(ctx, c, field_id: int) -> str:
    """ICE003: renaming a partition source: what the old partition field name still blocks (Spark-checked in
    tests/differential/cases/097_help_recipes_followed: renaming the partition field too does not free it)."""
    before = ctx.before
    current = [f for f in before.spec.fields if f.source_id == field_id]
    old_path = before.schema.path_of(field_id) or c.path
    new_path = tuple(old_path[:-1]) + (c.new_name,)
    if not current:
        older = sorted({f.name for s in before.specs for f in s.fields if f.source_id == field_id})
        names = ", ".join(f"`{n}`" for n in older)
        return (
            f"only an older partition spec uses it, and its partition field {names} cannot be renamed any more; "
            f"the rename itself is safe, but a column added later must not be named {names}"
        )
    identity = [f.name for f in current if f.transform == "identity"]
    if not identity:
        names = ", ".join(f"`{f.name}`" for f in current)
        return (
            f"the rename is safe for the data; the partition field {names} keeps its name, so do not name a new column "
            f"{names}, and update queries on the partitions metadata table"
        )
    names = ", ".join(f"`{n}`" for n in identity)
    return (
        f"the rename is safe for the data, but the partition field {names} keeps the old name in every spec that has "
        f"it, so no new column can be named {names} (Iceberg: Cannot create identity partition sourced from different "
        f"field in schema); renaming the partition field in the same migration (REPLACE PARTITION FIELD {identity[0]} "
        f"WITH {path_sql(new_path)} AS {ident(new_path[-1])}) renames it in a new spec only: the older spec keeps "
        f"{names}, so pick other names for new columns"
    )


def partition_reject(ctx, e) -> tuple[str, str]:
    """ICE003 on a rejected partition change: what happens in the user's terms, and what to do."""
    from icelint import changes as ch

    t = table_sql(ctx.table_name)
    table = ctx.table_name
    before = ctx.before
    if "Cannot find source column for partition field" in e.message and before is not None:
        drops = [c for c in ctx.changes if isinstance(c, ch.DeleteColumn)]
        sources = {f.source_id: f for f in before.spec.fields}
        keep, fields, rest = [], [], []
        for c in drops:
            f = before.schema.find(c.path, case_sensitive=False)
            if f is not None and f.id in sources:
                keep.append(f"`{before.schema.name_of(f.id)}` (field id {f.id})")
                fields.append(sources[f.id].name)
            elif f is not None:
                rest.append(path_sql(before.schema.path_of(f.id) or c.path))
        what = ", ".join(keep) or "the column"
        msg = (
            f"`{table}`: dropping {what} fails and the table is unchanged: the current partition spec partitions by it "
            f"(partition field {', '.join(f'`{n}`' for n in fields)}); Iceberg: {e.quoted}"
        )
        if fields and len(drops) == len(keep) + len(rest):
            stmts = [f"ALTER TABLE {t} DROP PARTITION FIELD {ident(n)}" for n in fields]
            if rest:
                stmts.append(f"ALTER TABLE {t} DROP COLUMN{'S' if len(rest) > 1 else ''} {', '.join(rest)}")
            return msg, (
                f"stop partitioning by it first: {sql(*stmts)}; drop the column in a later migration, once no snapshot "
                f"needs files of the old spec (rewrite them with `CALL system.rewrite_data_files(table => '{table}')` "
                "and expire the old snapshots)"
            )
        return msg, "stop partitioning by it first (DROP or REPLACE PARTITION FIELD), then drop the column in a later migration"
    msg = f"`{table}`: the partition change fails and the table is unchanged; Iceberg: {e.quoted}"
    hint = ""
    m = __import__("re").search(r"(?:Cannot find partition field to remove: (?:ref\(name=\")?|Cannot find field ')([^\"')]+)", e.message)
    if m and before is not None:
        name = m.group(1)
        if "partition field" in e.message:
            hint = did_you_mean(name, [f.name for f in before.spec.fields if f.transform != "void"])
            current = ", ".join(f"`{f.name}`" for f in before.spec.fields if f.transform != "void") or "none"
            return msg, f"{hint + ' ' if hint else ''}the current partition fields are {current}; partition commands name them exactly (case-sensitive)"
        hint = did_you_mean_column(before.schema, name)
    return msg, (hint + " " if hint else "") + "check the column and partition field names with `icelint schema`; partition commands are case-sensitive"


def emptied_struct_help(ctx, path: tuple[str, ...], field_id: int) -> str:
    """ICE007: drop the whole column holding the emptied struct, unless a later statement refills it."""
    t = table_sql(ctx.table_name)
    low = tuple(p.lower() for p in path)
    from icelint import changes as ch

    for o in ctx.result.outcomes:
        if o.step.index <= ctx.step.index or o.table != ctx.outcome.table or not isinstance(o.step, ch.Commit):
            continue
        for c in o.step.changes:
            if isinstance(c, ch.AddColumn) and tuple(p.lower() for p in c.column.path[:-1]) == low:
                return (
                    f"add the new field first: move the statement at {o.step.span.path}:{o.step.span.line} (it adds "
                    f"`{'.'.join(c.column.path)}`) before this drop"
                )
    top = list(path)
    while len(top) > 1 and top[-1].lower() in ("element", "value", "key"):
        top.pop()
    drop = ".".join(top)
    return (
        f"drop the whole column instead: {sql(f'ALTER TABLE {t} DROP COLUMN {path_sql(top)}')}, or add `{drop}`'s "
        "new field before dropping its last old one"
    )


def widen_source_help(ctx, f_before, f_after) -> str:
    """ICE003 widening a partition source: a new column with the wider type, partitioned on instead."""
    t = table_sql(ctx.table_name)
    before = ctx.before
    path = before.schema.path_of(f_before.id) or (f_before.name,)
    current = [f for f in before.spec.fields if f.source_id == f_before.id and f.transform != "void"]
    if not current or len(path) > 1:
        return (
            f"keep `{'.'.join(path)}` as {type_sql(f_before.type)}: add a new column with the wider type, backfill it, "
            "and partition on the new column instead of widening a partition source"
        )
    new = free_name(taken_names(ctx, ()), path[-1])
    stmts = [f"ALTER TABLE {t} ADD COLUMN {ident(new)} {type_sql(f_after.type)}", f"UPDATE {t} SET {ident(new)} = {path_sql(path)}"]
    for f in current:
        stmts.append(f"ALTER TABLE {t} REPLACE PARTITION FIELD {ident(f.name)} WITH {transform_sql(f.transform, new)}")
    return f"keep `{path[-1]}` as it is and partition on a new, wider column: {sql(*stmts)}"


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


def new_column_help(ctx, column: str, target: str) -> str:
    """ICE002: an illegal type change becomes a new column, backfilled by a cast."""
    t = table_sql(ctx.table_name)
    path = tuple(column.split("."))
    legal = "legal promotions are int→bigint, float→double and decimal precision widening with the same scale"
    if len(path) > 1 or not target:
        return f"{legal}; otherwise add a new column with the new type, backfill it, switch readers, and drop `{column}` in a later migration"
    new = free_name(taken_names(ctx, ()) if ctx.after is not None else [], path[-1])
    return (
        f"{legal}; otherwise add a new column and backfill it: "
        f"{sql(f'ALTER TABLE {t} ADD COLUMN {ident(new)} {target}', f'UPDATE {t} SET {ident(new)} = CAST({path_sql(path)} AS {target})')}"
        f", switch readers, then drop `{column}` in a later migration (never drop and re-add the same name)"
    )


def _identifier_candidates(schema) -> list[str]:
    """Columns Iceberg accepts as identifier fields: required primitives, not float/double, not in lists,
    maps or optional structs."""
    out = []
    for path, f in schema.all_fields():
        if not f.required or not f.type.is_primitive or getattr(f.type, "name", "") in ("float", "double"):
            continue
        if all(a.required and isinstance(a.type, it.StructType) for a in schema.ancestors(f.id)):
            out.append(".".join(path))
    return out


def identifier_help(ctx, e) -> str:
    """ICE005 on an identifier-field error: the statements that do what was meant, with the real names."""
    from icelint import changes as ch

    t = table_sql(ctx.table_name)
    schema = ctx.before.schema if ctx.before is not None else None
    if schema is None:
        return "identifier fields must be required primitive columns"
    current = [schema.name_of(i) for i in schema.identifier_field_ids]
    current_txt = ", ".join(f"`{c}`" for c in current if c) or "none"
    changes = ctx.changes
    if "Cannot delete" in e.message and all(isinstance(c, ch.DeleteColumn) for c in changes):
        deleted = set()
        for c in changes:
            f = schema.find(c.path, case_sensitive=False)
            if f is not None:
                deleted.add(f.id)
                deleted.update(i for i in schema.identifier_field_ids if f.id in {a.id for a in schema.ancestors(i)})
        keep = [schema.name_of(i) for i in schema.identifier_field_ids if i not in deleted]
        drops = ", ".join(path_sql(schema.path_of(schema.find(c.path, case_sensitive=False).id) or c.path) if schema.find(c.path, case_sensitive=False) else path_sql(c.path) for c in changes)
        first = (
            f"ALTER TABLE {t} SET IDENTIFIER FIELDS {', '.join(path_sql(k) for k in keep)}"
            if keep
            else f"ALTER TABLE {t} DROP IDENTIFIER FIELDS {', '.join(path_sql(schema.name_of(i)) for i in schema.identifier_field_ids if i in deleted)}"
        )
        second = f"ALTER TABLE {t} DROP COLUMN{'S' if len(changes) > 1 else ''} {drops}"
        return (
            f"the identifier fields (now {current_txt}) are what upserts and equality deletes key on: if the key really "
            f"changes, update them first, then drop: {sql(first, second)}"
        )
    if any(isinstance(c, ch.DropIdentifierFields) for c in changes):
        c = next(c for c in changes if isinstance(c, ch.DropIdentifierFields))
        ids = set(schema.identifier_field_ids)
        listed = [p for p in c.paths if (f := schema.find(p)) is not None and f.id in ids]
        hint = did_you_mean(e.column or "", current) if e.column else ""
        if listed:
            return f"{hint + ' ' if hint else ''}only {current_txt} are identifier fields: {sql(f'ALTER TABLE {t} DROP IDENTIFIER FIELDS ' + ', '.join(path_sql(p) for p in listed))}"
        return f"{hint + ' ' if hint else ''}the identifier fields are {current_txt}: this statement has nothing to drop, delete it"
    if any(isinstance(c, ch.SetIdentifierFields) for c in changes):
        c = next(c for c in changes if isinstance(c, ch.SetIdentifierFields))
        ok = set(_identifier_candidates(schema))
        valid = [schema.name_of(f.id) for p in c.paths if (f := schema.find(p)) is not None and schema.name_of(f.id) in ok]
        bad = e.column or ""
        why = ""
        f = schema.find(tuple(bad.split("."))) if bad else None
        if f is not None and not f.required and f.type.is_primitive:
            why = f"`{bad}` is optional, and Iceberg cannot make an existing optional column required; "
        elif f is None and bad:
            hint = did_you_mean_column(schema, bad)
            why = f"`{bad}` is not a column{'; ' + hint if hint else ''}; "
        cands = ", ".join(f"`{n}`" for n in sorted(ok)) or "none"
        if valid:
            return (
                f"{why}identifier fields must be required primitive columns (here: {cands}); with the valid ones "
                f"only: {sql(f'ALTER TABLE {t} SET IDENTIFIER FIELDS ' + ', '.join(path_sql(v) for v in valid))}"
            )
        return f"{why}identifier fields must be required primitive columns, not float or double, not inside a list, map or optional struct (here: {cands})"
    return f"update the identifier fields (now {current_txt}) first, in a separate statement"


def known_table_hint(ctx) -> str:
    """`did you mean `db.events`? If not, ` from the tables the run knows (or '')."""
    names = [ctx.result.display_names.get(k, k) for k, v in ctx.result.tables.items() if v is not None]
    hint = did_you_mean(ctx.table_name, names)
    return f"{hint} If not, " if hint else ""


def nullability_finding(ctx, e) -> tuple[str, str]:
    """ICE004: what happens to the table in the user's terms (the engine's words quoted), and what to do."""
    from icelint import changes as ch
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


# ---------------------------------------------------------------------------------- positions


def change_span(ctx, path: tuple[str, ...], prefix: bool = False):
    """The span of the token in this step that names `path` (as it is after the step): the column
    definition that adds it, the new name that renames into it, the path a change names (with
    `prefix`, also a change to a field inside it). None when no change names it."""
    from icelint import changes as ch

    low = tuple(p.lower() for p in path)

    def hit(p) -> bool:
        q = tuple(x.lower() for x in p)
        return q == low or (prefix and q[: len(low)] == low)

    for c in ctx.changes:
        if isinstance(c, ch.AddColumn) and hit(c.column.path):
            return c.column.span or c.span
        if isinstance(c, (ch.ReplaceColumns, ch.CreateTable)):
            for col in c.columns:
                if hit(col.path) or tuple(x.lower() for x in col.path) == low[:1]:
                    return col.span or c.span
        if isinstance(c, ch.RenameColumn) and hit(tuple(c.path[:-1]) + (c.new_name,)):
            return c.new_name_span or c.span
        if isinstance(c, _path_changes()) and hit(c.path):
            return c.span
        if isinstance(c, (ch.SetIdentifierFields, ch.DropIdentifierFields)):
            for p, sp in zip(c.paths, c.spans):
                if hit(p):
                    return sp
    return None


def _path_changes():
    from icelint import changes as ch

    return (
        ch.DeleteColumn, ch.UpdateColumnType, ch.UpdateColumnRequired, ch.MoveColumn, ch.UpdateColumnDoc,
        ch.UpdateColumnDefault, ch.HiveChangeColumn, ch.RenameColumn,
    )  # fmt: skip


def error_span(ctx, e):
    """Where a rejected change's finding points: the engine's span when it names a token, else the token of
    the change that names the column (by its path or its field id), else the part of the statement at fault."""
    from icelint import changes as ch

    step_span = ctx.step.span
    if e.span is not None and e.span != step_span:
        return e.span
    paths = []
    if e.column:
        paths.append(tuple(e.column.split(".")))
    if e.field_id is not None and ctx.before is not None:
        p = ctx.before.schema.path_of(e.field_id)
        if p is not None:
            paths.append(tuple(p))
    for p in paths:
        sp = change_span(ctx, p)
        if sp is not None:
            return sp
    for p in paths:  # a change to a field inside it (ADD COLUMN kind.inner when `kind` is no struct)
        sp = change_span(ctx, p, prefix=True)
        if sp is not None:
            return sp
    for p in paths:  # a change to a field's parent (DROP COLUMN of a struct holding it)
        for n in range(len(p) - 1, 0, -1):
            sp = change_span(ctx, p[:n])
            if sp is not None:
                return sp
    for c in ctx.changes:
        if isinstance(c, ch.SetProperties) and e.kind == "format-version":
            for (k, _), sp in zip(c.properties, c.key_spans):
                if k == "format-version":
                    return sp
        if isinstance(c, ch.ReplaceColumns) and c.columns and c.columns[0].span and c.columns[-1].span:
            a, b = c.columns[0].span, c.columns[-1].span
            return a._replace(end_line=b.end_line, end_column=b.end_column, end=b.end)
        if isinstance(c, ch.CreateTable) and ctx.commit is not None:
            return ctx.commit.table_span
    if len(ctx.changes) == 1 and ctx.changes[0].span is not None:
        return ctx.changes[0].span  # the column definition, path or transform of the statement's one change
    return e.span or step_span



def hive_change_help(ctx, e) -> str | None:
    """ICE005 on a Hive-style `CHANGE COLUMN` Spark refuses: the statements that do what it asked."""
    from icelint import changes as ch
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


def did_you_mean_column(schema, dotted_path: str) -> str:
    """did_you_mean among the siblings of the unknown field (a nested name is only ever confused with
    a field of the same struct), answered with the full path."""
    from icelint.model.types import children

    path = tuple(dotted_path.split("."))
    if len(path) == 1:
        return did_you_mean(path[0], [f.name for f in schema.fields])
    parent = schema.find(path[:-1], case_sensitive=False)
    if parent is None:
        return did_you_mean_column(schema, ".".join(path[:-1]))
    hint = did_you_mean(path[-1], [f.name for f in children(parent.type)])
    if not hint:
        return ""
    real = ".".join(schema.path_of(parent.id) or path[:-1])
    return hint.replace("did you mean `", f"did you mean `{real}.", 1)


def sort_order_help(ctx, e) -> str | None:
    """ICE005 on dropping a column of the current sort order: the sort order without it, then the drop."""
    from icelint import changes as ch

    before = ctx.before
    if before is None or not ctx.changes or not all(isinstance(c, ch.DeleteColumn) for c in ctx.changes):
        return None
    t = table_sql(ctx.table_name)
    schema = before.schema
    dropped = set()
    for c in ctx.changes:
        f = schema.find(c.path, case_sensitive=False)
        if f is not None:
            dropped.add(f.id)
            dropped.update(i for _, g in schema.all_fields() for i in [g.id] if f.id in {a.id for a in schema.ancestors(g.id)})
    terms = []
    for sf in before.sort_order.fields:
        if sf.source_id in dropped:
            continue
        name = schema.name_of(sf.source_id)
        if name is None:
            return None
        term = transform_sql(sf.transform, name)
        term += " DESC" if sf.direction == "desc" else " ASC"
        term += " NULLS FIRST" if sf.null_order == "nulls-first" else " NULLS LAST"
        terms.append(term)
    mode = before.properties.get("write.distribution-mode")
    how = {"none": "LOCALLY ORDERED BY", "hash": "DISTRIBUTED BY PARTITION LOCALLY ORDERED BY"}.get(mode or "", "ORDERED BY")
    order = f"ALTER TABLE {t} WRITE {how} {', '.join(terms)}" if terms else f"ALTER TABLE {t} WRITE UNORDERED"
    drops = ", ".join(path_sql(schema.path_of(f.id) or c.path) for c in ctx.changes if (f := schema.find(c.path, case_sensitive=False)) is not None)
    drop = f"ALTER TABLE {t} DROP COLUMN{'S' if len(ctx.changes) > 1 else ''} {drops}"
    return f"the table's write order sorts by it: change the sort order first, then drop: {sql(order, drop)}"
