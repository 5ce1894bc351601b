"""Inputs at the limits: a path longer than the file system allows is one clear line (exit 2); an
unknown column path of a thousand parts gets its help without recursing once per part."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.test_commands import run


@pytest.mark.parametrize("args", [
    ["check", "x" * 300 + ".sql"],
    ["check", "x" * 300 + "/a.sql"],
    ["check", "--fix", "x" * 300 + ".sql"],
    ["check", "--metadata", "x" * 300 + ".json", "a.sql"],
    ["snapshot", "db.t", "--metadata", "x" * 300 + ".json"],
])
def test_a_path_longer_than_the_file_system_allows(tmp_path: Path, args: list[str]) -> None:
    (tmp_path / "a.sql").write_text("CREATE TABLE db.t (a int) USING iceberg;\n", encoding="utf-8")
    r = run(*args, cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and r.stderr.startswith("icelint: error: x") and "too long" in r.stderr
    assert "internal error" not in r.stderr


def test_dropping_an_unknown_path_of_a_thousand_parts(tmp_path: Path) -> None:
    parts = ".".join(f"p{i}" for i in range(1000))
    (tmp_path / "V1__a.sql").write_text(
        "CREATE TABLE db.t (a int, s struct<x: int, p0: struct<y: int>>) USING iceberg;\n"
        f"ALTER TABLE db.t DROP COLUMN s.{parts};\n"
        "ALTER TABLE db.t DROP COLUMN s.p0.yy.z;\n", encoding="utf-8")
    r = run("check", "V1__a.sql", "--no-cache", "--format", "json", cwd=tmp_path)
    assert r.returncode == 1 and "internal error" not in r.stderr, r.stderr
    import json

    found = json.loads(r.stdout)
    found = found if isinstance(found, list) else found.get("findings", found)
    helps = [f.get("help") or "" for f in found]
    assert len(helps) == 2
    assert "did you mean `s.p0.y`" in helps[1]  # the help still names the nearest field of the right struct
