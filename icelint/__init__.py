"""icelint: a linter for Apache Iceberg schema migrations written in Spark SQL."""

__version__ = "0.1.0"
