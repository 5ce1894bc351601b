"""`icelint check --add-suppressions REASON`: a suppression before every statement with findings,
the rest of the file kept byte for byte, idempotent, atomic, only changed files touched."""

from __future__ import annotations

import json
import os
from pathlib import Path

from icelint.fixes.add_suppressions import edit
from icelint.values.findings import Finding, Severity
from tests.cli.test_commands import CLEAN, ERROR, run


def write(p: Path, data: bytes) -> Path:
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(data)
    return p


def report(cwd: Path, *paths: str) -> dict:
    return json.loads(run("check", *paths, "--format", "json", cwd=cwd).stdout)


def test_adds_suppressions_then_the_check_is_clean(tmp_path: Path) -> None:
    write(tmp_path / "m.sql", ERROR.encode())
    write(tmp_path / "c.sql", CLEAN.encode())
    clean_before = os.stat(tmp_path / "c.sql")
    r = run("check", "m.sql", "c.sql", "--add-suppressions", "legacy, reviewed in 2024", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout == ""
    assert r.stderr == "icelint: added 2 suppressions to 1 file\n"
    assert (tmp_path / "m.sql").read_text() == (
        "CREATE TABLE db.events (id bigint NOT NULL, payload string) USING iceberg;\n"
        "INSERT INTO db.events VALUES (1, 'a');\n"
        "-- icelint: ignore ICE011 -- legacy, reviewed in 2024\n"
        "ALTER TABLE db.events DROP COLUMN payload;\n"
        "-- icelint: ignore ICE001 -- legacy, reviewed in 2024\n"
        "ALTER TABLE db.events ADD COLUMN payload binary;\n"
    )
    assert os.stat(tmp_path / "c.sql").st_mtime_ns == clean_before.st_mtime_ns, "an unchanged file is not rewritten"
    rep = report(tmp_path, "m.sql", "c.sql")
    assert rep["findings"] == [] and [s["reason"] for s in rep["suppressed"]] == ["legacy, reviewed in 2024"] * 2
    # idempotent
    before = (tmp_path / "m.sql").read_bytes()
    r = run("check", "m.sql", "c.sql", "--add-suppressions", "legacy, reviewed in 2024", cwd=tmp_path)
    assert r.stderr == "icelint: added 0 suppressions to 0 files\n"
    assert (tmp_path / "m.sql").read_bytes() == before


def test_keeps_crlf_bom_comments_and_indentation(tmp_path: Path) -> None:
    sql = ("\ufeff-- header comment\r\n" + ERROR.replace("ALTER TABLE db.events DROP", "  /* keep */ ALTER TABLE db.events DROP")
           .replace("\n", "\r\n") + "-- trailing\r\n")
    p = write(tmp_path / "V1__crlf.sql", sql.encode("utf-8"))
    mode = 0o640
    os.chmod(p, mode)
    run("check", "V1__crlf.sql", "--add-suppressions", "old", cwd=tmp_path)
    data = p.read_bytes()
    assert data.startswith(b"\xef\xbb\xbf-- header comment\r\n")
    assert b"\n" not in data.replace(b"\r\n", b"")  # every line ending is still CRLF
    text = data.decode("utf-8")
    assert "  -- icelint: ignore ICE011 -- old\r\n  /* keep */ ALTER TABLE db.events DROP COLUMN payload;\r\n" in text
    assert text.endswith("-- trailing\r\n")
    assert os.stat(p).st_mode & 0o777 == mode
    assert report(tmp_path, "V1__crlf.sql")["findings"] == []
    assert not [f for f in os.listdir(tmp_path) if "icelint-tmp" in f], "no temporary file left behind"


def test_statement_sharing_a_line_gets_its_own(tmp_path: Path) -> None:
    sql = ERROR.replace("payload;\nALTER", "payload; ALTER")
    p = write(tmp_path / "m.sql", sql.encode())
    run("check", "m.sql", "--add-suppressions", "x", cwd=tmp_path)
    assert p.read_text().splitlines()[2:] == [
        "-- icelint: ignore ICE011 -- x",
        "ALTER TABLE db.events DROP COLUMN payload;",
        "-- icelint: ignore ICE001 -- x",
        "ALTER TABLE db.events ADD COLUMN payload binary;",
    ]
    assert report(tmp_path, "m.sql")["findings"] == []


def test_several_rules_on_one_statement_and_respects_selection(tmp_path: Path) -> None:
    sql = ("CREATE TABLE db.t (id bigint, s struct<a: int>) USING iceberg;\nINSERT INTO db.t VALUES (1, named_struct('a', 1));\n"
           "ALTER TABLE db.t DROP COLUMN s.a;\n")
    p = write(tmp_path / "m.sql", sql.encode())
    codes = sorted({f["rule"] for f in report(tmp_path, "m.sql")["findings"] if f["line"] == 3})
    assert len(codes) >= 2, codes
    run("check", "m.sql", "--add-suppressions", "", cwd=tmp_path)
    assert p.read_text().splitlines()[2] == "-- icelint: ignore " + ", ".join(codes)
    assert report(tmp_path, "m.sql")["findings"] == []


def test_edit_unit() -> None:
    f = Finding("ICE001", "drop-then-add", Severity.ERROR, "x.sql", 2, 5, 2, 9, "m")
    text, n = edit("SELECT 1;\n  ALTER TABLE t ADD COLUMN c int;\n", [(1, 1, 1, 9), (2, 3, 2, 34)], [f, f], "why")
    assert n == 1 and text == "SELECT 1;\n  -- icelint: ignore ICE001 -- why\n  ALTER TABLE t ADD COLUMN c int;\n"
    assert edit("SELECT 1;\n", [(1, 1, 1, 9)], [], "why") == ("SELECT 1;\n", 0)
