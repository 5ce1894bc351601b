"""The data at stake: counts read from the manifests of real tables, in messages and in
the JSON `impact`, through every state source; the budget, unreachable manifests, the sidecar.

The pyiceberg-written table `db.events` (SQL catalog on SQLite, warehouse in Hadoop layout):
  append 1: id 1..3, payload 'a', NULL, 'c', note NULL x3          (file 1)
  append 2: id 4..5, payload NULL, 'e',   note NULL x2             (file 2)
  ADD COLUMN extra string (field id 4)
  append 3: id 6..7, payload 'g', 'h', note NULL x2, extra 'x', NULL  (file 3)
So: 3 data files, 7 records; non-null values: id 7, payload 5, note 0, extra 1 (files 1 and 2 were
written without `extra` and keep no counts for it: they hold none of its values).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.sources.helpers import icelint

pa = pytest.importorskip("pyarrow")
pytest.importorskip("sqlalchemy", reason="pyiceberg's SQL catalog needs sqlalchemy")

ROOT = Path(__file__).resolve().parents[2]

MIGRATION = """\
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE db.events ADD COLUMN payload binary;
ALTER TABLE db.events DROP COLUMN note;
ALTER TABLE db.events ADD COLUMN note binary;
ALTER TABLE db.events DROP COLUMN extra;
"""


def _write_table(base: Path) -> dict:
    from pyiceberg.catalog.sql import SqlCatalog
    from pyiceberg.schema import Schema
    from pyiceberg.types import LongType, NestedField, StringType

    base.mkdir(parents=True, exist_ok=True)
    warehouse = base / "warehouse"
    warehouse.mkdir()
    db = base / "catalog.db"
    props = {"uri": f"sqlite:///{db}", "warehouse": f"file://{warehouse}"}
    cat = SqlCatalog("impact", **props)
    cat.create_namespace("db")
    schema = Schema(
        NestedField(1, "id", LongType(), required=False),
        NestedField(2, "payload", StringType(), required=False),
        NestedField(3, "note", StringType(), required=False),
    )
    t = cat.create_table("db.events", schema)
    s = pa.string()
    t.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "payload": pa.array(["a", None, "c"], s),
                       "note": pa.array([None] * 3, s)}))
    t.append(pa.table({"id": pa.array([4, 5], pa.int64()), "payload": pa.array([None, "e"], s),
                       "note": pa.array([None] * 2, s)}))
    with t.update_schema() as u:
        u.add_column("extra", StringType())
    t = cat.load_table("db.events")
    t.append(pa.table({"id": pa.array([6, 7], pa.int64()), "payload": pa.array(["g", "h"], s),
                       "note": pa.array([None] * 2, s), "extra": pa.array(["x", None], s)}))
    t = cat.load_table("db.events")
    empty = cat.create_table("db.fresh", schema)  # never written: no current snapshot
    from pyiceberg.types import StructType

    nested = cat.create_table("db.nested", Schema(
        NestedField(1, "id", LongType(), required=False),
        NestedField(2, "info", StructType(NestedField(3, "a", StringType(), required=False)), required=False)))
    nested.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()),
                            "info": pa.array([{"a": "x"}, {"a": None}, None], pa.struct([("a", s)]))}))
    from pyiceberg.partitioning import PartitionField, PartitionSpec
    from pyiceberg.transforms import IdentityTransform

    sales = cat.create_table(
        "db.sales", Schema(NestedField(1, "id", LongType(), required=False), NestedField(2, "region", LongType(), required=False)),
        partition_spec=PartitionSpec(PartitionField(source_id=2, field_id=1000, transform=IdentityTransform(), name="region")))
    sales.append(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "region": pa.array([7, None, 9], pa.int64())}))
    with cat.load_table("db.sales").update_spec() as u:
        u.remove_field("region")
    snapshot_id = t.metadata.current_snapshot_id
    cat.engine.dispose()
    return {"warehouse": warehouse, "db": db, "props": props, "snapshot": snapshot_id,
            "metadata": t.metadata_location, "fresh": empty.metadata_location}


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    return _write_table(tmp_path_factory.mktemp("impact"))


@pytest.fixture
def sql(tmp_path):
    p = tmp_path / "V2__change.sql"
    p.write_text(MIGRATION)
    return p


def _json(r) -> list[dict]:
    assert r.code in (0, 1), (r.code, r.stdout, r.stderr)
    return json.loads(r.stdout)["findings"]


def _expected(sid: int) -> list[tuple]:
    return [
        ("ICE011", 1, {"snapshot_id": sid, "data_files": 3, "records": 7, "non_null_values": 5}),
        ("ICE001", 2, {"snapshot_id": sid, "data_files": 3, "records": 7, "non_null_values": 5}),
        ("ICE015", 4, {"snapshot_id": sid, "data_files": 3, "records": 7, "non_null_values": 0}),
        ("ICE011", 5, {"snapshot_id": sid, "data_files": 3, "records": 7, "non_null_values": 1}),
    ]


def _impacts(findings: list[dict]) -> list[tuple]:
    return [(f["rule"], f["line"], f["impact"]) for f in findings if f["rule"] in ("ICE001", "ICE011", "ICE015")]


def test_table_dir_counts_in_messages_and_json(table, sql):
    sid = table["snapshot"]
    args = [sql, "--table-dir", f"db.events={table['warehouse'] / 'db' / 'events'}"]
    found = _json(icelint("check", *args, "--format", "json"))
    assert _impacts(found) == _expected(sid)
    r = icelint("check", *args)
    assert r.code == 1
    assert (f"field id 2 holds 5 non-null values in 3 data files (snapshot {sid})") in r.stdout
    # the all-NULL column: re-adding its name loses nothing (the warning, not the error) ...
    assert "ICE015 [warning] `db.events`: this re-adds `note` as field id 6, but `note` was field id 3" in r.stdout
    assert f"nothing is lost now, because field id 3 holds 0 non-null values in 3 data files (snapshot {sid})" in r.stdout
    # ... and dropping it hides nothing: no ICE011 on line 3
    assert not any(f["rule"] == "ICE011" and f["line"] == 3 for f in found)
    # files written before `extra` existed hold none of its values
    assert f"field id 4 holds 1 non-null value in 3 data files (snapshot {sid})" in r.stdout


def test_warehouse_counts(table, sql):
    r = icelint("check", sql, "--warehouse", table["warehouse"], "--format", "json")
    assert _impacts(_json(r)) == _expected(table["snapshot"])
    jsonschema = pytest.importorskip("jsonschema")
    schema = json.loads((ROOT / "icelint" / "schemas" / "check-report.json").read_text())
    jsonschema.validate(json.loads(r.stdout), schema, cls=jsonschema.Draft202012Validator)
    bad = json.loads(r.stdout)
    bad["findings"][0]["impact"]["records"] = "seven"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(bad, schema, cls=jsonschema.Draft202012Validator)


def test_sql_catalog_counts(table, sql, monkeypatch):
    monkeypatch.setenv("PYICEBERG_CATALOG__IMPACT__URI", table["props"]["uri"])
    monkeypatch.setenv("PYICEBERG_CATALOG__IMPACT__WAREHOUSE", table["props"]["warehouse"])
    r = icelint("check", sql, "--catalog", "impact", "--format", "json", "-v")
    assert _impacts(_json(r)) == _expected(table["snapshot"])
    assert f"db.events: data counts from the manifests of snapshot {table['snapshot']} (3 data files" in r.stderr


def test_drop_and_truncate_table_say_how_many_rows(table, tmp_path):
    sid = table["snapshot"]
    p = tmp_path / "V3__drop.sql"
    p.write_text("TRUNCATE TABLE db.events;\n")
    r = icelint("check", p, "--warehouse", table["warehouse"], "--format", "json")
    (f,) = [f for f in _json(r) if f["rule"] == "ICE019"]
    assert f["impact"] == {"snapshot_id": sid, "data_files": 3, "records": 7, "non_null_values": None}
    assert f["message"].endswith(f"it holds 7 records in 3 data files (snapshot {sid})")
    p.write_text("REPLACE TABLE db.events (id bigint) USING iceberg;\n")
    (f,) = [f for f in _json(icelint("check", p, "--warehouse", table["warehouse"], "--format", "json")) if f["rule"] == "ICE009"]
    assert f["impact"] == {"snapshot_id": sid, "data_files": 3, "records": 7, "non_null_values": None}
    assert f["message"].endswith(f"it holds 7 records in 3 data files (snapshot {sid})")
    p.write_text("DROP TABLE db.fresh;\n")  # no current snapshot: holds nothing, known without any read
    r = icelint("check", p, "--warehouse", table["warehouse"], "--format", "json", "-v")
    (f,) = [f for f in _json(r) if f["rule"] == "ICE019"]
    assert f["impact"] == {"snapshot_id": None, "data_files": 0, "records": 0, "non_null_values": 0}
    assert "data counts" not in r.stderr  # nothing was read


def test_findings_without_a_data_notion_have_a_null_impact(table, tmp_path):
    p = tmp_path / "V3__rename.sql"
    p.write_text("ALTER TABLE db.events RENAME COLUMN payload TO body;\n")
    found = _json(icelint("check", p, "--warehouse", table["warehouse"], "--format", "json"))
    assert found and all(f["impact"] is None for f in found)


def test_budget_exceeded_is_unknown_not_an_error(table, sql):
    args = [sql, "--warehouse", table["warehouse"]]
    r = icelint("check", *args, "--stats-budget", "0", "--format", "json", "-v")
    found = _json(r)
    assert r.code == 1  # ICE001 is still an error
    unknown = {"snapshot_id": table["snapshot"], "data_files": None, "records": None, "non_null_values": None}
    assert [f["impact"] for f in found if f["rule"] in ("ICE001", "ICE011")] and all(
        f["impact"] == unknown for f in found if f["rule"] in ("ICE001", "ICE011"))
    assert "db.events: data counts unknown: budget exceeded" in r.stderr
    assert "Traceback" not in r.stderr


def test_unreachable_manifests_are_unknown_with_the_reason_under_verbose(table, sql, tmp_path):
    """A metadata file copied away from a table whose files are gone: the manifest list is unreadable."""
    copy = tmp_path / "gone"
    shutil.copytree(table["warehouse"] / "db" / "events", copy / "db" / "events")
    meta = sorted((copy / "db" / "events" / "metadata").glob("*.metadata.json"))[-1]
    text = meta.read_text().replace(str(table["warehouse"]), str(tmp_path / "nowhere"))
    local = tmp_path / "db.events.metadata.json"
    local.write_text(text)
    r = icelint("check", sql, "--metadata", local, "--format", "json", "-v")
    found = _json(r)
    assert r.code == 1
    assert all(f["impact"]["records"] is None for f in found if f["rule"] in ("ICE001", "ICE011"))
    assert "db.events: data counts unknown: cannot read the manifests of snapshot" in r.stderr
    assert str(tmp_path / "nowhere") in r.stderr
    quiet = icelint("check", sql, "--metadata", local)
    assert quiet.code == 1 and "data counts" not in quiet.stderr
    # the message falls back to what the metadata says
    assert f"the table held rows at snapshot {table['snapshot']} (7 records)" in quiet.stdout


def test_snapshot_sidecar_round_trip_offline(tmp_path, sql):
    t = _write_table(tmp_path / "own")
    out = tmp_path / "snapshots"
    r = icelint("snapshot", "db.events", "--warehouse", t["warehouse"], "--out", out)
    assert r.code == 0, r.stdout + r.stderr
    side = json.loads((out / "db.events.stats.json").read_text())
    assert side == {"format": "icelint-stats/1", "table": "db.events", "snapshot_id": t["snapshot"], "data_files": 3,
                    "records": 7, "non_null_values": {"1": 7, "2": 5, "4": 1}}
    assert f"db.events.stats.json: written (7 records in 3 data files, snapshot {t['snapshot']})" in r.stdout
    online = _json(icelint("check", sql, "--warehouse", t["warehouse"], "--format", "json"))
    shutil.rmtree(t["warehouse"])  # the table's files are gone: only the snapshot folder is left
    every = [a for f in sorted(out.iterdir()) for a in ("--metadata", f)]  # `--metadata snapshots/*`: the sidecar too
    r = icelint("check", sql, *every, "--format", "json", "-v")
    assert _impacts(_json(r)) == _impacts(online) == _expected(t["snapshot"])
    assert "db.events.stats.json: skipped (a stats sidecar" in r.stderr
    assert "data counts from" in r.stderr and "db.events.stats.json" in r.stderr
    # a sidecar of another snapshot is not used
    side["snapshot_id"] = 1
    (out / "db.events.stats.json").write_text(json.dumps(side))
    r = icelint("check", sql, "--metadata", out / "db.events.metadata.json", "--format", "json", "-v")
    assert all(f["impact"]["records"] is None for f in _json(r) if f["rule"] in ("ICE001", "ICE011"))
    assert "ignoring" in r.stderr and "it counts snapshot 1" in r.stderr
    (out / "db.events.stats.json").write_text("{not json")  # a broken sidecar: ignored, never an error
    r = icelint("check", sql, "--metadata", out / "db.events.metadata.json", "--format", "json", "-v")
    assert r.code == 1 and "not a stats sidecar" in r.stderr


def test_each_table_is_read_once(table):
    from icelint.sources import StateOptions, load_states
    from icelint.sources.table_stats import provider_for

    states = load_states(StateOptions(warehouse=str(table["warehouse"])))
    resolved = states.resolve(["db.events"], [])
    p = provider_for(states, resolved, 10.0)
    first = p.stats("db.events")
    assert p.stats("db.events") is first and p.reads == 1
    assert first.records == 7 and first.values_of(3) == 0 and first.values_of(2) == 5


def test_local_metadata_start_up_imports_no_manifest_reader(table, tmp_path):
    """`check --metadata` on a local file imports neither pyiceberg nor pyarrow nor fastavro when no finding
    needs counts; one that does imports them."""
    p = tmp_path / "V3__add.sql"
    p.write_text("ALTER TABLE db.events ADD COLUMN y int;\nALTER TABLE db.events RENAME COLUMN payload TO body;\n")
    meta = table["metadata"].replace("file://", "")
    env = dict(os.environ, PYTHONPATH=str(ROOT), ICELINT_NO_CACHE="1")

    def imported(sql_file, metadata=meta) -> set[str]:
        r = subprocess.run([sys.executable, "-X", "importtime", "-m", "icelint", "check", str(sql_file),
                            "--metadata", f"db.events={metadata}"], capture_output=True, text=True, env=env)
        assert r.returncode in (0, 1), r.stderr[-2000:]
        names = {ln.rsplit("|", 1)[-1].strip() for ln in r.stderr.splitlines() if ln.startswith("import time:")}
        return {n for n in names if n.split(".")[0] in ("pyiceberg", "pyarrow", "fastavro")}

    assert imported(p) == set()
    p.write_text("ALTER TABLE db.events DROP COLUMN payload;\n")
    assert "pyiceberg.manifest" in imported(p)
    # a copied metadata file whose manifest list does not exist: unknown, found without pyiceberg
    copied = tmp_path / "db.events.metadata.json"
    copied.write_text(Path(meta).read_text().replace(str(table["warehouse"]), str(tmp_path / "nowhere")))
    assert imported(p, copied) == set()


def test_dropping_an_old_partition_source_says_how_many_rows(table, tmp_path):
    p = tmp_path / "V3__sales.sql"
    p.write_text("ALTER TABLE db.sales DROP COLUMN region;\n")
    found = _json(icelint("check", p, "--warehouse", table["warehouse"], "--format", "json"))
    (f,) = [f for f in found if f["rule"] == "ICE025"]
    assert f["impact"]["records"] == 3 and f["impact"]["non_null_values"] == 2
    assert f"; the table holds 3 records in {f['impact']['data_files']} data file" in f["message"]


def test_replace_columns_counts_every_column(table, tmp_path):
    sid = table["snapshot"]
    p = tmp_path / "V3__replace.sql"
    p.write_text("ALTER TABLE db.events REPLACE COLUMNS (id bigint, payload string, note string, extra string);\n")
    found = _json(icelint("check", p, "--warehouse", table["warehouse"], "--format", "json"))
    # one finding for the statement, naming each re-added column's count; its impact is their sum
    (f,) = [f for f in found if f["rule"] in ("ICE001", "ICE015")]
    assert f["rule"] == "ICE001" and f["impact"]["non_null_values"] == 7 + 5 + 1 + 0, f
    for part in ("`id` 1→", " (7 values)", "`payload` 2→", " (5 values)", " (0 values)", " (1 value)"):
        assert part in f["message"], f["message"]
    assert f["impact"]["records"] == 7 and f["impact"]["snapshot_id"] == sid


def test_a_struct_keeps_no_counts_its_leaves_do(table, tmp_path):
    p = tmp_path / "V3__nested.sql"
    p.write_text("ALTER TABLE db.nested DROP COLUMN info.a;\nALTER TABLE db.nested DROP COLUMN info;\n")
    r = icelint("check", p, "--warehouse", table["warehouse"], "--format", "json")
    got = [(f["line"], f["field_id"], f["impact"]) for f in _json(r) if f["rule"] == "ICE011"]
    sid = got[0][2]["snapshot_id"]
    assert got == [(1, 3, {"snapshot_id": sid, "data_files": 1, "records": 3, "non_null_values": 1}),
                   (2, 2, {"snapshot_id": sid, "data_files": 1, "records": 3, "non_null_values": None})]
    text = icelint("check", p, "--warehouse", table["warehouse"]).stdout
    assert (f"field id 2's non-null values are not counted (its data files keep no counts for it); the table holds "
            f"3 records in 1 data file (snapshot {sid})") in text


def test_run_cache_knows_the_sidecar_and_skips_incomplete_counts(tmp_path, sql):
    """The run cache keys on the sidecar's content, and never stores a run whose counts were unknown."""
    t = _write_table(tmp_path / "own")
    out = tmp_path / "snapshots"
    assert icelint("snapshot", "db.events", "--warehouse", t["warehouse"], "--out", out).code == 0
    shutil.rmtree(t["warehouse"])
    env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_NO_CACHE", "ICELINT_DEBUG")}
    env["PYTHONPATH"] = str(ROOT)
    work = tmp_path / "work"
    work.mkdir()

    def run(*extra: str) -> str:
        r = subprocess.run([sys.executable, "-m", "icelint", "check", str(sql), "--metadata",
                            str(out / "db.events.metadata.json"), "--format", "json", *extra],
                           cwd=work, capture_output=True, text=True, env=env, timeout=180)
        assert r.returncode == 1, r.stderr
        return r.stdout

    def entries() -> int:
        return len(list((work / ".icelint_cache").glob("*.json"))) if (work / ".icelint_cache").is_dir() else 0

    assert '"non_null_values": 5' in run() and entries() == 1
    side = json.loads((out / "db.events.stats.json").read_text())
    side["non_null_values"]["2"] = 42
    (out / "db.events.stats.json").write_text(json.dumps(side))
    assert '"non_null_values": 42' in run()  # not the cached report of the old sidecar
    assert entries() == 2
    (out / "db.events.stats.json").unlink()  # no sidecar, no manifests: unknown counts
    assert '"records": null' in run() and entries() == 2  # not stored


def test_forked_run_with_unknown_counts_is_not_cached(tmp_path):
    """Runs of 400 statements or more on two tables or more are linted in forked workers (icelint/run/parallel.py):
    a worker's unknown counts keep the parent's report out of the cache too."""
    t = _write_table(tmp_path / "own")
    meta = tmp_path / "copied.metadata.json"  # a copied metadata file: its manifest list is not there
    shutil.copy(str(t["metadata"]).removeprefix("file://"), meta)
    shutil.rmtree(t["warehouse"])
    lines = ["CREATE TABLE db.other (id bigint) USING iceberg;"]
    lines += [f"ALTER TABLE db.other ADD COLUMN c{i} int;" for i in range(420)]
    lines += ["ALTER TABLE db.events DROP COLUMN payload;"]
    p = tmp_path / "V2__big.sql"
    p.write_text("\n".join(lines) + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("ICELINT_NO_CACHE", "ICELINT_DEBUG")}
    env.update(PYTHONPATH=str(ROOT), ICELINT_JOBS="2")
    work = tmp_path / "work"
    work.mkdir()
    r = subprocess.run([sys.executable, "-m", "icelint", "check", str(p), "--metadata", f"db.events={meta}", "--format", "json"],
                       cwd=work, capture_output=True, text=True, env=env, timeout=180)
    found = [f for f in json.loads(r.stdout)["findings"] if f["rule"] == "ICE011"]
    assert found and found[0]["impact"]["non_null_values"] is None, r.stdout[-2000:] + r.stderr
    assert not list((work / ".icelint_cache").glob("*.json")) if (work / ".icelint_cache").is_dir() else True
