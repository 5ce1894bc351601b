"""`--catalog NAME`: pyiceberg's SQL catalog on SQLite (tables created through pyiceberg, and
Spark-written metadata registered into it), configured as pyiceberg users do; read-only; failures."""

from __future__ import annotations

import hashlib
import http.server
import json
import os
import threading

import pytest

from icelint.values.source import InputError

from .conftest import FIX, SPARK_WRITTEN
from .helpers import columns, icelint, one_error_line

pytest.importorskip("sqlalchemy", reason="pyiceberg's SQL catalog needs sqlalchemy (pip install 'pyiceberg[sql-sqlite]')")

MIGRATION = """\
ALTER TABLE db.events DROP COLUMN payload;
ALTER TABLE spark.legacy ADD COLUMN nickname string;
ALTER TABLE spark.events RENAME COLUMN country TO country_code;
ALTER TABLE spark.readings ADD COLUMN calibrated boolean;
ALTER TABLE spark.zipped ADD COLUMN more string;
CREATE TABLE db.fresh (id bigint) USING iceberg;
ALTER TABLE db.fresh ADD COLUMN c int;
"""


@pytest.fixture
def sql(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.sql").write_text(MIGRATION)
    return tmp_path / "m.sql"


def rules(r) -> list[tuple[str, int]]:
    return [(f["rule"], f["line"]) for f in json.loads(r.stdout)["findings"]]


def test_catalog_tables_pyiceberg_created_and_spark_registered(sql_catalog, sql):
    r = icelint("schema", sql, "--format", "json", "--catalog", "test", "-v")
    assert r.code == 0, r.stderr
    assert columns(r.stdout, "db.events") == ["id", "ts"]  # pyiceberg-created, payload dropped
    assert columns(r.stdout, "spark.legacy") == ["id", "name", "age", "nickname"]  # v1, Spark-written
    assert columns(r.stdout, "spark.events")[-1] == "country_code"  # v2
    assert columns(r.stdout, "spark.readings") == ["sensor", "value", "unit", "calibrated"]  # v3
    assert columns(r.stdout, "spark.zipped") == ["id", "note", "extra", "more"]  # gzip
    assert columns(r.stdout, "db.fresh") == ["id", "c"]
    assert "catalog 'test': connected (SqlCatalog)" in r.stderr
    assert "catalog 'test': no table db.fresh" in r.stderr  # created by the scripts: may be missing


def test_catalog_state_equals_the_registered_files(sql_catalog):
    from icelint.model.metadata import parse_metadata_bytes
    from icelint.sources import StateOptions, load_states

    resolved = load_states(StateOptions(catalog="test")).resolve(list(SPARK_WRITTEN) + ["db.events"], [])
    for name, path in SPARK_WRITTEN.items():
        state = resolved[name]
        assert state.origin.endswith(path.name)
        assert state.metadata == parse_metadata_bytes(path.read_bytes(), str(path))
        assert state.source == "--catalog test"
    assert {resolved[n].metadata.format_version for n in SPARK_WRITTEN} == {1, 2, 3}
    events = resolved["db.events"].metadata
    assert [f.name for f in events.schema.fields] == ["id", "ts", "payload"]
    assert events.spec.fields[0].transform == "day"


def test_missing_table_is_a_finding_not_a_crash(sql_catalog, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "m.sql").write_text("ALTER TABLE db.nothere ADD COLUMN c int;\nALTER TABLE nons.t ADD COLUMN c int;\n")
    r = icelint("check", "m.sql", "--format", "json", "--catalog", "test")
    assert r.code == 1, r.stderr
    assert rules(r) == [("ICE005", 1), ("ICE005", 2)]
    messages = [f["message"] for f in json.loads(r.stdout)["findings"]]
    # what Spark says when the migration runs, not "no state was given"
    assert messages[0].startswith("table `db.nothere` does not exist in catalog `test`: Spark fails here with [TABLE_OR_VIEW_NOT_FOUND]")
    assert messages[1].startswith("table `nons.t` does not exist in catalog `test`")
    assert not any("no state was given" in m for m in messages)


def test_check_against_catalog(sql_catalog, sql):
    r = icelint("check", sql, "--format", "json", "--catalog", "test")
    assert r.code in (0, 1), r.stderr
    assert all(rule != "ICE005" for rule, _ in rules(r)), r.stdout


def test_pyiceberg_yaml_configuration(sql_catalog, sql, monkeypatch, _isolated_pyiceberg):
    monkeypatch.delenv("PYICEBERG_CATALOG__TEST__URI")
    monkeypatch.delenv("PYICEBERG_CATALOG__TEST__WAREHOUSE")
    assert "not configured" in one_error_line(icelint("check", sql, "--catalog", "test"))
    (_isolated_pyiceberg / ".pyiceberg.yaml").write_text(
        f"catalog:\n  test:\n    uri: {sql_catalog['props']['uri']}\n    warehouse: {sql_catalog['props']['warehouse']}\n"
    )
    r = icelint("schema", sql, "--format", "json", "--catalog", "test")
    assert r.code == 0, r.stderr
    assert "country_code" in r.stdout


def _digest(paths) -> dict[str, str]:
    return {str(p): hashlib.sha256(p.read_bytes()).hexdigest() for p in paths}


def test_never_writes_to_the_catalog(sql_catalog, sql, tmp_path, monkeypatch):
    """The SQLite file and the warehouse are byte-identical afterwards, and no write method is called."""
    from pyiceberg.catalog import Catalog
    from pyiceberg.catalog.sql import SqlCatalog

    called: list[str] = []
    writers = [
        "create_table", "create_table_transaction", "register_table", "drop_table", "purge_table", "rename_table",
        "commit_table", "create_namespace", "drop_namespace", "update_namespace_properties", "create_tables",
        "destroy_tables", "create_view", "drop_view",
    ]  # fmt: skip
    for name in writers:
        for cls in (SqlCatalog, Catalog):
            if hasattr(cls, name):
                def boom(*a, _name=name, **k):
                    called.append(_name)
                    raise AssertionError(f"icelint called {_name} on a catalog")

                monkeypatch.setattr(cls, name, boom)
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".sql")
    before = _digest(files)
    spark_before = _digest(SPARK_WRITTEN.values())
    for cmd in (["check", sql, "--catalog", "test"], ["schema", sql, "--catalog", "test"],
                ["snapshot", "db.events", "spark.legacy", "--catalog", "test", "--out", tmp_path / "snaps"]):
        r = icelint(*cmd)
        assert r.code in (0, 1), r.stderr
    assert called == []
    after_files = sorted(p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".sql" and "snaps" not in p.parts)
    assert after_files == files  # no new file (no new metadata.json, no journal left)
    assert _digest(files) == before
    assert _digest(SPARK_WRITTEN.values()) == spark_before


def test_empty_sqlite_database_is_not_initialised(tmp_path, sql, monkeypatch):
    import sqlite3

    db = tmp_path / "empty.db"
    sqlite3.connect(db).close()
    size = db.stat().st_size
    monkeypatch.setenv("PYICEBERG_CATALOG__EMPTY__URI", f"sqlite:///{db}")
    r = icelint("check", sql, "--catalog", "empty")
    assert r.code == 2
    assert db.stat().st_size == size
    con = sqlite3.connect(db)
    assert con.execute("select count(*) from sqlite_master").fetchone()[0] == 0  # pyiceberg created no table
    con.close()


def test_not_configured(sql):
    line = one_error_line(icelint("check", sql, "--catalog", "prod"))
    assert "catalog 'prod' is not configured" in line and "PYICEBERG_CATALOG__PROD__URI" in line


def test_missing_sqlite_file_is_unreachable_and_not_created(sql, tmp_path, monkeypatch):
    db = tmp_path / "nope" / "catalog.db"
    monkeypatch.setenv("PYICEBERG_CATALOG__GONE__URI", f"sqlite:///{db}")
    line = one_error_line(icelint("check", sql, "--catalog", "gone"))
    # the path as findings show paths: relative to the working directory when under it
    assert "catalog 'gone' is unreachable" in line and f"SQLite database {os.path.relpath(db)} does not exist" in line
    assert not db.exists()


def test_unreachable_rest_catalog(sql, monkeypatch):
    monkeypatch.setenv("PYICEBERG_CATALOG__REMOTE__URI", "http://127.0.0.1:9/")
    monkeypatch.setenv("PYICEBERG_CATALOG__REMOTE__TOKEN", "tok-SECRET-1234567")
    line = one_error_line(icelint("check", sql, "--catalog", "remote"))
    assert "catalog 'remote' is unreachable" in line
    assert "SECRET" not in line


class _Refusing(http.server.BaseHTTPRequestHandler):
    """A REST catalog that refuses every request, and (badly) echoes what it was sent."""

    def _refuse(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode(errors="replace") if length else ""
        auth = self.headers.get("Authorization", "")
        if self.path.endswith("/oauth/tokens"):
            payload = {"error": "invalid_client", "error_description": f"bad client credentials in {body}"}
        else:
            payload = {"error": {"message": f"Not authorized: {auth}", "type": "NotAuthorizedException", "code": 401}}
        data = json.dumps(payload).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = do_HEAD = _refuse

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def refusing_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Refusing)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # pyiceberg: no oauth2-server-uri configured
@pytest.mark.parametrize("key, secret", [("TOKEN", "tok-SUPERSECRET-9f8e7d"), ("CREDENTIAL", "client:SUPERSECRET-9f8e7d")])
def test_wrong_credentials_never_print_the_secret(sql, monkeypatch, refusing_server, key, secret):
    monkeypatch.setenv("PYICEBERG_CATALOG__PROD__URI", refusing_server)
    monkeypatch.setenv(f"PYICEBERG_CATALOG__PROD__{key}", secret)
    r = icelint("check", sql, "--catalog", "prod", "-v")
    line = one_error_line(r)
    assert "catalog 'prod' refused the credentials" in line
    assert "SUPERSECRET" not in r.stdout + r.stderr


def test_secret_in_pyiceberg_yaml_and_uri_never_printed(sql, _isolated_pyiceberg):
    (_isolated_pyiceberg / ".pyiceberg.yaml").write_text(
        "catalog:\n  pg:\n    uri: postgresql+psycopg2://icelint:PGPASSWORD-abc123@127.0.0.1:9/catalog\n"
        "    s3.secret-access-key: AWSSECRET-xyz789\n"
    )
    r = icelint("check", sql, "--catalog", "pg")
    assert r.code == 2
    assert "PGPASSWORD" not in r.stdout + r.stderr and "AWSSECRET" not in r.stdout + r.stderr
    assert "catalog 'pg'" in one_error_line(r)


def test_remote_metadata_uses_catalog_credentials_and_hides_them(sql, monkeypatch, sql_catalog):
    """`--metadata s3://...` with `--catalog`: the catalog's FileIO properties are used, never printed."""
    import pyiceberg.io

    monkeypatch.setenv("PYICEBERG_CATALOG__TEST__S3.SECRET-ACCESS-KEY", "AWSSECRET-abc-123")
    seen: dict = {}

    class LeakyIO:
        def new_input(self, location):
            raise PermissionError(f"403 Forbidden for {location} signed with {seen['props'].get('s3.secret-access-key')}")

    def fake_load_file_io(properties, location=None):
        seen["props"] = dict(properties)
        return LeakyIO()

    monkeypatch.setattr(pyiceberg.io, "load_file_io", fake_load_file_io)
    r = icelint("check", sql, "--catalog", "test", "--metadata", "db.events=s3://bucket/db/events/v3.metadata.json")
    line = one_error_line(r)
    assert seen["props"]["s3.secret-access-key"] == "AWSSECRET-abc-123"
    assert "s3://bucket/db/events/v3.metadata.json: access denied" in line
    assert "AWSSECRET" not in r.stdout + r.stderr


def test_redaction_unit():
    from icelint.sources.redact import one_line, secrets_of

    conf = {"uri": "postgresql://u:pw-123456@h/db", "credential": "id:sec-123456", "s3.access-key-id": "AKIAEXAMPLE",
            "s3.secret-access-key": "sk-123456", "nested": {"token": "t-123456"}, "warehouse": "s3://bucket"}
    secrets = secrets_of(conf)
    text = "failed: uri postgresql://u:pw-123456@h/db with id:sec-123456 sk-123456 t-123456 s3://bucket\nsecond line"
    line = one_line(RuntimeError(text), secrets)
    assert "123456" not in line and "second line" not in line
    assert "s3://bucket" in line and "postgresql://u:***@h/db" in line
    assert one_line("x" * 1000).endswith("...") and len(one_line("x" * 1000)) == 300


def test_catalog_load_errors_are_input_errors(sql_catalog, monkeypatch):
    """Any failure of load_table other than 'no such table' is an InputError naming catalog and table."""
    from pyiceberg.catalog.sql import SqlCatalog

    from icelint.sources.catalog import ReadOnlyCatalog

    def broken(self, ident):
        raise RuntimeError("database is locked")

    monkeypatch.setattr(SqlCatalog, "load_table", broken)
    with pytest.raises(InputError, match=r"catalog 'test': cannot load db.events: RuntimeError: database is locked"):
        ReadOnlyCatalog("test").load("db.events")


def test_unqualified_table_uses_the_default_namespace(sql_catalog):
    from pyiceberg.catalog.sql import SqlCatalog

    cat = SqlCatalog("test", **sql_catalog["props"])
    cat.create_namespace("default")
    cat.register_table("default.plain", str(FIX / "warehouse/db/legacy/metadata/v2.metadata.json"))
    cat.engine.dispose()
    from icelint.sources.catalog import ReadOnlyCatalog

    got = ReadOnlyCatalog("test").load("plain")
    assert got is not None and got.metadata.format_version == 1
    assert os.path.basename(got.origin) == "v2.metadata.json"
