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
                f"or, if that drop has not run yet, keep the values under another name: {replace_at(drop.step.span, *stmts)}"
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
