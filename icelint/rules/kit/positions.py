"""Where a finding points: the token of the change that is wrong, not the whole statement."""

from __future__ import annotations


def change_span(ctx, path: tuple[str, ...], prefix: bool = False):
    """The span of the token in this step that names `path` (as it is after the step): the column
    definition that adds it, the new name that renames into it, the path a change names (with
    `prefix`, also a change to a field inside it). None when no change names it."""
    from icelint.values import changes as ch

    low = tuple(p.lower() for p in path)

    def hit(p) -> bool:
        q = tuple(x.lower() for x in p)
        return q == low or (prefix and q[: len(low)] == low)

    for c in ctx.changes:
        if isinstance(c, ch.AddColumn) and hit(c.column.path):
            return c.column.span or c.span
        if isinstance(c, (ch.ReplaceColumns, ch.CreateTable)):
            for col in c.columns:
                if hit(col.path) or tuple(x.lower() for x in col.path) == low[:1]:
                    return col.span or c.span
        if isinstance(c, ch.RenameColumn) and hit(tuple(c.path[:-1]) + (c.new_name,)):
            return c.new_name_span or c.span
        if isinstance(c, _path_changes()) and hit(c.path):
            return c.span
        if isinstance(c, (ch.SetIdentifierFields, ch.DropIdentifierFields)):
            for p, sp in zip(c.paths, c.spans):
                if hit(p):
                    return sp
    return None


def _path_changes():
    from icelint.values import changes as ch

    return (
        ch.DeleteColumn, ch.UpdateColumnType, ch.UpdateColumnRequired, ch.MoveColumn, ch.UpdateColumnDoc,
        ch.UpdateColumnDefault, ch.HiveChangeColumn, ch.RenameColumn,
    )  # fmt: skip


def error_span(ctx, e):
    """Where a rejected change's finding points: the engine's span when it names a token, else the token of
    the change that names the column (by its path or its field id), else the part of the statement at fault."""
    from icelint.values import changes as ch

    step_span = ctx.step.span
    if e.span is not None and e.span != step_span:
        return e.span
    paths = []
    if e.column:
        paths.append(tuple(e.column.split(".")))
    if e.field_id is not None and ctx.before is not None:
        p = ctx.before.schema.path_of(e.field_id)
        if p is not None:
            paths.append(tuple(p))
    for p in paths:
        sp = change_span(ctx, p)
        if sp is not None:
            return sp
    for p in paths:  # a change to a field inside it (ADD COLUMN kind.inner when `kind` is no struct)
        sp = change_span(ctx, p, prefix=True)
        if sp is not None:
            return sp
    for p in paths:  # a change to a field's parent (DROP COLUMN of a struct holding it)
        for n in range(len(p) - 1, 0, -1):
            sp = change_span(ctx, p[:n])
            if sp is not None:
                return sp
    for c in ctx.changes:
        if isinstance(c, ch.SetProperties) and e.kind == "format-version":
            for (k, _), sp in zip(c.properties, c.key_spans):
                if k == "format-version":
                    return sp
        if isinstance(c, (ch.SetProperties, ch.UnsetProperties)) and e.kind in ("property", "unsupported") and c.key_spans:
            keys = [k for k, _ in c.properties] if isinstance(c, ch.SetProperties) else list(c.keys)
            named = [sp for k, sp in zip(keys, c.key_spans) if f"{k} " in e.message or f"'{k}'" in e.message]
            return named[0] if named else c.key_spans[0]  # the property the engine names, else the first one set
        if isinstance(c, ch.ReplaceColumns) and c.columns and c.columns[0].span and c.columns[-1].span:
            a, b = c.columns[0].span, c.columns[-1].span
            return a._replace(end_line=b.end_line, end_column=b.end_column, end=b.end)
        if isinstance(c, ch.CreateTable) and ctx.commit is not None:
            return ctx.commit.table_span
    if len(ctx.changes) == 1 and ctx.changes[0].span is not None:
        return ctx.changes[0].span  # the column definition, path or transform of the statement's one change
    return e.span or step_span
