"""Spark 3.5.9 + Iceberg 1.10.2: the reference reader (every other reader is compared with it).

Spark reads every table state it can write: every kind of change reads as Spark wrote it, by
definition of the reference (the differential suite, `tests/differential/`, checks Spark reads its
own tables back after each statement).
"""

from __future__ import annotations

from icelint.readers.model import KINDS, Profile, reads_all

EVIDENCE = "tests/differential (Spark reads back every table it wrote: the health check's read)"

PROFILE = Profile(
    name="spark",
    title="Spark",
    measured_with="Spark 3.5.9 + Iceberg 1.10.2 (SELECT * FROM <table>)",
    table=reads_all({k: EVIDENCE for k in KINDS}),
)
