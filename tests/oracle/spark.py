"""Run real Spark 3.5 + Iceberg 1.10 locally, as a test oracle.

Requirements: ``pyspark==3.5.9``, ``snowpark-connect-deps-iceberg`` (ships the Iceberg Spark
runtime jar; the ``spark`` extra pins the release whose jar bundles Iceberg's relocated Jackson
classes) and a ``java`` on PATH.  For a runtime jar without those classes (1.0.3's), the relocated
Jackson jar is built by :mod:`tests.oracle.jackson` and added to ``spark.jars``.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any, Iterator

RUNTIME_JAR_NAME = "iceberg-spark-runtime-3.5_2.12-1.10.2.jar"


def runtime_jar() -> Path:
    """The Iceberg Spark runtime jar (Scala 2.12 build, matching pyspark 3.5)."""
    import snowpark_connect_deps_iceberg

    jar = Path(snowpark_connect_deps_iceberg.get_jars_dir()) / RUNTIME_JAR_NAME
    if not jar.is_file():
        raise FileNotFoundError(f"{RUNTIME_JAR_NAME} not found in {jar.parent}")
    return jar


def spark_jars() -> list[Path]:
    """The jars of the oracle's session: the runtime jar, and the relocated Jackson jar when the
    runtime jar lacks those classes."""
    from icelint.spark_setup import bundles_relocated_jackson

    from .jackson import relocated_jackson_jar

    jar = runtime_jar()
    return [jar] if bundles_relocated_jackson(jar) else [jar, relocated_jackson_jar()]


def spark_available() -> tuple[bool, str]:
    """Whether the oracle can run here; the reason when it cannot."""
    for module, package in (("pyspark", "pyspark==3.5.9"),
                            ("snowpark_connect_deps_iceberg", "snowpark-connect-deps-iceberg==1.0.2"),
                            ("sqlglot", "sqlglot")):
        if importlib.util.find_spec(module) is None:
            return False, f"Python package {module!r} is not installed (pip install {package})"
    if shutil.which("java") is None:
        return False, "no 'java' executable on PATH (Spark needs Java 17)"
    try:
        runtime_jar()
    except (FileNotFoundError, ImportError) as exc:
        return False, str(exc)
    return True, ""


def start_session(warehouse: Path) -> Any:
    """A local SparkSession with an Iceberg Hadoop catalog ``local`` at ``warehouse``.

    ``local`` is the default catalog, so statements can say ``db.orders``.
    Only one SparkContext can live in a process: if one is already running, it is
    returned when its warehouse is the same, else a RuntimeError is raised (stop
    the other session first with ``spark.stop()``).
    """
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    warehouse = Path(warehouse)
    warehouse.mkdir(parents=True, exist_ok=True)
    if SparkContext._active_spark_context is not None:
        running = SparkSession.builder.getOrCreate()
        current = running.conf.get("spark.sql.catalog.local.warehouse", None)
        if current != str(warehouse.resolve()):
            raise RuntimeError(
                f"a SparkSession with warehouse {current!r} is already running; "
                "reuse it or stop it before starting another"
            )
        return running
    jars = ",".join(str(p) for p in spark_jars())
    spark = (
        SparkSession.builder.master("local[1]")
        .appName("icelint-oracle")
        .config("spark.jars", jars)
        .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
        .config("spark.sql.catalog.local", "org.apache.iceberg.spark.SparkCatalog")
        .config("spark.sql.catalog.local.type", "hadoop")
        .config("spark.sql.catalog.local.warehouse", str(warehouse.resolve()))
        .config("spark.sql.defaultCatalog", "local")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.shuffle.partitions", "1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def reset_namespace(spark: Any, ns: str) -> None:
    """Drop every table of namespace ``ns`` (with PURGE) and recreate it empty."""
    spark.sql(f"CREATE NAMESPACE IF NOT EXISTS {ns}")
    for row in spark.sql(f"SHOW TABLES IN {ns}").collect():
        spark.sql(f"DROP TABLE IF EXISTS {ns}.{row['tableName']} PURGE")
    spark.sql(f"DROP NAMESPACE IF EXISTS {ns}")
    spark.sql(f"CREATE NAMESPACE {ns}")


def table_dir(warehouse: Path, table: str) -> Path:
    """``<warehouse>/<db>/<t>`` for ``table`` = ``"db.t"``."""
    return Path(warehouse).joinpath(*table.split("."))


def metadata_path(warehouse: Path, table: str) -> Path:
    """The current metadata file of ``table`` (``"db.t"``), via version-hint.text."""
    meta = table_dir(warehouse, table) / "metadata"
    version = (meta / "version-hint.text").read_text().strip()
    path = meta / f"v{version}.metadata.json"
    if not path.is_file():
        raise FileNotFoundError(path)
    return path


def load_metadata(warehouse: Path, table: str) -> dict:
    """The parsed current metadata.json of ``table``."""
    return json.loads(metadata_path(warehouse, table).read_text())


def error_line(exc: BaseException) -> str:
    """The first non-empty line of a Spark/Iceberg error (no JVM stack trace)."""
    text = getattr(exc, "desc", None)  # pyspark's CapturedException: JVM getMessage()
    if text is None and hasattr(exc, "java_exception"):  # raw Py4JJavaError
        java = exc.java_exception
        text = java.getMessage() or java.toString()
    if text is None:
        text = str(exc)
    for line in str(text).splitlines():
        if line.strip():
            return line.strip()
    return type(exc).__name__


def split_statements(text: str) -> list[tuple[int, str]]:
    """Split SQL ``text`` into statements: ``(line of first token, statement text)``.

    Uses sqlglot's Spark tokenizer, so semicolons inside strings and comments are
    not split points; comments between statements are dropped.
    """
    from sqlglot.dialects.spark import Spark
    from sqlglot.tokens import TokenType

    statements: list[tuple[int, str]] = []
    current: list[Any] = []

    def flush() -> None:
        if current:
            first, last = current[0], current[-1]
            statements.append((first.line, text[first.start : last.end + 1]))
            current.clear()

    for token in Spark().tokenize(text):
        if token.token_type == TokenType.SEMICOLON:
            flush()
        else:
            current.append(token)
    flush()
    return statements


REQUIRE_SPARK = "ICELINT_REQUIRE_SPARK"


def required(env: str = REQUIRE_SPARK) -> bool:
    """Whether the environment variable `env` is set to a true value: a missing Spark (or reader)
    then fails the tests that need it instead of skipping them, as CI wants."""
    import os

    return os.environ.get(env, "").strip() not in ("", "0", "false", "no")


class SuiteSession:
    """The Spark oracle of the tests that use the session fixture `fixture`: the fixture starts it
    on first use and `hold`s it; the suite's `pytest_runtest_teardown` calls `teardown`, which stops
    it after the last test that uses it, so that later tests of the run can start their own (only
    one SparkContext can live in a process)."""

    def __init__(self, fixture: str) -> None:
        self.fixture = fixture
        self.oracles: list[Any] = []

    @contextlib.contextmanager
    def hold(self, oracle: Any) -> Iterator[Any]:
        self.oracles.append(oracle)
        try:
            yield oracle
        finally:
            oracle.stop()

    def teardown(self, item: Any, nextitem: Any) -> bool:
        """Stop the oracle if `item` uses the fixture and `nextitem` does not; True when it did."""
        uses = self.fixture in getattr(item, "fixturenames", ())
        next_uses = nextitem is not None and self.fixture in getattr(nextitem, "fixturenames", ())
        if uses and not next_uses:
            for oracle in self.oracles:
                oracle.stop()
            return True
        return False


@contextlib.contextmanager
def namespace_session(tmp_path_factory: Any, ns: str, label: str) -> Iterator[tuple[Any, Path]]:
    """(spark, warehouse) for a test module that owns the namespace `ns`: the running session when
    there is one (one SparkContext per process: the suite's), else a new one stopped afterwards.
    Skips, or fails under `ICELINT_REQUIRE_SPARK=1`, when Spark is unavailable. The namespace is
    emptied before and dropped after."""
    import pytest

    ok, reason = spark_available()
    if not ok:
        if required():
            pytest.fail(f"ICELINT_REQUIRE_SPARK=1 but Spark is unavailable: {reason}", pytrace=False)
        pytest.skip(f"Spark oracle unavailable: {reason}")
    from pyspark import SparkContext
    from pyspark.sql import SparkSession

    started = SparkContext._active_spark_context is None
    if started:
        warehouse = tmp_path_factory.mktemp(label) / "warehouse"
        spark = start_session(warehouse)
    else:
        spark = SparkSession.builder.getOrCreate()
        warehouse = Path(spark.conf.get("spark.sql.catalog.local.warehouse"))
    reset_namespace(spark, ns)
    try:
        yield spark, warehouse
    finally:
        reset_namespace(spark, ns)
        spark.sql(f"DROP NAMESPACE IF EXISTS {ns}")
        if started:
            spark.stop()
