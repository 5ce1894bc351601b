"""Reading Iceberg metadata.json (format v1, v2, v3) into a `TableMetadata`.

Follows Java's `TableMetadataParser.fromJson`: v1's single `schema` / `partition-spec` are used when
the lists are absent; partition field ids of a v1 `partition-spec` are assigned from 1000.
"""

from __future__ import annotations

import gzip
import zlib
from types import MappingProxyType
from typing import Any

from icelint.model.table import (
    UNSORTED,
    PartitionField,
    PartitionSpec,
    Schema,
    Snapshot,
    SortField,
    SortOrder,
    TableMetadata,
)
from icelint.model.storage import fastload
from icelint.model.data import from_snapshot
from icelint.model.types import field_from_json, repeated_id
from icelint.model.jsontext import loads
from icelint.model.validate import FAULTS, CheckedLazySchema, MetadataError, explain
from icelint.values.source import InputError

SUPPORTED_FORMAT_VERSIONS = (1, 2, 3)


def parse_metadata_bytes(data: bytes, origin: str) -> TableMetadata:
    """Parse metadata.json bytes (gzip allowed); `origin` names the file in errors."""
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise InputError(f"{origin}: corrupt gzip metadata file ({e})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{origin}: not a metadata.json file (not UTF-8 text)") from None
    if not text.strip():
        raise InputError(f"{origin}: empty file, expected Iceberg table metadata JSON")
    if len(data) >= fastload.THRESHOLD:
        cut = fastload.split(text, field_from_json, origin)
        if cut is not None:
            head, schemas = cut
            head["schemas"] = schemas  # the current one decoded, older ones as text
            return metadata_from_json(head, origin)
    return metadata_from_json(loads(text, origin), origin)


def metadata_from_json(obj: Any, origin: str) -> TableMetadata:
    if not isinstance(obj, dict) or "format-version" not in obj:
        raise InputError(f"{origin}: not Iceberg table metadata (no 'format-version' key)")
    version = obj["format-version"]
    if type(version) is not int or version not in SUPPORTED_FORMAT_VERSIONS:
        shown = repr(version) if isinstance(version, (int, float, str)) and len(repr(version)) < 40 else "of that kind"
        raise InputError(f"{origin}: unsupported Iceberg format version {shown} (icelint reads versions 1, 2 and 3)")
    try:
        return _parse(obj, version, origin)
    except MetadataError:
        raise
    except FAULTS as e:  # the fast path tripped: the strict walk names the JSON path of the problem
        raise explain(origin, obj, version, e) from None


def _schema(obj: dict[str, Any], default_id: int = 0) -> Schema:
    if obj.get("type", "struct") != "struct":
        raise ValueError("schema is not a struct")
    fields = tuple(field_from_json(f) for f in obj["fields"])
    if repeated_id(fields) is not None:
        raise ValueError("a field id used twice")  # the strict walk (`validate.explain`) names where
    return Schema(int(obj.get("schema-id", default_id)), fields, tuple(int(i) for i in obj.get("identifier-field-ids") or ()))


def _lazy_schema(obj: dict[str, Any], origin: str, where: str) -> Schema:
    """Older schemas are parsed on first use (a 500-version history costs nothing until needed)."""
    if obj.get("type", "struct") != "struct" or not isinstance(obj.get("fields"), list):
        raise ValueError("schema is not a struct")
    return CheckedLazySchema(obj, field_from_json, origin, where)


def _int_or_none(v: Any) -> int | None:
    return None if v is None else int(v)


def _spec_fields(fields: list[dict[str, Any]], next_id: int) -> tuple[PartitionField, ...]:
    out = []
    for f in fields:
        if "field-id" in f:
            fid = int(f["field-id"])
        else:
            fid = next_id
        next_id = fid + 1
        source = f["source-id"] if "source-id" in f else f["source-ids"][0]
        out.append(PartitionField(int(source), fid, str(f["name"]), str(f["transform"])))
    return tuple(out)


def _total_records(obj: dict[str, Any], snapshot_id: Any) -> int | None:
    """`total-records` of the current snapshot's summary (None: no snapshot, or no such key)."""
    if snapshot_id is None:
        return None
    for s in obj.get("snapshots") or ():
        if isinstance(s, dict) and s.get("snapshot-id") == snapshot_id:
            raw = (s.get("summary") or {}).get("total-records") if isinstance(s.get("summary"), dict) else None
            try:
                return int(raw) if raw is not None else None
            except (TypeError, ValueError):
                return None
    return None


def _parse(obj: dict[str, Any], version: int, origin: str) -> TableMetadata:
    if "schemas" in obj:
        current_schema_id = int(obj["current-schema-id"])
        schemas = tuple(
            sorted(
                (
                    s if isinstance(s, Schema)
                    else _schema(s) if int(s.get("schema-id", 0)) == current_schema_id
                    else _lazy_schema(s, origin, f"schemas[{i}]")
                    for i, s in enumerate(obj["schemas"])
                ),
                key=lambda s: s.schema_id,
            )
        )
    elif version == 1 and "schema" in obj:
        schemas = (_schema(obj["schema"]),)
        current_schema_id = schemas[0].schema_id
    else:
        raise KeyError("schemas")
    if not any(s.schema_id == current_schema_id for s in schemas):
        raise ValueError(f"current-schema-id {current_schema_id} is not in schemas")

    if "partition-specs" in obj:
        specs = tuple(
            PartitionSpec(int(s["spec-id"]), _spec_fields(s.get("fields", []), 1000)) for s in obj["partition-specs"]
        )
        default_spec_id = int(obj["default-spec-id"])
    elif version == 1 and "partition-spec" in obj:
        specs = (PartitionSpec(0, _spec_fields(obj["partition-spec"], 1000)),)
        default_spec_id = 0
    else:
        raise KeyError("partition-specs")
    if not any(s.spec_id == default_spec_id for s in specs):
        raise ValueError(f"default-spec-id {default_spec_id} is not in partition-specs")
    highest_partition_id = max((f.field_id for s in specs for f in s.fields), default=999)
    last_partition_id = int(obj.get("last-partition-id", highest_partition_id))

    if "sort-orders" in obj:
        orders = tuple(
            SortOrder(
                int(o["order-id"]),
                tuple(
                    SortField(
                        str(f["transform"]),
                        int(f["source-id"] if "source-id" in f else f["source-ids"][0]),
                        str(f["direction"]),
                        str(f["null-order"]),
                    )
                    for f in o.get("fields", [])
                ),
            )
            for o in obj["sort-orders"]
        )
        default_order = int(obj.get("default-sort-order-id", 0))
    else:
        orders, default_order = (UNSORTED,), 0

    snapshots = tuple(
        Snapshot(int(s["snapshot-id"]), _int_or_none(s.get("schema-id")), int(s.get("timestamp-ms", 0)))
        for s in obj.get("snapshots") or ()
    )
    current_snapshot = obj.get("current-snapshot-id")
    if current_snapshot in (-1, None):
        current_snapshot = None
    else:
        current_snapshot = int(current_snapshot)
    has_data, data_origin = from_snapshot(current_snapshot, _total_records(obj, current_snapshot))
    props = obj.get("properties") or {}
    if not isinstance(props, dict) or not all(isinstance(v, str) for v in props.values()):
        raise ValueError("properties is not an object of strings")
    return TableMetadata(
        format_version=version,
        schemas=schemas,
        current_schema_id=current_schema_id,
        last_column_id=int(obj["last-column-id"]),
        specs=specs,
        default_spec_id=default_spec_id,
        last_partition_id=last_partition_id,
        sort_orders=orders,
        default_sort_order_id=default_order,
        properties=MappingProxyType({str(k): str(v) for k, v in props.items()}),
        location=obj.get("location"),
        table_uuid=obj.get("table-uuid"),
        snapshots=snapshots,
        current_snapshot_id=current_snapshot,
        has_data=has_data,
        data_origin=data_origin,
        refs=MappingProxyType(
            {str(k): str(v.get("type", "branch")) for k, v in (obj.get("refs") or {}).items() if isinstance(v, dict)}
            or ({"main": "branch"} if current_snapshot is not None else {})
        ),
    )
