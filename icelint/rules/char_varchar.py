"""`char(n)` / `varchar(n)` columns: Iceberg stores them as `string`, and the length is not kept.

## What it does
Flags `char(n)`, `character(n)` and `varchar(n)` in `CREATE TABLE`, `ADD COLUMN(S)`, `REPLACE COLUMNS`,
`ALTER COLUMN ... TYPE` and `CHANGE COLUMN`, including inside structs, arrays and maps.

## Why is this bad?
Iceberg has no fixed- or bounded-length string type: Spark writes the column as `string`, and the
length is not stored in the table metadata. `DESCRIBE` shows `string`, an `INSERT` of a longer value
succeeds, and every other writer and reader (Trino, Flink, pyiceberg, Spark sessions after the one
that ran the DDL) sees an unbounded `string`. A length the schema seems to promise is enforced nowhere.

## Example
```sql
CREATE TABLE db.countries (id bigint, iso_code char(2)) USING iceberg;
```

## Use instead
```sql
CREATE TABLE db.countries (id bigint, iso_code string) USING iceberg;
-- enforce the length where the data is written (a CHECK in the pipeline, or a dbt test)
```

## Fix
A statement that adds one top-level column: the same `ADD COLUMN` with `string`. Safe: Iceberg
stores `string` either way, so the table metadata is the same.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit.help import column_sql, sql, table_sql
from icelint.syntax.ast import SqlType

_BOUNDED = ("char", "character", "varchar")


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.after is None:
        return
    for c in ctx.changes:
        for path, t, span in _typed(c):
            for inner, where in _bounded(t, path):
                n = f"({inner.params[0]})" if inner.params else ""
                yield ctx.finding(
                    RULE,
                    f"`{ctx.table_name}`: `{'.'.join(where)}` is declared {inner.name}{n}, but Iceberg stores it as "
                    "`string`: the length is not kept in the table metadata, and other writers and readers neither "
                    "know nor enforce it",
                    help_ := _help(ctx, c, where),
                    span=inner.span or span,
                    column=".".join(where),
                    fix=_fixes.from_help(ctx, help_, _fixes.SAFE, f"Declare `{'.'.join(where)}` as string (what Iceberg stores anyway)"),
                )


def _help(ctx: RuleContext, c, where: tuple[str, ...]) -> str:
    """A pasteable replacement for a statement that adds one top-level column; advice otherwise."""
    text = f"declare `{'.'.join(where)}` as `string` and enforce the length where the data is written"
    if not (isinstance(c, ch.AddColumn) and len(ctx.changes) == 1 and len(where) == 1 and ctx.after is not None):
        return text
    spec = c.column
    f = next((x for x in ctx.after.schema.fields if x.name == where[0]), None)
    if f is None or spec.first or spec.after is not None or spec.path != where:
        return text
    return f"{text}: {sql(f'ALTER TABLE {table_sql(ctx.table_name)} ADD COLUMN {column_sql(where, f)}')}"


def _typed(c) -> Iterator[tuple[tuple[str, ...], SqlType, object]]:
    if isinstance(c, ch.CreateTable):
        for spec in c.columns:
            yield spec.path, spec.type, spec.span or c.span
    elif isinstance(c, ch.ReplaceColumns):
        for spec in c.columns:
            yield spec.path, spec.type, spec.span or c.span
    elif isinstance(c, ch.AddColumn):
        yield c.column.path, c.column.type, c.column.span or c.span
    elif isinstance(c, ch.UpdateColumnType):
        yield c.path, c.type, c.span
    elif isinstance(c, ch.HiveChangeColumn):
        yield c.path[:-1] + (c.new_name,), c.type, c.span


def _bounded(t: SqlType, path: tuple[str, ...]) -> Iterator[tuple[SqlType, tuple[str, ...]]]:
    if t.name in _BOUNDED:
        yield t, path
    for f in t.fields:
        yield from _bounded(f.type, path + (f.name,))
    if t.element is not None:
        yield from _bounded(t.element, path + ("element",))
    if t.key is not None:
        yield from _bounded(t.key, path + ("key",))
    if t.value is not None:
        yield from _bounded(t.value, path + ("value",))


RULE = Rule(
    "ICE020",
    "char-varchar-column",
    Severity.WARNING,
    check,
    __doc__,
    triggers=frozenset({ch.CreateTable, ch.ReplaceColumns, ch.AddColumn, ch.UpdateColumnType, ch.HiveChangeColumn}),
)
