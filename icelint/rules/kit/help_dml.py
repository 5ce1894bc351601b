"""Help for DML in a migration that Spark rejects: an `INSERT ... SELECT` whose values land in
columns that cannot take them (Spark writes a SELECT's values by position, not by name), and
statements on a branch's, tag's or snapshot's name (`db.t.branch_audit`, `replay/refs.py`)."""

from __future__ import annotations

from icelint.values import changes as ch
from icelint.replay.common import table_key
from icelint.rules.kit import help as _help
from icelint.rules.kit.base import RuleContext
from icelint.values.source import TextSpan
from icelint.syntax.tokens import one_line, statement_tokens


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def insert_value_help(ctx: RuleContext, e) -> str | None:
    """Which value of the SELECT goes to which column, and the INSERT that names the columns its values
    are named as when that writes every column a value it takes (`replay.errors.WrittenValue`)."""
    v = e.value
    if v is None:
        return None
    into = "the columns listed" if v.listed else f"`{ctx.table_name}`'s columns"
    lead = (
        f"Spark writes a SELECT's values into {into} by position, not by name: its {ordinal(v.position)} "
        f"value, `{v.text}` ({v.type_sql}), is written to `{e.column}` (field id {e.field_id}, {v.column_type_sql})"
    )
    write = next((c for c in ctx.changes if isinstance(c, ch.WriteData)), None)
    sql = write.sql if write is not None else None
    if v.named is not None and v.insert_at is not None and sql is not None:
        listed = " (" + ", ".join(_help.ident(c) for c in v.named) + ")"
        return f"{lead}; name the columns the values are for: " + _help.sql(one_line(sql[: v.insert_at] + listed + sql[v.insert_at :]))
    order = ", ".join(_help.ident(c) for c in v.columns)
    listing = "" if v.listed else ", or name the columns the values are for in a column list after the table's name"
    return f"{lead}; the values go to ({order}) in this order: select a value of type {v.column_type_sql} for `{e.column}`{listing}"


def placed_ref(ctx: RuleContext) -> ch.NamedRef | None:
    """The branch, tag or snapshot the statement names after its table, where the replay took it so
    (a three-part name can also be `catalog.db.table`: `Replay._ref_key`)."""
    commit = ctx.commit
    ref = commit.ref if commit is not None else None
    if ref is None or (commit.ref_unplaced and ctx.outcome.table == table_key(ref.written)):
        return None
    return ref


def ref_help(ctx: RuleContext, e) -> str | None:
    """A write to a branch that does not exist: the branch created first; to a tag or a snapshot (which
    take no writes): the same statement on the table itself; DDL on a ref: on the table; DROP TABLE of a
    ref: the ref's own DROP."""
    ref = placed_ref(ctx)
    commit = ctx.commit
    if ref is None or commit is None:
        return None
    first = commit.changes[0] if commit.changes else None
    table = _help.table_sql(ref.parent)
    if isinstance(first, ch.DropTable):
        return drop_ref_help(ref, if_exists=True)
    sql = _statement_text(ctx, commit)
    if sql is None:
        return None
    start, end = commit.table_span.start - commit.span.start, commit.table_span.end - commit.span.start
    on_table = one_line(sql[:start] + table + sql[end:]) if 0 <= start < end <= len(sql) else None
    if not isinstance(first, ch.WriteData):
        how = "branches and tags share the table's schema, partitioning and properties: change the table itself"
        return f"{how}, " + _help.sql(on_table) if on_table else how
    if e.message.startswith("Cannot write to both branch and WAP branch"):
        wap = e.message.rsplit("[", 1)[-1].rstrip("]")
        if wap == ref.name and on_table:
            return f"while `spark.wap.branch` is `{wap}`, writes to `{ctx.table_name}` go to branch `{wap}` already: write to the table itself, " + _help.sql(on_table)
        return "end the session's WAP branch first: " + _help.sql("RESET spark.wap.branch", one_line(sql))
    if ref.kind == "branch" and ctx.before is not None and ref.name not in ctx.before.refs:
        known = sorted(n for n, kind in ctx.before.refs.items() if kind == "branch")
        also = f" (its branches here: {', '.join(known)})" if known else ""
        create = f"ALTER TABLE {table} CREATE BRANCH {_help.ident(ref.name)}"
        out = f"branch `{ref.name}` of `{ctx.table_name}` does not exist{also}: create it first, " + _help.sql(create, one_line(sql))
        if ctx.outcome.table not in ctx.result.initial:  # the branches a job made are in the metadata only
            out += f" (a branch a job made is known from the table's metadata only: `--metadata {ctx.table_name}=PATH/TO/metadata.json`)"
        return out
    if ref.kind in ("tag", "branch"):
        tagged = ctx.before is not None and ctx.before.refs.get(ref.name) == "tag"
        what = f"`{ref.name}` is a tag of `{ctx.table_name}`, " if tagged else f"`{ctx.table_name}` has no tag `{ref.name}`, and a tag is "
        what += "one snapshot, which takes no writes"
    else:
        what = "a table read at a snapshot or a time takes no writes"
    if on_table is None:
        return f"{what}: write to the table itself or to one of its branches"
    return f"{what}: write to the table itself, " + _help.sql(on_table) + ", or to one of its branches"


def drop_ref_help(ref: ch.NamedRef, if_exists: bool = False) -> str:
    """`DROP TABLE db.t.branch_x` drops no branch: the ref's own DROP (guarded where it may not exist)."""
    table = _help.table_sql(ref.parent)
    if ref.kind in ("branch", "tag"):
        guard = " IF EXISTS" if if_exists else ""
        return f"to drop {ref.kind} `{ref.name}`, " + _help.sql(f"ALTER TABLE {table} DROP {ref.kind.upper()}{guard} {_help.ident(ref.name)}")
    return f"a snapshot is no table and no ref: remove the statement (old snapshots go with `CALL system.expire_snapshots(table => '{ref.parent}')`)"


def _statement_text(ctx: RuleContext, commit: ch.Commit) -> str | None:
    """The statement's text: a write's own, else through its span's text (the parser's spans are `TextSpan`s)."""
    write = next((c for c in commit.changes if isinstance(c, ch.WriteData)), None)
    if write is not None:
        return write.sql
    span = commit.span
    return span[0].text[span.start : span.end] if span.__class__ is TextSpan else None


def ref_exists_help(ctx: RuleContext, e) -> str | None:
    """`CREATE BRANCH x` of a branch that exists (made by a WAP write, or earlier): the same statement
    with IF NOT EXISTS, which keeps the existing one."""
    commit = ctx.commit
    sql = _statement_text(ctx, commit) if commit is not None else None
    if sql is None:
        return None
    toks = statement_tokens(sql)
    at = next((j + 1 for j in range(len(toks) - 1) if toks[j].kw == "CREATE" and toks[j + 1].kw in ("BRANCH", "TAG")), None)
    if at is None:
        return None
    guarded = sql[: toks[at].end] + " IF NOT EXISTS" + sql[toks[at].end :]
    return "the ref exists already: keep it with " + _help.sql(one_line(guarded)) + ", or remove the statement"
