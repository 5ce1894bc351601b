"""Column names that contain a dot (`` `utm.source` ``): readers and DDL take them for nested paths.

## What it does
Flags columns created, added or renamed with a `.` in their name, at the top level or inside structs.

## Why is this bad?
Spark and Iceberg accept `` `utm.source` `` as a single column name when it is quoted, but a dot is
also how every engine addresses nested fields. Unquoted, `SELECT utm.source` reads the field
`source` of a struct `utm` (or fails); DDL written without backticks (`ALTER TABLE t ALTER COLUMN
utm.source ...`, `SET IDENTIFIER FIELDS utm.source`) targets a nested path; Iceberg's own name
lookups (partition transforms, sort orders, column statistics and metrics settings such as
`write.metadata.metrics.column.utm.source`) resolve dotted names as paths; and tools that split on
dots (pandas, dbt, BI tools) misread the name.

## Example
```sql
CREATE TABLE db.visits (id bigint, `utm.source` string) USING iceberg;
```

## Use instead
```sql
CREATE TABLE db.visits (id bigint, utm_source string) USING iceberg;
```

## Fix
A rename or a statement that adds one top-level column: the same with the dots replaced by `_`.
Display-only: the column gets another name than the one written, and later statements and readers
must use it.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit.help import column_sql, free_name, sql, table_sql


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.after is None:
        return
    if any(isinstance(c, ch.CreateTable) for c in ctx.changes):
        fields = list(ctx.after.schema.all_fields())
    else:
        fields = [(p, f) for p, f in ctx.diff.added] + [(p, f) for p, f, _ in ctx.diff.renamed]
    spans = None  # built for the first dotted name only
    for path, f in fields:
        if "." not in f.name:
            continue
        if spans is None:
            spans = _spans(ctx)
        fixed = f.name.replace(".", "_")
        parent = ".".join(f"`{p}`" if "." in p else p for p in path[:-1])
        quoted = (parent + "." if parent else "") + f"`{f.name}`"
        yield ctx.finding(
            RULE,
            f"`{ctx.table_name}`: column `{f.name}` (field id {f.id}) has a dot in its name: written without backticks, "
            f"readers and DDL take `{'.'.join(path)}` for the field `{f.name.split('.')[-1]}` of a struct "
            f"`{'.'.join(path[:-1] + tuple(f.name.split('.')[:-1]))}`",
            help_ := _help(ctx, f.id, fixed, quoted),
            span=spans.get(f.name.lower()),
            column=".".join(path),
            field_id=f.id,
            fix=_fixes.from_help(ctx, help_, _fixes.DISPLAY_ONLY, "Name the column without a dot: readers and later statements must use the new name"),
        )


def _help(ctx: RuleContext, field_id: int, fixed: str, quoted: str) -> str:
    before = ctx.before.schema.field_by_id(field_id) if ctx.before is not None else None
    if before is not None:  # a rename: rename to a name without a dot instead
        path = ctx.before.schema.path_of(field_id) or (before.name,)
        old = ".".join(f"`{p}`" if "." in p else p for p in path)
        return f"rename it to a name without a dot instead: {sql(f'ALTER TABLE {table_sql(ctx.table_name)} RENAME COLUMN {old} TO {fixed}')}"
    adds = [c for c in ctx.changes if isinstance(c, ch.AddColumn)]
    if len(ctx.changes) == 1 and len(adds) == 1 and len(adds[0].column.path) == 1 and ctx.after is not None:
        spec = adds[0].column
        f = ctx.after.schema.field_by_id(field_id)
        if f is not None and spec.path[0] == f.name and not spec.first and spec.after is None:
            taken = [x.name for x in ctx.after.schema.fields]
            name = free_name(taken, fixed) if fixed.lower() in {t.lower() for t in taken} else fixed
            return f"add it under a name without a dot: {sql(f'ALTER TABLE {table_sql(ctx.table_name)} ADD COLUMN {column_sql((name,), f)}')}"
    return f"name it `{fixed}` (no dot); a column that already has such a name can be renamed: RENAME COLUMN {quoted} TO {fixed}"


def _spans(ctx: RuleContext) -> dict:
    """The span of each change that names a column, by its new (last) name."""
    out = {}
    for c in ctx.changes:
        if isinstance(c, (ch.CreateTable, ch.ReplaceColumns)):
            for spec in c.columns:
                if spec.span is not None:
                    out.setdefault(spec.path[-1].lower(), spec.span)
                _nested(spec.type, out)
        elif isinstance(c, ch.AddColumn):
            out.setdefault(c.column.path[-1].lower(), c.column.span or c.span)
            _nested(c.column.type, out)
        elif isinstance(c, ch.RenameColumn):
            out.setdefault(c.new_name.lower(), c.new_name_span or c.span)
        elif isinstance(c, ch.HiveChangeColumn):
            out.setdefault(c.new_name.lower(), getattr(c, "new_name_span", None) or c.span)
            _nested(c.type, out)
    return out


def _nested(t, out: dict) -> None:
    """The span of each struct field written inside a column's type (`struct<`page.url`: string>`)."""
    if t is None:
        return
    for f in t.fields:
        if f.span is not None:
            out.setdefault(f.name.lower(), f.span)
        _nested(f.type, out)
    for sub in (t.element, t.key, t.value):
        _nested(sub, out)


RULE = Rule(
    "ICE021",
    "dotted-column-name",
    Severity.WARNING,
    check,
    __doc__,
    triggers=frozenset({ch.CreateTable, ch.ReplaceColumns, ch.AddColumn, ch.RenameColumn, ch.HiveChangeColumn}),
)
