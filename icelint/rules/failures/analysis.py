"""The analysis the failure rules share: one place decides, for each statement, whether Spark or
Iceberg rejects it (ICE005 `runtime-failure`, unless a specialised rule claims the rejection,
`kit.base.error_owner`) or whether icelint cannot know its table's schema (ICE028 `unknown-schema`).
`findings(ctx)` makes the findings of both; each rule keeps its own.
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
    RUNTIME_RULE,
    RuleContext,
    error_owner,
)

# the family's members, whose findings this analysis makes (each module makes its `Rule` from its id)
RUNTIME_FAILURE = RuleId(RUNTIME_RULE, "runtime-failure", Severity.ERROR)
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


def findings(ctx: RuleContext) -> Iterator[Finding]:
    """The statements Spark or Iceberg rejects that no other rule claims (ICE005), and the tables
    whose schema icelint cannot know (ICE028)."""
    table = ctx.table_name
    if ctx.outcome.skipped == "unknown-table" and ctx.step.index == _first_reference(ctx):
        where = ctx.result.absent.get(ctx.outcome.table or "")
        if where is not None:  # the catalog (or warehouse) was asked: Spark would not find the table either
            yield ctx.finding(
                RUNTIME_FAILURE,
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
            RUNTIME_FAILURE,
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
        RUNTIME_FAILURE,
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
        RUNTIME_FAILURE,
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
            RUNTIME_FAILURE,
            f"table `{table}` does not exist in {where}: Spark fails here with [TABLE_OR_VIEW_NOT_FOUND]",
            f"there is no `{table}` to drop: check the table name and the catalog, or remove the statement; where "
            f"the table may not exist (another environment), write {if_exists}",
            span=span,
        )
    if e.never_known:
        return ctx.finding(
            RUNTIME_FAILURE,
            f"table `{table}` is not known here: no state was given for it and no earlier statement creates it, so "
            "this DROP TABLE cannot be checked (where the table does not exist, Spark fails here with "
            "[TABLE_OR_VIEW_NOT_FOUND])",
            f"pass its current metadata (`--metadata {table}=PATH/TO/metadata.json`, `--warehouse DIR` or `--catalog NAME`) "
            f"to see what the drop removes; where the table may not exist, write {if_exists}",
            span=span,
        )
    return ctx.finding(
        RUNTIME_FAILURE,
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
        from icelint.rules.kit.help_defaults import default_spec, without_default_help

        found = default_spec(ctx)
        return without_default_help(ctx, *found) if found else None
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
