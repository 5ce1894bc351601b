"""The data a finding puts at stake: the counts of a table state (`model/stats.py`), as known here.

A state's rows come from where `model/data.py` says (`DataOrigin`): the counts of the state's current
snapshot apply while nothing has written the table since (origin `snapshot`); a table with no
current snapshot, created by the scripts or emptied by them holds nothing (all counts 0, known); a
table the scripts wrote, or presumed to hold data at a deployment, holds an unknown amount.
The manifests are read only when a rule calls these functions (`sources/table_stats.py`).
"""

from __future__ import annotations

from icelint.model.stats import NOTHING, Impact, TableStats, unknown
from icelint.model.table import TableMetadata


def impact(ctx, meta: TableMetadata | None, field_id: int | None = None) -> Impact | None:
    """What `meta` (the state before or after the step) holds, in `field_id` when given."""
    if meta is None:
        return None
    origin = meta.data_origin
    if origin is None:
        return NOTHING if not meta.has_data else unknown("no counts for this state")
    kind = origin.kind
    if kind in ("no-snapshot", "created", "emptied"):
        return NOTHING
    if kind == "empty-snapshot":
        return Impact(origin.snapshot_id, 0, 0, 0)
    if kind != "snapshot":
        return unknown(origin.describe())
    provider = getattr(ctx.result, "stats", None)
    if provider is None or not ctx.outcome.table:
        return unknown("the data counts were not read", origin.snapshot_id)
    got = provider.stats(ctx.outcome.table)
    if isinstance(got, str):
        return unknown(got, origin.snapshot_id)
    if not isinstance(got, TableStats) or got.snapshot_id != origin.snapshot_id:
        return unknown("the counts are of another snapshot", origin.snapshot_id)
    values = got.values_of(field_id) if field_id is not None else None
    return Impact(got.snapshot_id, got.data_files, got.records, values,
                  None if field_id is None or values is not None else "its data files keep no counts for it")


def is_empty_column(imp: Impact | None) -> bool:
    """Known to hold no value: dropping or hiding it loses nothing."""
    return imp is not None and imp.non_null_values == 0
