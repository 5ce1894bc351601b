"""`icelint schema`: the replayed state as a tree (text) or as metadata.json objects (json)."""

from __future__ import annotations

from typing import IO

from icelint.values import changes as ch
from icelint.model.table import TableMetadata
from icelint.model.jsontext import dumps
from icelint.model.types import ListType, MapType, NestedField, StructType
from icelint.engine.pipeline import Run


def states(run: Run) -> dict[str, TableMetadata]:
    res = run.result
    return {k: v for k, v in sorted(res.tables.items()) if v is not None}


def render_json(run: Run, out: IO[str]) -> None:
    """The states as one compact JSON text, each table's schema versions written one at a time: a
    table's versions are N versions of up to N columns (12,000 `ADD COLUMN`s: gigabytes of text),
    and the whole object built first needed about six times its text's size in memory."""
    tables = states(run)
    if len(tables) == 1:
        _write_state(next(iter(tables.values())), out)
    else:
        out.write("{")
        for i, (name, meta) in enumerate(tables.items()):
            out.write(("," if i else "") + _dumps(name) + ":")
            _write_state(meta, out)
        out.write("}")
    out.write("\n")


_SCHEMAS = '"schemas":[]'


def _dumps(obj) -> str:
    # Compact on purpose: the C encoder is ~10x faster than indented output on large histories.
    return dumps(obj, ensure_ascii=False, separators=(",", ":"))  # deep older schemas too


def _write_state(meta: TableMetadata, out: IO[str]) -> None:
    """`_dumps(meta.to_json())`, its `schemas` written a version at a time (the text is the same:
    `tests/equivalence/test_schema_view.py`). The placeholder is found as written: a string holding the same
    characters is written with its quotes escaped."""
    head, _, tail = _dumps(meta.to_json(schemas=False)).partition(_SCHEMAS)
    out.write(head + '"schemas":[')
    for i, schema in enumerate(meta.schemas):
        out.write(("," if i else "") + _dumps(schema.to_json()))
    out.write("]" + tail)


def _label(f: NestedField) -> str:
    req = "required" if f.required else "optional"
    t = f.type
    kind = "struct" if isinstance(t, StructType) else "list" if isinstance(t, ListType) else "map" if isinstance(t, MapType) else str(t)
    doc = f"  -- {f.doc}" if f.doc else ""
    return f"{f.id}: {f.name} {kind} ({req}){doc}"


class Node:
    """A tree line and its children: drawn with box characters (fast for 5,000-column tables)."""

    __slots__ = ("label", "kids", "style")

    def __init__(self, label: str, style: str | None = None) -> None:
        self.label = label
        self.kids: list[Node] = []
        self.style = style

    def add(self, label: str, style: str | None = None) -> Node:
        node = Node(label, style)
        self.kids.append(node)
        return node

    def lines(self, prefix: str = "") -> list[tuple[str, str | None]]:
        out: list[tuple[str, str | None]] = []
        last = len(self.kids) - 1
        for i, k in enumerate(self.kids):
            out.append((prefix + ("└── " if i == last else "├── ") + k.label, k.style))
            if k.kids:
                out.extend(k.lines(prefix + ("    " if i == last else "│   ")))
        return out


def _add(tree: Node, fields) -> None:
    from icelint.model.types import children

    for f in fields:
        node = tree.add(_label(f))
        kids = children(f.type)
        if kids:
            _add(node, kids)


def render_text(run: Run, out: IO[str]) -> None:
    tables = states(run)
    trees: list[Node] = []
    if not tables and not run.result.unknown:
        trees.append(Node("no table state: the scripts create no table and no --metadata was given"))
    texts = {s.path: s.text for s in run.sources}
    changes: dict[str, list[tuple[str, str]]] = {}
    for o in run.result.outcomes:
        if o.table is None or not isinstance(o.step, ch.Commit):
            continue
        sp = o.step.span
        first = texts.get(sp.path, "")[sp.start : sp.end].split("\n", 1)[0].strip()
        if len(first) > 90:
            first = first[:87] + "..."
        mark = "applied " if o.accepted else ("rejected" if o.error else "skipped ")
        why = f"  ({o.error.quoted.splitlines()[0]})" if o.error else ""
        style = "green" if o.accepted else "red" if o.error else "yellow"
        changes.setdefault(o.table, []).append((f"{mark} {sp.path}:{sp.line}  {first}{why}", style))
    for key in sorted(run.result.unknown):  # not inferable: say so rather than leave the table out
        if run.result.tables.get(key) is None:
            why = run.result.unknown_why.get(key)
            name = run.result.display_names.get(key, key)
            trees.append(Node(f"{name}  schema not known" + (f": {why}" if why else " (CREATE TABLE ... AS SELECT, or not an Iceberg table)"), "bold"))
    for name, meta in tables.items():
        s = meta.schema
        tree = Node(f"{name}  format v{meta.format_version}, schema {s.schema_id} of {len(meta.schemas)}, last-column-id {meta.last_column_id}", "bold")
        trees.append(tree)
        cols = tree.add("columns")
        _add(cols, s.fields)
        if s.identifier_field_ids:
            tree.add("identifier fields: " + ", ".join(f"{s.name_of(i)} ({i})" for i in s.identifier_field_ids))
        spec = meta.spec
        ptree = tree.add(f"partition spec {spec.spec_id} (last-partition-id {meta.last_partition_id})")
        if not spec.fields:
            ptree.add("unpartitioned")
        for f in spec.fields:
            ptree.add(f"{f.field_id}: {f.name} = {f.transform}({s.name_of(f.source_id) or f'dropped field {f.source_id}'})")
        order = meta.sort_order
        otree = tree.add(f"sort order {order.order_id}")
        if not order.fields:
            otree.add("unsorted")
        for f in order.fields:
            otree.add(f"{f.transform}({s.name_of(f.source_id)}) {f.direction} {f.null_order}")
        if meta.properties:
            prop = tree.add("properties")
            for k, v in sorted(meta.properties.items()):
                prop.add(f"{k} = {v}")
        lines = changes.get(name, [])
        done = sum(1 for x, _ in lines if x.startswith("applied"))
        ctree = tree.add(f"changes: {done} applied, {len(lines) - done} rejected or skipped")
        for line, style in lines:
            ctree.add(line, style)
    from icelint.cli.color import use_color

    if use_color(out):  # NO_COLOR, FORCE_COLOR and terminals, as for `check`
        from rich.text import Text

        from icelint.cli.color import console as make_console

        console = make_console(out)
        for tree in trees:
            console.print(Text(tree.label, style=tree.style or ""))
            for line, style in tree.lines():
                console.print(Text(line, style=style or ""))
    else:
        for tree in trees:
            out.write(tree.label + "\n")
            out.write("".join(line + "\n" for line, _ in tree.lines()))
