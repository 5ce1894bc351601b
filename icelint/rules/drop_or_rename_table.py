"""Dropping, emptying or renaming a whole table.

## What it does
Flags `DROP TABLE` (and `DROP TABLE ... PURGE`, which deletes the data files too), `TRUNCATE TABLE`,
`DELETE FROM t` without a `WHERE`, and `ALTER TABLE t RENAME TO u`, on a table that exists.
`TRUNCATE` and `DELETE` are flagged when the table has (or may have) rows; on a branch
(`TRUNCATE TABLE db.t.branch_audit`), as emptying that branch only. `DROP TABLE db.t.branch_audit`
drops nothing (Iceberg's catalog finds the branch through the name and no table of that name, and
succeeds): flagged, with the `ALTER TABLE db.t DROP BRANCH audit` that was meant.

## Why is this bad?
- `DROP TABLE` removes the table from the catalog: every reader, view and job that names it fails.
  Without `PURGE` the files stay until someone deletes them, but the catalog entry (and with it the
  table's history) is gone; with `PURGE` the data and metadata files are deleted too, and no time
  travel can bring them back.
- `TRUNCATE TABLE` and `DELETE FROM t` without `WHERE` commit a snapshot with no rows: every current
  reader sees an empty table (older snapshots keep the rows until they expire).
- `RENAME TO` keeps the data, but every reader, view and job that names the old table breaks, and
  some catalogs cannot rename at all (Iceberg's Hadoop catalog fails with `Cannot rename Hadoop tables`).

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events RENAME TO db.events_v1;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
-- keep the name; if the table must go, announce it, move every reader first, and drop it in its own migration
ALTER TABLE db.events SET TBLPROPERTIES ('comment' = 'deprecated: to be dropped in release 42');
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.replay import refs
from icelint.rules.kit.base import Rule, RuleContext, has_data
from icelint.rules.kit.help_dml import drop_ref_help, placed_ref
from icelint.rules.kit.impact import impact


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted or ctx.before is None:
        return
    table = ctx.table_name
    ref = placed_ref(ctx)
    for c in ctx.changes:
        if isinstance(c, ch.DropTable) and ref is not None:  # `DROP TABLE db.t.branch_audit` (replay/refs.py)
            there = refs.exists(ref, ctx.before)
            if there is False:  # DROP TABLE IF EXISTS of a ref that is not there: nothing to drop, nothing dropped
                continue
            found = f"finds {ref.label} of `{table}` through the name" if there else f"takes the name for {ref.label} of `{table}`"
            yield ctx.finding(
                RULE,
                f"`{table}`: DROP TABLE {ref.written} does nothing: Iceberg's catalog {found}, drops no table of that "
                "name and succeeds; the ref and the table stay",
                drop_ref_help(ref),
                span=_table_span(ctx, c),
            )
        elif isinstance(c, ch.DropTable):
            if c.purge:
                msg = (
                    f"`{table}`: DROP TABLE ... PURGE removes the table from the catalog and deletes its data and "
                    "metadata files: every reader that names it fails, and no time travel can bring the rows back"
                )
            else:
                msg = (
                    f"`{table}`: DROP TABLE removes the table from the catalog: every reader, view and job that names "
                    "it fails, and its snapshot history is no longer reachable through the catalog (the files stay, "
                    "orphaned, until deleted)"
                )
            imp = impact(ctx, ctx.before)
            if imp is not None and imp.known:
                msg += f"; {imp.table_phrase()}"
            yield ctx.finding(
                RULE,
                msg,
                impact=imp,
                help=f"drop a table in a migration of its own, after every reader of `{table}` has moved away; if its rows may "
                f"be needed later, copy them first, in an earlier migration, to a table such as `{table}_backup` "
                f"(CREATE TABLE AS SELECT from `{table}`)",
                span=_table_span(ctx, c),
            )
        elif isinstance(c, ch.RenameTable):
            yield ctx.finding(
                RULE,
                f"`{table}`: renaming it to `{c.new_name}` keeps the data, but every reader, view and job that names "
                f"`{table}` fails; some catalogs (Iceberg's Hadoop catalog) cannot rename tables at all",
                f"keep the name, or move every reader to `{c.new_name}` in the same release (a view named `{table}` "
                "can bridge the transition in catalogs that support views)",
                span=c.span,
            )
        elif isinstance(c, ch.WriteData) and (c.kind.startswith("truncate") or c.kind == "delete all"):
            if has_data(ctx.before) is False:
                continue
            what = "TRUNCATE TABLE" if c.kind.startswith("truncate") else "DELETE without WHERE"
            if ref is not None and ref.kind == "branch" and ref.name != "main":
                yield ctx.finding(
                    RULE,
                    f"`{table}`: {what} on branch `{ref.name}` removes every row of the branch: its readers see it empty "
                    "(the table's other branches keep their rows)",
                    "delete only the rows that must go (DELETE with a WHERE clause); if the branch must really be emptied, "
                    "do it as a reviewed operation, not in a schema migration",
                    span=_table_span(ctx, c),
                )
                continue
            imp = impact(ctx, ctx.before)
            yield ctx.finding(
                RULE,
                f"`{table}`: {what} removes every row: current readers see an empty table (older snapshots keep "
                "the rows only until they expire)" + (f"; {imp.table_phrase()}" if imp is not None and imp.known else ""),
                impact=imp,
                help="delete only the rows that must go (DELETE with a WHERE clause); if the table must really be emptied, "
                "do it as a reviewed operation, not in a schema migration",
                span=_table_span(ctx, c),
            )


def _table_span(ctx: RuleContext, c):
    """The table's name in the statement (for `DROP TABLE ... PURGE` too: the name says which table's files go)."""
    return ctx.commit.table_span if ctx.commit is not None else c.span


RULE = Rule(
    "ICE019",
    "drop-or-rename-table",
    Severity.WARNING,
    check,
    __doc__,
    triggers=frozenset({ch.DropTable, ch.RenameTable, ch.WriteData}),
)
