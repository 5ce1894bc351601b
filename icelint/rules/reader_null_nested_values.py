"""A reader reads the NULLs of a struct, list or map column added to a table with rows as values.

## What it does
Flags an accepted statement that adds a struct, list or map field (top level or nested; by ADD
COLUMN(S), a drop-then-re-add, REPLACE COLUMNS) to a table that holds rows, when a configured
reader does not read NULL for it in the rows written before (ClickHouse, measured with chDB 4.4 /
ClickHouse 26.9): Spark reads NULL there; ClickHouse reads a NULL struct as a struct of NULLs
(`{"a": null}`), a NULL list as `[]` and a NULL map as `{}`, because its Tuple, Array and Map
types cannot be NULL.

ClickHouse reads every NULL struct, list or map that way, also NULLs that INSERTs write; icelint
reports the schema change that makes every existing row NULL in the new column, not the DML. A
column that a later `UPDATE` of the same migration sets in every row (no `WHERE`) to a value that
cannot be NULL (`array(...)`, `named_struct(...)`, `struct(...)`, `map(...)`, a literal, a required
column, a `coalesce` with one of those) holds no NULL when the migration is done: not flagged.

## Why is this bad?
Queries in ClickHouse cannot tell rows written before the change from rows that hold an empty
struct, list or map: `WHERE col IS NULL` finds nothing, `length(col) = 0` finds both, and counts
and joins on the column differ from Spark's.

## Example
```sql
CREATE TABLE db.events (id bigint) USING iceberg;
INSERT INTO db.events VALUES (1);
ALTER TABLE db.events ADD COLUMN tags array<string>;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint) USING iceberg;
INSERT INTO db.events VALUES (1);
-- a primitive column reads NULL in ClickHouse too (or backfill the new column after adding it)
ALTER TABLE db.events ADD COLUMN tags_csv string;
```

## References
- docs/iceberg-behaviour.md, "What the readers do" (measured by `tests/readers/`)
- icelint/readers/clickhouse.py (the profile)
"""

from __future__ import annotations

from typing import Iterator, Sequence

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.backfill import fills_every_row
from icelint.rules.kit.base import SCHEMA_CHANGED, Rule, RuleContext
from icelint.readers.findings import reader_findings
from icelint.rules.kit.positions import change_span


def check(ctx: RuleContext, readers: Sequence[str] = ()) -> Iterator[Finding]:  # (): every profile
    o = ctx.outcome
    if not o.accepted or o.before is None or o.after is None or o.before.has_data is False:
        return
    if not ctx.diff.added:
        return
    added = [(path, f) for path, f in ctx.diff.added if f.type.is_nested]
    tops = [(p, f) for p, f in added if not any(q != p and p[: len(q)] == q for q, _ in added)]
    if not tops:
        return
    result = ctx.whole_run()  # a later UPDATE of the same migration may fill every row
    top = [".".join(p) for p, f in tops if not fills_every_row(result, o, p, f.id)]
    if not top:
        return
    cols = ", ".join(f"`{c}`" for c in top)
    yield from reader_findings(
        ctx, RULE, "null-nested-values", readers,
        f"after adding {cols} (the rows written before are NULL in it)",
        f"add a primitive column instead, or backfill `{top[0]}` with an UPDATE that sets it in every row right after adding it",
        change_span(ctx, tuple(top[0].split("."))),
    )


RULE = Rule("ICE043", "reader-null-nested-values", Severity.WARNING, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
