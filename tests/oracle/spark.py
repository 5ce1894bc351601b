"""Run real Spark 3.5 + Iceberg 1.10 (or 1.9) locally, as a test oracle.

Requirements (see /work/shared/reference/spark-oracle.md): ``pyspark==3.5.9``,
``snowpark-connect-deps-iceberg`` (the ``spark`` extra's release ships the Iceberg 1.10.2 Spark
runtime jar with Iceberg's relocated Jackson classes) and a ``java`` on PATH.  For a runtime jar
without those classes (1.0.3's), the relocated Jackson jar is built by :mod:`tests.oracle.jackson`;
the Iceberg 1.9.2 runtime jar is fetched on demand (:mod:`tests.oracle.runtimes`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import shutil
from pathlib import Path
from typing import Any, Iterator

from .runtimes import DEFAULT as DEFAULT_RUNTIME
from .runtimes import runtime as runtime_info
from .runtimes import runtime_jar, session_jars

RUNTIME_JAR_NAME = runtime_info(DEFAULT_RUNTIME).jar_name


def spark_jars() -> list[Path]:
    """The jars of the oracle's default session (Iceberg 1.10)."""
    return session_jars(DEFAULT_RUNTIME)


def spark_available(runtime: str = DEFAULT_RUNTIME) -> tuple[bool, str]:
    """Whether the oracle can run here on Iceberg runtime `runtime` ("1.10", "1.9"); the reason when
    it cannot (the 1.9 jar is fetched on first use: tests/oracle/runtimes.py)."""
    for module, package in (("pyspark", "pyspark==3.5.9"),
                            ("snowpark_connect_deps_iceberg", "snowpark-connect-deps-iceberg==1.0.2"),
                            ("sqlglot", "sqlglot")):
        if importlib.util.find_spec(module) is None:
            return False, f"Python package {module!r} is not installed (pip install {package})"
    if shutil.which("java") is None:
        return False, "no 'java' executable on PATH (Spark needs Java 17)"
    try:
        runtime_jar(runtime)
    except (FileNotFoundError, ImportError, ValueError) as exc:
        return False, str(exc)
    return True, ""


def start_session(warehouse: Path, runtime: str = DEFAULT_RUNTIME) -> Any:
    """A local SparkSession with an Iceberg Hadoop catalog ``local`` at ``warehouse``, on the Iceberg
    runtime `runtime` ("1.10": 1.10.2, "1.9": 1.9.2; tests/oracle/runtimes.py).

    ``local`` is the default catalog, so statements can say ``db.orders``.
    Only one SparkContext can live in a process: if one is already running, it is
    returned when its warehouse is the same, else a RuntimeError is raised (stop
    the other session first with ``spark.stop()``). The runtime jar is on the JVM's class path, so
    a JVM started for another runtime (no SparkContext running) is shut down and a new one started.
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
        if getattr(SparkContext._gateway, "iceberg_runtime", DEFAULT_RUNTIME) != runtime:
            raise RuntimeError(f"a SparkSession on another Iceberg runtime is running; stop it before starting {runtime}")
        return running
    jars = ",".join(str(p) for p in session_jars(runtime))
    _leave_other_runtime(runtime)
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
    SparkContext._gateway.iceberg_runtime = runtime  # type: ignore[union-attr]
    return spark


def _leave_other_runtime(runtime: str) -> None:
    """Shut down pyspark's JVM when it was started with another runtime's jars (no SparkContext runs):
    the next session launches a JVM of its own with `runtime`'s jars on the class path."""
    from pyspark import SparkContext

    gateway = SparkContext._gateway
    if gateway is None or getattr(gateway, "iceberg_runtime", DEFAULT_RUNTIME) == runtime:
        return
    proc = getattr(gateway, "proc", None)
    gateway.shutdown()
    if proc is not None:
        if proc.stdin is not None:
            proc.stdin.close()  # the gateway server exits when its stdin closes
        try:
            proc.wait(timeout=30)
        except Exception:  # noqa: BLE001 - a JVM that does not exit is killed
            proc.kill()
            proc.wait()
    SparkContext._gateway = None
    SparkContext._jvm = None


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
