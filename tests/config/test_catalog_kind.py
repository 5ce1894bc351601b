"""`catalog-kind`: with Iceberg's SparkCatalog (default) `USING parquet` is an Iceberg table; with
SparkSessionCatalog it is a Spark table icelint leaves alone (differential case 208 runs the first)."""

from __future__ import annotations

from pathlib import Path

from tests.ci.conftest import icelint, write

SQL = "CREATE TABLE db.a (id bigint) USING parquet;\nALTER TABLE db.a ADD COLUMN ID string;\n"


def test_default_iceberg_catalog_replays_using_parquet_as_iceberg(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", SQL)
    r = icelint("check", "m.sql", cwd=tmp_path)
    assert r.code == 1 and "[FIELDS_ALREADY_EXISTS]" in r.out


def test_session_catalog_leaves_a_spark_table_alone(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", SQL)
    r = icelint("check", "m.sql", "--catalog-kind", "session", cwd=tmp_path)
    assert r.code == 0, r.out
    assert "not an Iceberg table" in r.out


def test_catalog_kind_from_pyproject_and_flag_wins(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", SQL)
    write(tmp_path, "pyproject.toml", '[tool.icelint]\ncatalog-kind = "session"\n')
    assert icelint("check", "m.sql", cwd=tmp_path).code == 0
    assert icelint("check", "m.sql", "--catalog-kind", "iceberg", cwd=tmp_path).code == 1


def test_bad_catalog_kind_is_one_line_and_exit_2(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", SQL)
    write(tmp_path, "pyproject.toml", '[tool.icelint]\ncatalog-kind = "hive"\n')
    r = icelint("check", "m.sql", cwd=tmp_path)
    assert r.code == 2
    assert len(r.err.strip().splitlines()) == 1 and "catalog-kind" in r.err and "Traceback" not in r.err


def test_stored_as_is_a_hive_table_in_the_session_catalog_and_iceberg_in_sparkcatalog(tmp_path: Path) -> None:
    # Spark's Iceberg SparkCatalog makes an Iceberg table of it (differential case 628); SparkSessionCatalog
    # hands a Hive-format CREATE TABLE to Spark's own catalog
    write(tmp_path, "m.sql", "CREATE TABLE db.h (id bigint) STORED AS PARQUET;\nALTER TABLE db.h ADD COLUMN ID string;\n")
    assert "[FIELDS_ALREADY_EXISTS]" in icelint("check", "m.sql", cwd=tmp_path).out
    r = icelint("check", "m.sql", "--catalog-kind", "session", cwd=tmp_path)
    assert r.code == 0 and "not an Iceberg table" in r.out, r.out
