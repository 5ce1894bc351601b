"""`iceberg-version`: the Iceberg runtime the verdicts are for ("1.9" or "1.10", the default), from
`[tool.icelint]` or `--iceberg-version` (the flag wins), on `check` and `schema`. The behaviour each
verdict stands for was measured on Iceberg 1.9.2 and 1.10.2 (differential cases 710-713, 036, 045, 410,
500-515 run on both runtimes; docs/iceberg-versions.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tomllib

from tests.ci.conftest import icelint, write

DEFAULT = (
    "CREATE TABLE db.orders (id bigint, status string) USING iceberg;\n"
    "INSERT INTO db.orders VALUES (1, 'new');\n"
    "ALTER TABLE db.orders ADD COLUMN priority int DEFAULT 5;\n"
)
OLD_SOURCE = (
    "CREATE TABLE db.sales (id bigint NOT NULL, code int, sold_at timestamp) USING iceberg PARTITIONED BY (bucket(8, code));\n"
    "INSERT INTO db.sales VALUES (1, 7, TIMESTAMP '2024-01-01 00:00:00');\n"
    "ALTER TABLE db.sales REPLACE PARTITION FIELD code_bucket WITH days(sold_at);\n"
    "ALTER TABLE db.sales DROP COLUMN code;\n"
)


def _findings(out: str) -> list[dict]:
    return json.loads(out)["findings"]


def test_default_on_1_10_is_the_error_spark_gives(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", DEFAULT)
    r = icelint("check", "m.sql", "--format", "json", cwd=tmp_path)
    assert r.code == 1, r.err
    (f,) = _findings(r.out)
    assert (f["rule"], f["severity"], f["line"]) == ("ICE005", "error", 3)
    assert f["message"].startswith("`db.orders`: on Iceberg 1.10, Iceberg rejects this change: ")
    assert "Cannot add column priority since setting default values in Spark is currently unsupported" in f["message"]
    assert "ALTER TABLE db.orders ADD COLUMN priority int; UPDATE db.orders SET priority = 5 WHERE priority IS NULL" in f["help"]


def test_default_on_1_9_is_a_warning_that_the_default_is_dropped(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", DEFAULT)
    r = icelint("check", "m.sql", "--iceberg-version", "1.9", "--format", "json", cwd=tmp_path)
    assert r.code == 0, r.err  # a warning: the statement runs
    (f,) = _findings(r.out)
    assert (f["rule"], f["severity"], f["line"]) == ("ICE032", "warning", 3)
    assert f["message"].startswith("`db.orders`: on Iceberg 1.9 this adds `priority` (field id 3) without its DEFAULT 5")
    assert "silently drops the default" in f["message"] and "read NULL" in f["message"]


def test_schema_follows_the_target(tmp_path: Path) -> None:
    """The replay itself differs: on 1.9 the column is there (without a default), on 1.10 it is not."""
    write(tmp_path, "m.sql", DEFAULT)

    def columns(*flags: str) -> list[str]:
        r = icelint("schema", "m.sql", "--format", "json", *flags, cwd=tmp_path)
        assert r.code == 0, r.err
        meta = json.loads(r.out)  # the one table's metadata.json
        (schema,) = [s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"]]
        return [f["name"] for f in schema["fields"]]

    assert "priority" in columns("--iceberg-version", "1.9")
    assert "priority" not in columns()
    assert "priority" not in columns("--iceberg-version", "1.10")


def test_old_partition_source_drop_by_version(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", OLD_SOURCE)
    on_1_10 = _findings(icelint("check", "m.sql", "--format", "json", cwd=tmp_path).out)
    assert [(f["rule"], f["severity"]) for f in on_1_10 if f["line"] == 4 and f["rule"] in ("ICE003", "ICE025")] == [("ICE025", "warning")]
    r = icelint("check", "m.sql", "--iceberg-version", "1.9", "--format", "json", cwd=tmp_path)
    assert r.code == 1
    on_1_9 = [f for f in _findings(r.out) if f["line"] == 4 and f["rule"] in ("ICE003", "ICE025")]
    assert [(f["rule"], f["severity"]) for f in on_1_9] == [("ICE003", "error")]
    assert "on Iceberg 1.9 Spark accepts it, but every read, write and time travel of the table then fails" in on_1_9[0]["message"]


def test_from_pyproject_flag_wins_and_show_config(tmp_path: Path) -> None:
    write(tmp_path, "m.sql", DEFAULT)
    write(tmp_path, "pyproject.toml", '[tool.icelint]\niceberg-version = "1.9"\n')
    assert icelint("check", "m.sql", cwd=tmp_path).code == 0  # ICE032, a warning
    assert icelint("check", "m.sql", "--iceberg-version", "1.10", cwd=tmp_path).code == 1  # ICE005
    shown = tomllib.loads(icelint("check", "--show-config", cwd=tmp_path).out)["tool"]["icelint"]
    assert shown["iceberg-version"] == "1.9"
    flag = icelint("check", "--show-config", "--iceberg-version", "1.10", "--format", "json", cwd=tmp_path)
    assert json.loads(flag.out)["iceberg-version"] == "1.10"


def test_default_shown(tmp_path: Path) -> None:
    shown = tomllib.loads(icelint("check", "--show-config", cwd=tmp_path).out)["tool"]["icelint"]
    assert shown["iceberg-version"] == "1.10"


@pytest.mark.parametrize("value", ['"1.8"', '"1.10.2"', "1.9", '"v1.9"', '""'])
def test_bad_value_in_pyproject_is_one_line_and_exit_2(tmp_path: Path, value: str) -> None:
    write(tmp_path, "m.sql", DEFAULT)
    write(tmp_path, "pyproject.toml", f"[tool.icelint]\niceberg-version = {value}\n")
    r = icelint("check", "m.sql", cwd=tmp_path)
    assert r.code == 2 and r.out == ""
    (line,) = r.err.strip().splitlines()
    assert line.startswith("icelint: error: ") and "pyproject.toml" in line and "iceberg-version" in line
    assert "Traceback" not in r.err and "internal error" not in r.err


@pytest.mark.parametrize("command", ["check", "schema"])
def test_bad_flag_is_one_line_and_exit_2(tmp_path: Path, command: str) -> None:
    write(tmp_path, "m.sql", DEFAULT)
    r = icelint(command, "m.sql", "--iceberg-version", "1.11", cwd=tmp_path)
    assert r.code == 2 and r.out == ""
    (line,) = r.err.strip().splitlines()
    assert line == "icelint: error: --iceberg-version must be \"1.9\" or \"1.10\" (the Iceberg runtime the verdicts are for), not '1.11'"


def test_api_takes_the_target() -> None:
    from icelint import api
    from icelint.values.source import InputError

    assert [f.rule for f in api.lint(DEFAULT, iceberg_version="1.9")] == ["ICE032"]
    assert [f.rule for f in api.lint(DEFAULT)] == ["ICE005"]
    with pytest.raises(InputError, match="iceberg_version must be"):
        api.lint(DEFAULT, iceberg_version="1.8")
