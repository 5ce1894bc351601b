"""What a table's current snapshot holds, counted from its manifests: the data at stake in a finding.

`TableStats` are the counts of one snapshot (read by `sources/manifests.py`, or from the sidecar
`icelint snapshot` writes): its data files, their records, and per field id the non-null values
(value count minus null count, summed over the data files; None when a file that may hold the
field has no counts for it). `Impact` is what one finding puts at stake, with its JSON form; the
`reason` says why a member is unknown (printed under `-v`).

The sidecar, `<db>.<table>.stats.json` next to `<db>.<table>.metadata.json`:

    {"format": "icelint-stats/1", "table": "db.events", "snapshot_id": 8123,
     "data_files": 412, "records": 9100231, "non_null_values": {"1": 9100231, "7": 8213441, "9": null}}

Field ids absent from `non_null_values` hold no value in any data file of the snapshot. This module
imports nothing heavy: `check --metadata` on a local file pays for it only when a finding needs counts.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

SIDECAR_FORMAT = "icelint-stats/1"


@dataclass(frozen=True)
class TableStats:
    """Data counts of one snapshot, read from its manifests: files, rows and non-null values per field id."""

    snapshot_id: int | None
    data_files: int
    records: int
    non_null: dict[int, int | None] = field(default_factory=dict)  # field id → non-null values (None: unknown)

    def values_of(self, field_id: int) -> int | None:
        return self.non_null.get(field_id, 0)

    def to_json(self, table: str) -> dict:
        return {
            "format": SIDECAR_FORMAT,
            "table": table,
            "snapshot_id": self.snapshot_id,
            "data_files": self.data_files,
            "records": self.records,
            "non_null_values": {str(k): v for k, v in sorted(self.non_null.items())},
        }

    @classmethod
    def from_json(cls, obj: object) -> TableStats:
        """A sidecar's content; ValueError when it is not one."""
        if not isinstance(obj, dict) or obj.get("format") != SIDECAR_FORMAT:
            raise ValueError(f"not an {SIDECAR_FORMAT} document")
        sid, files, records, values = obj.get("snapshot_id"), obj.get("data_files"), obj.get("records"), obj.get("non_null_values")
        if not (sid is None or _is_int(sid)) or not _is_int(files) or not _is_int(records) or not isinstance(values, dict):
            raise ValueError("snapshot_id, data_files, records or non_null_values is missing or malformed")
        non_null: dict[int, int | None] = {}
        for k, v in values.items():
            if not str(k).isdigit() or not (v is None or _is_int(v)):
                raise ValueError(f"non_null_values: {k!r}: {v!r} is not a field id and a count")
            non_null[int(k)] = v
        return cls(sid, files, records, non_null)


def _is_int(v: object) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def dumps_sidecar(stats: TableStats, table: str) -> str:
    import json

    return json.dumps(stats.to_json(table), indent=2) + "\n"


def sidecar_path(metadata_path: str) -> str | None:
    """`snapshots/db.events.metadata.json` → `snapshots/db.events.stats.json` (None: not such a name)."""
    for suffix in (".metadata.json.gz", ".gz.metadata.json", ".metadata.json"):
        if metadata_path.endswith(suffix):
            return metadata_path[: -len(suffix)] + ".stats.json"
    return None


class Impact(NamedTuple):
    """The data one finding puts at stake (None members: unknown, `reason` says why)."""

    snapshot_id: int | None = None
    data_files: int | None = None
    records: int | None = None
    non_null_values: int | None = None
    reason: str | None = None  # why something is unknown ("budget exceeded", "cannot read ...")

    def to_json(self) -> dict:
        return {"snapshot_id": self.snapshot_id, "data_files": self.data_files, "records": self.records,
                "non_null_values": self.non_null_values}

    @property
    def known(self) -> bool:
        return self.records is not None

    def column_phrase(self, field_id: int) -> str:
        """`field id 7 holds 8,213,441 non-null values in 412 data files (snapshot 8123)`, or why unknown."""
        if self.non_null_values is None:
            if self.records is None:
                return f"how many values field id {field_id} holds is unknown: {self.reason or 'no counts'}"
            return (f"field id {field_id}'s non-null values are not counted ({self.reason or 'no counts'}); the table "
                    f"{self.table_phrase()[3:]}")
        n = self.non_null_values
        return f"field id {field_id} holds {n:,} non-null value{'s' if n != 1 else ''} in {_files(self.data_files)}{self._at()}"

    def table_phrase(self) -> str:
        if self.records is None:
            return f"how many rows it holds is unknown: {self.reason or 'no counts'}"
        n = self.records
        return f"it holds {n:,} record{'s' if n != 1 else ''} in {_files(self.data_files)}{self._at()}"

    def _at(self) -> str:
        return f" (snapshot {self.snapshot_id})" if self.snapshot_id is not None else ""


def _files(n: int | None) -> str:
    if n is None:
        return "its data files"
    return f"{n:,} data file{'s' if n != 1 else ''}"


NOTHING = Impact(None, 0, 0, 0)


def unknown(reason: str, snapshot_id: int | None = None) -> Impact:
    return Impact(snapshot_id, None, None, None, reason)
