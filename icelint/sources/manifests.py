"""Counting what a table's current snapshot holds, from its manifests (never its data files).

Reads the manifest list and the data manifests of the current snapshot through pyiceberg and sums,
over the live data files: the files, their `record_count`, and per field id `value_counts` minus
`null_value_counts`. A data file without counts for a field id contributes 0 when the schema it was
written with (the schema id of the snapshot that added it) has no such field (it was added later, or
dropped before); otherwise the field's count is unknown (metrics mode `none`, a struct, a writer
that keeps no counts). Records are those of the data files: row-level deletes are not subtracted.

pyiceberg (and pyarrow or fsspec under it) is imported here only: `check` reaches this module only
when a finding needs counts.
"""

from __future__ import annotations

import time
from collections.abc import Mapping

from icelint.model.stats import TableStats


class StatsUnavailable(Exception):
    """The counts cannot be read; the message says why (one line, shown under -v)."""


class BudgetExceeded(StatsUnavailable):
    def __init__(self) -> None:
        super().__init__("budget exceeded")


def read_stats(metadata_json: bytes, origin: str, properties: Mapping[str, str] | None = None,
               deadline: float | None = None, secrets: tuple[str, ...] = ()) -> TableStats:
    """The counts of the current snapshot of the table whose metadata.json is `metadata_json`.

    With a `deadline` (time.monotonic()), the whole read is bounded by it, however the FileIO under
    pyiceberg waits (connections that never answer, its own retries and back-offs): the read runs in
    a daemon thread, and when the deadline passes first the counts are "budget exceeded" and the
    thread is left to finish or fail on its own (the process does not wait for it at exit)."""
    if deadline is not None and time.monotonic() >= deadline:
        raise BudgetExceeded()
    if deadline is None or deadline == float("inf"):
        return _read_stats(metadata_json, origin, properties, deadline, secrets)
    import threading

    box: list = []

    def work() -> None:
        try:
            box.append(("ok", _read_stats(metadata_json, origin, properties, deadline, secrets)))
        except BaseException as e:  # noqa: BLE001 - handed to the caller's thread
            box.append(("error", e))

    worker = threading.Thread(target=work, name="icelint-table-stats", daemon=True)
    worker.start()
    worker.join(max(0.0, deadline - time.monotonic()))
    if not box:
        raise BudgetExceeded()
    status, value = box[0]
    if status == "error":
        raise value
    return value


def _read_stats(metadata_json: bytes, origin: str, properties: Mapping[str, str] | None,
                deadline: float | None, secrets: tuple[str, ...]) -> TableStats:
    from icelint.sources.redact import one_line

    try:
        from icelint.sources.remote import _file_io, _quiet
        from pyiceberg.manifest import DataFileContent, ManifestContent
        from pyiceberg.schema import index_by_id
        from pyiceberg.table.metadata import TableMetadataUtil
    except ImportError as e:  # pragma: no cover - pyiceberg is a dependency
        raise StatsUnavailable(f"pyiceberg is not installed ({e})") from None
    try:
        meta = TableMetadataUtil.parse_raw(metadata_json)
    except Exception as e:  # noqa: BLE001 - pyiceberg is stricter than icelint's own reader
        raise StatsUnavailable(f"pyiceberg cannot read {origin}: {one_line(e, secrets)}") from None
    snap = meta.current_snapshot()
    if snap is None:
        return TableStats(None, 0, 0, {})
    fields_of: dict[int | None, frozenset[int] | None] = {}

    def schema_fields(snapshot_id: int | None) -> frozenset[int] | None:
        """The field ids of the schema the snapshot `snapshot_id` was written with (None: unknown)."""
        if snapshot_id not in fields_of:
            s = meta.snapshot_by_id(snapshot_id) if snapshot_id is not None else None
            schema = next((x for x in meta.schemas if s is not None and x.schema_id == s.schema_id), None)
            fields_of[snapshot_id] = frozenset(index_by_id(schema)) if schema is not None and s.schema_id is not None else None
        return fields_of[snapshot_id]

    files = records = 0
    counted: dict[int, int | None] = {}
    known_fields = frozenset().union(*(index_by_id(s) for s in meta.schemas))
    try:
        with _quiet():
            io = _file_io(snap.manifest_list, properties or {})
            manifests = snap.manifests(io)
            for m in manifests:
                if deadline is not None and time.monotonic() >= deadline:
                    raise BudgetExceeded()
                if m.content != ManifestContent.DATA:
                    continue
                for entry in m.fetch_manifest_entry(io, discard_deleted=True):
                    df = entry.data_file
                    if df.content != DataFileContent.DATA:
                        continue
                    files += 1
                    records += df.record_count
                    values = df.value_counts or {}
                    nulls = df.null_value_counts or {}
                    written_with = schema_fields(entry.snapshot_id) if len(values) else None
                    for fid in known_fields:
                        if counted.get(fid, 0) is None:
                            continue
                        if fid in values and fid in nulls:
                            counted[fid] = counted.get(fid, 0) + values[fid] - nulls[fid]
                        elif written_with is not None and fid not in written_with:
                            counted.setdefault(fid, 0)  # the file was written without the field
                        else:
                            counted[fid] = None
    except StatsUnavailable:
        raise
    except FileNotFoundError as e:
        what = f"no such file {e.filename}" if getattr(e, "filename", None) else one_line(e, secrets)
        raise StatsUnavailable(f"cannot read the manifests of snapshot {snap.snapshot_id}: {what}") from None
    except Exception as e:  # noqa: BLE001 - FileIO implementations raise their own types
        raise StatsUnavailable(f"cannot read the manifests of snapshot {snap.snapshot_id}: {one_line(e, secrets)}") from None
    return TableStats(snap.snapshot_id, files, records, {k: v for k, v in counted.items() if v != 0})


def written_spec_ids(metadata_json: bytes, origin: str, properties: Mapping[str, str] | None = None,
                     deadline: float | None = None, secrets: tuple[str, ...] = ()) -> frozenset[int]:
    """The partition spec ids of every manifest that any snapshot of the table references (the specs
    whose files a read or a time travel can reach); StatsUnavailable when a manifest list cannot be read."""
    from icelint.sources.redact import one_line

    try:
        from icelint.sources.remote import _file_io, _quiet
        from pyiceberg.table.metadata import TableMetadataUtil
    except ImportError as e:  # pragma: no cover - pyiceberg is a dependency
        raise StatsUnavailable(f"pyiceberg is not installed ({e})") from None
    try:
        meta = TableMetadataUtil.parse_raw(metadata_json)
    except Exception as e:  # noqa: BLE001 - pyiceberg is stricter than icelint's own reader
        raise StatsUnavailable(f"pyiceberg cannot read {origin}: {one_line(e, secrets)}") from None
    specs: set[int] = set()
    lists: set[str] = set()
    for snap in meta.snapshots:
        if snap.manifest_list in lists:
            continue
        lists.add(snap.manifest_list)
        if deadline is not None and time.monotonic() >= deadline:
            raise BudgetExceeded()
        try:
            with _quiet():
                for m in snap.manifests(_file_io(snap.manifest_list, properties or {})):
                    if m.added_files_count == 0 and m.existing_files_count == 0:
                        continue  # only deletes of files: nothing of this spec is live in the snapshot
                    specs.add(m.partition_spec_id)
        except FileNotFoundError as e:
            what = f"no such file {e.filename}" if getattr(e, "filename", None) else one_line(e, secrets)
            raise StatsUnavailable(f"cannot read the manifest list of snapshot {snap.snapshot_id}: {what}") from None
        except Exception as e:  # noqa: BLE001 - FileIO implementations raise their own types
            raise StatsUnavailable(f"cannot read the manifest list of snapshot {snap.snapshot_id}: {one_line(e, secrets)}") from None
    return frozenset(specs)

