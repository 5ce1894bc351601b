"""The analysis the dropped-name rules share: the names a statement re-uses that a dropped field held
(`readds(ctx)`, once per statement), classified by what happens to the data: a re-add over data
(ICE001 `drop-then-add`), a re-add while nothing is lost yet (ICE015 `drop-then-add-empty`), a rename
into the name (ICE016 `rename-into-dropped-name`, or ICE030 `rename-into-dropped-name-backfilled`
when the values were copied first); and the help, fix and position all four give.
"""

from __future__ import annotations

from itertools import chain
from typing import Iterator, NamedTuple

from icelint.values import changes as ch
from icelint.values.findings import Finding
from icelint.model.data import describe
from icelint.model.stats import Impact
from icelint.rules.kit import fixes as _fixes
from icelint.rules.kit import help_columns as _help_columns
from icelint.rules.kit import help_replace as _help_replace
from icelint.rules.kit import outcomes as _outcome_index
from icelint.rules.kit import positions as _positions
from icelint.rules.kit import small_schema as _small_schema
from icelint.rules.kit.base import FormerField, Rule, RuleContext, has_data
from icelint.rules.kit.help import Proposed
from icelint.rules.kit.impact import impact, is_empty_column
from icelint.rules.kit.backfill import carried
from icelint.rules.kit.help_columns import drop_outcome

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


def readd_finding(ctx: RuleContext, rule: Rule, r: Readd, message: str, column: str, impact=None) -> Finding:
    """The finding of a re-use of a freed name: at the re-used name, with its help and fix."""
    help_ = readd_help(ctx, r)
    return ctx.finding(rule, message, help_.text, span=span_for(ctx, r.path), column=column, field_id=r.field_id, impact=impact,
                       fix=readd_fix(ctx, r, help_))


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


def replace_finding(ctx: RuleContext, found: list, rule: Rule) -> Finding:
    """The one finding of a REPLACE COLUMNS statement: every listed column that existed is re-added (its
    help and fix computed once, not per column); ICE001's when one of them held data, else ICE015's."""
    table = ctx.table_name
    counted = [r.impact.non_null_values if r.impact is not None and r.impact.known else None for r in found]
    shown = _help_replace.shown_columns([(".".join(r.path), r.old.field_id, r.field_id, n) for r, n in zip(found, counted)])
    if any(r.kind == DATA for r in found):  # ICE001's: a column held data
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


def was_carried(ctx: RuleContext, r: Readd) -> bool:
    """Whether the dropped field's values were written into the renamed field before the drop
    (ICE030's case; ICE016's otherwise)."""
    drop = drop_outcome(ctx, r.old.field_id)
    if drop is None:  # dropped before these migrations: no backfill can be seen
        return False
    return carried(ctx.result, ctx.outcome, r.field_id, r.old.path.rsplit(".", 1)[-1], drop.step.index)
