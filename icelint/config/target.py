"""The Iceberg runtime a run's verdicts are for (`iceberg-version`): Spark 3.5 with Iceberg 1.10
(the default) or 1.9. Only behaviour measured on both runtimes differs by version; the page
docs/iceberg-versions.md lists each such verdict with what each runtime did."""

from __future__ import annotations

from icelint.values.source import InputError

ICEBERG_VERSIONS = ("1.9", "1.10")  # the runtimes icelint's verdicts were measured on
DEFAULT_ICEBERG_VERSION = "1.10"
MEASURED = {"1.9": "1.9.2", "1.10": "1.10.2"}  # the Iceberg release each version was measured with


def check_iceberg_version(value: object, where: str, error: type[InputError] = InputError) -> str:
    """`value` when it names a known runtime; else an `error` naming `where` (one line, exit 2)."""
    if isinstance(value, str) and value.strip() in ICEBERG_VERSIONS:
        return value.strip()
    known = " or ".join(f'"{v}"' for v in ICEBERG_VERSIONS)
    raise error(f"{where} must be {known} (the Iceberg runtime the verdicts are for), not {value!r}")


def accepts_column_defaults(version: str) -> bool:
    """Whether `ALTER TABLE ... ADD COLUMN c ... DEFAULT v` is accepted: Iceberg 1.9.2 accepts it and
    adds the column without its default; Iceberg 1.10.2 rejects it (differential cases 710-712)."""
    return version == "1.9"


def old_partition_sources_bind(version: str) -> bool:
    """Whether every partition spec of a table must find its source column: after dropping the source of
    an older spec's field, Iceberg 1.9.2 fails every read, write and time travel of the table (any
    transform, v1 and v2); Iceberg 1.10.2 keeps reading the table, and only some drops break its time
    travel or writes there (ICE003's documentation; differential cases 034-038, 045, 094, 097, 098, 410,
    500-515)."""
    return version == "1.9"
