"""Whether a table holds rows, and why icelint believes it (said in every data-dependent message).

A table is *empty* only where icelint can prove it: created earlier in the same pending batch with
nothing written since, emptied (`TRUNCATE`, `REPLACE TABLE`), or a state whose current snapshot is
absent or says `total-records` = 0. Everywhere else it holds data: its current snapshot has rows,
the scripts wrote it, or it existed at a deployment (applied migrations and the file boundaries of
a folder checked without a state: pipelines write tables between deployments).
"""

from __future__ import annotations

from typing import NamedTuple


class DataOrigin(NamedTuple):
    """Why a table state holds rows or not (`TableMetadata.has_data` says which)."""

    kind: str  # snapshot | no-snapshot | written | presumed | created | emptied
    where: str | None = None  # `path:line` of the statement (or the file) it comes from
    index: int = -1  # the statement index up to which the table's columns hold data (-1: from the state)
    snapshot_id: int | None = None
    records: int | None = None
    detail: str | None = None  # presumed: "created by an applied migration V1__init.sql"; emptied: the statement kind

    def describe(self) -> str:
        k = self.kind
        if k == "snapshot":
            if self.records is None:
                return f"the table's current snapshot {self.snapshot_id} has data files"
            return f"the table held rows at snapshot {self.snapshot_id} ({self.records} records)"
        if k == "no-snapshot":
            return "the table's metadata has no current snapshot: it holds no rows"
        if k == "empty-snapshot":
            return f"the table's current snapshot {self.snapshot_id} holds 0 records"
        if k == "written":
            return f"rows were written at {self.where}"
        if k == "presumed":
            return f"presumed to hold data: {self.detail} (pipelines write tables between deployments)"
        if k == "created":
            return f"the table was created at {self.where} and nothing has written it since"
        if k == "emptied":
            return f"the table was emptied at {self.where} ({self.detail}) and nothing has written it since"
        return self.detail or k


def from_snapshot(snapshot_id: int | None, records: int | None) -> tuple[bool, DataOrigin]:
    """(has_data, origin) of a state read from a metadata.json."""
    if snapshot_id is None:
        return False, DataOrigin("no-snapshot")
    if records == 0:
        return False, DataOrigin("empty-snapshot", snapshot_id=snapshot_id, records=0)
    return True, DataOrigin("snapshot", snapshot_id=snapshot_id, records=records)


def describe(meta) -> str:
    """Why `meta` (a TableMetadata) holds data or not, in a message's words."""
    origin = getattr(meta, "data_origin", None)
    if origin is not None:
        return origin.describe()
    return "the table has data files" if meta.has_data else "the table holds no rows"
