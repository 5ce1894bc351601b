"""Replaying table properties, the location, branches and tags, and snapshot procedures."""

from __future__ import annotations

import re
from types import MappingProxyType

from icelint.values import changes as ch
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
# Spark's parser refuses its reserved keys in TBLPROPERTIES / OPTIONS (`AstBuilder.cleanTableProperties`)
_RESERVED_HINTS = {
    "provider": "please use the USING clause to specify it",
    "location": "please use the LOCATION clause to specify it",
    "owner": "it will be set to the current user",
    "external": "please use CREATE EXTERNAL TABLE",
    "is_managed_location": "please remove it from the TBLPROPERTIES list.",
}
# Validated when a table is created (`PropertyUtil.validateCommitProperties`)
_JAVA_INT = re.compile(r"[+-]?[0-9]+")
COMMIT_PROPERTIES = ("commit.retry.num-retries", "commit.retry.min-wait-ms", "commit.retry.max-wait-ms", "commit.retry.total-timeout-ms")
NEW_TABLE_DEFAULTS = (("write.parquet.compression-codec", "zstd"),)
DEFAULT_FORMAT_VERSION = 2
MAX_FORMAT_VERSION = 3


class PropertiesMixin:
    """SET / UNSET TBLPROPERTIES, SET LOCATION, branch and tag DDL, CALL (a mixin of `Replay`)."""

    def _set_properties(self, meta: TableMetadata, c: ch.SetProperties, step: ch.Commit) -> TableMetadata:
        check_reserved(c.properties)
        props = dict(meta.properties)
        version = meta.format_version
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
            elif k == "current-snapshot-id":
                self._check_snapshot(meta, step, v, "Cannot roll back to unknown snapshot id: {}")
            elif k == "cherry-pick-snapshot-id":
                self._check_snapshot(meta, step, v, "Cannot cherry-pick unknown snapshot ID: {}")
            elif k in RESERVED_PROPERTIES or k in ACTION_PROPERTIES:
                continue
            else:
                props[k] = v
        return meta.evolve(properties=MappingProxyType(props), format_version=version)

    def _unset_properties(self, meta: TableMetadata, c: ch.UnsetProperties, step: ch.Commit) -> TableMetadata:
        check_reserved((k, "") for k in c.keys)
        props = {k: v for k, v in meta.properties.items() if k not in c.keys}
        return meta.evolve(properties=MappingProxyType(props))

    def _set_location(self, meta: TableMetadata, c: ch.SetLocation, step: ch.Commit) -> TableMetadata:
        return meta.evolve(location=c.location)

    def _ref(self, meta: TableMetadata, c: ch.RefChange, step: ch.Commit) -> TableMetadata:
        """Iceberg's `UpdateSnapshotReferencesOperation` checks (branches and tags share one namespace)."""
        if c.snapshot_id is not None and c.verb != "drop":
            self._check_snapshot(meta, step, c.snapshot_id, f"Cannot set {c.name} to unknown snapshot: {{}}")
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
        if c.procedure == "fast_forward":
            return _fast_forward(c, meta)
        if c.procedure == "rollback_to_timestamp":
            _check_rollback_to_timestamp(c, meta)
        elif c.procedure in _SNAPSHOT_PROCEDURES:
            snapshot_id = _argument(c, "snapshot_id", 1)
            if snapshot_id is not None:
                self._check_snapshot(meta, step, snapshot_id, _SNAPSHOT_PROCEDURES[c.procedure])
            ref = _argument(c, "ref", 2) if c.procedure == "set_current_snapshot" else None
            if ref is not None and self._knows_snapshots(meta, step):
                name = ref.strip().strip("'\"")
                if name not in meta.refs:
                    raise ReplayError("procedure", f"Cannot find matching snapshot ID for ref {name}", "iceberg")
        return meta

    def _knows_snapshots(self, meta: TableMetadata, step: ch.Commit) -> bool:
        """Whether `meta.snapshots` lists every snapshot: the table's state came from a source (metadata,
        catalog) and was not replaced since; snapshots the scripts write have ids nobody can know."""
        initial = self.initial.get(self.resolve_table(step.table))
        return initial is not None and meta.snapshots is initial.snapshots

    def _check_snapshot(self, meta: TableMetadata, step: ch.Commit, raw: str | int, message: str) -> None:
        """A snapshot id named in DDL must be one of the table's snapshots (checked when they are known)."""
        try:
            snapshot_id = int(str(raw).strip().strip("'\"").rstrip("Ll"))
        except ValueError:
            return
        if not self._knows_snapshots(meta, step):
            return
        if not any(s.snapshot_id == snapshot_id for s in meta.snapshots):
            raise ReplayError("procedure", message.format(snapshot_id), "iceberg")


_SNAPSHOT_PROCEDURES = {
    "rollback_to_snapshot": "Cannot roll back to unknown snapshot id: {}",
    "set_current_snapshot": "Cannot roll back to unknown snapshot id: {}",
    "cherrypick_snapshot": "Cannot cherry-pick unknown snapshot ID: {}",
}


def _fast_forward(c: ch.CallProcedure, meta: TableMetadata) -> TableMetadata:
    """`fast_forward(table, branch, to)` (measured, differential case 634): `to` must be a ref (a branch
    or a tag); `branch` must be a branch, and is made when it does not exist. Whether `branch` is an
    ancestor of `to` depends on snapshots the migrations do not hold: not checked."""
    branch, to = (_ref_name(_argument(c, name, i)) for name, i in (("branch", 1), ("to", 2)))
    if to is not None and to != "main" and to not in meta.refs:
        raise ReplayError("procedure", f"Ref does not exist: {to}", "iceberg")
    if branch is None or branch == "main" or meta.refs.get(branch) == "branch":
        return meta
    if meta.refs.get(branch) == "tag":
        raise ReplayError("procedure", f"Ref {branch} is a tag not a branch", "iceberg")
    return meta.evolve(refs=MappingProxyType({**meta.refs, branch: "branch"}))


def _ref_name(raw: str | None) -> str | None:
    """A ref name given as a string literal; None for anything else (an expression icelint does not read)."""
    if raw is None:
        return None
    raw = raw.strip()
    if len(raw) >= 2 and raw[0] == raw[-1] and raw[0] in "'\"" and raw[0] not in raw[1:-1]:
        return raw[1:-1]
    return None


def _argument(c: ch.CallProcedure, name: str, position: int) -> str | None:
    """A procedure argument by name, else by position (`table` is position 0)."""
    named = next((v for k, v in c.args if k and k.lower() == name), None)
    if named is not None or any(k for k, _ in c.args if k):
        return named
    positional = [v for k, v in c.args if k is None]
    return positional[position] if len(positional) > position else None


def check_reserved(properties) -> None:
    """Spark's parser refuses its reserved keys in TBLPROPERTIES and OPTIONS."""
    for k, _ in properties:
        hint = _RESERVED_HINTS.get(k)
        if hint is not None:
            raise ReplayError(
                "property",
                f"[UNSUPPORTED_FEATURE.SET_TABLE_PROPERTY] The feature is not supported: {k} is a reserved table property, {hint}.",
                "spark",
            )


def unreadable_commit_property(properties) -> tuple[str, str] | None:
    """A commit.retry.* property that is no integer: every later commit of the table fails reading it
    (`SET TBLPROPERTIES` does not validate them; only a CREATE does)."""
    for k in COMMIT_PROPERTIES:
        v = properties.get(k)
        if v is not None and (not _JAVA_INT.fullmatch(v) or not -(2**31) <= int(v) < 2**31):
            return k, v
    return None


def check_commit_possible(meta: TableMetadata, changes, checked: dict[int, tuple] | None = None) -> None:
    """Commits of ALTER TABLE and DML read the retry properties first: an unreadable one fails them
    all, including the SET/UNSET that would repair it. `checked`: the replay's verdicts so far,
    id(properties) → (properties, its `unreadable_commit_property`); consecutive states share
    their (read-only) properties, so the verdict is worked out once for them."""
    props = meta.properties
    if checked is None:
        checked = {}
    hit = checked.get(id(props))
    if hit is not None and hit[0] is props:  # consecutive states share their (read-only) properties
        bad = hit[1]
    else:
        bad = unreadable_commit_property(props)
        if type(props) is MappingProxyType:  # a read-only view (the replay's): the verdict holds while it lives
            if len(checked) >= 64:
                checked.clear()
            checked[id(props)] = (props, bad)  # the entry holds `props`: its id is not reused
    if bad is None or not any(isinstance(c, _COMMITTING) for c in changes):
        return
    dml = any(isinstance(c, ch.WriteData) for c in changes)
    raise ReplayError("property", f'For input string: "{bad[1]}"', "iceberg" if dml else "iceberg-wrapped")


def validate_commit_properties(properties: dict[str, str]) -> None:
    """`PropertyUtil.validateCommitProperties`, run when a table is created."""
    for k in COMMIT_PROPERTIES:
        v = properties.get(k)
        if v is None:
            continue
        if not _JAVA_INT.fullmatch(v) or not -(2**31) <= int(v) < 2**31:  # Integer.parseInt
            raise ReplayError("property", f"Table property {k} must have integer value", "iceberg")
        if int(v) < 0:
            raise ReplayError("property", f"Table property {k} must have non negative integer value", "iceberg")


def format_version(v: str) -> int:
    try:
        n = int(str(v).strip())
    except ValueError:
        raise ReplayError("format-version", f'For input string: "{v}"', "iceberg-wrapped") from None
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


# changes committed through the table's retrying commit (branch/tag DDL and procedures: not measured)
_COMMITTING = (
    ch.AddColumn, ch.DeleteColumn, ch.RenameColumn, ch.UpdateColumnType, ch.UpdateColumnRequired, ch.UpdateColumnDoc,
    ch.MoveColumn, ch.ReplaceColumns, ch.HiveChangeColumn, ch.SetProperties, ch.UnsetProperties,
    ch.AddPartitionField, ch.DropPartitionField, ch.ReplacePartitionField, ch.SetWriteOrder,
    ch.SetIdentifierFields, ch.DropIdentifierFields, ch.WriteData,
)  # fmt: skip
