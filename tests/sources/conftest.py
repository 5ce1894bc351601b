"""Shared fixtures of the state-source tests: the Spark-written table directories, a pyiceberg SQL
catalog on SQLite (configured through PYICEBERG_CATALOG__ variables), an isolated pyiceberg home."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

FIX = ROOT / "fixtures" / "sources"
REPLAY = ROOT / "fixtures" / "replay"
EXPECTED = json.loads((FIX / "expected.json").read_text())


@pytest.fixture(autouse=True)
def _isolated_pyiceberg(tmp_path_factory, monkeypatch):
    """No ~/.pyiceberg.yaml or PYICEBERG_ variable of the machine leaks into a test."""
    import os

    home = tmp_path_factory.mktemp("pyiceberg-home")
    for k in list(os.environ):
        if k.startswith("PYICEBERG_"):
            monkeypatch.delenv(k)
    monkeypatch.setenv("PYICEBERG_HOME", str(home))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("ICELINT_DEBUG", raising=False)
    yield home


@pytest.fixture
def table_copy(tmp_path):
    """Copy a fixture table directory (e.g. "warehouse/db/events") to a temporary place."""

    def copy(rel: str, name: str = "t") -> Path:
        dst = tmp_path / name
        shutil.copytree(FIX / rel, dst)
        return dst

    return copy


SPARK_WRITTEN = {
    # table in the catalog → a Spark-written metadata file (v1, v2, v3, gzip)
    "spark.legacy": FIX / "warehouse/db/legacy/metadata/v2.metadata.json",
    "spark.events": FIX / "warehouse/db/events/metadata/v3.metadata.json",
    "spark.readings": FIX / "warehouse/db/readings/metadata/v2.metadata.json",
    "spark.zipped": FIX / "warehouse/db/zipped/metadata/v2.gz.metadata.json",
}


@pytest.fixture
def sql_catalog(tmp_path, monkeypatch):
    """A pyiceberg SQL catalog `test` on SQLite: `db.events` created through pyiceberg, and the
    Spark-written tables of SPARK_WRITTEN registered into it. Configured by environment variables."""
    pytest.importorskip("sqlalchemy", reason="pyiceberg's SQL catalog needs sqlalchemy (pip install 'pyiceberg[sql-sqlite]')")
    from pyiceberg.catalog.sql import SqlCatalog
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.schema import Schema
    from pyiceberg.transforms import DayTransform
    from pyiceberg.types import LongType, NestedField, StringType, TimestampType

    db = tmp_path / "catalog.db"
    warehouse = tmp_path / "catalog-warehouse"
    warehouse.mkdir()
    props = {"uri": f"sqlite:///{db}", "warehouse": f"file://{warehouse}", "py-io-impl": "pyiceberg.io.fsspec.FsspecFileIO"}
    cat = SqlCatalog("test", **props)
    cat.create_namespace("db")
    cat.create_namespace("spark")
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "ts", TimestampType(), required=False),
        NestedField(3, "payload", StringType(), required=False),
    )
    spec = PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=DayTransform(), name="ts_day"))
    cat.create_table("db.events", schema, partition_spec=spec)
    for name, path in SPARK_WRITTEN.items():
        cat.register_table(name, str(path))
    cat.engine.dispose()
    monkeypatch.setenv("PYICEBERG_CATALOG__TEST__URI", props["uri"])
    monkeypatch.setenv("PYICEBERG_CATALOG__TEST__WAREHOUSE", props["warehouse"])
    return {"db": db, "warehouse": warehouse, "props": props}
