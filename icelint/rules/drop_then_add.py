"""Re-adding a column name that belonged to a dropped column: old values become invisible.

## What it does
Flags `ADD COLUMN x` (and `ADD COLUMNS`, `REPLACE COLUMNS`, and renaming a column nothing has written
into the freed name) when the name `x` was last held by a column that has since been dropped: in this
migration, in an earlier file of the folder, or in an older schema of the table's metadata, on a table
that holds data. A table holds data unless icelint can prove it empty: its current snapshot has rows,
the scripts wrote it, or it existed at a deployment (an applied migration, or an earlier file of a
folder checked without a state: pipelines write tables between deployments). The message says how
many non-null values the dropped field id holds, counted from the manifests of the table's current
snapshot when the state source reaches them (`--stats-budget`). The same statements on a table
proven empty, or where those counts prove the dropped field id holds no value, are
`drop-then-add-empty` (ICE015); renaming a backfilled column into the freed name is
`rename-into-dropped-name` (ICE016).

## Why is this bad?
Iceberg binds columns by field id, not by name. The re-added column gets a new field id, so every
data file written before keeps its values under the old id, which the current schema no longer
has: at the current snapshot, every existing row reads `NULL` in the new column. The values survive
only for time travel to older snapshots. `REPLACE COLUMNS` does this to every column at once: it is
reported once for the statement, naming the re-added columns and their old and new field ids.

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
INSERT INTO db.events VALUES (1, 'a');
ALTER TABLE db.events RENAME COLUMN payload TO payload_old;
ALTER TABLE db.events ADD COLUMN payload binary;
```
Then backfill `payload` from `payload_old`, switch readers, and drop `payload_old` in a later
migration. To keep the same type, a rename alone is enough: it is metadata-only and free.

## Fix
When the `DROP COLUMN` is an earlier statement of the same file, it becomes `RENAME COLUMN x TO
x_old` (a name no current or former column holds; other columns of a `DROP COLUMNS` are still
dropped), so that the `ADD COLUMN` makes the new column and the old values stay readable: unsafe,
because the old column stays (backfill, switch readers, drop it in a later migration); display-only
when the table is written after the drop (those rows would have to list the old column too), or
when the drop is not in the same file (then the display-only fix adds the column under a free name).
Renaming a column into the freed name: rename it to a free name instead (display-only: later
statements and readers use the name).
`REPLACE COLUMNS (...)` becomes the net `ADD` / `DROP` / `RENAME` / `ALTER COLUMN` statements that
give the listed columns while keeping every field id that can be kept, every column's nullability (a
required column listed without `NOT NULL` stays required: a column list cannot say "as it is") and the
row key (no net change drops an identifier field): safe when the listed schema is reached by name, unsafe when a column is taken as renamed because it has the position and type of
an unlisted one; display-only when a listed struct names two fields that differ only in case (the
statements would leave the table unreadable as well: ICE029). No fix when a listed column cannot
keep its id (an illegal type change, NOT NULL).

## References
- Iceberg spec, "Schema Evolution": columns are tracked by id
"""

from __future__ import annotations

from itertools import chain
from typing import Iterator, NamedTuple

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.model.data import describe
from icelint.model.stats import Impact
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit import help_replace as _help_replace
from icelint.rules.kit import outcomes as _outcome_index
from icelint.rules.kit import positions as _positions
from icelint.rules.kit import small_schema as _small_schema
from icelint.rules.kit.base import SCHEMA_CHANGED, FormerField, Rule, RuleContext, has_data
from icelint.rules.kit.help import Proposed
from icelint.rules.kit.impact import impact, is_empty_column

DATA, EMPTY, RENAME = "data", "empty", "rename"  # which rule a re-use of a freed name belongs to


class Readd(NamedTuple):
    """A name that a dropped field held, taken by a new field or by a rename (one per path)."""

    kind: str  # DATA (ICE001), EMPTY (ICE015), RENAME (ICE016)
    path: tuple[str, ...]
    field_id: int
    is_new: bool  # added (or re-added by REPLACE COLUMNS); False: renamed into the name
    old: FormerField
    replacing: bool
    impact: Impact | None = None  # what the dropped field id holds (rules/_impact.py)


def readds(ctx: RuleContext) -> list[Readd]:
    """Every freed name this step re-uses, classified (computed once per step for the three rules)."""
    return ctx.shared("readds", _all_readds)


def _all_readds(ctx: RuleContext) -> list[Readd]:
    return list(_readds(ctx))


def _readds(ctx: RuleContext) -> Iterator[Readd]:
    if not ctx.accepted or ctx.before is None or ctx.after is None:
        return
    before, after = ctx.before.schema, ctx.after.schema
    d = ctx.diff
    renamed = d.renamed if d.changed else ()
    if not d.added and not renamed:
        return
    replacing = False
    for c in ctx.changes:
        if isinstance(c, ch.ReplaceColumns):
            replacing = True
            break
    if not replacing and not _any_former(ctx.history.former, d.added, renamed):
        return  # no new or renamed field's name was ever dropped: no candidate below has a holder
    candidates = [(p, f, True) for p, f in d.added] + [(p, f, False) for p, f, _ in renamed]
    added_paths = {p for p, _ in d.added}
    data = has_data(ctx.after)
    # REPLACE COLUMNS: the old top-level columns by name, once (a lookup per listed column in a version the
    # replay has moved on from walks its undo list: quadratic in a table of thousands of columns)
    old_top = {c.name.lower(): c for c in before.fields} if replacing else None
    for path, f, is_new in candidates:
        dotted = ".".join(path)
        if len(path) > 1 and path[:-1] in added_paths:
            continue  # inside a column that is new as a whole: reported for its top
        holders = last_dropped(ctx.history.former.get(dotted.lower(), ()), after)
        if replacing:
            old = old_top.get(path[0].lower()) if len(path) == 1 else before.find(path, case_sensitive=False)
            if old is not None and after.field_by_id(old.id) is None:
                holders = [h for h in holders if h.field_id != old.id] + [FormerField(old.id, dotted, "by this statement")]
        if not holders:
            continue
        imp = None
        if is_new:
            imp = impact(ctx, ctx.after, holders[-1].field_id)
            kind = EMPTY if data is False or is_empty_column(imp) else DATA
        elif ctx.history.unwritten_since_added(f.id, ctx.before) and data is not False:
            kind = DATA
            imp = impact(ctx, ctx.after, holders[-1].field_id)
        else:
            kind = RENAME
        yield Readd(kind, path, f.id, is_new, holders[-1], replacing, imp)


def _any_former(former: dict, added, renamed) -> bool:
    """Whether the path of an added or renamed field is a key of `former` (a loop: asked per statement)."""
    for e in chain(added, renamed):
        if ".".join(e[0]).lower() in former:
            return True
    return False


def last_dropped(holders, after) -> list:
    """`[h for h in holders if after.field_by_id(h.field_id) is None][-1:]`, searched from the end: a
    name dropped and re-added N times has N holders, and only the newest one is reported."""
    for h in reversed(holders):
        if not _small_schema.has_id(after, h.field_id):
            return [h]
    return []


def span_for(ctx: RuleContext, path: tuple[str, ...]):
    low = tuple(p.lower() for p in path)
    for c in ctx.changes:
        if isinstance(c, ch.AddColumn) and tuple(p.lower() for p in c.column.path) == low:
            return c.column.span or c.span
        if isinstance(c, ch.ReplaceColumns):
            for col in c.columns:
                if tuple(p.lower() for p in col.path) == low:
                    return col.span
    sp = _positions.change_span(ctx, path)
    if sp is None and ctx.commit is not None:
        sp = ctx.commit.table_span  # a column of CREATE ... AS SELECT: its query names it, the table name says where
    return sp or ctx.step.span


def readd_help(ctx: RuleContext, r: Readd) -> Proposed:
    """The help of a re-use of a freed name (its `.text`), with the SQL it proposes for the fix."""
    if r.replacing:
        return _help_replace.replace_columns_help(ctx)
    return _help_columns.readd_help(ctx, r.path, r.field_id, r.old, r.is_new)


def readd_fix(ctx: RuleContext, r: Readd, help_: Proposed):
    """REPLACE COLUMNS: the net ALTER statements (`_fixes.replace_columns_fix`); a re-add whose drop is an
    earlier statement of the same file: that drop renames the old column aside instead (unsafe: it stays)."""
    if r.replacing:
        return _fixes.replace_columns_fix(ctx, help_.text)
    if not r.is_new:
        return _fixes.from_proposed(ctx, help_, _fixes.DISPLAY_ONLY, f"Rename it to a name no dropped column had, not `{'.'.join(r.path)}`")
    drop = _help_columns.drop_outcome(ctx, r.old.field_id)
    fix = _fixes.from_proposed(ctx, help_, _fixes.UNSAFE, "", elsewhere=True) if drop is not None else None
    if fix is None:  # the drop ran earlier (another file, or before this migration): a new name is the way out
        return _fixes.from_proposed(ctx, help_, _fixes.DISPLAY_ONLY, f"Add the new column under another name than `{'.'.join(r.path)}`")
    message = (
        f"Rename `{r.old.path}` aside to {help_.aside} instead of dropping it, so that its values stay readable "
        f"(the column stays: backfill `{'.'.join(r.path)}` from it and drop it in a later migration)"
    )
    writes = _outcome_index.writes_after(ctx.run, drop.table, drop.step.index)  # not a scan per finding
    if writes:  # rows written after the drop list one value fewer than the table then has
        return _fixes.Fix(_fixes.DISPLAY_ONLY, message + "; statements after the drop that write rows must list it too", fix.edits)
    return _fixes.Fix(fix.applicability, message, fix.edits)


def check(ctx: RuleContext) -> Iterator[Finding]:
    found = readds(ctx)
    return _check(ctx, found) if found else ()  # most statements re-use no freed name: no generator then


def replace_finding(ctx: RuleContext, found: list, rule: Rule) -> Finding:
    """The one finding of a REPLACE COLUMNS statement: every listed column that existed is re-added (its
    help and fix computed once, not per column)."""
    table = ctx.table_name
    counted = [r.impact.non_null_values if r.impact is not None and r.impact.known else None for r in found]
    shown = _help_replace.shown_columns([(".".join(r.path), r.old.field_id, r.field_id, n) for r, n in zip(found, counted)])
    if rule is RULE:
        msg = (
            f"`{table}`: {_help_replace.HEAD} ({shown}), so every existing row reads NULL in each of them at the current "
            f"snapshot (the values stay visible only to time travel); {describe(ctx.after)}"
        )
    else:
        msg = (
            f"`{table}`: {_help_replace.HEAD} ({shown}); nothing is lost now, because {describe(ctx.after)}, but "
            "against a table with rows every existing row would read NULL in each of them"
        )
    change = _help_replace.replace_change(ctx)
    span = ctx.step.span
    if change is not None and change.columns and change.columns[0].span and change.columns[-1].span:
        a, b = change.columns[0].span, change.columns[-1].span
        span = a._replace(end_line=b.end_line, end_column=b.end_column, end=b.end)
    help_ = readd_help(ctx, found[0])
    imp = next((r.impact for r in found if r.impact is not None and r.impact.known), None)
    if imp is not None:  # the values the statement hides: in every re-added column
        imp = imp._replace(non_null_values=None if None in counted else sum(counted))
    return ctx.finding(rule, msg, help_.text, span=span, impact=imp, fix=readd_fix(ctx, found[0], help_))


def _check(ctx: RuleContext, found: list) -> Iterator[Finding]:
    if found[0].replacing:  # REPLACE COLUMNS: one finding for the statement
        if any(r.kind == DATA for r in found):
            yield replace_finding(ctx, found, RULE)
        return
    for r in found:
        if r.kind != DATA:
            continue
        dotted = ".".join(r.path)
        old = r.old
        table = ctx.table_name
        why = r.impact.column_phrase(old.field_id) if r.impact is not None and r.impact.known else describe(ctx.after)
        if r.is_new:
            msg = (
                f"`{table}`: this re-adds `{dotted}` as field id {r.field_id}, but `{old.path}` was field id {old.field_id} "
                f"(dropped {old.where}); existing data files keep their values under field id {old.field_id}, which the "
                f"current schema no longer has: every existing row reads NULL in `{dotted}` at the current snapshot (the "
                f"values stay visible only to time travel); {why}"
            )
        else:
            prev = ctx.before.schema.name_of(r.field_id) if ctx.before is not None else None
            msg = (
                f"`{table}`: this renames `{prev}` (field id {r.field_id}) into `{dotted}`, a name that belonged to field id "
                f"{old.field_id} (dropped {old.where}); `{prev}` was added by these migrations and nothing has written "
                f"it since, so every existing row reads NULL in `{dotted}` (field id {old.field_id}'s values stay "
                f"visible only to time travel); {why}"
            )
        span = span_for(ctx, r.path)
        help_ = readd_help(ctx, r)
        yield ctx.finding(
            RULE, msg, help_.text, span=span, column=dotted, field_id=r.field_id, impact=r.impact, fix=readd_fix(ctx, r, help_)
        )


RULE = Rule("ICE001", "drop-then-add", Severity.ERROR, check, __doc__, triggers=frozenset({SCHEMA_CHANGED}))
