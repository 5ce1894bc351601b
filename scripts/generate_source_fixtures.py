"""Generate the table-directory fixtures of the state-source tests with real Spark + Iceberg.

Usage::

    python scripts/generate_source_fixtures.py

Writes ``fixtures/sources/`` (replacing what the script wrote before). Every metadata file in it was
written by Spark 3.5.9 + Iceberg 1.10.2 through a Hadoop catalog; only the *names* of some files are
changed, to reproduce layouts other writers leave behind. Only metadata files and
``version-hint.text`` are kept (no data or manifest files: icelint reads neither).

* ``warehouse/`` — a Hadoop-layout warehouse, version-hint present:
  ``db/events`` (format v2, three versions, one INSERT so it has a snapshot),
  ``db/legacy`` (format v1), ``db/readings`` (format v3),
  ``db/zipped`` (``write.metadata.compression-codec=gzip``: Iceberg's ``v<N>.gz.metadata.json``).
* ``nohint/db/events`` — the same files as ``warehouse/db/events`` without ``version-hint.text``.
* ``gz-suffix/db/legacy`` — ``db.legacy``'s files gzipped as ``v<N>.metadata.json.gz`` (the form Java
  also reads), without a hint.
* ``orphan/db/events`` — metastore naming ``<NNNNN>-<uuid>.metadata.json`` with an orphan: two
  version-1 files of the same table (two concurrent ALTERs from the same base; the one with the
  larger ``last-updated-ms`` adds column ``b``, the older one column ``a``).
* ``expected.json`` — for each directory, the file a reader must choose and the table-uuid.

Needs pyspark==3.5.9, snowpark-connect-deps-iceberg==1.0.2 and Java 17 (see tests/oracle/spark.py).
"""

from __future__ import annotations

import gzip
import json
import shutil
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.oracle.spark import (
    reset_namespace,
    spark_available,
    start_session,
    table_dir,
)

OUT = ROOT / "fixtures" / "sources"
GENERATED = ("warehouse", "nohint", "gz-suffix", "orphan", "expected.json")

STATEMENTS = {
    "db.events": [
        "CREATE TABLE db.events (id bigint NOT NULL, ts timestamp, payload string) USING iceberg "
        "PARTITIONED BY (days(ts)) TBLPROPERTIES ('format-version'='2')",
        "ALTER TABLE db.events ADD COLUMN country string",
        "INSERT INTO db.events VALUES (1, TIMESTAMP '2024-01-05 10:00:00', 'x', 'NL')",
    ],
    "db.legacy": [
        "CREATE TABLE db.legacy (id bigint, name string) USING iceberg TBLPROPERTIES ('format-version'='1')",
        "ALTER TABLE db.legacy ADD COLUMN age int",
    ],
    "db.readings": [
        "CREATE TABLE db.readings (sensor string NOT NULL, value double) USING iceberg TBLPROPERTIES ('format-version'='3')",
        "ALTER TABLE db.readings ADD COLUMN unit string",
    ],
    "db.zipped": [
        "CREATE TABLE db.zipped (id bigint, note string) USING iceberg "
        "TBLPROPERTIES ('format-version'='2', 'write.metadata.compression-codec'='gzip')",
        "ALTER TABLE db.zipped ADD COLUMN extra string",
    ],
}


def metadata_files(meta: Path) -> list[Path]:
    return sorted(p for p in meta.iterdir() if ".metadata.json" in p.name and not p.name.startswith("."))


def copy_metadata(src_table: Path, dst_table: Path, hint: bool = True) -> None:
    dst = dst_table / "metadata"
    dst.mkdir(parents=True, exist_ok=True)
    for p in metadata_files(src_table / "metadata"):
        shutil.copyfile(p, dst / p.name)
    if hint:
        shutil.copyfile(src_table / "metadata" / "version-hint.text", dst / "version-hint.text")


def table_uuid(path: Path) -> str:
    data = path.read_bytes()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return json.loads(data)["table-uuid"]


def make_orphan(spark, warehouse: Path) -> dict[str, bytes]:
    """Two version-2 files of one table, written by two ALTERs from the same version 1."""
    spark.sql("CREATE TABLE db.orphan (id bigint, name string) USING iceberg")
    meta = table_dir(warehouse, "db.orphan") / "metadata"
    base = (meta / "v1.metadata.json").read_bytes()
    spark.sql("ALTER TABLE db.orphan ADD COLUMN a string")
    loser = (meta / "v2.metadata.json").read_bytes()
    # roll the table back to version 1 and commit a competing change
    for p in meta.iterdir():
        if p.name in ("v2.metadata.json", ".v2.metadata.json.crc"):
            p.unlink()
    (meta / "version-hint.text").write_text("1")
    spark.sql("REFRESH TABLE db.orphan")
    time.sleep(0.05)
    spark.sql("ALTER TABLE db.orphan ADD COLUMN b string")
    winner = (meta / "v2.metadata.json").read_bytes()
    assert json.loads(winner)["last-updated-ms"] > json.loads(loser)["last-updated-ms"]
    assert json.loads(winner)["table-uuid"] == json.loads(loser)["table-uuid"]
    return {"v1": base, "loser": loser, "winner": winner}


def main() -> int:
    ok, reason = spark_available()
    if not ok:
        print(f"cannot run Spark: {reason}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="icelint-sources-") as tmp:
        warehouse = Path(tmp) / "warehouse"
        spark = start_session(warehouse)
        try:
            reset_namespace(spark, "db")
            for statements in STATEMENTS.values():
                for s in statements:
                    spark.sql(s)
            orphan = make_orphan(spark, warehouse)
        finally:
            spark.stop()

        for name in GENERATED:
            target = OUT / name
            if target.is_dir():
                shutil.rmtree(target)
            elif target.exists():
                target.unlink()
        expected: dict[str, dict[str, str]] = {}

        def record(rel: str, chosen: Path) -> None:
            expected[rel] = {"file": chosen.name, "table-uuid": table_uuid(chosen)}

        for table in STATEMENTS:
            src = table_dir(warehouse, table)
            dst = OUT / "warehouse" / Path(*table.split("."))
            copy_metadata(src, dst)
            hint = (dst / "metadata" / "version-hint.text").read_text().strip()
            chosen = next(p for p in metadata_files(dst / "metadata") if p.name.startswith(f"v{hint}."))
            record(f"warehouse/{table.replace('.', '/')}", chosen)

        copy_metadata(table_dir(warehouse, "db.events"), OUT / "nohint" / "db" / "events", hint=False)
        record("nohint/db/events", max(metadata_files(OUT / "nohint/db/events/metadata"), key=lambda p: int(p.name[1:].split(".")[0])))

        gz_dir = OUT / "gz-suffix" / "db" / "legacy" / "metadata"
        gz_dir.mkdir(parents=True)
        for p in metadata_files(table_dir(warehouse, "db.legacy") / "metadata"):
            (gz_dir / (p.name + ".gz")).write_bytes(gzip.compress(p.read_bytes(), mtime=0))
        record("gz-suffix/db/legacy", max(metadata_files(gz_dir), key=lambda p: int(p.name[1:].split(".")[0])))

        orphan_dir = OUT / "orphan" / "db" / "events" / "metadata"
        orphan_dir.mkdir(parents=True)
        names = {k: f"{n:05d}-{uuid.uuid4()}.metadata.json" for k, n in (("v1", 0), ("loser", 1), ("winner", 1))}
        for key, data in orphan.items():
            (orphan_dir / names[key]).write_bytes(data)
        record("orphan/db/events", orphan_dir / names["winner"])

        (OUT / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True) + "\n")
    print(f"wrote {OUT.relative_to(ROOT)}: {', '.join(sorted(expected))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
