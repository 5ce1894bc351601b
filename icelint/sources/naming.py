"""Which table an unnamed state (`--metadata FILE`, `--table-dir DIR`) is for.

The rules, in order (the first that gives a name decides; a later rule never overrides it):

1. the file name: `db.events.metadata.json` is `db.events` (for a directory `.../db/events`: when
   the scripts touch `db.events`);
2. the table's `location` in the metadata: its last two path parts, `.../db/events`, Hive's
   `.../db.db/events`, or a layout with a uuid suffix, `.../db/events-<uuid>`; a location of one
   path part (`s3://bucket/events`) names the table only;
3. the one table the scripts alter without creating it, when the metadata has no location.

A location that names a table the scripts do not touch is an error, never a reason to fall back
to rule 3: the metadata of `db.products` is not applied to `ALTER TABLE db.product ...`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from icelint.values.source import InputError

_UUID_SUFFIX = re.compile(
    r"^(?P<name>.+?)-[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$", re.IGNORECASE
)


def location_name(location: str | None) -> tuple[str | None, str] | None:
    """(namespace or None, table) named by a table location; None when it names nothing."""
    if not location:
        return None
    path = location.strip()
    if "://" in path:
        path = path.split("://", 1)[1]
        path = path.split("/", 1)[1] if "/" in path else ""  # the bucket / authority is no name
    elif path.lower().startswith("file:"):
        path = path[len("file:"):]
    parts = [p for p in re.split(r"[/\\]+", path) if p and p != "."]
    if not parts:
        return None
    table = parts[-1]
    m = _UUID_SUFFIX.match(table)
    if m:
        table = m.group("name")
    namespace = parts[-2] if len(parts) > 1 else None
    if namespace is not None and namespace.lower().endswith(".db") and len(namespace) > 3:
        namespace = namespace[:-3]  # Hive's warehouse layout: <db>.db/<table>
    return (namespace.lower() if namespace else None), table.lower()


def _matches(key: str, loc: tuple[str | None, str]) -> bool:
    namespace, table = loc
    ns, _, name = key.rpartition(".")
    if name != table:
        return False
    return not ns or namespace is None or ns == namespace


def name_by_location(arg: str, how: str, location: str | None, touched: Sequence[str],
                     untouched_ok: bool = False) -> str | None:
    """The touched table the location names (rule 2); None when the metadata has no usable location.

    Raises InputError when the location names a table the scripts do not touch; `arg` is what the
    user gave, `how` how to name the table instead (`--metadata db.table=FILE`)."""
    loc = location_name(location)
    if loc is None:
        return None
    found = [k for k in touched if _matches(k, loc)]
    named = f"{loc[0]}.{loc[1]}" if loc[0] else loc[1]
    if len(found) == 1:
        key = found[0]
        return key if "." in key or loc[0] is None else named  # `ALTER TABLE events`: the state is db.events
    which = ", ".join(touched) if touched else "none"
    if found:
        raise InputError(
            f"{arg}: its location {location} fits several tables the scripts touch ({', '.join(found)}); "
            f"name it: {how}"
        )
    if untouched_ok:
        return named  # the state of a table no statement touches: unused (a note), known to the replay
    raise InputError(
        f"{arg}: not applied to any table: its name names no table, and its location {location} is table {named}, "
        "which the scripts do not touch "
        f"(tables they touch: {which}); if it is the state of another table, name it: {how}"
    )


def other_table(name: str, path: str, location: str | None) -> str | None:
    """The table a state given as `name=path` shows it belongs to, when that is another table:
    its location, in a catalog's layout (`<warehouse>/<namespace>/<table>` or Hive's
    `.../<namespace>.db/<table>`), names another namespace and another table. A shorter location
    (`s3://bucket/orders_v2`, `/tmp/t`) is a custom one and says nothing."""
    from icelint.replay.engine import table_key

    if not isinstance(location, str):
        return None  # no location, or not text (the metadata's own validation says what is wrong)
    key = table_key(name)
    text = location.split("://", 1)[-1]
    parts = [p for p in re.split(r"[/\\]+", text) if p and p != "."]
    if len(parts) < 4 and not (len(parts) >= 2 and parts[-2].lower().endswith(".db")):
        return None  # the bucket or root, a namespace, a table: at least a warehouse folder before them
    loc = location_name(location)
    if loc is None or loc[0] is None:
        return None
    ns, _, table = key.rpartition(".")
    if loc[1] != table and ns and loc[0] != ns:
        return f"{loc[0]}.{loc[1]}"
    return None


__all__ = ["location_name", "name_by_location", "other_table"]
