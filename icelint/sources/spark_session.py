"""Table state from a live SparkSession (`icelint.spark` is the public door to these).

Spark is asked for the table's current metadata file through Iceberg's `metadata_log_entries`
metadata table (its latest entry is the current file), so whatever catalog the session is
configured with works without a second configuration. The file is read locally when it is local;
otherwise through Spark itself (the `binaryFile` source, with the session's own storage
credentials), and through pyiceberg's FileIO when Spark cannot. pyspark is never imported here.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from icelint.model.table import TableMetadata
from icelint.sources import LoadedState, read_metadata_state
from icelint.sources.redact import one_line
from icelint.values.source import InputError

__all__ = ["current_metadata_file", "load_state", "table_state", "table_states"]


def _error_text(exc: BaseException) -> str:
    text = getattr(exc, "desc", None)  # pyspark's CapturedException: the JVM message
    if text is None and hasattr(exc, "java_exception"):
        java = exc.java_exception
        text = java.getMessage() or java.toString()
    return one_line(str(text) if text is not None else exc)


def _is_missing(text: str) -> bool:
    low = text.lower()
    return "table_or_view_not_found" in low or "table or view not found" in low or "cannot be found" in low \
        or "schema_not_found" in low or "no such table" in low


def current_metadata_file(spark: Any, table: str) -> str:
    """The location of the current metadata.json of `table` (`db.t` or `catalog.db.t`), as Spark sees it."""
    query = f"SELECT file FROM {table}.metadata_log_entries ORDER BY timestamp DESC LIMIT 1"
    try:
        rows = spark.sql(query).collect()
    except Exception as e:  # noqa: BLE001 - AnalysisException, Py4JJavaError...
        text = _error_text(e)
        if _is_missing(text):
            raise InputError(f"{table}: no such table in the Spark session's catalog ({text})") from None
        raise InputError(f"{table}: Spark cannot list its metadata files (is it an Iceberg table?): {text}") from None
    if not rows or not rows[0][0]:
        raise InputError(f"{table}: Spark reports no metadata file (empty metadata_log_entries)")
    return str(rows[0][0])


def _is_local(location: str) -> bool:
    return "://" not in location or location.lower().startswith("file:")


def _read_with_spark(spark: Any, location: str) -> bytes:
    rows = spark.read.format("binaryFile").load(location).select("content").collect()
    if not rows:
        raise FileNotFoundError(location)
    return bytes(rows[0][0])


def load_state(spark: Any, table: str) -> LoadedState:
    """Like `table_state`, with the metadata.json bytes and their location."""
    location = current_metadata_file(spark, table)
    if _is_local(location):
        return read_metadata_state(location, "spark")
    try:
        data = _read_with_spark(spark, location)
    except Exception:  # noqa: BLE001 - fall back to pyiceberg's FileIO and its credentials
        return read_metadata_state(location, "spark")
    from icelint.model.metadata import parse_metadata_bytes
    from icelint.sources import _decompressed

    return LoadedState(parse_metadata_bytes(data, location), _decompressed(data, location), location, "spark")


def table_state(spark: Any, table: str) -> TableMetadata:
    """The current state of Iceberg table `table` in the session's catalog (raises `InputError`)."""
    return load_state(spark, table).metadata


def table_states(spark: Any, tables: Iterable[str], missing_ok: bool = False) -> dict[str, TableMetadata]:
    """`{table: state}` for several tables; with `missing_ok`, tables Spark does not know are left out."""
    from icelint.replay.engine import table_key

    out: dict[str, TableMetadata] = {}
    for t in tables:
        try:
            out[table_key(t)] = table_state(spark, t)
        except InputError as e:
            if missing_ok and "no such table" in str(e):
                continue
            raise
    return out
