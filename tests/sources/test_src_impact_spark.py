"""The data at stake, counted from the manifests of a table Spark 3.5.9 + Iceberg 1.10.2 wrote.

  INSERT (1, 'a', NULL), (2, NULL, NULL), (3, 'c', NULL)
  INSERT (4, NULL, NULL)
  ADD COLUMN extra string
  INSERT (5, 'e', NULL, 'x')
So: 5 records; non-null values: id 5, payload 3, note 0, extra 1. The number of data files is the
one Spark's `files` metadata table gives.
"""

from __future__ import annotations

import json

import pytest

from tests.oracle.spark import namespace_session, table_dir
from tests.sources.helpers import icelint

NS = "icelint_impact"

pytestmark = [pytest.mark.spark]


@pytest.fixture(scope="module")
def spark_table(tmp_path_factory):
    with namespace_session(tmp_path_factory, NS, "spark-impact") as (spark, warehouse):
        t = f"{NS}.events"
        spark.sql(f"CREATE TABLE {t} (id bigint, payload string, note string) USING iceberg")
        spark.sql(f"INSERT INTO {t} VALUES (1, 'a', NULL), (2, NULL, NULL), (3, 'c', NULL)")
        spark.sql(f"INSERT INTO {t} VALUES (4, NULL, NULL)")
        spark.sql(f"ALTER TABLE {t} ADD COLUMN extra string")
        spark.sql(f"INSERT INTO {t} VALUES (5, 'e', NULL, 'x')")
        files = spark.sql(f"SELECT count(*) AS n FROM {t}.files").collect()[0]["n"]
        snapshot = spark.sql(f"SELECT snapshot_id FROM {t}.snapshots ORDER BY committed_at DESC LIMIT 1").collect()[0][0]
        yield {"dir": table_dir(warehouse, t), "files": files, "snapshot": snapshot}


def test_spark_written_table_counts(spark_table, tmp_path):
    sql = tmp_path / "V2__change.sql"
    sql.write_text(
        f"ALTER TABLE {NS}.events DROP COLUMN payload;\n"
        f"ALTER TABLE {NS}.events ADD COLUMN payload binary;\n"
        f"ALTER TABLE {NS}.events DROP COLUMN note;\n"
        f"ALTER TABLE {NS}.events ADD COLUMN note binary;\n"
        f"ALTER TABLE {NS}.events DROP COLUMN extra;\n"
    )
    sid, files = spark_table["snapshot"], spark_table["files"]
    r = icelint("check", sql, "--table-dir", f"{NS}.events={spark_table['dir']}", "--format", "json")
    assert r.code == 1, r.stdout + r.stderr
    got = [(f["rule"], f["line"], f["impact"]) for f in json.loads(r.stdout)["findings"]
           if f["rule"] in ("ICE001", "ICE011", "ICE015")]

    def imp(values):
        return {"snapshot_id": sid, "data_files": files, "records": 5, "non_null_values": values}

    assert got == [("ICE011", 1, imp(3)), ("ICE001", 2, imp(3)), ("ICE015", 4, imp(0)), ("ICE011", 5, imp(1))]
    text = icelint("check", sql, "--table-dir", f"{NS}.events={spark_table['dir']}").stdout
    assert f"field id 2 holds 3 non-null values in {files} data files (snapshot {sid})" in text
