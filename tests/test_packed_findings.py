"""Findings kept compressed while `icelint check` lints in one process (`packed_findings.py`): read
back whole, deduplicated and in report order; the report is the same as with every finding kept
as it is, in every format, with findings in a context file moved (ICE005) and with fixes."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from icelint.engine import checker
from icelint.cli.main import main
from icelint.run.packed_findings import PackedFindings
from icelint.engine.pipeline import replay_text
from icelint.engine.checker import lint_run
from icelint.rules import ALL_RULES

SQL = (
    "CREATE TABLE db.t (id bigint, p string, q int) USING iceberg;\n"
    "INSERT INTO db.t VALUES (1, 'a', 1);\n"
    "ALTER TABLE db.t DROP COLUMN p;\n"
    "ALTER TABLE db.t ADD COLUMN p binary;\n"
    "ALTER TABLE db.t RENAME COLUMN q TO r;\n"
    "ALTER TABLE db.t ALTER COLUMN r FIRST;\n"
    "ALTER TABLE db.t ALTER COLUMN id TYPE int;\n"
    "ALTER TABLE db.u ADD COLUMN z int;\n"
)


def test_read_gives_every_finding_once_in_report_order() -> None:
    found = lint_run(replay_text(SQL * 3), ALL_RULES)
    assert len(found) >= 6
    doubled = [*found, *found]
    packed = PackedFindings()
    packed.add(doubled[:5])
    packed.add(doubled[5:9])
    packed.keep_loose(doubled[9:])
    assert list(packed) == doubled  # iterated as added, a blob at a time
    assert packed.read() == found == sorted(set(doubled), key=lambda f: f.sort_key)
    assert packed.read() == []  # read once: the blobs are let go


def test_only_the_first_findings_are_packed(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past `MAX_PACKED` findings the rest stay as they are (packing costs CPU the peak does not pay back)."""
    from icelint.engine.pipeline import parse_sources
    from icelint.replay.engine import Replay
    from icelint.values.source import SourceFile

    monkeypatch.setattr(checker, "BATCH", 2)
    monkeypatch.setattr(checker, "MAX_PACKED", 4)
    steps = parse_sources([SourceFile("t.sql", SQL * 3)]).steps
    found, _ = checker.lint_replay(Replay(None), steps, ALL_RULES, pack_findings=True)
    assert 4 <= found.count < 4 + 4  # stopped at the first batch past the limit
    assert len(found._loose) > 2
    assert found.read() == lint_run(replay_text(SQL * 3, path="t.sql"), ALL_RULES)


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_icelint_check_reports_the_same_with_findings_packed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nmigrations = "migrations"\n', encoding="utf-8")
    (tmp_path / "migrations").mkdir()
    ctx, new = tmp_path / "migrations" / "V1__ctx.sql", tmp_path / "migrations" / "V2__new.sql"
    ctx.write_text("ALTER TABLE db.ghost ADD COLUMN a int;\n", encoding="utf-8")  # ICE005 in a context file, moved
    new.write_text(SQL + "ALTER TABLE db.ghost ADD COLUMN b int;\n", encoding="utf-8")
    monkeypatch.setenv("ICELINT_JOBS", "1")
    monkeypatch.chdir(tmp_path)
    blobs: list[int] = []
    real_add = PackedFindings.add
    monkeypatch.setattr(PackedFindings, "add", lambda self, batch: blobs.append(len(batch)) or real_add(self, batch))
    args = ["check", "--no-cache", "--unsafe-fixes", "--format", fmt, "migrations/V2__new.sql"]  # V1: applied
    monkeypatch.setattr(checker, "BATCH", 1)  # a blob per statement with findings
    CliRunner().invoke(main, args)
    assert not blobs  # a short run keeps its findings as they are (`PACK_FROM` statements and more are packed)
    monkeypatch.setattr("icelint.run.packed_findings.PACK_FROM", 0)
    packed = CliRunner().invoke(main, args)
    assert len(blobs) >= 4
    monkeypatch.setattr(checker, "BATCH", 10**9)  # none packed: every finding as it is
    blobs.clear()
    plain = CliRunner().invoke(main, args)
    assert not blobs
    assert packed.exit_code == plain.exit_code == 1 and packed.output == plain.output
    for code in ("ICE001", "ICE005", "ICE012"):
        assert code in packed.output
