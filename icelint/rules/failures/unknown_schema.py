"""A table or column whose schema icelint cannot know (`CREATE TABLE ... AS SELECT`, non-Iceberg tables).

## What it does
Reports, as information, where icelint stops checking:

- a `CREATE TABLE ... AS SELECT` whose columns icelint cannot name (`SELECT *` over a table it does
  not know, an expression without an alias), or a table created `USING` another format: the
  statements that follow on that table are not checked;
- a `CREATE TABLE ... AS SELECT` / `REPLACE TABLE ... AS SELECT` with columns whose *type* icelint
  cannot know (a column of a table it does not know, a function whose result type it does not
  infer, a UDF): it names each column and why. The table is still created with every column, by
  name and with the field ids Spark assigns, and the other columns are checked as usual;
- a later statement that needs the type of such a column (`ALTER COLUMN ... TYPE`, a partition
  transform or sort order on it) or reaches into it (`ADD COLUMN col.x`): it is not checked.

## Why is this bad?
It is not wrong in itself; the finding says where icelint stops checking, so that a clean report
is not read as "every statement was verified".

## Example
```sql
CREATE TABLE db.orders (order_id bigint NOT NULL, amount decimal(10, 2)) USING iceberg;
CREATE TABLE db.enriched USING iceberg
AS SELECT order_id, my_score(amount) AS score FROM db.orders;
ALTER TABLE db.enriched ALTER COLUMN score TYPE double;
```

## Use instead
```sql
CREATE TABLE db.orders (order_id bigint NOT NULL, amount decimal(10, 2)) USING iceberg;
CREATE TABLE db.enriched USING iceberg
AS SELECT order_id, CAST(my_score(amount) AS double) AS score FROM db.orders;
ALTER TABLE db.enriched ALTER COLUMN score TYPE double;
```

The same holds for a table whose columns cannot be named at all (`CREATE TABLE db.copy AS SELECT *
FROM db.src` with `db.src` unknown here): give it a column list, then `INSERT INTO db.copy SELECT
* FROM db.src`.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding
from icelint.model.types import is_untyped
from icelint.rules.failures import analysis  # one place decides what is rejected and what is unknown
from icelint.rules.kit.base import SKIPPED, Rule, RuleContext

UNTYPED_SKIP = "untyped-column:"  # `Outcome.skipped` of a step that reaches into a column of unknown type


def check(ctx: RuleContext) -> Iterator[Finding]:

    yield from (f for f in analysis.findings(ctx) if f.rule == RULE.code)
    yield from _untyped(ctx)


def _untyped(ctx: RuleContext) -> Iterator[Finding]:
    """Columns of unknown type: where a CTAS makes them, and the later statements that need their type."""
    table, o = ctx.table_name, ctx.outcome
    span = ctx.commit.table_span if ctx.commit else None
    if o.skipped is not None and o.skipped.startswith(UNTYPED_SKIP) and ctx.before is not None:
        column = o.skipped[len(UNTYPED_SKIP):]
        f = ctx.before.schema.find(tuple(column.split(".")), case_sensitive=False)
        why = f" ({f.type.reason})" if f is not None and is_untyped(f.type) else ""
        yield ctx.finding(
            RULE,
            f"`{table}`: this statement reaches into `{column}`{_id(f)}, whose type icelint cannot know{why}: whether "
            "Spark accepts it depends on that type (a struct, list or map it fits); icelint does not check it, and keeps "
            "the table as it was before it",
            _help(table),
            span=span,
            column=column,
        )
        return
    if not ctx.accepted or ctx.after is None:
        return
    schema = ctx.after.schema
    if any(isinstance(c, ch.CreateTable) for c in ctx.changes):
        if ctx.after is ctx.before:  # CREATE TABLE IF NOT EXISTS on a table that exists: nothing created
            return
        cols = [f for f in schema.fields if is_untyped(f.type)]
        if cols:
            by_reason: dict[str, list] = {}
            for f in cols:
                by_reason.setdefault(f.type.reason, []).append(f)  # type: ignore[attr-defined]
            named = "; ".join(
                ", ".join(f"`{f.name}`" for f in fs) + f" (field id{'s' if len(fs) > 1 else ''} {', '.join(str(f.id) for f in fs)}): {why}"
                for why, fs in by_reason.items()
            )
            yield ctx.finding(
                RULE,
                f"`{table}`: icelint cannot know the type of {_plural(len(cols), 'column')} of this query: {named}, so "
                "checks that need a column's type (type changes, partition transforms, values written) skip "
                f"{'them' if len(cols) > 1 else 'it'}; the names and field ids of every column, and the other columns, are checked as usual"
                + (
                    " (should one of them be a struct, list or map, Spark numbers its fields after the top-level "
                    "columns, and the field ids icelint gives to columns added later are lower than Spark's)"
                    if any(f.type.maybe_nested for f in cols)  # type: ignore[attr-defined]
                    else ""
                ),
                f"write {'each' if len(cols) > 1 else 'the'} column's type down in the query with a CAST to the type it "
                f"must have (icelint then checks {'them' if len(cols) > 1 else 'it'} too), or {_help(table)}",
                span=span,
                column=cols[0].name,
                field_id=cols[0].id,
            )
        return
    before = ctx.before.schema if ctx.before is not None else None
    if before is None:
        return
    for c in ctx.changes:
        what, path, where = None, None, getattr(c, "span", None)
        if isinstance(c, (ch.UpdateColumnType, ch.HiveChangeColumn)):
            what, path = "this type change", c.path
        elif isinstance(c, (ch.AddPartitionField, ch.ReplacePartitionField)):
            from icelint.replay.partitioning import column_of

            what, path = "whether Spark can apply this partition transform to it", column_of(c.transform if isinstance(c, ch.AddPartitionField) else c.new).parts
        elif isinstance(c, ch.SetWriteOrder):
            for term in c.order or ():
                p = _sort_path(term)
                f = before.find(p, case_sensitive=False) if p else None
                if f is not None and is_untyped(f.type):
                    what, path, where = "whether Spark can sort by it", p, term.span
                    break
        if path is None:
            continue
        f = before.find(tuple(path), case_sensitive=False)
        if f is None or not is_untyped(f.type):
            continue
        yield ctx.finding(
            RULE,
            f"`{table}`: `{'.'.join(path)}`{_id(f)} has a type icelint cannot know ({f.type.reason}), so {what} "  # type: ignore[attr-defined]
            "is not checked"
            + (": Spark accepts it only if the column already has that type, or one it widens to it (int → bigint, "
               "float → double, a wider decimal precision with the same scale)" if what == "this type change" else ""),
            f"check the column's type in Spark (`DESCRIBE TABLE {table}`) before this runs, or {_help(table)}",
            span=where or span,
            column=".".join(path),
            field_id=f.id,
        )


def _sort_path(term) -> tuple[str, ...] | None:
    from icelint.replay.partitioning import column_of

    t = getattr(term, "transform", None) or getattr(term, "term", None)
    try:
        return tuple(column_of(t).parts) if t is not None else None
    except Exception:  # noqa: BLE001 - a sort term of another shape: not this rule's concern
        return None


def _id(f) -> str:
    return f" (field id {f.id})" if f is not None else ""


def _plural(n: int, word: str) -> str:
    return f"{'one ' + word if n == 1 else f'{n} {word}s'}"


def _help(table: str) -> str:
    return f"pass the table's metadata (`--metadata {table}=PATH/TO/metadata.json`) to a later run"


RULE = Rule(
    *analysis.UNKNOWN_SCHEMA, check, __doc__,
    triggers=frozenset({ch.CreateTable, SKIPPED, ch.UpdateColumnType, ch.HiveChangeColumn, ch.AddPartitionField, ch.ReplacePartitionField, ch.SetWriteOrder}),
)  # fmt: skip
