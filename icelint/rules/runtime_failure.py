"""A statement Spark or Iceberg would reject when the migration runs.

## What it does
Replays every statement against the table state and reports those that fail: unknown tables or
columns, adding a name that exists (Spark compares names case-insensitively), renaming onto an
existing name, dropping an identifier field or a column of the current sort order, identifier
fields that are optional, float/double or nested in a list or map, moving a column to another
struct, downgrading `format-version`, reserved properties, unsupported types, and the Hive table
commands Spark refuses on an Iceberg table (`ADD|DROP PARTITION`, `TRUNCATE TABLE ... PARTITION`,
`MSCK REPAIR TABLE`, `ANALYZE TABLE`, `SET SERDE`, `CREATE INDEX`, `CREATE TABLE ... LIKE`), whose help writes the `DELETE` or `UPDATE` that
does what a partition's drop or rename meant. An `INSERT ... SELECT` whose value lands, by position,
in a column that cannot take it is reported at that value, with the column's field id; its help
names the columns in a column list when the SELECT's names are the table's (Spark then writes by
name). A write to a branch by name (`INSERT INTO db.t.branch_audit`, write-audit-publish) is checked
against the table's schema and needs the branch to exist; a tag or a snapshot named so
(`db.t.tag_v1`) takes no writes, and DDL on such a name finds no table: the help writes the
statement on the table itself. The message quotes the engine's own error.

A table that no state describes and no earlier statement creates is reported once, at the first
statement that names it: icelint cannot check it. `REPLACE COLUMNS` on a table with identifier fields
is rejected (it would delete the row key): the message says what the statement does (every column
re-added under a new field id) and the help and fix are the net change that keeps every field id,
nullability and the row key, as for `drop-then-add` (ICE001). `DROP TABLE` of a table that is not there says
which case it is: never known (Spark fails only where the catalog lacks it), absent from the
catalog or warehouse icelint was given, or dropped or renamed by an earlier statement; the help
offers `DROP TABLE IF EXISTS` where the table may not exist.

## Why is this bad?
A failing statement stops the migration half-way: the statements before it are committed, the
ones after it are not, and the table is left in a state no one planned.

## Example
```sql
CREATE TABLE db.users (id bigint NOT NULL, email string) USING iceberg;
ALTER TABLE db.users ADD COLUMN Email string;
```

## Use instead
```sql
CREATE TABLE db.users (id bigint NOT NULL, email string) USING iceberg;
ALTER TABLE db.users ADD COLUMN email_verified boolean;
```

## Fix
A Hive-style `CHANGE COLUMN a b type` that renames: `RENAME COLUMN a TO b`, then `ALTER COLUMN b TYPE
type` / `COMMENT` / `FIRST | AFTER` where it asks for them; safe, it does exactly what was asked.
`CHANGE COLUMN ... NOT NULL` on an optional column: the same without `NOT NULL` (unsafe: the column
stays optional). Dropping an identifier field or a column of the write order: the identifier fields
or the sort order changed first, then the drop; display-only, because it makes a drop succeed that
failed (the column and its values go) and changes what upserts key on or how files are laid out.

`REPLACE COLUMNS` on a table with identifier fields: the net `ADD` / `DROP` / `RENAME` / `ALTER
COLUMN` statements, as ICE001's fix (safe when every listed column is matched by name).

## References
- Spark 3.5 `CheckAnalysis`, Iceberg `SchemaUpdate` validation messages
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help as _help
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit import help_dml as _help_dml
from icelint.rules.kit import help_replace as _help_replace
from icelint.rules.kit import help_tables as _help_tables
from icelint.rules.kit import outcomes as _outcome_index
from icelint.rules.kit import positions as _positions
from icelint.rules.kit.base import (
    RuleId,
    REJECTED,
    RUNTIME_RULE,
    SKIPPED,
    Rule,
    RuleContext,
    error_owner,
)

# ICE028, whose findings the same decision makes (rules/unknown_schema.py): rejected or not knowable
UNKNOWN_SCHEMA = RuleId("ICE028", "unknown-schema", Severity.INFO)

_HELP = {
    "unknown-table": "create the table first, or check the table name",
    "table-exists": "use CREATE TABLE IF NOT EXISTS only when the existing table has the same columns; otherwise ALTER it",
    "unknown-column": "check the column name with `icelint schema` (nested fields are addressed as a.b, list elements as a.element, map values as a.value)",
    "duplicate-column": "give each column a name of its own (Spark compares names case-insensitively: `id` and `ID` are the same name)",
    "identifier": "update the identifier fields first (`SET IDENTIFIER FIELDS` / `DROP IDENTIFIER FIELDS`), in a separate statement",
    "sort-order": "change the sort order first (`WRITE ORDERED BY` other columns, or `WRITE UNORDERED`), then drop the column",
    "move": "columns can only be moved within their own struct: use AFTER with a sibling",
    "format-version": "format versions only go up; v3 is the highest Iceberg 1.10 supports",
    "default-value": "Spark cannot set default values on Iceberg columns: add the column without DEFAULT and backfill it",
    "unsupported-type": "use a type Iceberg supports in this format version",
    "dml": "write the row for the table as the migration leaves it: one value per column, in the current column "
    "order (or name the columns), no NULL in required columns, literals of the column's type",
}


def check(ctx: RuleContext) -> Iterator[Finding]:
    return (f for f in findings(ctx) if f.rule == RULE.code)


def findings(ctx: RuleContext) -> Iterator[Finding]:
    """This rule's findings, and tables whose schema icelint cannot know (ICE028)."""
    table = ctx.table_name
    if ctx.outcome.skipped == "unknown-table" and ctx.step.index == _first_reference(ctx):
        where = ctx.result.absent.get(ctx.outcome.table or "")
        if where is not None:  # the catalog (or warehouse) was asked: Spark would not find the table either
            yield ctx.finding(
                RULE,
                f"table `{table}` does not exist in {where}: Spark fails here with [TABLE_OR_VIEW_NOT_FOUND] "
                "(and so does every later statement on it)",
                f"create the table first, or check the table name and the catalog (`{table}`)",
                span=ctx.commit.table_span if ctx.commit else None,
            )
            return
        ref = ctx.commit.ref if ctx.commit is not None else None
        also = ""
        if ref is not None and ctx.commit.ref_unplaced:  # `db.t.branch_x`: neither `db.t` nor a table of that name known
            also = f" (nor table `{ref.parent}`, of which the name would be {ref.label})"
        yield ctx.finding(
            RULE,
            f"table `{table}` is not known here{also}: no state was given for it and no earlier statement creates it, so "
            "its statements cannot be checked until it is created",
            _help_tables.known_table_hint(ctx)
            + (f"pass the current metadata of `{ref.parent}` (`--metadata {ref.parent}=PATH/TO/metadata.json`), or of a table "
               f"`{table}` (`--metadata {table}=PATH/TO/metadata.json`), or `--warehouse DIR` or `--catalog NAME`, or include the migration that creates it"
               if also else
               f"pass its current metadata (`--metadata {table}=PATH/TO/metadata.json`, `--warehouse DIR` or `--catalog NAME`), "
               "or include the migration that creates it"),
            span=ctx.commit.table_span if ctx.commit else None,
        )
        return
    if ctx.accepted and ctx.outcome.table in ctx.result.unknown and any(isinstance(c, ch.CreateTable) for c in ctx.changes):
        why = ctx.result.unknown_why.get(ctx.outcome.table)
        yield ctx.finding(
            UNKNOWN_SCHEMA,
            f"`{table}` gets a schema icelint cannot know ("
            + (f"CREATE TABLE ... AS SELECT: {why}" if why else "CREATE TABLE ... AS SELECT without a column list, or not an Iceberg table")
            + "): later statements on it are not checked",
            f"give the table an explicit column list, or pass its metadata (`--metadata {table}=PATH/TO/metadata.json`) to a later run",
            span=ctx.commit.table_span if ctx.commit else None,
        )
        return
    if error_owner(ctx.outcome) != RUNTIME_RULE:
        return
    e = ctx.error
    assert e is not None
    if e.kind == "unknown-table" and ctx.changes and isinstance(ctx.changes[0], ch.DropTable):
        yield _drop_of_no_table(ctx, e, table)
        return
    if e.kind == "identifier" and ctx.before is not None and _help_replace.replace_change(ctx) is not None:
        yield _replace_columns_rejected(ctx, e, table)
        return
    who = "Spark rejects this statement" if e.layer == "spark" else "Iceberg rejects this change"
    if e.runtime is not None:  # a verdict that depends on the Iceberg runtime (icelint.config.target) says which
        who = f"on Iceberg {e.runtime}, {who}"
    help_ = _specific_help(e, table, ctx) or _HELP.get(e.kind)
    yield ctx.finding(
        RULE,
        f"`{table}`: {who}: {e.quoted.splitlines()[0]}",
        help_,
        span=_positions.error_span(ctx, e),
        column=e.column,
        field_id=e.field_id,
        fix=_fix(ctx, e, help_),
    )


def _replace_columns_rejected(ctx: RuleContext, e, table: str) -> Finding:
    """REPLACE COLUMNS on a table with a row key: what the statement does, why it fails, and the net change."""
    schema = ctx.before.schema
    keys = ", ".join(f"`{schema.name_of(i)}` (field id {i})" for i in schema.identifier_field_ids)
    help_ = _help_replace.replace_columns_help(ctx)
    return ctx.finding(
        RULE,
        f"`{table}`: {_help_replace.HEAD}, which would make every existing row read NULL in each of them, and Iceberg "
        f"rejects it because it would delete the row key {keys} (\"{e.quoted.splitlines()[0].split('. ')[0]}\")",
        help_.text,
        span=_positions.error_span(ctx, e),
        fix=_fixes.replace_columns_fix(ctx, help_.text),
    )


def _drop_of_no_table(ctx: RuleContext, e, table: str) -> Finding:
    """DROP TABLE (without IF EXISTS) of a table that is not there: never known (no state, no
    CREATE), absent from the catalog asked, or dropped or renamed by an earlier statement."""
    if_exists = _help.sql(f"DROP TABLE IF EXISTS {_help.table_sql(table)}{' PURGE' if ctx.changes[0].purge else ''}")
    where = ctx.result.absent.get(ctx.outcome.table or "")
    span = _positions.error_span(ctx, e)
    if e.never_known and where is not None:  # (a table the run made and dropped is reported below)
        return ctx.finding(
            RULE,
            f"table `{table}` does not exist in {where}: Spark fails here with [TABLE_OR_VIEW_NOT_FOUND]",
            f"there is no `{table}` to drop: check the table name and the catalog, or remove the statement; where "
            f"the table may not exist (another environment), write {if_exists}",
            span=span,
        )
    if e.never_known:
        return ctx.finding(
            RULE,
            f"table `{table}` is not known here: no state was given for it and no earlier statement creates it, so "
            "this DROP TABLE cannot be checked (where the table does not exist, Spark fails here with "
            "[TABLE_OR_VIEW_NOT_FOUND])",
            f"pass its current metadata (`--metadata {table}=PATH/TO/metadata.json`, `--warehouse DIR` or `--catalog NAME`) "
            f"to see what the drop removes; where the table may not exist, write {if_exists}",
            span=span,
        )
    return ctx.finding(
        RULE,
        f"`{table}`: Spark rejects this statement: {e.quoted.splitlines()[0]}",
        f"`{table}` no longer exists here (an earlier statement dropped or renamed it): remove this statement, "
        f"or write {if_exists}",
        span=span,
    )


def _fix(ctx: RuleContext, e, help_: str | None):
    """The help's statements as a fix, where they do what the statement asked (see `## Fix`)."""
    if e.kind == "unsupported" and "Hive-style" in e.message and help_:
        if help_.startswith("Spark renames columns only with RENAME COLUMN"):
            return _fixes.from_help(ctx, help_, _fixes.SAFE, "Rename with RENAME COLUMN, then change the type, comment and position with ALTER COLUMN")
        return _fixes.from_help(ctx, help_, _fixes.UNSAFE, f"Leave out NOT NULL: `{e.column or 'the column'}` stays optional")
    if e.kind == "identifier" and help_:
        return _fixes.from_help(ctx, help_, _fixes.DISPLAY_ONLY, "Change the identifier fields first, then run the statement")
    if e.kind == "sort-order" and help_:
        return _fixes.from_help(ctx, help_, _fixes.DISPLAY_ONLY, "Change the sort order first, then run the statement")
    return None


def _specific_help(e, table: str, ctx: RuleContext) -> str | None:
    """Help naming the real column and field id, where the error tells which they are."""
    if e.kind == "identifier":
        return _help_tables.identifier_help(ctx, e)
    if e.kind == "default-value" and e.runtime is not None:
        from icelint.rules import column_default_dropped

        found = column_default_dropped.default_spec(ctx)
        return column_default_dropped.without_default_help(ctx, *found) if found else None
    if e.kind == "unsupported" and "Hive-style" in e.message:
        return _help_columns.hive_change_help(ctx, e)
    if e.kind == "sort-order":
        return _help_tables.sort_order_help(ctx, e)
    if e.kind == "v2-command":
        c = next((c for c in ctx.changes if isinstance(c, ch.NotForV2)), None)
        return _help_tables.hive_command_help(ctx, c) if c is not None else None
    if e.kind == "dml" and e.value is not None:
        return _help_dml.insert_value_help(ctx, e)
    if e.kind == "ref":
        return _help_dml.ref_help(ctx, e)
    if e.kind == "unsupported" and e.message.startswith("Ref ") and e.message.endswith("already exists"):
        return _help_dml.ref_exists_help(ctx, e)
    if e.kind == "procedure" and e.message.startswith("Ref "):
        return f"check the procedure's ref names against the table's branches and tags (`SELECT name, type FROM {_help.table_sql(table)}.refs`)"
    if e.kind == "procedure":
        return f"check the procedure's arguments against the table's snapshots (`SELECT * FROM {_help.table_sql(table)}.snapshots`)"
    if e.kind == "unknown-column" and e.column and ctx.before is not None:
        hint = _help.did_you_mean_column(ctx.before.schema, e.column, ctx.run)
        if hint:
            return f"{hint} (`icelint schema` lists the columns; nested fields are addressed as a.b, list elements as a.element, map values as a.value)"
    if e.kind == "duplicate-column" and e.column and e.field_id is not None:
        return (
            f"a column named like `{e.column}` already exists (field id {e.field_id}); Spark compares names "
            "case-insensitively: pick another name, or change the existing column with RENAME COLUMN / ALTER COLUMN"
        )
    return None


def _first_reference(ctx: RuleContext) -> int:
    """The step index of the run's first statement on this table (indexed: a scan per skipped
    statement made N statements on an unknown table quadratic)."""
    return _outcome_index.first_reference(ctx.run, ctx.outcome.table)


RULE = Rule(RUNTIME_RULE, "runtime-failure", Severity.ERROR, check, __doc__, triggers=frozenset({REJECTED, SKIPPED, ch.CreateTable}))
