"""Table state from a live SparkSession, for pipelines that run on PySpark.

    from icelint.spark import table_state
    import icelint

    state = {"db.events": table_state(spark, "db.events")}
    findings = icelint.lint("migrations/0042_add_country.sql", state=state)

Spark is asked for the table's current metadata file through Iceberg's `metadata_log_entries`
metadata table (its latest entry is the current file), so whatever catalog the session is
configured with (Hive, Glue, REST, Hadoop, JDBC, Nessie) works without a second configuration. The
file is read locally when it is local; otherwise through Spark itself (the `binaryFile` source, with
the session's own storage credentials), and through pyiceberg's FileIO when Spark cannot.

`guard(spark)` checks migrations against that live state before Spark runs them
(`icelint.spark.guarding`, docs/spark-guard.md); `iceberg_jar()` is the Iceberg runtime jar the `spark`
extra installs, for `spark.jars` (`icelint.spark.runtime_jar`).

pyspark is never imported here: the session object is used as given.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from icelint.sources.spark_session import (  # noqa: F401 - the public door to the session's states
    _read_with_spark,
    current_metadata_file,
    load_state,
    table_state,
    table_states,
)

if TYPE_CHECKING:
    from icelint.spark.guarding import Guard

__all__ = ["current_metadata_file", "guard", "iceberg_jar", "table_state", "table_states"]


def guard(spark: Any, **options: Any) -> Guard:
    """An `icelint.spark.guarding.Guard` over `spark`: `.check(migration)`, `.run(migration)`, or `with
    guard(spark):` to check every `spark.sql` DDL statement before Spark runs it. `options`:
    `fail_on` ("error" | "warning" | "info"), `config` (a pyproject.toml, a folder to find it from,
    or a `Config`), `select`, `ignore`, `variables` ({name: value}), `logger` (a Logger or its name)."""
    from icelint.spark.guarding import Guard

    return Guard(spark, load_state, **options)


def iceberg_jar(scala: str | None = None) -> str:
    """The Iceberg Spark runtime jar the `spark` extra installs, checked to be one that runs (see
    `icelint.spark.runtime_jar.iceberg_jar`)."""
    from icelint.spark.runtime_jar import iceberg_jar as jar

    return jar(scala)
