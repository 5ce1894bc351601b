"""Migration folders are read in the order migration tools apply them (Flyway, numeric prefixes, natural)."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.plan.discovery import discover, duplicate_versions

from tests.ci.conftest import CLEAN, CREATE, icelint, write


def names(files: list[Path], base: Path) -> list[str]:
    return [f.relative_to(base).as_posix() for f in files]


def touch(base: Path, *rels: str) -> None:
    for rel in rels:
        write(base, rel, "SELECT 1;\n")


def test_flyway_versions_numeric_repeatables_last_undo_skipped(tmp_path: Path) -> None:
    touch(tmp_path, "V10__j.sql", "V2__b.sql", "V1.2.10__e.sql", "V1.2.9__d.sql", "V1_1__c.sql", "V1__a.sql",
          "R__views.sql", "R__aaa.sql", "U2__undo_b.sql", "notes.sql", "sub/V3__in_sub.sql", "README.md")
    assert names(discover([str(tmp_path)]), tmp_path) == [
        "V1__a.sql", "V1_1__c.sql", "V1.2.9__d.sql", "V1.2.10__e.sql", "V2__b.sql", "sub/V3__in_sub.sql",
        "V10__j.sql", "notes.sql", "R__aaa.sql", "R__views.sql",
    ]


def test_numeric_and_timestamp_prefixes_by_number(tmp_path: Path) -> None:
    touch(tmp_path, "20240105_x.sql", "001_a.sql", "10_b.sql", "2_c.sql", "20231231_y.sql", "0003-d.sql")
    assert names(discover([str(tmp_path)]), tmp_path) == [
        "001_a.sql", "2_c.sql", "0003-d.sql", "10_b.sql", "20231231_y.sql", "20240105_x.sql",
    ]


def test_other_names_natural_sort(tmp_path: Path) -> None:
    touch(tmp_path, "a10.sql", "a2.sql", "B1.sql", "a1b.sql")
    assert names(discover([str(tmp_path)]), tmp_path) == ["a1b.sql", "a2.sql", "a10.sql", "B1.sql"]


def test_natural_and_lexicographic_orders(tmp_path: Path) -> None:
    touch(tmp_path, "V10__b.sql", "V2__a.sql", "U1__undo.sql", "R__r.sql")
    assert names(discover([str(tmp_path)], "natural"), tmp_path) == ["R__r.sql", "U1__undo.sql", "V2__a.sql", "V10__b.sql"]
    assert names(discover([str(tmp_path)], "lexicographic"), tmp_path) == ["R__r.sql", "U1__undo.sql", "V10__b.sql", "V2__a.sql"]


def test_duplicate_flyway_versions_are_kept_in_path_order_and_listed(tmp_path: Path) -> None:
    # discovery keeps both (in path order); `icelint check` reports them (ICE024)
    touch(tmp_path, "V1__a.sql", "V1.0__b.sql", "V2__c.sql")
    assert [f.name for f in discover([str(tmp_path)])] == ["V1.0__b.sql", "V1__a.sql", "V2__c.sql"]
    assert [(a.name, b.name) for a, b in duplicate_versions(discover([str(tmp_path)]))] == [("V1__a.sql", "V1.0__b.sql")]


def test_named_files_sorted_only_when_all_versioned(tmp_path: Path) -> None:
    touch(tmp_path, "V10__b.sql", "V2__a.sql", "create.sql", "alter.sql")
    assert [f.name for f in discover([str(tmp_path / "V10__b.sql"), str(tmp_path / "V2__a.sql")])] == ["V2__a.sql", "V10__b.sql"]
    assert [f.name for f in discover([str(tmp_path / "create.sql"), str(tmp_path / "alter.sql")])] == ["create.sql", "alter.sql"]


# ---------------------------------------------------------------------------- end to end


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    write(tmp_path, "m/V2__create.sql", CREATE)
    write(tmp_path, "m/V10__add_source.sql", CLEAN)
    write(tmp_path, "m/R__props.sql", "ALTER TABLE db.events SET TBLPROPERTIES ('write.metadata.previous-versions-max' = '50');\n")
    write(tmp_path, "m/U10__undo.sql", "THIS IS NOT SQL;\n")
    return tmp_path


def test_cli_replays_in_flyway_order(folder: Path) -> None:
    r = icelint("check", "m", "--format", "json", cwd=folder)
    assert r.code == 0, r.out + r.err
    assert r.json()["findings"] == []
    assert r.json()["summary"]["files"] == 3  # the undo file is not read


def test_cli_order_flag_and_config(folder: Path) -> None:
    r = icelint("check", "m", "--order", "lexicographic", "--format", "json", cwd=folder)
    assert r.code == 1
    rules = {(f["rule"], Path(f["path"]).name) for f in r.json()["findings"]}
    assert ("ICE005", "R__props.sql") in rules  # R__ (and V10) before the CREATE in V2: unknown table
    assert ("ICE006", "U10__undo.sql") in rules  # nothing skipped: the undo file is read, and does not parse
    write(folder, "pyproject.toml", '[tool.icelint]\norder = "lexicographic"\n')
    assert icelint("check", "m", "--format", "json", cwd=folder).json() == r.json()
    assert icelint("check", "m", "--order", "flyway", cwd=folder).code == 0  # the flag wins


def test_cli_duplicate_version_is_an_error_finding(folder: Path) -> None:
    write(folder, "m/V2.0__again.sql", CLEAN)
    r = icelint("check", "m", "--format", "json", cwd=folder)
    assert r.code == 1 and r.err == ""
    dups = [(Path(f["path"]).name, f["severity"]) for f in r.json()["findings"] if f["rule"] == "ICE024"]
    assert sorted(dups) == [("V2.0__again.sql", "error"), ("V2__create.sql", "error")]
    assert any("V2__create.sql" in f["message"] for f in r.json()["findings"] if Path(f["path"]).name == "V2.0__again.sql")
