"""Table states that some readers cannot read, and the statement that creates each one.

A reader failure can depend on more than DDL: a v3 table holds deletion vectors only after a
row-level DELETE/UPDATE/MERGE in merge-on-read mode rewrote part of a data file. icelint sees the
statements, not the files, so a condition is *created* by the statement after which the table is
configured to produce it (:func:`created_by`):

* the accepted statement that turns the table's configuration on (CREATE TABLE with the properties,
  SET TBLPROPERTIES of the mode or of the format version): the table was not configured before it
  (or did not exist) and is after it;
* on a table that was already configured in the state before the migration (`--metadata`, ...),
  the first statement of the migration that writes the files: a row-level DELETE/UPDATE/MERGE
  (deletion vectors), any write (data files in a default format).
"""

from __future__ import annotations

from typing import Callable

from icelint.values import changes as ch
from icelint.model.table import TableMetadata

ROW_LEVEL = ("delete", "update", "merge")
MOR_KEYS = ("write.delete.mode", "write.update.mode", "write.merge.mode")


def merge_on_read_keys(meta: TableMetadata) -> list[str]:
    return [k for k in MOR_KEYS if str(meta.properties.get(k, "")).strip().lower() == "merge-on-read"]


def writes_deletion_vectors(meta: TableMetadata) -> bool:
    """v3 with a merge-on-read mode: Spark writes deletion vectors (Puffin) for partial-file deletes."""
    return meta.format_version >= 3 and bool(merge_on_read_keys(meta))


def default_format(meta: TableMetadata) -> str:
    return str(meta.properties.get("write.format.default", "parquet")).strip().lower()


def _writes(step: ch.Step, kinds: tuple[str, ...] | None) -> bool:
    if not isinstance(step, ch.Commit):
        return False
    return any(isinstance(c, ch.WriteData) and (kinds is None or c.kind.lower() in kinds) for c in step.changes)


def created_by(ctx, state: Callable[[TableMetadata], bool], writes: tuple[str, ...] | None) -> bool:
    """Whether this accepted outcome creates `state` on its table (see the module docstring)."""
    o = ctx.outcome
    if not o.accepted or o.after is None or not state(o.after):
        return False
    if o.before is None or not state(o.before):
        return True
    initial = ctx.result.initial.get(o.table)
    if initial is None or not state(initial) or not _writes(o.step, writes):
        return False
    # the first such write of the migration on this table, and the table never left the state since
    for prev in ctx.result.outcomes:
        if prev is o:
            return True
        if prev.table == o.table and prev.accepted and (
            prev.after is None or not state(prev.after) or _writes(prev.step, writes)
        ):
            return False
    return False
