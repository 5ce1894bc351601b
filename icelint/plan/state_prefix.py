"""Which files a table's state already holds: the applied prefix, inferred by replaying from nothing.

A state (a metadata.json, a catalog's table) is the table after some deployment. The files whose
effects it holds are applied for that table: replaying them on top of the state would report every
`CREATE TABLE` as "already exists" and every `ALTER` as an error. So the migration order is replayed
from nothing, and the state is compared with the table after each file, by what migrations change
and Iceberg keeps exactly: the current schema's field ids, names, types, nullability and identifier
fields, the last column id, the current partition spec and last partition id, and the current sort
order. The first file after which the table matches the state ends the applied prefix (the files
after it that do not touch the table change nothing). When the table is never created by the files,
the state holds the files known to have run (git's applied files, the migrations folder's other
files), and the others are checked against it. When no file boundary matches, the same holds, and `Prefix.diverges` names
the first file whose replayed table has a column the state does not have, and how.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

from icelint.values import changes as ch


@dataclass(frozen=True)
class Prefix:
    """The applied prefix of one table: the files its state holds (None: none), or why none matches."""

    table: str
    last: str | None = None  # the last file of the prefix
    files: tuple[str, ...] = ()  # the files of the prefix that touch the table
    diverges: str | None = None  # no prefix matches: the first file that diverges, and how


def _strip(node: Any) -> Any:
    if isinstance(node, dict):
        return {k: _strip(v) for k, v in node.items() if k not in ("doc", "schema-id", "spec-id", "order-id")}
    if isinstance(node, list):
        return [_strip(v) for v in node]
    return node


def signature(meta) -> dict:
    """What the comparison reads of a table state (see the module docstring)."""
    return {
        "schema": _strip(meta.schema.to_json()),
        "last-column-id": meta.last_column_id,
        "spec": _strip(meta.spec.to_json()),
        "last-partition-id": meta.last_partition_id,
        "sort-order": _strip(meta.sort_order.to_json()),
    }


def _columns(sig: dict) -> dict[int, tuple[str, str]]:
    return {f["id"]: (f["name"], json.dumps(f["type"], sort_keys=True)) for f in sig["schema"].get("fields", [])}


def _how(replayed: dict, state: dict) -> str:
    """How the replayed table differs from the state, in a few words."""
    mine, theirs = _columns(replayed), _columns(state)
    for fid, (name, typ) in mine.items():
        if fid not in theirs:
            return f"it has column `{name}` (field id {fid}), which the state does not"
        if theirs[fid] != (name, typ):
            other = theirs[fid][0]
            return f"its field id {fid} is `{name}` {typ}, in the state `{other}` {theirs[fid][1]}"
    for fid, (name, _) in theirs.items():
        if fid not in mine:
            return f"the state has column `{name}` (field id {fid}), which the migrations never add"
    for key in ("last-column-id", "spec", "last-partition-id", "sort-order"):
        if replayed[key] != state[key]:
            return f"its {key.replace('-', ' ')} differs from the state's"
    return "it differs from the state"


def infer(tables: Mapping[str, Any], steps: Sequence[ch.Step], files: Iterable[str], candidates: set[str],
          history: set[str], deployments=None, catalog_kind: str = "iceberg") -> dict[str, Prefix]:
    """The applied prefix of each table of `tables` (key → its state), among the files of
    `candidates` (the files that may have run; git's new files never have). A table no file
    creates, or whose state matches no prefix, keeps only the files of `history` (applied files
    not reported on: the migrations folder's other files) as held by its state."""
    from icelint.replay.engine import Replay

    order = [f for f in files]
    touched: dict[str, set[str]] = {k: set() for k in tables}
    created: dict[str, bool] = {k: False for k in tables}
    for s in steps:
        if isinstance(s, ch.Commit) and s.table in touched:
            touched[s.table].add(s.span.path)
            if s.changes and isinstance(s.changes[0], ch.CreateTable):
                created[s.table] = True
    def held(k: str) -> tuple[str, ...]:
        return tuple(f for f in order if f in history and f in touched[k])

    wanted = {k for k in tables if created[k]}
    out = {k: Prefix(k, files=held(k)) for k in tables if k not in wanted}
    if not wanted:
        return out
    targets = {k: signature(tables[k]) for k in wanted}
    replayer = Replay(None, catalog_kind=catalog_kind, deployments=deployments)
    by_file: dict[str, list[ch.Step]] = {}
    for s in steps:
        by_file.setdefault(s.span.path, []).append(s)
    found: dict[str, str] = {}
    first_off: dict[str, tuple[str, str]] = {}
    seen: list[str] = []
    for f in order:
        for s in by_file.get(f, ()):
            replayer.apply(s)
        seen.append(f)
        if f not in candidates:
            break  # a file that has not run ends every prefix
        for k in wanted - found.keys():
            meta = replayer.tables.get(k)
            if meta is None:
                continue
            sig = signature(meta)
            if sig == targets[k]:
                found[k] = f
            elif k not in first_off and _columns(sig).items() - _columns(targets[k]).items():
                first_off[k] = (f, _how(sig, targets[k]))
        if len(found) == len(wanted):
            break
    for k in wanted:
        if k in found:
            last = found[k]
            upto = set(order[: order.index(last) + 1])
            out[k] = Prefix(k, last, tuple(p for p in order if p in upto and p in touched[k]))
        else:
            f, how = first_off.get(k) or (next((p for p in order if p in touched[k]), "?"), "no file leaves it as the state has it")
            out[k] = Prefix(k, files=held(k), diverges=f"{f}: {how}")
    return out


def drop_applied(steps: list[ch.Step], prefixes: Mapping[str, Prefix]) -> list[ch.Step]:
    """`steps` without the statements on a table that its state already holds."""
    held = {(k, f) for k, p in prefixes.items() for f in p.files}
    if not held:
        return steps
    return [s for s in steps if not (isinstance(s, ch.Commit) and (s.table, s.span.path) in held)]
