"""Removing fields from the table's identifier fields: upserts and deletes stop keying on them.

## What it does
Flags `DROP IDENTIFIER FIELDS` and `SET IDENTIFIER FIELDS` that removes a field from the
identifier-field set (replacing a key column by another counts: the old one is removed). Adding
identifier fields to a table that had none is not flagged.

## Why is this bad?
Identifier fields are the table's row key: Flink and Kafka Connect upsert sinks, equality deletes and
CDC writers use them to find the row to replace or delete. Removing one changes what "the same row"
means: writers configured with the old key fail to start, or start writing equality deletes on a
different key, so updates no longer replace the rows they should and duplicates appear.

## Example
```sql
CREATE TABLE db.accounts (id bigint NOT NULL, region string NOT NULL, balance bigint) USING iceberg;
ALTER TABLE db.accounts SET IDENTIFIER FIELDS id, region;
ALTER TABLE db.accounts SET IDENTIFIER FIELDS id;
```

## Use instead
```sql
CREATE TABLE db.accounts (id bigint NOT NULL, region string NOT NULL, balance bigint) USING iceberg;
ALTER TABLE db.accounts SET IDENTIFIER FIELDS id, region;
-- keep the key; change it only together with every upsert / CDC writer of the table, in one release
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None or ctx.after is None:
        return
    old = tuple(ctx.before.schema.identifier_field_ids)
    new = set(ctx.after.schema.identifier_field_ids)
    removed = [i for i in old if i not in new]
    if not removed:
        return
    schema = ctx.before.schema
    names = [schema.name_of(i) or f"field id {i}" for i in removed]
    label = ", ".join(f"`{n}` (field id {i})" for n, i in zip(names, removed))
    keep = [schema.name_of(i) or str(i) for i in old]
    now = [ctx.after.schema.name_of(i) or str(i) for i in ctx.after.schema.identifier_field_ids]
    for c in ctx.changes:
        if not isinstance(c, (ch.SetIdentifierFields, ch.DropIdentifierFields)):
            continue
        yield ctx.finding(
            RULE,
            f"`{ctx.table_name}`: the row key changes from ({', '.join(keep)}) to ({', '.join(now) or 'none'}): {label} "
            "is no longer an identifier field, so upsert and CDC writers (Flink, Kafka Connect) and equality deletes, "
            "which key rows on the identifier fields, fail or match the wrong rows while configured with the old key",
            _help(ctx.table_name, keep, now),
            span=_span(c, schema, removed),
            column=names[0],
            field_id=removed[0],
        )
        return


def _help(table: str, keep: list[str], now: list[str]) -> str:
    """Advice without pasteable SQL: restoring the old key would undo what a later statement of the migration
    may need (a DROP NOT NULL or DROP COLUMN of the old key field works only once it is no longer a key)."""
    old, new = ", ".join(keep), ", ".join(now)
    target = f"key on ({new})" if now else "stop upserting and writing equality deletes (the table has no key now)"
    return (
        f"ship this together with every writer of `{table}` that upserts or deletes by key on ({old}): reconfigure "
        f"them to {target} in the same release (Flink: the sink's equality field columns / `upsert-enabled`; "
        f"Kafka Connect Iceberg sink: `iceberg.table.{table}.id-columns`); if the key ({old}) must stay, remove "
        "this statement and the statements that depend on it"
    )


def _span(c, schema, removed: list[int]):
    """The token that matters: the removed field's name in DROP IDENTIFIER FIELDS; in SET IDENTIFIER FIELDS
    (which names the new key, not the removed field) the list of new key fields."""
    if isinstance(c, ch.DropIdentifierFields):
        gone = {(schema.name_of(i) or "").lower() for i in removed}
        for p, sp in zip(c.paths, c.spans):
            if ".".join(p).lower() in gone:
                return sp
    if c.spans:
        a, b = c.spans[0], c.spans[-1]
        return a._replace(end_line=b.end_line, end_column=b.end_column, end=b.end)
    return c.span


RULE = Rule(
    "ICE018",
    "identifier-fields-change",
    Severity.WARNING,
    check,
    __doc__,
    triggers=frozenset({ch.SetIdentifierFields, ch.DropIdentifierFields}),
)
