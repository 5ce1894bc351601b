"""What every part of the replay shares: table keys, column paths, quoted names, "table not found"."""

from __future__ import annotations

from itertools import islice

from icelint.values import changes as ch
from icelint.values.changes import table_key  # noqa: F401 - where the replay's modules take it from
from icelint.replay.errors import ReplayError

Path = tuple[str, ...]


def parse_spark(sql: str):
    """sqlglot's tree of one statement (Spark's dialect), raising what sqlglot raises; without the
    warnings sqlglot logs for syntax it falls back on ("contains unsupported syntax"), which would
    reach the user's terminal: what icelint cannot judge, its own findings say."""
    import logging

    import sqlglot

    logger = logging.getLogger("sqlglot")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        return sqlglot.parse_one(sql, read="spark")
    finally:
        logger.setLevel(level)


SHOWN_FIELDS = 25  # Spark's spark.sql.debug.maxToStringFields: a struct in a message lists this many


def struct_text(schema) -> str:
    """`schema` as the `struct<...>` an error message quotes, its columns after the first
    `SHOWN_FIELDS` counted, not listed (as Spark truncates a long struct): a table of thousands of
    columns would put its whole schema in every message about it."""
    fields = schema.fields
    if len(fields) <= SHOWN_FIELDS:
        return str(schema.struct)
    shown = ", ".join(f"{f.name}: {f.type}" for f in islice(fields, SHOWN_FIELDS))
    return f"struct<{shown}, ... {len(fields) - SHOWN_FIELDS} more fields>"


def quoted(name: str) -> str:
    return ".".join(f"`{p}`" for p in name.split("."))


def not_found(step: ch.Commit) -> ReplayError:
    return ReplayError(
        "unknown-table",
        f"[TABLE_OR_VIEW_NOT_FOUND] The table or view {quoted(step.table)} cannot be found.",
        "spark",
        span=step.table_span,
    )

