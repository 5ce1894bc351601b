"""icelint: a linter for Apache Iceberg schema migrations written in Spark SQL.

`icelint.lint(sql_or_paths, state=...)` is the Python API (see `icelint.api`); `icelint.spark.guard(spark)`
checks migrations inside a Spark job and raises `icelint.MigrationError` (docs/spark-guard.md). They are
imported on first use, so `import icelint` stays cheap.
"""

from __future__ import annotations


def __getattr__(name: str) -> object:  # no import here: icelint._start must come first (Ctrl-C)
    if name == "__version__":
        from icelint.version import __version__

        return __version__
    if name == "lint":
        from icelint.api import lint

        return lint
    if name == "MigrationError":
        from icelint.spark.errors import MigrationError

        return MigrationError
    if name == "spark":
        import importlib

        return importlib.import_module("icelint.spark")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
