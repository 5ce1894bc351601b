"""Finding the current metadata file of a Hadoop-layout table directory (Spark-written fixtures)."""

from __future__ import annotations

import gzip
import json
import shutil

import pytest

from icelint.values.source import InputError
from icelint.sources.hadoop import (
    find_current,
    load_table_dir,
    parse_name,
    warehouse_table_dir,
)

from .conftest import EXPECTED, FIX


@pytest.mark.parametrize("rel", sorted(EXPECTED))
def test_chooses_the_expected_file(rel):
    choice = find_current(FIX / rel)
    assert choice.path.name == EXPECTED[rel]["file"]
    _, _, meta = load_table_dir(FIX / rel)
    assert meta.table_uuid == EXPECTED[rel]["table-uuid"]


def test_format_versions_and_compression():
    versions = {rel: load_table_dir(FIX / rel)[2].format_version for rel in EXPECTED}
    assert versions["warehouse/db/legacy"] == 1
    assert versions["warehouse/db/events"] == 2
    assert versions["warehouse/db/readings"] == 3
    zipped = FIX / "warehouse/db/zipped/metadata/v2.gz.metadata.json"
    assert zipped.read_bytes()[:2] == b"\x1f\x8b"  # Spark really wrote gzip
    _, data, meta = load_table_dir(FIX / "warehouse/db/zipped")
    assert json.loads(data)["format-version"] == 2  # raw data is the decompressed JSON
    assert [f.name for f in meta.schema.fields] == ["id", "note", "extra"]


def test_version_hint_wins_and_reason_says_so():
    choice = find_current(FIX / "warehouse/db/events")
    assert choice.path.name == "v3.metadata.json"
    assert "version-hint.text says 3" in choice.reason


def test_no_hint_takes_the_highest_version():
    choice = find_current(FIX / "nohint/db/events")
    assert choice.path.name == "v3.metadata.json"
    assert "no version-hint.text" in choice.reason and "highest version 3" in choice.reason


def test_orphan_broken_by_largest_last_updated_ms():
    meta_dir = FIX / "orphan/db/events/metadata"
    files = {p.name: json.loads(p.read_text()) for p in meta_dir.iterdir()}
    v1 = [n for n in files if n.startswith("00001-")]
    assert len(v1) == 2
    newest = max(v1, key=lambda n: files[n]["last-updated-ms"])
    choice = find_current(FIX / "orphan/db/events")
    assert choice.path.name == newest
    assert "2 files share the highest version 1" in choice.reason and "last-updated-ms" in choice.reason
    _, _, meta = load_table_dir(FIX / "orphan/db/events")
    assert [f.name for f in meta.schema.fields] == ["id", "name", "b"]  # the winner added `b`, the orphan `a`


def test_tie_break_does_not_depend_on_file_names(table_copy):
    t = table_copy("orphan/db/events")
    meta = t / "metadata"
    by_ms = sorted((json.loads(p.read_text())["last-updated-ms"], p) for p in meta.glob("00001-*"))
    older, newer = by_ms[0][1], by_ms[1][1]
    # swap the names: the newer content now sits in the other file name
    tmp = meta / "swap"
    older.rename(tmp)
    newer.rename(older)
    tmp.rename(newer)
    chosen = find_current(t).path
    assert chosen == older  # the file name that now holds the newer content
    assert [f.name for f in load_table_dir(t)[2].schema.fields][-1] == "b"


def test_metadata_json_gz_suffix_without_hint():
    choice = find_current(FIX / "gz-suffix/db/legacy")
    assert choice.path.name == "v2.metadata.json.gz"
    _, _, meta = load_table_dir(FIX / "gz-suffix/db/legacy")
    assert meta.format_version == 1 and [f.name for f in meta.schema.fields] == ["id", "name", "age"]


def test_hint_naming_a_missing_file_falls_back_to_listing(table_copy):
    t = table_copy("warehouse/db/events")
    (t / "metadata/version-hint.text").write_text("7\n")
    choice = find_current(t)
    assert choice.path.name == "v3.metadata.json"
    assert "version-hint.text says 7 but v7.metadata.json is missing" in choice.reason


def test_files_newer_than_the_hint_are_followed_like_java(table_copy):
    t = table_copy("warehouse/db/events")
    (t / "metadata/version-hint.text").write_text("2")
    choice = find_current(t)
    assert choice.path.name == "v3.metadata.json"
    assert "followed newer files" in choice.reason


def test_hint_with_a_file_name_pyiceberg_style(table_copy):
    t = table_copy("orphan/db/events")
    names = sorted(p.name for p in (t / "metadata").iterdir())
    (t / "metadata/version-hint.text").write_text(names[0][: -len(".metadata.json")])
    assert find_current(t).path.name == names[0]


def test_table_uuid_filter(table_copy):
    t = table_copy("warehouse/db/events")
    meta = t / "metadata"
    # a newer file of another table (a table dropped and recreated at the same place, say)
    shutil.copyfile(FIX / "warehouse/db/readings/metadata/v2.metadata.json", meta / "v9.metadata.json")
    (meta / "version-hint.text").unlink()
    assert find_current(t).path.name == "v9.metadata.json"
    events_uuid = EXPECTED["warehouse/db/events"]["table-uuid"]
    choice = find_current(t, table_uuid=events_uuid)
    assert choice.path.name == "v3.metadata.json"
    assert "skipped 1 file(s) of another table-uuid" in choice.reason
    # the hint is checked against the uuid too
    (meta / "version-hint.text").write_text("9")
    assert find_current(t, table_uuid=events_uuid.upper()).path.name == "v3.metadata.json"
    with pytest.raises(InputError, match="no metadata file with table-uuid 00000000"):
        find_current(t, table_uuid="00000000-0000-0000-0000-000000000000")


def test_names():
    assert parse_name("v12.metadata.json") == 12
    assert parse_name("v3.gz.metadata.json") == 3
    assert parse_name("v3.metadata.json.gz") == 3
    assert parse_name("00042-0f8a7c1e-1b4e-4cfb-9f3a-2b8d3d1c2e11.metadata.json") == 42
    assert parse_name("00042-0f8a7c1e-1b4e-4cfb-9f3a-2b8d3d1c2e11.gz.metadata.json") == 42
    assert parse_name("v2-0f8a7c1e.metadata.json") == 2
    for bad in ("version-hint.text", "snap-1-1-abc.avro", "vX.metadata.json", "db.events.metadata.json", "v1.gz.metadata.json.gz"):
        assert parse_name(bad) is None


def test_errors_name_the_directory(tmp_path):
    with pytest.raises(InputError, match=r"nothing: no such table directory"):
        find_current(tmp_path / "nothing")
    (tmp_path / "empty").mkdir()
    with pytest.raises(InputError, match=r"empty: no Iceberg metadata \(no metadata/ directory\)"):
        find_current(tmp_path / "empty")
    (tmp_path / "bare/metadata").mkdir(parents=True)
    (tmp_path / "bare/metadata/snap-1.avro").write_bytes(b"")
    with pytest.raises(InputError, match=r"bare: no Iceberg metadata \(no version-hint.text"):
        find_current(tmp_path / "bare")


def test_corrupt_newest_file_is_an_error_naming_it(table_copy):
    t = table_copy("nohint/db/events")
    (t / "metadata/v4.metadata.json").write_text("{not json")
    with pytest.raises(InputError, match=r"v4.metadata.json: not valid JSON"):
        load_table_dir(t)
    (t / "metadata/v4.metadata.json").write_bytes(gzip.compress(b"x")[:-6])
    with pytest.raises(InputError, match=r"v4.metadata.json: corrupt gzip"):
        load_table_dir(t)


def test_warehouse_lookup_is_case_insensitive():
    wh = FIX / "warehouse"
    assert warehouse_table_dir(wh, "db.events") == wh / "db" / "events"
    assert warehouse_table_dir(wh, "DB.Events") == wh / "db" / "events"
    assert warehouse_table_dir(wh, "db.nothere") is None
