"""Which table an unnamed `--metadata FILE` is for (icelint/sources/naming.py), through the real CLI:
the file name, then the table's `location`, then the one table the scripts alter; never another
table's state applied silently."""

from __future__ import annotations


import json
from pathlib import Path

import pytest

from icelint.sources.naming import location_name

from .conftest import FIX
from .helpers import icelint

EVENTS = FIX / "warehouse/db/events/metadata/v3.metadata.json"  # columns include `payload`; holds data
DROP = "ALTER TABLE {t} DROP COLUMN payload;\n"  # ICE011 when the state of db.events is applied


@pytest.fixture
def cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def state(where: Path, name: str = "v3.metadata.json", **changes) -> Path:
    """A copy of db.events' metadata with some keys changed (None: removed)."""
    meta = json.loads(EVENTS.read_text())
    for k, v in changes.items():
        if v is None:
            meta.pop(k, None)
        else:
            meta[k] = v
    p = where / name
    p.write_text(json.dumps(meta))
    return p


def rules(r) -> list[str]:
    assert r.code in (0, 1), r.stderr
    return [f["rule"] for f in json.loads(r.stdout)["findings"]]


def check(cwd: Path, sql: str, *args) -> object:
    (cwd / "m.sql").write_text(sql)
    return icelint("check", "m.sql", "--format", "json", *args)


@pytest.mark.parametrize(
    "location, expected",
    [
        ("/wh/db/events", ("db", "events")),
        ("s3://bucket/wh/db.db/events", ("db", "events")),  # Hive's layout
        ("s3://bucket/wh/db/events-6f1e2a44-3b5c-4c1d-9e0f-0123456789ab", ("db", "events")),  # uuid suffix
        ("s3://bucket/wh/db/events-6f1e2a443b5c4c1d9e0f0123456789ab", ("db", "events")),
        ("file:/tmp/wh/DB/Events/", ("db", "events")),
        ("s3://bucket/events", (None, "events")),  # the bucket is no namespace
        ("s3://bucket", None),
        ("", None),
        (None, None),
    ],
)
def test_location_name(location, expected):
    assert location_name(location) == expected


def test_rule1_file_name_wins_over_location(cwd):
    # the file says db.orders; its location says db.events: the file name decides
    f = state(cwd, "db.orders.metadata.json")
    assert rules(check(cwd, DROP.format(t="db.orders"), "--metadata", f)) == ["ICE011"]


@pytest.mark.parametrize(
    "location",
    [
        "s3://bucket/warehouse/db/events",
        "s3://bucket/warehouse/db.db/events",
        "s3://bucket/warehouse/db/events-6f1e2a44-3b5c-4c1d-9e0f-0123456789ab",
    ],
)
def test_rule2_location(cwd, location):
    f = state(cwd, location=location)
    sql = DROP.format(t="db.events") + "ALTER TABLE db.other ADD COLUMN c int;\n"  # two altered tables
    found = rules(check(cwd, sql, "--metadata", f))
    assert found == ["ICE011", "ICE005"]  # db.events got the state; db.other has none


def test_rule2_location_for_a_one_part_name(cwd):
    f = state(cwd, location="s3://bucket/warehouse/db/events")
    assert rules(check(cwd, DROP.format(t="events"), "--metadata", f)) == ["ICE011"]


def test_rule3_the_one_altered_table_when_there_is_no_location(cwd):
    f = state(cwd, location=None)
    sql = DROP.format(t="db.whatever") + "CREATE TABLE db.fresh (id int) USING iceberg;\n"
    assert rules(check(cwd, sql, "--metadata", f)) == ["ICE011"]


def test_never_applies_one_tables_state_to_another_name(cwd):
    """The metadata of db.products is not checked against `ALTER TABLE db.product ...`: as Spark, the
    statement on a table that exists nowhere is an error there (TABLE_OR_VIEW_NOT_FOUND), with
    "did you mean"; the state is said to be unused under -v."""
    f = state(cwd, location="s3://bucket/warehouse/db/products")
    r = check(cwd, "ALTER TABLE db.product DROP COLUMN payload;\n", "--metadata", f, "-v")
    assert rules(r) == ["ICE005"]
    found = json.loads(r.stdout)["findings"][0]
    assert "db.products" in found["help"] and "did you mean" in found["help"]
    assert "the state of db.products, which no statement touches: not used" in r.stderr
    # named explicitly, as the message says: applied
    assert rules(check(cwd, "ALTER TABLE db.product DROP COLUMN payload;\n", "--metadata", f"db.product={f}")) == ["ICE011"]


def test_location_namespace_must_match(cwd):
    f = state(cwd, location="s3://bucket/warehouse/staging.db/events")
    r = check(cwd, DROP.format(t="prod.events"), "--metadata", f, "-v")
    assert rules(r) == ["ICE005"]  # staging.events' state is not prod.events'
    assert "the state of staging.events, which no statement touches: not used" in r.stderr


def test_nothing_matches_says_which_rules_failed(cwd):
    f = state(cwd, location=None)
    sql = "ALTER TABLE db.a ADD COLUMN x int;\nALTER TABLE db.b ADD COLUMN y int;\n"
    r = check(cwd, sql, "--metadata", f, "-v")
    assert rules(r) == ["ICE005", "ICE005"]  # neither table exists anywhere: Spark fails at both
    assert f"{f}: not used: no statement is on a table it could be the state of (tables touched: db.a, db.b)" in r.stderr


def test_config_list_of_unnamed_files(cwd):
    snaps = cwd / "snaps"
    snaps.mkdir()
    state(snaps, "a.metadata.json", location="s3://bucket/warehouse/db/events")
    state(snaps, "b.metadata.json", location="s3://bucket/warehouse/db/orders")
    (cwd / "pyproject.toml").write_text('[tool.icelint]\nmetadata = ["snaps/a.metadata.json", "snaps/b.metadata.json"]\n')
    sql = DROP.format(t="db.events") + DROP.format(t="db.orders")
    assert rules(check(cwd, sql)) == ["ICE011", "ICE011"]
    shown = icelint("check", "--show-config", "--format", "json")
    assert json.loads(shown.stdout)["metadata"] == ["snaps/a.metadata.json", "snaps/b.metadata.json"]
    (cwd / "pyproject.toml").write_text('[tool.icelint]\nmetadata = ["snaps/a.metadata.json"]\n')
    assert rules(check(cwd, DROP.format(t="db.orders"))) == ["ICE005"]  # db.events' state is not db.orders'

