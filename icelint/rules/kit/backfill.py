"""Backfills: the `UPDATE ... SET c = <expression>` statements of the run that write a column in every row.

Two rules ask about them:

* `rename-into-dropped-name` (ICE016) and `rename-into-dropped-name-backfilled` (ICE030): were the
  values of a dropped column carried into the column renamed into its name, before the drop
  (`ADD x_new; UPDATE t SET x_new = f(x); DROP x; RENAME x_new TO x`, or a MERGE whose `ON` or
  `SET` reads `x`: a lookup of each row's `x`)?
* `reader-null-nested-values` (ICE043): does a later statement of the same migration fill a new
  struct, list or map column with a value that is never NULL in every row?

An UPDATE counts when Spark accepted it (its outcome), it names the table, and it has no `WHERE`
(or only `WHERE <source> IS NOT NULL`, where the source column's NULL rows stay NULL either way).
The statement is parsed with sqlglot (no optimizer), only when a rule asks: a handful of statements
per run.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, NamedTuple

from icelint.values import changes as ch


class Assignment(NamedTuple):
    target: str  # lower-case column path as written (`a` or `s.f`)
    expr: Any  # the sqlglot expression
    sources: frozenset[str]  # lower-case last parts of the column names the expression reads
    guarded_by: str | None  # `WHERE <column> IS NOT NULL`: that column (lower-case); None: every row


def update_assignments(step: ch.Step, merge: bool = False) -> list[Assignment]:
    """The assignments of an UPDATE that writes every row (or every row where one column is not NULL);
    with `merge`, also those of a MERGE's `WHEN MATCHED THEN UPDATE SET` (the rows its `ON` matches:
    what the `ON` condition reads counts as read by each assignment)."""
    if not isinstance(step, ch.Commit):
        return []
    kinds = ("update", "merge") if merge else ("update",)
    sql = next((c.sql for c in step.changes if isinstance(c, ch.WriteData) and c.kind.lower() in kinds), None)
    if not sql:
        return []
    try:
        import sqlglot
        from sqlglot import exp

        tree = sqlglot.parse_one(sql, read="spark")
    except Exception:  # noqa: BLE001 - a statement sqlglot cannot parse is no known backfill
        return []
    if isinstance(tree, exp.Merge) and merge:
        on = frozenset(c.name.lower() for c in tree.args["on"].find_all(exp.Column)) if tree.args.get("on") else frozenset()
        whens = tree.args.get("whens")
        sets = [w.args["then"] for w in (whens.expressions if whens is not None else ())
                if w.args.get("matched") and isinstance(w.args.get("then"), exp.Update)]  # fmt: skip
        return [a._replace(sources=a.sources | on) for u in sets for a in _assignments(u.expressions, None, exp)]
    if not isinstance(tree, exp.Update):
        return []
    guard = _guard(tree.args.get("where"), exp)
    if guard is False:
        return []
    return _assignments(tree.expressions, guard, exp)


def _assignments(expressions: list, guard: str | None, exp: Any) -> list[Assignment]:
    out = []
    for e in expressions:
        if not isinstance(e, exp.EQ) or not isinstance(e.this, exp.Column):
            continue
        target = ".".join(p.name for p in e.this.parts).lower()
        sources = frozenset(c.name.lower() for c in e.expression.find_all(exp.Column))
        out.append(Assignment(target, e.expression, sources, guard))
    return out


def _guard(where: Any, exp: Any) -> str | None | bool:
    """None: no WHERE; a column name: `WHERE c IS NOT NULL`; False: another condition."""
    if where is None:
        return None
    cond = where.this
    while isinstance(cond, exp.Paren):
        cond = cond.this
    if isinstance(cond, exp.Not) and isinstance(cond.this, exp.Is) and isinstance(cond.this.this, exp.Column) \
            and isinstance(cond.this.expression, exp.Null):  # fmt: skip
        return cond.this.this.name.lower()
    return False


def updates(outcomes: Iterable, table: str, merge: bool = False) -> Iterator[tuple[Any, list[Assignment]]]:
    """(outcome, assignments) of the accepted UPDATEs (and MERGEs, with `merge`) of `table` among `outcomes`."""
    kinds = ("update", "merge") if merge else ("update",)
    for o in outcomes:
        if o.table != table or not o.accepted or not isinstance(o.step, ch.Commit):
            continue
        if not any(isinstance(c, ch.WriteData) and c.kind.lower() in kinds for c in o.step.changes):
            continue
        found = update_assignments(o.step, merge)
        if found:
            yield o, found


def carried(result, outcome, target_id: int, source_name: str, before_index: int) -> bool:
    """Whether an accepted UPDATE of the table before step `before_index` set the field `target_id`
    (by its name then) from an expression reading the column `source_name` in every row that holds
    a value of it."""
    src = source_name.lower()
    for o, found in updates(_before(result.outcomes, outcome, before_index), outcome.table, merge=True):
        meta = o.before
        if meta is None:
            continue
        name = meta.schema.name_of(target_id) if meta.schema.field_by_id(target_id) is not None else None
        if name is None:
            continue
        for a in found:
            if _names(a.target, name) and src in a.sources and a.guarded_by in (None, src):
                return True
    return False


def _names(target: str, name: str) -> bool:
    """Whether an assignment's target (`c`, `t.c`, `db.t.c`) names the column `name`."""
    name = name.lower()
    return target == name or target.endswith("." + name)


def _before(outcomes, outcome, index: int):
    for o in outcomes:
        if o is outcome or o.step.index >= index:
            return
        yield o


def fills_every_row(result, outcome, path: tuple[str, ...], field_id: int) -> bool:
    """Whether a later accepted UPDATE of the same file sets field `field_id` (`path` now) in every row
    to a value that cannot be NULL, before the field is dropped again."""
    file = outcome.step.span.path
    target = ".".join(path).lower()
    later = [o for o in result.outcomes if o.step.index > outcome.step.index and o.step.span.path == file]
    for o, found in updates(later, outcome.table):
        meta = o.before
        if meta is None or meta.schema.field_by_id(field_id) is None:
            return False  # dropped (or the table is gone) before any backfill
        name = meta.schema.name_of(field_id).lower()
        for a in found:
            if (_names(a.target, name) or _names(a.target, target)) and a.guarded_by is None and _never_null(a.expr, meta):
                return True
    return False


def _never_null(e: Any, meta) -> bool:
    from sqlglot import exp

    while isinstance(e, exp.Paren):
        e = e.this
    if isinstance(e, (exp.Array, exp.Struct, exp.VarMap, exp.Map)):
        return True  # array(...), named_struct(...), struct(...), map(...): a value, whatever they hold
    if isinstance(e, exp.Literal):
        return True
    if isinstance(e, exp.Coalesce):
        return any(_never_null(x, meta) for x in [e.this, *e.expressions])
    if isinstance(e, exp.Column):
        f = meta.schema.find(tuple(p.name for p in e.parts), case_sensitive=False)
        return f is not None and f.required
    return False
