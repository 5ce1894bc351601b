"""icelint: a linter for Apache Iceberg schema migrations written in Spark SQL.

`icelint.lint(sql_or_paths, state=...)` is the Python API (see `icelint.api`); it is imported on
first use, so `import icelint` stays cheap.
"""

__version__ = "0.1.0"


def __getattr__(name: str) -> object:  # no import here: icelint._start must come first (Ctrl-C)
    if name == "lint":
        from icelint.api import lint

        return lint
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
