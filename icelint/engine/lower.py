"""Parsed statements → ordered steps of typed changes. The only module that reads the syntax tree."""

from __future__ import annotations

from functools import singledispatch
from itertools import count
from typing import Iterable, Iterator

from icelint.values import changes as ch
from icelint.syntax import ast

DATA_WRITING = ("insert", "update", "delete", "merge", "truncate")


def lower_files(
    files: Iterable[ast.ParsedFile], texts: dict[str, str] | None = None, start: int = 0, namespace: str | None = None
) -> list[ch.Step]:
    """All statements of all files, in order, as steps; indexes run across files.

    `texts` (path → source text) lets DML carry its own text for the checks of `replay/dml.py`.
    `start` and `namespace`: the files continue a run whose earlier files lowered to `start` steps
    and left the session in `namespace` (`namespace_after`).
    """
    counter = count(start)
    out: list[ch.Step] = []
    # namespace: set by USE, the session's namespace, for every later file too
    for f in files:
        text = (texts or {}).get(f.path)
        for stmt in f.statements:
            step = lower_statement(stmt, next(counter))
            if isinstance(step, ch.UseNamespace):
                namespace = _use_namespace(step.namespace)
            elif namespace is not None and isinstance(step, ch.Commit) and "." not in step.table:
                step = step._replace(table=f"{namespace}.{step.table}")  # as Spark resolves it after USE
            if isinstance(step, ch.Commit) and isinstance(stmt, (ast.Other, ast.AlterTable, ast.DropTable)):
                step = _with_ref(step, stmt.table.parts)
            if text is not None and isinstance(stmt, ast.Other) and isinstance(step, ch.Commit):
                change = step.changes[0]
                if isinstance(change, ch.WriteData) and change.kind in ("insert", "update", "delete", "merge"):
                    step = step._replace(changes=(change._replace(text=text),))
            elif text is not None and isinstance(stmt, ast.CreateTable) and stmt.as_select and not stmt.columns:
                change = step.changes[0]
                step = step._replace(changes=(change._replace(sql=text[stmt.span.start : stmt.span.end]),))
            out.append(step)
    return _place_refs(out)


def _with_ref(step: ch.Commit, parts: tuple[str, ...]) -> ch.Commit:
    """`step` on the table before a ref's name (`catalog.db.t.branch_x`); a three-part name is
    `db.t.branch_x` or `catalog.db.branch_x`, which `_place_refs` tells apart."""
    ref = ch.name_ref(parts)
    if ref is None:
        return step
    return step._replace(ref=ref, table=ref.parent if len(parts) > 3 else step.table)


def _place_refs(steps: list[ch.Step]) -> list[ch.Step]:
    """A three-part name with a ref's suffix (`db.t.branch_audit`) names a ref of `db.t` when the run
    names `db.t` as a table and not `t.branch_audit` (as `catalog.db.table`), and a table when it names
    that one; when it names neither, the replay decides from the tables' states (`Replay.apply`)."""
    table_key = ch.table_key
    pending = [i for i, s in enumerate(steps) if isinstance(s, ch.Commit) and s.ref_unplaced]
    if not pending:
        return steps
    named = {table_key(s.table) for s in steps if isinstance(s, ch.Commit) and s.ref is None}
    for i in pending:
        s = steps[i]
        if table_key(s.ref.written) in named:
            steps[i] = s._replace(ref=None)
        elif table_key(s.ref.parent) in named:
            steps[i] = s._replace(table=s.ref.parent)
    return steps


def namespace_after(steps: Iterable[ch.Step], namespace: str | None = None) -> str | None:
    """The session's namespace after `steps` (lowered from `namespace`), as `lower_files` carries it on."""
    for step in steps:
        if isinstance(step, ch.UseNamespace):
            namespace = _use_namespace(step.namespace)
    return namespace


def _use_namespace(name: str) -> str:
    """The namespace later one-part names get: `USE spark_catalog` (a catalog) sets Spark's `default`."""
    return "default" if name.lower() == "spark_catalog" else name


def _spec(c: ast.ColumnDef) -> ch.ColumnSpec:
    pos = c.position
    return ch.ColumnSpec(
        path=c.path.parts,
        type=c.type,
        required=c.not_null,
        doc=c.comment,
        default=c.default,
        first=bool(pos and pos.first),
        after=pos.after.parts if pos and pos.after else None,
        span=c.span,
    )


@singledispatch
def lower_statement(stmt: object, index: int) -> ch.Step:  # pragma: no cover - every node is registered
    raise TypeError(f"cannot lower {type(stmt).__name__}")


@lower_statement.register
def _(stmt: ast.Unparsed, index: int) -> ch.Step:
    return ch.ParseFailure(stmt.message, stmt.span, stmt.error_span, index, stmt.help)


@lower_statement.register
def _(stmt: ast.SetConfig, index: int) -> ch.Step:
    return ch.SessionConfig(stmt.key, stmt.value, stmt.span, index, stmt.reset)


@lower_statement.register
def _(stmt: ast.Other, index: int) -> ch.Step:
    if stmt.table is not None and stmt.keyword.split()[0] in DATA_WRITING:
        return ch.Commit(stmt.table.dotted, stmt.table.span, (ch.WriteData(stmt.keyword, stmt.span),), stmt.span, index)
    return ch.Passive(stmt.keyword, stmt.span, index)


@lower_statement.register
def _(stmt: ast.UseNamespace, index: int) -> ch.Step:
    return ch.UseNamespace(stmt.name.dotted, stmt.span, index)


@lower_statement.register
def _(stmt: ast.Call, index: int) -> ch.Step:
    table = _call_table(stmt)
    change = ch.CallProcedure(stmt.procedure_name, stmt.args, stmt.procedure.span)
    if table is None:
        return ch.Passive(f"call {stmt.procedure_name}", stmt.span, index)
    return ch.Commit(table, stmt.span, (change,), stmt.span, index)


def _call_table(stmt: ast.Call) -> str | None:
    """The `table` argument of an Iceberg procedure (named, or the first positional one)."""
    for name, raw in stmt.args:
        if name is not None and name.lower() == "table":
            return _unquote(raw)
    for name, raw in stmt.args:
        if name is None:
            return _unquote(raw)
    return None


def _unquote(raw: str) -> str:
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"":
        return raw[1:-1]
    return raw


@lower_statement.register
def _(stmt: ast.DropTable, index: int) -> ch.Step:
    return ch.Commit(stmt.table.dotted, stmt.table.span, (ch.DropTable(stmt.if_exists, stmt.purge, stmt.span),), stmt.span, index)


@lower_statement.register
def _(stmt: ast.CreateTable, index: int) -> ch.Step:
    change = ch.CreateTable(
        columns=tuple(_spec(c) for c in stmt.columns),
        partition_by=stmt.partitioned_by if stmt.clustered_by is None else (*stmt.partitioned_by, stmt.clustered_by),
        properties=stmt.hive_properties + stmt.properties,  # STORED AS / ROW FORMAT's first, as Spark sets them
        location=stmt.location,
        comment=stmt.comment,
        using=stmt.using,
        or_replace=stmt.or_replace,
        replace_only=stmt.replace,
        if_not_exists=stmt.if_not_exists,
        as_select=stmt.as_select,
        span=stmt.span,
        options=stmt.options,
        bucketed=stmt.clustered_by is not None,
        hive_format=bool(stmt.hive_properties),
    )
    return ch.Commit(stmt.table.dotted, stmt.table.span, (change,), stmt.span, index)


@lower_statement.register
def _(stmt: ast.AlterTable, index: int) -> ch.Step:
    changes = tuple(_lower_action(stmt.action, stmt.span))
    return ch.Commit(stmt.table.dotted, stmt.table.span, changes, stmt.span, index)


def _lower_action(a: ast.AlterAction, span) -> Iterator[ch.TableChange]:  # noqa: C901 - a flat dispatch
    if isinstance(a, ast.AddColumns):
        for c in a.columns:
            yield ch.AddColumn(_spec(c), c.span)
    elif isinstance(a, ast.DropColumns):
        for p in a.paths:
            yield ch.DeleteColumn(p.parts, p.span, a.if_exists)
    elif isinstance(a, ast.RenameColumn):
        yield ch.RenameColumn(a.path.parts, a.new_name.dotted, a.path.span, a.new_name.span)
    elif isinstance(a, ast.AlterColumnType):
        yield ch.UpdateColumnType(a.path.parts, a.type, a.path.span)
    elif isinstance(a, ast.AlterColumnNullability):
        yield ch.UpdateColumnRequired(a.path.parts, a.not_null, a.path.span)
    elif isinstance(a, ast.AlterColumnComment):
        yield ch.UpdateColumnDoc(a.path.parts, a.comment, a.path.span)
    elif isinstance(a, ast.AlterColumnPosition):
        p = a.position
        yield ch.MoveColumn(a.path.parts, p.first, p.after.parts if p.after else None, a.path.span)
    elif isinstance(a, ast.AlterColumnDefault):
        yield ch.UpdateColumnDefault(a.path.parts, a.default, a.path.span)
    elif isinstance(a, ast.ChangeColumn):
        p = a.position
        yield ch.HiveChangeColumn(
            a.path.parts,
            a.new_name.dotted,
            a.type,
            a.not_null,
            a.comment,
            bool(p and p.first),
            p.after.parts if p and p.after else None,
            a.path.span,
        )
    elif isinstance(a, ast.ReplaceColumns):
        yield ch.ReplaceColumns(tuple(_spec(c) for c in a.columns), span)
    elif isinstance(a, ast.SetProperties):
        yield ch.SetProperties(a.properties, span, a.key_spans)
    elif isinstance(a, ast.UnsetProperties):
        yield ch.UnsetProperties(a.keys, a.if_exists, span, a.key_spans)
    elif isinstance(a, ast.RenameTable):
        yield ch.RenameTable(a.new_name.dotted, a.new_name.span)
    elif isinstance(a, ast.SetLocation):
        yield ch.SetLocation(a.location, span)
    elif isinstance(a, ast.HiveCommand):
        yield ch.NotForV2(a.command, a.partitions, a.span or span, a.target)
    elif isinstance(a, ast.AddPartitionField):
        yield ch.AddPartitionField(a.transform, a.name, a.transform.span)
    elif isinstance(a, ast.DropPartitionField):
        yield ch.DropPartitionField(a.transform, a.transform.span)
    elif isinstance(a, ast.ReplacePartitionField):
        yield ch.ReplacePartitionField(a.old, a.new, a.name, a.old.span)
    elif isinstance(a, ast.WriteSpec):
        yield ch.SetWriteOrder(a.distributed, a.locally, a.unordered, a.order, span)
    elif isinstance(a, ast.SetIdentifierFields):
        yield ch.SetIdentifierFields(tuple(p.parts for p in a.paths), tuple(p.span for p in a.paths), span)
    elif isinstance(a, ast.DropIdentifierFields):
        yield ch.DropIdentifierFields(tuple(p.parts for p in a.paths), tuple(p.span for p in a.paths), span)
    elif isinstance(a, ast.BranchOrTag):
        yield ch.RefChange(a.verb, a.kind, a.name, a.if_exists, span, a.snapshot_id)
    else:  # pragma: no cover
        raise TypeError(f"cannot lower {type(a).__name__}")
