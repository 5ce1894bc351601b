"""The analysis the case-sensitivity rules share: `spark.sql.caseSensitive` set in a migration
(ICE008 `case-sensitive-session`) and the names differing only in case that a statement makes,
which Spark rejects or accepts depending on that setting (ICE029 `case-only-twin`).
`findings(ctx)` makes the findings of both; each rule keeps its own.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.values.fix import Applicability, Edit, Fix
from icelint.rules.kit import positions as _positions
from icelint.rules.kit.base import RuleContext, RuleId

# the family's members, whose findings this analysis makes (each module makes its `Rule` from its id)
CASE_SENSITIVE_SESSION = RuleId("ICE008", "case-sensitive-session", Severity.WARNING)
CASE_ONLY_TWIN = RuleId("ICE029", "case-only-twin", Severity.ERROR)


def findings(ctx: RuleContext) -> Iterator[Finding]:
    """The findings of ICE008 (a SET of `spark.sql.caseSensitive`) and ICE029 (the case-only twins
    a statement makes, which depend on that setting); () when there can be none
    (asked twice per schema change: no generator then)."""
    if not ctx.outcome.case_sensitive and not isinstance(ctx.step, ch.SessionConfig):
        d = ctx.diff  # case-insensitive: only fields inside a column's type can be twins (see `_findings`)
        if ctx.after is None or not any(len(p) > 1 for p, _ in d.added):
            return ()
    return _findings(ctx)


def _findings(ctx: RuleContext) -> Iterator[Finding]:
    step = ctx.step
    if isinstance(step, ch.SessionConfig):
        if step.key.lower() == "spark.sql.casesensitive" and (step.value or "").strip().strip("'\"").lower() == "true":
            finding = ctx.finding(
                CASE_SENSITIVE_SESSION,
                "`spark.sql.caseSensitive=true` makes every later statement resolve names case-sensitively, and lets "
                "columns differing only in case coexist, which breaks readers with default settings",
                "remove the SET; rename columns with RENAME COLUMN to names that differ by more than case",
            )
            # the statement's span stops before its `;`: icelint.fixes.apply.adapt takes the `;` and the line too
            if relied_on(ctx):  # removing it would make a later statement of this run fail: shown, not applied
                fix = Fix(
                    Applicability.DISPLAY_ONLY,
                    "remove the SET, after renaming the columns a later statement adds next to a case twin",
                    (Edit.replace(step.span, ""),),
                )
            else:
                fix = Fix(Applicability.UNSAFE, "remove the SET", (Edit.replace(step.span, ""),))
            yield replace(finding, fix=fix)
        return
    d = ctx.diff
    if ctx.after is None or not (d.added or d.changed):
        return
    if ctx.outcome.case_sensitive:
        made = [(p, f) for p, f in d.added] + [(p, f) for p, f, _ in d.renamed]
    else:
        # Spark's default (case-insensitive) resolution rejects a case-only twin of a column, or of a
        # field it adds or renames into a struct, and any twin in a CREATE TABLE; but not the fields
        # inside the type of a column that ALTER TABLE adds (`ADD COLUMN s struct<x: int, X: int>`)
        made = [(p, f) for p, f in d.added if len(p) > 1]
    schema = ctx.after.schema
    mine = {f.id for _, f in made}
    helps: dict = {}  # column → the ADD COLUMN again with every twin in it renamed (None: not offered)
    structs: dict[tuple, tuple] = {}  # parent path → (its fields, their positions by id, by lower-case name)
    for path, f in made:
        if len(path) == 1 and not schema.has_case_collisions:
            continue
        parent = path[:-1]
        if parent not in structs:  # once per struct: a column adding thousands of fields stays linear
            siblings = tuple(schema.fields if not parent else children_of(schema, parent))
            by_name: dict[str, list] = {}
            for i, sib in enumerate(siblings):
                by_name.setdefault(sib.name.lower(), []).append((i, sib))
            structs[parent] = (siblings, {sib.id: i for i, sib in enumerate(siblings)}, by_name)
        siblings, position, by_name = structs[parent]
        at = position.get(f.id, -1)
        # a pair this statement makes whole (both fields new here) is reported once, at its second field
        twins = [s.name for i, s in by_name.get(f.name.lower(), ()) if s.id != f.id and (s.id not in mine or i < at)]
        if twins and not ctx.outcome.case_sensitive and path[0] not in helps:
            helps[path[0]] = _renamed_field_help(ctx, path[:1], mine)
        if twins:
            ambiguous = "AMBIGUOUS_REFERENCE" if len(path) == 1 else "AMBIGUOUS_REFERENCE_TO_FIELDS"
            yield ctx.finding(
                CASE_ONLY_TWIN,
                f"`{ctx.table_name}`: `{'.'.join(path)}` (field id {f.id}) now coexists with `{twins[0]}`, differing only "
                f"in case: readers with default settings fail with {ambiguous}, and INSERTs fail with "
                "'Multiple entries with same key'",
                helps.get(path[0]) or "choose a name that differs by more than case",
                # a field inside a column's type: the column's definition
                span=next(filter(None, (_positions.change_span(ctx, path[:k]) for k in range(len(path), 0, -1))), None),
                column=".".join(path),
                field_id=f.id,
            )


def _renamed_field_help(ctx: RuleContext, column_path, mine: set[int]) -> str | None:
    """The ADD COLUMN again, with every field inside the column that has a case-only twin before it
    and is new here (its id in `mine`) renamed (a column added alone, with nothing in its type that the SQL type text would leave out:
    comments, NOT NULL; and a type short enough to read); None otherwise."""
    from dataclasses import replace as evolve

    from icelint.model import types as it
    from icelint.rules.kit.help import free_name, path_sql, sql, table_sql, type_sql

    if len(ctx.changes) != 1 or not isinstance(ctx.changes[0], ch.AddColumn):
        return None
    spec = ctx.changes[0].column
    if len(spec.path) != 1 or spec.path[0].lower() != column_path[0].lower() or spec.doc or spec.first or spec.after:
        return None
    column = ctx.after.schema.find(column_path)
    if column is None or len(type_sql(column.type)) > 300:  # every finding carries it: a struct of thousands of
        return None  # fields would make the report quadratic
    if any(g.doc or g.required for g in _struct_fields(column.type)):
        return None

    def renamed(t):
        if isinstance(t, it.StructType):
            seen: set[str] = set()
            names = {g.name for g in t.fields}
            fields = []
            for g in t.fields:
                name = g.name
                if name.lower() in seen and g.id in mine:  # the second of a pair: renamed
                    name = free_name(names, name)
                    names.add(name)
                seen.add(name.lower())
                fields.append(evolve(g, name=name, type=renamed(g.type)))
            return evolve(t, fields=tuple(fields))
        if isinstance(t, it.ListType):
            return evolve(t, element=renamed(t.element))
        if isinstance(t, it.MapType):
            return evolve(t, key=renamed(t.key), value=renamed(t.value))
        return t

    stmt = f"ALTER TABLE {table_sql(ctx.table_name)} ADD COLUMN {path_sql(column.name)} {type_sql(renamed(column.type))}"
    return f"give the fields names that differ by more than case: {sql(stmt)}"


def relied_on(ctx: RuleContext) -> bool:
    """Whether a later statement of the run, resolved case-sensitively, could resolve differently without
    the SET: it was rejected (a name in the wrong case, which the default resolution would find), it
    renames a column to a case variant of its name, or it leaves two names differing only in case side
    by side (which the default resolution rejects)."""
    result = ctx.whole_run()
    found = ctx.run.analyses  # found once per run (a scan of every later statement per SET made N of them quadratic)
    last = found.get("case-sensitive-session")
    if last is None:
        last = found["case-sensitive-session"] = _last_relying(result)
    return last > ctx.step.index


def _last_relying(result) -> int:
    """The step index of the run's last statement that `_relies` on case-sensitive resolution (-1:
    none), found from the end."""
    for o in reversed(result.outcomes):
        if o.case_sensitive and _relies(o):
            return o.step.index
    return -1


def _relies(o) -> bool:
    """Whether this outcome, resolved case-sensitively, could resolve differently without the setting."""
    from icelint.values import changes as ch
    from icelint.model.types import children

    if not o.accepted:
        e = o.error
        name = getattr(e, "column", None)
        if e is None or name is None or o.before is None:
            return True  # cannot tell what the rejection is about: assume the setting matters
        last = str(name).split(".")[-1].lower()
        # a name in the wrong case, which the default resolution would find
        return any(f.name.lower() == last and f.name != str(name).split(".")[-1] for _, f in _all_fields(o.before.schema))
    for c in getattr(o.step, "changes", ()):
        if isinstance(c, ch.RenameColumn) and c.new_name != c.path[-1] and c.new_name.lower() == c.path[-1].lower():
            return True
    if o.after is None or o.after is o.before:
        return False
    if o.after.schema.has_case_collisions:
        return True
    stack = [f.type for f in o.after.schema.fields]
    while stack:
        kids = children(stack.pop())
        if len({k.name.lower() for k in kids}) != len(kids):
            return True
        stack.extend(k.type for k in kids)
    return False


def _struct_fields(t):
    """Every struct field inside a type, at any depth (below list elements and map values too)."""
    from icelint.model.types import StructType, children

    stack = [t]
    while stack:
        t = stack.pop()
        kids = children(t)
        if isinstance(t, StructType):
            yield from kids
        stack.extend(k.type for k in kids)


def _all_fields(schema):
    from icelint.model.types import children

    stack = [((f.name,), f) for f in schema.fields]
    while stack:
        path, f = stack.pop()
        yield path, f
        stack.extend((path + (k.name,), k) for k in children(f.type))


def children_of(schema, parent_path: tuple[str, ...]):
    from icelint.model.types import children

    parent = schema.find(parent_path)
    return children(parent.type) if parent is not None else ()
