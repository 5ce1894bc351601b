"""`CREATE TABLE IF NOT EXISTS` on a table that exists with other columns.

## What it does
Flags `CREATE TABLE IF NOT EXISTS` when the table already exists (known from the metadata or
created earlier in the scripts) and the statement's columns differ from the existing ones (a
column is missing on one side, or has another type or nullability), or its `PARTITIONED BY` (and
`CLUSTERED BY`) from the table's current partitioning (compared by column and transform).

## Why is this bad?
Spark does nothing when the table exists: the statement succeeds, and every later statement runs
against the existing table, not the one written here. A migration that relies on the new column
list then fails or writes to the wrong columns (an `INSERT` with one value per written column
fails with `[INSERT_COLUMN_ARITY_MISMATCH]`), and new data is written in the existing table's
partitioning, whatever `PARTITIONED BY` says.

## Example
```sql
CREATE TABLE db.prefs (user_id bigint, theme string) USING iceberg;
CREATE TABLE IF NOT EXISTS db.prefs (user_id bigint, theme string, locale string) USING iceberg;
```

## Use instead
```sql
CREATE TABLE db.prefs (user_id bigint, theme string) USING iceberg;
ALTER TABLE db.prefs ADD COLUMN locale string;
```

## Fix
Display-only: the `ALTER TABLE` statements that turn the existing columns into the ones written, then
the `DROP` / `ADD PARTITION FIELD` statements that turn the existing partitioning into it. In
an environment where the table does not exist yet, the `CREATE TABLE` is what must run, so `--fix`
never replaces it.

## References
- Spark 3.5 `CreateTableExec` (`ifNotExists`: no-op when the table exists)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.model.types import is_untyped
from icelint.rules.kit.types import as_fields, held_sql, written_sql
from icelint.values.findings import Finding, Severity
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None:
        return
    for c in ctx.changes:
        if not (isinstance(c, ch.CreateTable) and c.if_not_exists and not (c.or_replace or c.replace_only)):
            continue
        if not c.columns:
            continue  # CREATE ... AS SELECT: its columns are not known here
        fold = _same if ctx.outcome.case_sensitive else str.lower  # names compared as Spark resolves them
        table = ctx.table_name
        differences = _differences(c, ctx.before.schema, fold)
        parts = _partitioning(table, c, ctx.before, fold)
        if not differences and parts is None:
            continue
        what = []
        if differences:
            what.append(f"whose columns differ from the ones written here: {'; '.join(differences)}")
        if parts is not None:
            now = f"partitioned by {', '.join(parts[0])}" if parts[0] else "not partitioned"
            what.append(f"{now} (written here: {', '.join(parts[1]) or 'no partitioning'}; new data goes into the "
                        "existing partitioning)")  # fmt: skip
        span = _span(c, ctx.before.schema, fold) if differences else (c.partition_by[0].span if c.partition_by else None)
        yield ctx.finding(
            RULE,
            f"`{table}` already exists, so this CREATE TABLE IF NOT EXISTS does nothing and later statements run "
            f"against the existing table, {'; and '.join(what)}",
            help_ := _help(table, c, ctx.before.schema, fold, parts[2] if parts is not None else []),
            span=span or (ctx.commit.table_span if ctx.commit is not None else None),
            fix=_fixes.from_help(ctx, help_, _fixes.DISPLAY_ONLY, "Change the existing table with ALTER TABLE statements"),
        )


def _written_fields(c: ch.CreateTable) -> tuple | None:
    """The statement's columns as Iceberg fields (ids do not matter here), or None when a type is not Spark's."""
    return as_fields(c.columns)


def _partitioning(table: str, c: ch.CreateTable, meta, fold) -> tuple[list[str], list[str], list[str]] | None:
    """When the statement's PARTITIONED BY (and CLUSTERED BY) differs from the existing table's
    current spec: the existing transforms and the written ones as SQL, and the ALTER statements that
    turn one into the other. None when they are the same, or a written transform is not one Iceberg
    converts (compared by column, as the session resolves names, and transform; not by order)."""
    from icelint.replay import partitioning as pt
    from icelint.replay.errors import ReplayError
    from icelint.rules.kit.help import ident, table_sql, transform_sql

    schema = meta.schema
    try:
        written = [(pt.column_of(t).dotted, pt.transform_kind(t)) for t in c.partition_by]
    except ReplayError:
        return None
    existing = [(name, f.transform, f.name) for f in meta.spec.fields
                if f.transform != "void" and (name := schema.name_of(f.source_id)) is not None]  # fmt: skip
    mine = {(fold(n), k) for n, k in written}
    theirs = {(fold(n), k) for n, k, _ in existing}
    if mine == theirs:
        return None
    t = table_sql(table)
    stmts = [f"ALTER TABLE {t} DROP PARTITION FIELD {ident(field)}" for n, k, field in existing if (fold(n), k) not in mine]
    # partition commands name columns exactly: as the column list spells them, which the column
    # statements of `_help` (run first) give the table
    stmts += [f"ALTER TABLE {t} ADD PARTITION FIELD {transform_sql(k, _spelled(c, n, fold))}"
              for n, k in written if (fold(n), k) not in theirs]  # fmt: skip
    return [transform_sql(k, n) for n, k, _ in existing], [transform_sql(k, n) for n, k in written], stmts


def _spelled(c: ch.CreateTable, dotted: str, fold) -> str:
    """A column path of PARTITIONED BY, spelled as the statement's column list spells it."""
    parts = dotted.split(".")
    col = next((col for col in c.columns if fold(col.path[-1]) == fold(parts[0])), None)
    if col is None:
        return dotted
    out, t = [col.path[-1]], col.type
    for part in parts[1:]:
        f = next((f for f in t.fields if fold(f.name) == fold(part)), None) if t is not None and t.name == "struct" else None
        if f is None:
            return ".".join(out + parts[len(out):])
        out.append(f.name)
        t = f.type
    return ".".join(out)


def _help(table: str, c: ch.CreateTable, schema, fold=str.lower, partition_stmts: list[str] | None = None) -> str:
    from icelint.rules.kit.help import sql
    from icelint.rules.kit.help_columns import alter_statements

    match = "or make the column list match the existing table"
    partition_stmts = partition_stmts or []
    if partition_stmts:
        match = "or make the column list and the partitioning match the existing table"
    fields = _written_fields(c)
    if fields is None or len({f.name.lower() for f in fields}) < len(fields):  # `id` and `ID` (a case-sensitive session): no net ALTERs
        return f"write the change as ALTER TABLE statements on `{table}`, {match}"
    # the existing table's other columns stay where they are: dropping them is a decision of its own
    kept = [f for f in schema.fields if fold(f.name) not in {fold(w.name) for w in fields}]
    target = list(fields)
    for i, f in enumerate(schema.fields):
        if f in kept:
            prev = next((j for j in range(len(target) - 1, -1, -1) if target[j] in schema.fields[:i]), -1)
            target.insert(prev + 1, f)
    stmts, problems = alter_statements(table, schema.fields, tuple(target))
    if problems:
        return (
            f"ALTER TABLE cannot turn the existing columns into these ({'; '.join(problems)}): add a new column for "
            f"each of these, or {match[3:]}"
        )
    also = ""
    if kept:
        names = ", ".join(f"`{f.name}`" for f in kept)
        one = len(kept) == 1
        also = f" ({names} stay{'s' if one else ''}: drop {'it' if one else 'them'} in a separate migration if {'it' if one else 'they'} must go)"
    stmts = [*stmts, *partition_stmts]  # the columns first: a partition field may need a column added here
    if not stmts:
        return f"make the column list match the existing table{also}"
    if not partition_stmts:
        what = "the existing columns into these, keeping field ids"
    elif len(stmts) > len(partition_stmts):
        what = "the existing table into this one, keeping field ids"
    else:
        what = "the existing partitioning into this one"
    return f"write the change as the statements that turn {what}: {sql(*stmts)}{also}; {match}"


def _span(c: ch.CreateTable, schema, fold=str.lower):
    """The first written column that differs from the existing table's, else the table name."""
    existing = {fold(f.name): f for f in schema.fields}
    for col in c.columns:
        f = existing.get(fold(col.path[-1]))
        if f is None:
            return col.span
        if not is_untyped(f.type):
            want = written_sql(col.type)
            if want is None:  # not a type Spark knows: not compared
                continue
            if want != held_sql(f.type):
                return col.span
        if col.required != f.required:
            return col.span
    return None


def _differences(c: ch.CreateTable, schema, fold=str.lower) -> list[str]:
    out: list[str] = []
    existing = {fold(f.name): f for f in schema.fields}
    written = set()
    for col in c.columns:
        name = col.path[-1]
        written.add(fold(name))
        f = existing.get(fold(name))
        if f is None:
            out.append(f"`{name}` is not in the existing table")
            continue
        want = written_sql(col.type)
        if want is None:
            continue
        if is_untyped(f.type):  # a CTAS column whose type icelint cannot know: not compared
            continue
        have = held_sql(f.type)
        if want != have:
            out.append(f"`{name}` is {have} in the existing table (field id {f.id}), {want} here")
        elif col.required != f.required:
            state = "NOT NULL" if f.required else "nullable"
            out.append(f"`{name}` is {state} in the existing table (field id {f.id})")
    for f in schema.fields:
        if fold(f.name) not in written:
            out.append(f"the existing table also has `{f.name}` (field id {f.id})")
    return out


def _same(name: str) -> str:
    return name


RULE = Rule("ICE061", "create-if-not-exists-differs", Severity.WARNING, check, __doc__, triggers=frozenset({ch.CreateTable}))
