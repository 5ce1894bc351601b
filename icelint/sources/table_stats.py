"""The counts of each table's current snapshot, read lazily: at most once per table and run, only when
a finding asks, within the run's budget (`--stats-budget SECONDS`, default 10).

Where the counts come from, in order: the sidecar `<db>.<table>.stats.json` next to a `--metadata`
file (written by `icelint snapshot`; used when its snapshot id is the metadata's current one), else
the manifests of the current snapshot (`sources/manifests.py`, through pyiceberg), reached with the
FileIO properties of the configured catalog. Whatever cannot be read (no credentials, a copied
metadata file whose manifests are elsewhere, the budget spent) is "unknown", with the reason said
on stderr under `-v`, never an error.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping

from icelint.model.stats import TableStats, sidecar_path

DEFAULT_BUDGET = 10.0


class StatsProvider:
    def __init__(self, resolved: Mapping[str, object], budget: float = DEFAULT_BUDGET,
                 properties: Callable[[], tuple[dict[str, str], tuple[str, ...]]] | None = None,
                 log: Callable[[str], None] | None = None) -> None:
        self._states = resolved  # table key → sources.LoadedState
        self.budget = budget
        self._properties = properties  # the catalog's FileIO properties and secrets, asked on first need
        self._log = log
        self._spent = 0.0
        self._cache: dict[str, TableStats | str] = {}
        self.reads = 0  # manifest lists read (the tests count them)
        self.incomplete = False  # a read failed or ran out of budget: the run's report is not cached (icelint.run.cache)

    def stats(self, key: str) -> TableStats | str:
        """The counts of `key`'s state, or the reason they are unknown."""
        got = self._cache.get(key)
        if got is None:
            got = self._cache[key] = self._load(key)
            if isinstance(got, str):
                self.incomplete = True
                if self._log:
                    self._log(f"{key}: data counts unknown: {got}")
        return got

    def _load(self, key: str) -> TableStats | str:
        state = self._states.get(key)
        if state is None:
            return "no state source for this table"
        meta = state.metadata  # type: ignore[attr-defined]
        side = _sidecar_of(state)
        if side is not None:
            got = _read_sidecar(side)
            if isinstance(got, TableStats) and got.snapshot_id == meta.current_snapshot_id:
                if self._log:
                    self._log(f"{key}: data counts from {side}")
                return got
            if self._log:
                why = got if isinstance(got, str) else f"it counts snapshot {got.snapshot_id}, the metadata's current one is {meta.current_snapshot_id}"
                self._log(f"{key}: ignoring {side}: {why}")
        if meta.current_snapshot_id is None:
            return TableStats(None, 0, 0, {})
        if self._spent >= self.budget:
            return "budget exceeded"
        missing = _missing_local_manifest_list(state.data, meta.current_snapshot_id)  # type: ignore[attr-defined]
        if missing is not None:  # a copied metadata file: said without importing pyiceberg
            return f"cannot read the manifests of snapshot {meta.current_snapshot_id}: no such file {missing}"
        from icelint.sources.manifests import StatsUnavailable, read_stats

        props, secrets = self._properties() if self._properties is not None else ({}, ())
        start = time.monotonic()
        try:
            self.reads += 1
            got = read_stats(state.data, state.origin, props, start + self.budget - self._spent, secrets)  # type: ignore[attr-defined]
        except StatsUnavailable as e:
            return str(e)
        finally:
            self._spent += time.monotonic() - start
        if self._log:
            self._log(f"{key}: data counts from the manifests of snapshot {got.snapshot_id} "
                      f"({got.data_files} data files, {time.monotonic() - start:.2f}s)")
        return got


    def written_specs(self, key: str) -> frozenset[int] | None:
        """The partition spec ids that hold files in some snapshot of `key`'s state (None: unknown)."""
        memo = self.__dict__.setdefault("_written_specs", {})
        if key in memo:
            return memo[key]
        memo[key] = None
        state = self._states.get(key)
        if state is None or self._spent >= self.budget:
            return None
        if not state.metadata.snapshots:  # type: ignore[attr-defined]
            memo[key] = frozenset()
            return memo[key]
        from icelint.sources.manifests import StatsUnavailable, written_spec_ids

        props, secrets = self._properties() if self._properties is not None else ({}, ())
        start = time.monotonic()
        try:
            memo[key] = written_spec_ids(state.data, state.origin, props, start + self.budget - self._spent, secrets)  # type: ignore[attr-defined]
        except StatsUnavailable as e:
            if self._log:
                self._log(f"{key}: the partition specs that hold files are unknown: {e}")
        finally:
            self._spent += time.monotonic() - start
        return memo[key]


def _missing_local_manifest_list(data: bytes, snapshot_id: int) -> str | None:
    """The current snapshot's manifest list when it is a local path that does not exist."""
    import json

    try:
        obj = json.loads(data)
        snap = next((x for x in obj.get("snapshots") or () if isinstance(x, dict) and x.get("snapshot-id") == snapshot_id), None)
        location = snap.get("manifest-list") if snap is not None else None
    except (ValueError, AttributeError, RecursionError):
        return None
    if not isinstance(location, str) or ("://" in location and not location.lower().startswith("file:")):
        return None
    from icelint.sources import _local_path

    path = _local_path(location)
    return None if os.path.exists(path) else path


def _sidecar_of(state) -> str | None:
    if state.source != "--metadata" or ("://" in state.origin and not state.origin.lower().startswith("file:")):
        return None
    from icelint.sources import _local_path

    side = sidecar_path(_local_path(state.origin))
    return side if side is not None and os.path.isfile(side) else None


def _read_sidecar(path: str) -> TableStats | str:
    import json

    try:
        with open(path, "rb") as fh:
            return TableStats.from_json(json.loads(fh.read().decode("utf-8")))
    except OSError as e:
        return f"cannot read it: {e.strerror or e}"
    except (ValueError, UnicodeDecodeError) as e:
        return f"not a stats sidecar: {e}"


def provider_for(states, resolved: Mapping[str, object], budget: float) -> StatsProvider:
    """The provider of a run whose states came from `states` (a `sources.States`)."""

    def properties() -> tuple[dict[str, str], tuple[str, ...]]:
        try:
            catalog = states.catalog()
            if catalog is None:
                return {}, ()
            return catalog.file_io_properties(), catalog.secrets
        except Exception:  # noqa: BLE001 - no catalog configuration: read without its properties
            return {}, ()

    return StatsProvider(resolved, budget, properties, states.opts.logger())
