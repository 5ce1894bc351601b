"""Replaying table properties, the location, branches and tags, and snapshot procedures."""

from __future__ import annotations

from types import MappingProxyType

from icelint import changes as ch
from icelint.model.table import TableMetadata
from icelint.replay.errors import ReplayError

# Keys Iceberg never persists in `properties` (TableProperties.RESERVED_PROPERTIES) and the ones
# SparkCatalog turns into actions.
RESERVED_PROPERTIES = frozenset(
    {"format-version", "uuid", "snapshot-count", "current-snapshot-id", "current-snapshot-summary",
     "current-snapshot-timestamp-ms", "current-schema", "default-partition-spec", "default-sort-order"}
)  # fmt: skip
ACTION_PROPERTIES = frozenset({"location", "current-snapshot-id", "cherry-pick-snapshot-id"})
SPARK_RESERVED = frozenset({"provider", "location", "owner", "external", "is_managed_location"})
NEW_TABLE_DEFAULTS = (("write.parquet.compression-codec", "zstd"),)
DEFAULT_FORMAT_VERSION = 2
MAX_FORMAT_VERSION = 3


class PropertiesMixin:
    """SET / UNSET TBLPROPERTIES, SET LOCATION, branch and tag DDL, CALL (a mixin of `Replay`)."""

    def _set_properties(self, meta: TableMetadata, c: ch.SetProperties, step: ch.Commit) -> TableMetadata:
        props = dict(meta.properties)
        version = meta.format_version
        location = meta.location
        for k, v in c.properties:
            if k in ("sort-order", "identifier-fields"):
                cmd = "ALTER TABLE ... WRITE ORDERED BY" if k == "sort-order" else "ALTER TABLE ... SET IDENTIFIER FIELDS"
                what = "write sort-orders" if k == "sort-order" else "identifier fields"
                raise ReplayError(
                    "unsupported",
                    f"Cannot specify the '{k}' because it's a reserved table property. Please use the command '{cmd}' to specify {what}.",
                    "spark",
                )
        for k, v in c.properties:
            if k == "format-version":
                new = format_version(v)
                if new < version:
                    raise ReplayError("format-version", f"Cannot downgrade v{version} table to v{new}", "iceberg-wrapped")
                version = new
            elif k == "location":
                location = v
            elif k in RESERVED_PROPERTIES or k in ACTION_PROPERTIES:
                continue
            else:
                props[k] = v
        return meta.evolve(properties=MappingProxyType(props), format_version=version, location=location)

    def _unset_properties(self, meta: TableMetadata, c: ch.UnsetProperties, step: ch.Commit) -> TableMetadata:
        props = {k: v for k, v in meta.properties.items() if k not in c.keys}
        return meta.evolve(properties=MappingProxyType(props))

    def _set_location(self, meta: TableMetadata, c: ch.SetLocation, step: ch.Commit) -> TableMetadata:
        return meta.evolve(location=c.location)

    def _ref(self, meta: TableMetadata, c: ch.RefChange, step: ch.Commit) -> TableMetadata:
        """Iceberg's `UpdateSnapshotReferencesOperation` checks (branches and tags share one namespace)."""
        refs = dict(meta.refs)
        exists = c.name in refs
        what = c.kind.capitalize()
        if c.verb == "drop":
            if not exists or refs[c.name] != c.kind:
                if c.if_exists:
                    return meta
                raise ReplayError("unsupported", f"{what} does not exist: {c.name}", "iceberg")
            del refs[c.name]
        elif c.verb == "create":
            if exists:
                if c.if_exists:
                    return meta
                raise ReplayError("unsupported", f"Ref {c.name} already exists", "iceberg")
            refs[c.name] = c.kind
        elif c.verb == "replace":
            if not exists:
                raise ReplayError("unsupported", f"{what} does not exist: {c.name}", "iceberg")
        else:  # create or replace
            refs[c.name] = c.kind
        return meta.evolve(refs=MappingProxyType(refs))

    def _procedure(self, meta: TableMetadata, c: ch.CallProcedure, step: ch.Commit) -> TableMetadata:
        if c.procedure == "rollback_to_timestamp":
            _check_rollback_to_timestamp(c, meta)
        return meta


def format_version(v: str) -> int:
    try:
        n = int(str(v).strip())
    except ValueError:
        raise ReplayError("format-version", f"Invalid format version: {v}", "iceberg-wrapped") from None
    if n > MAX_FORMAT_VERSION or n < 1:
        raise ReplayError(
            "format-version", f"Cannot upgrade table to unsupported format version: v{n} (supported: v{MAX_FORMAT_VERSION})", "iceberg-wrapped"
        )
    return n


def _check_rollback_to_timestamp(c: ch.CallProcedure, meta: TableMetadata) -> None:
    """`rollback_to_timestamp` needs a snapshot older than the timestamp (session time zone: UTC assumed)."""
    import datetime as dt

    raw = next((v for k, v in c.args if k and k.lower() == "timestamp"), None)
    if raw is None:
        positional = [v for k, v in c.args if k is None]
        raw = positional[1] if len(positional) > 1 else None
    if raw is None:
        return
    text = raw.strip()
    if text.upper().startswith("TIMESTAMP"):
        text = text[len("TIMESTAMP") :].strip()
    text = text.strip("'\"")
    try:
        when = dt.datetime.fromisoformat(text)
    except ValueError:
        return
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.timezone.utc)
    ts = int(when.timestamp() * 1000)
    if ts >= int(dt.datetime.now(dt.timezone.utc).timestamp() * 1000):
        return  # snapshots written by the scripts may be older than that
    if not any(s.timestamp_ms < ts for s in meta.snapshots):
        raise ReplayError("procedure", f"Cannot roll back, no valid snapshot older than: {ts}", "iceberg")
