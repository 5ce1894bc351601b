"""Inline suppressions through the real CLI: placement, file scope, names, reasons, unused ones, JSON."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.engine.suppress import parse_directive

from tests.ci.conftest import CREATE, DROP, NARROW, READD, codes, icelint, write


def check(base: Path, *args: str):
    return icelint("check", *args, "--format", "json", cwd=base)


@pytest.fixture
def base(tmp_path: Path) -> Path:
    write(tmp_path, "m/V1__create.sql", CREATE + DROP)
    return tmp_path


def test_parse_directive() -> None:
    assert parse_directive("icelint: ignore ICE001 -- reason here") == (False, ("ICE001",), "reason here")
    assert parse_directive("icelint:ignore ICE001,drop-then-add") == (False, ("ICE001", "drop-then-add"), None)
    assert parse_directive("icelint: ignore-file ICE005, ICE006 -- other team") == (True, ("ICE005", "ICE006"), "other team")
    assert parse_directive("icelint: ignore[ICE001] -- x") == (False, ("ICE001",), "x")
    assert parse_directive("icelint: ignore") == (False, (), None)
    assert parse_directive("icelint: ignored ICE001") is None
    assert parse_directive("not icelint: ignore ICE001") is None


def test_line_before_suppresses_that_statement_only(base: Path) -> None:
    write(base, "m/V2__readd.sql", "-- icelint: ignore ICE001 -- payload is re-filled by the backfill job\n" + READD + READD.replace("payload", "payload2") + NARROW)
    r = check(base, "m/V2__readd.sql", "--migrations", "m")
    assert codes(r) == [("ICE002", "V2__readd.sql", 4)]
    sup = r.json()["suppressed"]
    assert [(s["rule"], s["line"], s["reason"]) for s in sup] == [("ICE001", 2, "payload is re-filled by the backfill job")]
    assert r.json()["summary"]["suppressed"] == 1


def test_end_of_last_line_and_names_and_several_rules(base: Path) -> None:
    write(base, "m/V2__readd.sql",
          "ALTER TABLE db.events\n  ADD COLUMN payload binary\n; -- icelint: ignore drop-then-add -- agreed with the readers\n"
          "ALTER TABLE db.events ALTER COLUMN account_id TYPE int; -- icelint: ignore ICE005, illegal-type-change\n")
    r = check(base, "m/V2__readd.sql", "--migrations", "m")
    assert r.code == 0, r.out
    assert codes(r) == [("ICE100", "V2__readd.sql", 4)]  # ICE005 did not fire on that statement
    assert "ICE005 (runtime-failure) suppresses nothing on this statement" in r.json()["findings"][0]["message"]
    assert [(s["rule"], s["line"], s["reason"]) for s in r.json()["suppressed"]] == [
        ("ICE001", 2, "agreed with the readers"), ("ICE002", 4, None)]


def test_comment_block_before_statement_and_file_scope(base: Path) -> None:
    write(base, "m/V2__readd.sql",
          "-- icelint: ignore-file ICE002 -- narrowing is intended\n\n"
          "-- icelint: ignore ICE001\n-- (a second comment line)\n" + READD + NARROW + NARROW)
    r = check(base, "m/V2__readd.sql", "--migrations", "m")
    assert codes(r) == []
    assert sorted(s["rule"] for s in r.json()["suppressed"]) == ["ICE001", "ICE002", "ICE002"]


def test_unused_and_unknown_suppressions_are_reported(base: Path) -> None:
    write(base, "m/V2__ok.sql",
          "-- icelint: ignore ICE001 -- stale\nALTER TABLE db.events ADD COLUMN source string;\n"
          "ALTER TABLE db.events ADD COLUMN other string; -- icelint: ignore ICE999\n"
          "-- icelint: ignore-file ICE004\n")
    r = check(base, "m/V2__ok.sql", "--migrations", "m")
    assert r.code == 0  # ICE100 is a warning
    found = r.json()["findings"]
    assert [(f["rule"], f["name"], f["severity"], f["line"]) for f in found] == [
        ("ICE100", "unused-suppression", "warning", 1), ("ICE100", "unused-suppression", "warning", 3),
        ("ICE100", "unused-suppression", "warning", 4)]
    assert "ICE001 (drop-then-add) suppresses nothing on this statement" in found[0]["message"]
    assert "`ICE999` is not an icelint rule" in found[1]["message"]
    assert "ICE004 (nullability-change) suppresses nothing in this file" in found[2]["message"]
    assert icelint("check", "m/V2__ok.sql", "--migrations", "m", "--fail-on", "warning", cwd=base).code == 1
    assert codes(check(base, "m/V2__ok.sql", "--migrations", "m", "--ignore", "unused-suppression")) == []


def test_not_enabled_rule_is_unused_and_ignore_file_ice100(base: Path) -> None:
    write(base, "m/V2__readd.sql", "-- icelint: ignore ICE001\n" + READD)
    r = check(base, "m/V2__readd.sql", "--migrations", "m", "--ignore", "ICE001")
    assert [f["message"] for f in r.json()["findings"]] == [
        "unused suppression `icelint: ignore`: ICE001 (drop-then-add) is not enabled, so there is nothing to suppress"]
    write(base, "m/V2__readd.sql", "-- icelint: ignore-file unused-suppression -- rules vary per run\n-- icelint: ignore ICE001\n" + READD)
    r = check(base, "m/V2__readd.sql", "--migrations", "m", "--ignore", "ICE001")
    assert codes(r) == [] and [s["rule"] for s in r.json()["suppressed"]] == ["ICE100"]


def test_suppressions_in_context_files_are_not_checked(base: Path) -> None:
    write(base, "m/V1__create.sql", CREATE + "-- icelint: ignore ICE011\n" + DROP + "-- icelint: ignore ICE009\n" + NARROW)
    write(base, "m/V2__readd.sql", READD)
    r = check(base, "m/V2__readd.sql", "--migrations", "m")
    assert codes(r) == [("ICE001", "V2__readd.sql", 1)] and r.json()["suppressed"] == []


def test_text_output_counts_suppressed(base: Path) -> None:
    write(base, "m/V2__readd.sql", READD.rstrip() + "  -- icelint: ignore ICE001 -- backfilled\n")
    r = icelint("check", "m", cwd=base)
    assert r.code == 0
    assert "1 suppressed" in r.out.splitlines()[-1]
    assert "ICE011" in r.out  # the drop in V1 is still reported (the whole folder is pending)
