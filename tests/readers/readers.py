"""Read a table Spark wrote with the real readers (chDB's `icebergLocal`, pyiceberg) and count its values.

Every reader returns a :class:`Reading`: the error line when the read fails, else the row count and
the non-null values per field id of the current schema (nested fields too: struct fields, list
elements, map keys and values), counted from the rows the reader returned, so that readings of
different engines compare field by field.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

READERS = ("clickhouse", "pyiceberg")  # the readers measured against Spark (Spark is the reference)


@dataclass
class Reading:
    error: str | None = None
    rows: int = 0
    counts: dict[int, int] = field(default_factory=dict)  # field id → non-null values

    def differs(self, spark: Reading, names: dict[int, str]) -> str | None:
        """What this reading does differently from Spark's (None: the same)."""
        if self.error is not None:
            return f"fails: {self.error}"
        if self.rows != spark.rows:
            return f"wrong: {self.rows} rows, Spark {spark.rows}"
        ids = sorted(set(names) | set(spark.counts) | set(self.counts))
        diff = [f"{names.get(fid, fid)}: {self.counts.get(fid, 0)} values, Spark {spark.counts.get(fid, 0)}"
                for fid in ids if self.counts.get(fid, 0) != spark.counts.get(fid, 0)]
        return "wrong: " + "; ".join(diff) if diff else None


def current_schema(meta: dict) -> dict:
    return next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])


def field_names(schema: dict) -> dict[int, str]:
    out: dict[int, str] = {}

    def walk(t: Any, fid: int, path: str) -> None:
        out[fid] = path
        if isinstance(t, dict):
            if t["type"] == "struct":
                for f in t["fields"]:
                    walk(f["type"], f["id"], f"{path}.{f['name']}")
            elif t["type"] == "list":
                walk(t["element"], t["element-id"], f"{path}.element")
            elif t["type"] == "map":
                walk(t["key"], t["key-id"], f"{path}.key")
                walk(t["value"], t["value-id"], f"{path}.value")

    for f in schema["fields"]:
        walk(f["type"], f["id"], f["name"])
    return out


def _get(value: Any, name: str) -> Any:
    if not isinstance(value, dict):
        return None
    if name in value:
        return value[name]
    low = {str(k).lower(): v for k, v in value.items()}
    return low.get(name.lower())


def count_values(rows: list[dict], schema: dict) -> Reading:
    counts: dict[int, int] = defaultdict(int)

    def walk(t: Any, v: Any, fid: int) -> None:
        if v is None:
            return
        counts[fid] += 1
        if not isinstance(t, dict):
            return
        if t["type"] == "struct":
            for f in t["fields"]:
                walk(f["type"], _get(v, f["name"]), f["id"])
        elif t["type"] == "list":
            for e in v:
                walk(t["element"], e, t["element-id"])
        elif t["type"] == "map":
            for k, x in (v.items() if isinstance(v, dict) else v):
                walk(t["key"], k, t["key-id"])
                walk(t["value"], x, t["value-id"])

    for row in rows:
        for f in schema["fields"]:
            walk(f["type"], _get(row, f["name"]), f["id"])
    return Reading(rows=len(rows), counts=dict(counts))


def first_line(exc: BaseException) -> str:
    for line in str(exc).splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__


def read_spark(spark: Any, table: str, meta: dict) -> Reading:
    try:
        rows = [r.asDict(recursive=True) for r in spark.sql(f"SELECT * FROM {table}").collect()]
    except Exception as exc:  # noqa: BLE001 - the error is the observation
        from tests.differential.harness import spark_error

        return Reading(error=spark_error(exc))
    return count_values(rows, current_schema(meta))


_copies = itertools.count()


def read_clickhouse(warehouse: Path, table: str, meta: dict) -> Reading:
    """`SELECT * FROM icebergLocal('<db>/<t>')`, run in chDB with the warehouse as current directory
    (chDB only reads files under its user_files_path, the current directory).

    chDB caches Iceberg metadata files by path within the process, and every case recreates
    `db.events` with `v1.metadata.json`, ...: each read gets a fresh copy of the table folder
    (`_chdb/<n>/<t>`), else a read could see the metadata of an earlier case.
    """
    import chdb

    src = warehouse.joinpath(*table.split("."))
    rel = f"_chdb/{next(_copies)}/{src.name}"
    shutil.copytree(src, warehouse / rel)
    cwd = os.getcwd()
    os.chdir(warehouse)
    try:
        out = chdb.query(f"SELECT * FROM icebergLocal('{rel}')", "JSONEachRow").data()
    except Exception as exc:  # noqa: BLE001
        return Reading(error=first_line(exc))
    finally:
        os.chdir(cwd)
        shutil.rmtree(warehouse / rel, ignore_errors=True)
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    return count_values(rows, current_schema(meta))


def read_pyiceberg(metadata_file: Path, meta: dict) -> Reading:
    """`StaticTable.from_metadata(<metadata.json>).scan().to_arrow()` (the pinned pyiceberg)."""
    from pyiceberg.table import StaticTable

    try:
        rows = StaticTable.from_metadata(str(metadata_file)).scan().to_arrow().to_pylist()
    except Exception as exc:  # noqa: BLE001
        return Reading(error=f"{type(exc).__name__}: {first_line(exc)}")
    return count_values(rows, current_schema(meta))


def readers_available() -> tuple[bool, str]:
    import importlib.util

    for module, package in (("chdb", "chdb>=4.4"), ("pyarrow", "pyarrow>=17"), ("pyiceberg", "pyiceberg")):
        if importlib.util.find_spec(module) is None:
            return False, f"Python package {module!r} is not installed (pip install {package})"
    return True, ""
