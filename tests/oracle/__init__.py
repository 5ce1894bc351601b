"""Test oracle: real Spark 3.5 + Iceberg 1.10 run locally (see spark.py).

Nothing in here is imported by icelint itself; it exists to generate fixtures and to
compare icelint's replay engine with what Spark really does.
"""
