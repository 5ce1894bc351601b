"""The Iceberg Spark runtime jar of the `spark` extra, for a SparkSession of one's own.

    from pyspark.sql import SparkSession
    import icelint.spark

    spark = (SparkSession.builder
             .config("spark.jars", icelint.spark.iceberg_jar())
             .config("spark.sql.extensions", "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
             ...)

The extra installs `snowpark-connect-deps-iceberg`, a wheel of Iceberg's Spark runtime jars. Its
1.0.3 release ships `iceberg-spark-runtime-3.5_2.12-1.10.2.jar` without Iceberg's relocated Jackson
classes: the first Iceberg statement fails with `ClassNotFoundException:
org.apache.iceberg.shaded.com.fasterxml.jackson.core.JsonFactoryBuilder`. 1.0.2 ships the same
Iceberg build (the same git commit in `iceberg-build.properties`) with them, and is what the extra
pins. `iceberg_jar` says so in one line when the installed release is one that cannot run.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

__all__ = ["JACKSON_CLASS", "PINNED", "bundles_relocated_jackson", "iceberg_jar"]

ICEBERG = "1.10.2"
PINNED = "snowpark-connect-deps-iceberg==1.0.2"  # the `spark` extra's pin (pyproject.toml)
JACKSON_CLASS = "org/apache/iceberg/shaded/com/fasterxml/jackson/core/JsonFactoryBuilder.class"


def bundles_relocated_jackson(jar: str | Path) -> bool:
    """Whether an Iceberg runtime jar holds the relocated Jackson classes it loads (its zip directory only is read)."""
    with zipfile.ZipFile(jar) as z:
        try:
            z.getinfo(JACKSON_CLASS)
        except KeyError:
            return False
    return True


def _scala_version() -> str:
    """The Scala version of the installed pyspark's jars (`scala-library-2.12.18.jar` → "2.12")."""
    import pyspark

    jars = Path(pyspark.__file__).resolve().parent / "jars"
    for p in sorted(jars.glob("scala-library-*.jar")):
        return ".".join(p.stem.rsplit("-", 1)[-1].split(".")[:2])
    return "2.12"  # pyspark 3.5's PyPI build


def iceberg_jar(scala: str | None = None) -> str:
    """The path of `iceberg-spark-runtime-3.5_<scala>-1.10.2.jar` from the installed `spark` extra
    (`scala`: "2.12" or "2.13"; default: the installed pyspark's). Raises `icelint.values.source.InputError`,
    one line with the fix, when the extra is not installed or its jar lacks the relocated Jackson classes."""
    from icelint.values.source import InputError

    try:
        import snowpark_connect_deps_iceberg as deps
    except ImportError:
        raise InputError(f"the Iceberg runtime is not installed: pip install 'icelint[spark]' (or {PINNED})") from None
    name = f"iceberg-spark-runtime-3.5_{scala or _scala_version()}-{ICEBERG}.jar"
    jar = Path(deps.get_jars_dir()) / name
    if not jar.is_file():
        raise InputError(f"{jar}: no such file: this snowpark-connect-deps-iceberg does not ship Iceberg {ICEBERG}; "
                         f"pip install '{PINNED}'")
    if not bundles_relocated_jackson(jar):
        version = getattr(deps, "__version__", "?")
        raise InputError(f"{jar}: snowpark-connect-deps-iceberg {version} ships this jar without Iceberg's relocated "
                         f"Jackson classes (Spark fails with ClassNotFoundException ...JsonFactoryBuilder); pip install '{PINNED}'")
    return str(jar)
