"""State sources in `[tool.icelint]`, and flags winning over them."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from icelint.values.source import InputError
from icelint.sources import StateOptions
from icelint.sources.options import (
    merge_state_options,
    resolve,
    state_options,
    states_from_config,
)

from .conftest import FIX
from .helpers import icelint, one_error_line


def test_states_from_config_keys_and_paths(tmp_path):
    opts = states_from_config(
        {"catalog": "prod", "warehouse": "wh", "metadata": {"db.events": "snaps/db.events.metadata.json", "db.r": "s3://b/x.json"},
         "table-dirs": {"db.t": "/abs/t"}, "table-uuid": "u-1", "migrations": "ignored: not a state key"},
        base_dir=tmp_path,
    )  # fmt: skip
    assert opts.catalog == "prod"
    assert opts.warehouse == str(tmp_path / "wh")
    assert opts.metadata == [f"db.events={tmp_path / 'snaps/db.events.metadata.json'}", "db.r=s3://b/x.json"]
    assert opts.table_dirs == ["db.t=/abs/t"]
    assert opts.table_uuid == "u-1"
    assert states_from_config({}) == StateOptions()
    assert states_from_config(None) == StateOptions()


def test_states_from_config_unnamed_metadata_list(tmp_path):
    opts = states_from_config({"metadata": ["snaps/a.metadata.json", "s3://b/x.json"]}, base_dir=tmp_path)
    assert opts.metadata == [str(tmp_path / "snaps/a.metadata.json"), "s3://b/x.json"]  # unnamed: no `name=`


@pytest.mark.parametrize("bad", [{"catalog": 3}, {"warehouse": ""}, {"metadata": [1]}, {"metadata": "a"}, {"metadata": {"db.t": 1}}])
def test_states_from_config_rejects_wrong_types(bad):
    with pytest.raises(InputError, match=r"\[tool.icelint\]"):
        states_from_config(bad)


def test_flags_add_to_the_file_and_win_per_table():
    file_opts = StateOptions(catalog="prod", metadata=["db.x=/f.json"], table_uuid="from-file")
    flags = StateOptions(metadata=["db.y=/g.json"])
    merged = merge_state_options(flags, file_opts)
    assert merged.catalog == "prod" and merged.metadata == ["db.x=/f.json", "db.y=/g.json"]  # added
    assert merge_state_options(StateOptions(metadata=["db.x=/new.json"]), file_opts).metadata == ["db.x=/new.json"]
    assert merge_state_options(StateOptions(catalog="dev"), file_opts).catalog == "dev"  # a flag wins
    assert merge_state_options(StateOptions(verbose=True), file_opts).catalog == "prod"
    assert merge_state_options(StateOptions(verbose=True), file_opts).verbose is True
    assert merge_state_options(StateOptions(table_uuid="flag"), file_opts).table_uuid == "flag"
    assert resolve(["db.z=/h.json"], None, {"catalog": "prod"}).catalog == "prod"
    assert resolve([], None, {"catalog": "prod"}).catalog == "prod"
    assert resolve([], StateOptions(warehouse="/w"), {"catalog": "prod"}).warehouse == "/w"


def test_state_options_decorator_packs_one_argument():
    @click.command()
    @state_options
    def cmd(sources):
        click.echo(json.dumps([sources.table_dirs, sources.warehouse, sources.catalog, sources.table_uuid, sources.verbose]))

    r = CliRunner().invoke(cmd, ["--table-dir", "a", "--table-dir", "db.t=b", "--warehouse", "w", "--catalog", "c",
                                 "--table-uuid", "u", "-v"])  # fmt: skip
    assert json.loads(r.output) == [["a", "db.t=b"], "w", "c", "u", True]


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "migrations").mkdir()
    (tmp_path / "migrations/V1__drop.sql").write_text("ALTER TABLE db.events DROP COLUMN payload;\n")
    (tmp_path / "snaps").mkdir()
    (tmp_path / "snaps/e.json").write_bytes((FIX / "warehouse/db/events/metadata/v3.metadata.json").read_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _write(project: Path, body: str) -> None:
    (project / "pyproject.toml").write_text("[tool.icelint]\n" + body)


def rules(r) -> list[str]:
    return [f["rule"] for f in json.loads(r.stdout)["findings"]]


def test_config_metadata_relative_to_the_file(project, monkeypatch):
    _write(project, 'metadata = { "db.events" = "snaps/e.json" }\n')
    (project / "sub").mkdir()
    monkeypatch.chdir(project / "sub")
    r = icelint("check", "../migrations/V1__drop.sql", "--format", "json")
    assert rules(r) == ["ICE011"], r.stdout + r.stderr


def test_config_warehouse(project):
    _write(project, f'warehouse = "{FIX / "warehouse"}"\n')
    r = icelint("check", "migrations/V1__drop.sql", "--format", "json")
    assert rules(r) == ["ICE011"], r.stdout + r.stderr


def test_config_catalog_and_flags_win(project):
    _write(project, 'catalog = "prod"\n')  # not configured anywhere: using it is an error
    assert "catalog 'prod' is not configured" in one_error_line(icelint("check", "migrations/V1__drop.sql"))
    r = icelint("check", "migrations/V1__drop.sql", "--format", "json", "--metadata", "db.events=snaps/e.json")
    assert rules(r) == ["ICE011"], r.stdout + r.stderr  # the catalog of the file was not contacted
    r = icelint("schema", "migrations/V1__drop.sql", "--format", "json", "--table-dir", f"db.events={FIX / 'warehouse/db/events'}")
    assert r.code == 0, r.stderr
