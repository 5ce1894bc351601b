"""`run/packed_findings.py`: findings kept compressed while `icelint check` lints a long run in one
process read back as the findings that went in. Packed then unpacked, every finding of the rule
corpus, and generated findings with long and non-ASCII texts, equal the originals in every field
(the ones equality leaves out too: fix, impact, suppressed reason), in the same order; `read()` gives
them deduplicated in report order; the linter packing as it goes gives what `lint_run` gives; the
report of `icelint check` is the same with findings packed, in every format."""

from __future__ import annotations

from dataclasses import fields
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from icelint.cli.main import main
from icelint.engine import checker
from icelint.engine.checker import lint_run
from icelint.engine.pipeline import parse_sources, replay, replay_text
from icelint.model.stats import Impact
from icelint.replay.engine import Replay
from icelint.rules import ALL_RULES
from icelint.run import packed_findings
from icelint.run.packed_findings import PackedFindings
from icelint.values.findings import Finding, Severity, in_report_order
from icelint.values.fix import Applicability, Edit, Fix
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, iceberg_version

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
    monkeypatch.setattr(packed_findings, "BATCH", 2)
    monkeypatch.setattr(packed_findings, "MAX_PACKED", 4)
    steps = parse_sources([SourceFile("t.sql", SQL * 3)]).steps
    found, _ = checker.lint_replay(Replay(None), steps, ALL_RULES, packed=PackedFindings())
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
    monkeypatch.setattr(packed_findings, "BATCH", 1)  # a blob per statement with findings
    CliRunner().invoke(main, args)
    assert not blobs  # a short run keeps its findings as they are (`PACK_FROM` statements and more are packed)
    monkeypatch.setattr("icelint.run.packed_findings.PACK_FROM", 0)
    packed = CliRunner().invoke(main, args)
    assert len(blobs) >= 4
    monkeypatch.setattr(packed_findings, "BATCH", 10**9)  # none packed: every finding as it is
    blobs.clear()
    plain = CliRunner().invoke(main, args)
    assert not blobs
    assert packed.exit_code == plain.exit_code == 1 and packed.output == plain.output
    for code in ("ICE001", "ICE005", "ICE012"):
        assert code in packed.output


# ---------------------------------------------------------------------------- every field, in order


def _full(f: Finding) -> tuple:
    """Everything a finding holds, the fields equality leaves out included."""
    return tuple(getattr(f, k.name) for k in fields(Finding))


def _round_trip(found: list[Finding]) -> PackedFindings:
    """`found` handed to a `PackedFindings` as the linter hands them: its list so far, every finding."""
    packed, current = PackedFindings(), []
    for f in found:
        current.append(f)
        current = packed.spill(current)
    packed.keep_loose(current)
    return packed


def _assert_same(found: list[Finding], back: list[Finding]) -> None:
    assert [_full(f) for f in back] == [_full(f) for f in found]
    assert [type(f) for f in back] == [Finding] * len(found)
    for a, b in zip(back, found):
        assert a == b and hash(a) == hash(b) and a.sort_key == b.sort_key and a.to_json() == b.to_json()


def _rule_corpus() -> list[Finding]:
    out: list[Finding] = []
    for files in corpus_runs():
        if "fixtures/rules/" not in files[0].as_posix():
            continue
        parsed = parse_sources([SourceFile.read(p) for p in files])
        out += lint_run(replay(parsed, iceberg_version=iceberg_version(files)), ALL_RULES)
    return out


@pytest.mark.parametrize("batch", [1, 7, 512])
def test_the_rule_corpus_findings_come_back_as_they_went_in(monkeypatch: pytest.MonkeyPatch, batch: int) -> None:
    found = _rule_corpus()
    assert len(found) > 400 and {f.rule for f in found} >= {"ICE001", "ICE005", "ICE017"}
    assert sum(f.fix is not None for f in found) > 50 and sum(f.impact is not None for f in found) > 50
    monkeypatch.setattr(packed_findings, "BATCH", batch)
    monkeypatch.setattr(packed_findings, "MAX_PACKED", len(found) // 2)  # the rest stay loose
    packed = _round_trip(found)
    assert 0 < packed.count < len(found) == len(packed)
    _assert_same(found, list(packed))
    _assert_same(in_report_order(found), packed.read())
    assert len(packed) == 0 and list(packed) == []


def test_the_linter_packing_as_it_goes_finds_what_lint_run_finds(monkeypatch: pytest.MonkeyPatch) -> None:
    """Over the rule corpus, a blob every three findings: `lint_replay` into a `PackedFindings` read back
    equals `lint_run` of the same replay, every field."""
    monkeypatch.setattr(packed_findings, "BATCH", 3)
    seen = 0
    for files in corpus_runs():
        if "fixtures/rules/" not in files[0].as_posix():
            continue
        version = iceberg_version(files)
        plain = lint_run(replay(parse_sources([SourceFile.read(p) for p in files]), iceberg_version=version), ALL_RULES)
        steps = parse_sources([SourceFile.read(p) for p in files]).steps
        found, _ = checker.lint_replay(Replay(None, iceberg_version=version), steps, ALL_RULES, own_steps=True, packed=PackedFindings())
        assert type(found) is PackedFindings
        _assert_same(plain, found.read())
        seen += len(plain)
    assert seen > 400


# ---------------------------------------------------------------------------- generated texts

# long texts, texts that repeat (as a rule's sentences do), and every kind of character a text can
# hold: non-ASCII letters, emoji, NUL, line breaks, lone surrogates (what `surrogateescape` makes of
# bytes that are not UTF-8)
_TEXT = st.one_of(
    st.text(max_size=300),
    st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF), min_size=200, max_size=5000),
    st.builds(lambda t, n: t * n, st.text(min_size=1, max_size=40), st.integers(10, 400)),
    st.sampled_from(["名前 → `événement` 🧊", "\udc80\udcff", "\0\r\n", ""]),
)
_FIX = st.builds(
    lambda message, content, start, n: Fix(Applicability.SAFE, message, (Edit(start, start + n, content, 1, 1, 1, 1 + n),)),
    _TEXT, _TEXT, st.integers(0, 10**6), st.integers(0, 100),
)
_IMPACT = st.builds(Impact, st.none() | st.integers(0, 2**63 - 1), st.none() | st.integers(0, 10**6),
                    st.none() | st.integers(0, 10**12), st.none() | st.integers(0, 10**12), st.none() | _TEXT)
_FINDING = st.builds(
    Finding,
    rule=st.sampled_from(["ICE001", "ICE017", "ICE999"]), name=_TEXT, severity=st.sampled_from(list(Severity)),
    path=st.sampled_from(["V1__a.sql", "V10__b.sql", "dir/V2__c.sql", "n.ipynb:cell 3", "<string>"]) | _TEXT,
    line=st.integers(1, 10**6), column=st.integers(1, 500), end_line=st.integers(1, 10**6), end_column=st.integers(0, 500),
    message=_TEXT, help=st.none() | _TEXT, table=st.none() | _TEXT, column_path=st.none() | _TEXT,
    field_id=st.none() | st.integers(0, 2**31), statement_index=st.integers(0, 10**5),
    suppressed_reason=st.none() | _TEXT, fix=st.none() | _FIX, impact=st.none() | _IMPACT,
)


@settings(max_examples=150, deadline=None)
@given(st.lists(_FINDING, max_size=40), st.integers(1, 9), st.integers(0, 40))
def test_generated_findings_come_back_as_they_went_in(found: list[Finding], batch: int, max_packed: int) -> None:
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(packed_findings, "BATCH", batch)
        mp.setattr(packed_findings, "MAX_PACKED", max_packed)
        packed = _round_trip(found)
    _assert_same(found, list(packed))
    _assert_same(in_report_order(found), packed.read())


def test_long_repeated_texts_pack_small() -> None:
    """What packing is for: findings that repeat their rule's sentences around a long column order
    weigh a small part of their texts once packed."""
    order = " → ".join(f"`col_{j}`" for j in range(300))
    found = [Finding("ICE017", "reorder", Severity.WARNING, "V1__a.sql", i, 1, i, 9, f"`c{i}` moves: {order}",
                     "leave the position out: add columns at the end " * 4) for i in range(512)]
    packed = _round_trip(found)
    assert packed.count == 512
    size = sum(len(b) for b in packed._blobs)
    assert size * 20 < sum(len(f.message) + len(f.help) for f in found)
    _assert_same(found, packed.read())
