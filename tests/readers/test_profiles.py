"""Reader profiles and their configuration: `readers = [...]`, `--readers`, and the reader rules' choice."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from icelint.config import ConfigError, parse_section
from icelint.readers import ALL, PROFILES
from icelint.readers.model import FORMAT_VERSIONS, KINDS, Does

SQL = """CREATE TABLE db.events (id bigint, kind string) USING iceberg
TBLPROPERTIES ('format-version' = '3', 'write.delete.mode' = 'merge-on-read', 'write.format.default' = 'avro');
"""


def test_every_profile_covers_every_kind_it_names_with_evidence() -> None:
    assert ALL == ("spark", "clickhouse", "pyiceberg")
    for p in PROFILES.values():
        for (kind, version), b in p.table.items():
            assert kind in KINDS and version in FORMAT_VERSIONS, (p.name, kind, version)
            assert b.evidence
            assert (b.does is Does.READS) == (b.detail == ""), (p.name, kind)
    assert all(b.ok for b in PROFILES["spark"].table.values())
    assert PROFILES["clickhouse"].problem("deletion-vectors", 3) is not None
    assert PROFILES["pyiceberg"].problem("deletion-vectors", 3) is None
    assert PROFILES["pyiceberg"].problem("avro-data-files", 2) is not None


def test_config_key_and_unknown_reader(tmp_path: Path) -> None:
    cfg = parse_section({"readers": ["ClickHouse", "spark"]}, tmp_path / "pyproject.toml")
    assert cfg.readers == ("clickhouse", "spark")
    with pytest.raises(ConfigError, match="unknown reader 'trino'"):
        parse_section({"readers": ["trino"]}, tmp_path / "pyproject.toml")


def _check(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    f = tmp_path / "V1__t.sql"
    f.write_text(SQL)
    return subprocess.run([sys.executable, "-m", "icelint", "check", str(f), "--format", "json", *args],
                          capture_output=True, text=True, cwd=tmp_path)


def _codes(proc: subprocess.CompletedProcess) -> list[tuple[str, str]]:
    data = json.loads(proc.stdout)
    findings = data["findings"] if isinstance(data, dict) else data
    return sorted((f["code"] if "code" in f else f["rule"], f["message"].split(" ")[0]) for f in findings
                  if (f.get("code") or f.get("rule", "")).startswith("ICE04"))


def test_readers_flag_narrows_the_reader_findings(tmp_path: Path) -> None:
    every = _codes(_check(tmp_path))
    assert every == [("ICE040", "ClickHouse"), ("ICE041", "pyiceberg")]
    assert _codes(_check(tmp_path, "--readers", "clickhouse")) == [("ICE040", "ClickHouse")]
    assert _codes(_check(tmp_path, "--readers", "spark")) == []
    assert _codes(_check(tmp_path, "--readers", "all")) == every  # the help's "default: all", spelt out


def test_all_names_every_reader(tmp_path: Path) -> None:
    assert parse_section({"readers": ["ALL"]}, tmp_path / "pyproject.toml").readers == ALL
    assert parse_section({"readers": ["pyiceberg", "all"]}, tmp_path / "pyproject.toml").readers == ("pyiceberg", "spark", "clickhouse")


def test_unknown_reader_flag_is_one_line_and_exit_2(tmp_path: Path) -> None:
    proc = _check(tmp_path, "--readers", "clickhouse,duckdb")
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "unknown reader 'duckdb'" in proc.stderr
