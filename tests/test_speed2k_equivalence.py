"""Shortcuts taken for speed (issues 14 and 15 §3: the 2,000-statement check, 12,500 re-added columns,
50,000 unused suppressions) give exactly what the plain computations give, over the fixture and
differential corpus and over generated texts."""

from __future__ import annotations

import difflib
import random
import re
from dataclasses import fields, replace
from pathlib import Path

import pytest

from icelint.fixes import apply as fixing
from icelint.engine.checker import lint_run
from icelint.values.findings import Finding, Severity
from icelint.values.fix import Applicability, Edit, Fix, apply_fixes
from icelint.engine.pipeline import replay_sources
from icelint.reporters import text as text_report
from icelint.rules import ALL_RULES, partition_source_change
from icelint.rules.kit import help_columns as _help_columns
from icelint.values.source import LineIndex, SourceFile
from tests.corpus import corpus_runs, run_id

RUNS = corpus_runs()
PIECES = ["a", "bc", ";", "-- c", " ", "\t", "\n", "\r\n", "\r", "é", "漢", "e\u0301", "x y", ""]


def texts(n: int, seed: int):
    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 40)))


def _lint(files: list[Path]):
    sources = [SourceFile.read(p) for p in files]
    run = replay_sources(sources)
    return sources, lint_run(run, ALL_RULES)


def _full(findings: list[Finding]) -> list[tuple]:
    """Everything a reporter shows of the findings (equality of findings leaves out fix and impact)."""
    return [(f, f.help, f.fix, f.impact.to_json() if f.impact is not None else None) for f in findings]


# ---------------------------------------------------------------------------- the plain computations


def _regions(fix: Fix, text: str) -> tuple[int, list[str], list[str]]:
    first = min(e.start for e in fix.edits)
    last = max(e.end for e in fix.edits)
    rs = text.rfind("\n", 0, first) + 1
    nl = text.find("\n", last)
    re_ = len(text) if nl < 0 else nl
    old_region = text[rs:re_]
    shifted = [replace(e, start=e.start - rs, end=e.end - rs) for e in fix.edits]
    new_region, _ = apply_fixes(old_region, [replace(fix, edits=tuple(shifted))])
    old_lines = [ln.rstrip("\r") for ln in old_region.split("\n")]
    new_lines = [ln.rstrip("\r") for ln in new_region.split("\n")]
    return rs, old_lines, new_lines


def _preview_plain(fix: Fix, text: str) -> list[tuple[str, str]]:
    """fixing.preview as it was: every fix through apply_fixes, every region through difflib."""
    rs, old_lines, new_lines = _regions(fix, text)
    row = text.count("\n", 0, rs) + 1
    width = len(str(row + len(old_lines)))
    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out += [("-", f"{row + i:>{width}} - {old_lines[i]}") for i in range(i1, i2)]
        out += [("+", f"{'':>{width}} + {new_lines[j]}") for j in range(j1, j2)]
    return out


def _adapt_plain(findings: list[Finding], texts: dict[str, str]) -> list[Finding]:
    """fixing.adapt as it was: every fix rebuilt, every finding with a fix replaced."""
    out = []
    for f in findings:
        if f.fix is not None:
            text = texts.get(f.path)
            fix = None
            if text is not None:
                edits = []
                for e in f.fix.edits:
                    start, end, content = e.start, e.end, e.content
                    if "\r\n" in text and "\n" in content:
                        content = re.sub(r"(?<!\r)\n", "\r\n", content)
                    if content == "" and end > start:
                        start, end = fixing._whole_statement(text, start, end)
                    if (start, end, content) != (e.start, e.end, e.content):
                        e = Edit.at(text, start, end, content)
                    edits.append(e)
                fix = replace(f.fix, edits=tuple(edits))
            f = replace(f, fix=fix)
        out.append(f)
    return out


# ---------------------------------------------------------------------------- over the corpus


def _fields_of(f: Finding) -> dict:
    """A finding's instance dict as the dataclass's own `__init__` fills it (long texts unpacked)."""
    return {k.name: getattr(f, k.name) for k in fields(Finding)}


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_report_shortcuts_over_the_corpus(files: list[Path]) -> None:
    sources, findings = _lint(files)
    by_path = {s.path: s.text for s in sources}
    indexes = {s.path: LineIndex(s.path, s.text) for s in sources}
    for f in findings:
        index = indexes[f.path]
        assert text_report._snippet(f, index) == text_report._snippet_plain(f, index), f
        if f.fix is not None and f.fix.edits:
            text = by_path[f.path]
            assert fixing.preview(f.fix, text) == _preview_plain(f.fix, text), f
            for crlf in (text, text.replace("\n", "\r\n")):
                assert fixing.preview(f.fix, crlf) == _preview_plain(f.fix, crlf), f
        again = Finding.__new__(Finding)
        Finding._plain_init(again, **{k.name: getattr(f, k.name) for k in fields(Finding)})
        assert again == f and vars(again) == _fields_of(f)
        assert hash(again) == hash(f) and again.sort_key == f.sort_key
    assert _full(fixing.adapt(findings, by_path)) == _full(_adapt_plain(findings, by_path))
    crlf = {p: t.replace("\n", "\r\n") for p, t in by_path.items()}
    assert _full(fixing.adapt(findings, crlf)) == _full(_adapt_plain(findings, crlf))


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_rule_memos_over_the_corpus(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The partition rules' shared analysis and the drop a re-add's help and fix both look for, each
    worked out once per statement, give the findings that working them out at every ask gives."""
    _, fast = _lint(files)
    monkeypatch.setattr(partition_source_change, "findings", lambda ctx: list(partition_source_change._findings(ctx)))
    monkeypatch.setattr(_help_columns, "drop_outcome", _help_columns._find_drop_outcome)
    _, plain = _lint(files)
    assert _full(fast) == _full(plain)


def test_the_corpus_reaches_the_shortcuts() -> None:
    """Without this, the equivalences above could hold because no finding takes a shortcut."""
    one_line = fix_disjoint = fix_shared = multi_line = 0
    for files in RUNS:
        sources, findings = _lint(files)
        by_path = {s.path: s.text for s in sources}
        for f in findings:
            if f.line == f.end_line:
                one_line += 1
            else:
                multi_line += 1
            if f.fix is not None and f.fix.edits:
                _, old, new = _regions(f.fix, by_path[f.path])
                if set(old) & set(new):
                    fix_shared += 1
                else:
                    fix_disjoint += 1
    assert one_line > 100 and multi_line > 0 and fix_disjoint > 20 and fix_shared > 0, (one_line, multi_line, fix_disjoint, fix_shared)


# ---------------------------------------------------------------------------- over generated texts


def test_snippet_over_generated_texts() -> None:
    rng = random.Random(1402)
    for text in texts(600, 1401):
        index = LineIndex("t.sql", text)
        lines = text.count("\n") + 1
        for _ in range(6):
            line = rng.randrange(1, lines + 2)
            end_line = line + rng.choice([0, 0, 0, 1, 6])
            f = Finding("ICE001", "x", Severity.ERROR, "t.sql", line, rng.randrange(0, 12), end_line, rng.randrange(-1, 14), "m")
            assert text_report._snippet(f, index) == text_report._snippet_plain(f, index), (text, f)


def test_preview_over_generated_texts() -> None:
    rng = random.Random(1403)
    for text in texts(800, 1404):
        for _ in range(4):
            a = rng.randrange(0, len(text) + 1)
            b = rng.randrange(a, len(text) + 1)
            content = "".join(rng.choice(["x", "\n", "a", "bc", ";", " ", "\r\n", ""]) for _ in range(rng.randrange(0, 8)))
            if rng.random() < 0.3:  # content holding a line of the region (difflib then finds it)
                content = text[a:b] + content
            edits = [Edit.at(text, a, b, content)]
            if rng.random() < 0.3 and b < len(text):
                c = rng.randrange(b + 1, len(text) + 1)
                edits.append(Edit.at(text, c, c, "y"))
            fix = Fix(Applicability.SAFE, "m", tuple(edits))
            assert fixing.preview(fix, text) == _preview_plain(fix, text), (text, fix)


def test_finding_init_and_hash() -> None:
    rng = random.Random(1406)
    for _ in range(500):
        values = {
            "rule": rng.choice(["ICE001", "ICE100"]), "name": "n", "severity": rng.choice(list(Severity)),
            "path": rng.choice(["a.sql", "V2__b.sql"]), "line": rng.randrange(1, 4), "column": rng.randrange(1, 4),
            "end_line": 4, "end_column": 9, "message": rng.choice(["m", "n"]),
        }
        if rng.random() < 0.5:
            values |= {"help": "h", "table": "db.t", "field_id": 3, "statement_index": 2, "suppressed_reason": "r"}
        fast = Finding(**values)
        plain = Finding.__new__(Finding)
        Finding._plain_init(plain, **values)
        assert fast == plain and vars(fast) == vars(plain) and hash(fast) == hash(plain)
        positional = Finding(*[values[k.name] for k in fields(Finding) if k.name in values][:9])
        assert positional == Finding(**{k: values[k] for k in list(values)[:9]})
        with pytest.raises(AttributeError):
            fast.line = 5  # type: ignore[misc]
        assert fast.sort_key == (*Finding.sort_key.fget(plain),) and fast.sort_key is fast.sort_key
        other = replace(fast, message=fast.message + "x")
        assert other != fast and other.sort_key[-1] == fast.message + "x"


def test_type_sql_cache() -> None:
    from icelint.model import types as it
    from icelint.rules.kit import help as _help

    names = ["int", "long", "string", "timestamp", "timestamptz", "binary", "uuid", "date", "float", "double", "boolean", "time", "unknown"]
    types = [it.PrimitiveType(n) for n in names] + [it.DecimalType.of(p, s) for p in (9, 10, 38) for s in (0, 2)]
    types += [it.FixedType("fixed[4]", 4), it.PrimitiveType("decimal(10, 2)")]  # same text, another class
    for t in types + types[::-1]:
        assert _help.type_sql(t) == _help._type_sql(t), t


def _proposals_plain(help_text: str) -> list[tuple[tuple[str, int] | None, str]]:
    """`_help.proposals` without its look at the prefix's end before searching for the target."""
    from icelint.rules.kit import help as _help

    out: list[tuple[tuple[str, int] | None, str]] = []
    for m in _help._BACKTICKED.finditer(help_text):
        text = (m.group("double") or m.group("single")).strip()
        if not _help._is_statements(text):
            continue
        t = _help._TARGET.search(help_text[: m.start()])
        out.append(((t.group("path"), int(t.group("line"))) if t else None, text))
    return out


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_proposals_over_the_corpus(files: list[Path]) -> None:
    from icelint.rules.kit import help as _help

    _, findings = _lint(files)
    for f in findings:
        if f.help:
            assert _help.proposals(f.help) == _proposals_plain(f.help), f.help
            for variant in (f.help.replace(" with `", " with \n`"), f.help.replace(" with ", " with  ")):
                assert _help.proposals(variant) == _proposals_plain(variant), variant


def test_proposals_targets_are_reached() -> None:
    from icelint.rules.kit import help as _help

    seen = 0
    for files in RUNS:
        for f in _lint(files)[1]:
            seen += sum(1 for target, _ in _help.proposals(f.help or "") if target is not None)
    assert seen > 5


def test_shared_line_index_follows_the_text() -> None:
    for text in texts(50, 1407):
        shared = LineIndex.shared("t.sql", text)
        fresh = LineIndex("t.sql", text)
        assert shared.text is text and shared._starts == fresh._starts
        assert LineIndex.shared("t.sql", text) is shared
        other = text + "\nx"
        assert LineIndex.shared("t.sql", other)._starts == LineIndex("t.sql", other)._starts
        assert LineIndex.shared("u.sql", text).path == "u.sql"
    assert Severity.ERROR.rank == 2 and Severity.WARNING.rank == 1 and Severity.INFO.rank == 0


def _free_column_name_plain(ctx, parent, base, suffixes=_help_columns.DEFAULT_SUFFIXES, also=()):
    from icelint.rules.kit.help import free_name

    return free_name(_help_columns.taken_names(ctx, parent) + list(also), base, suffixes)


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_free_column_name_over_the_corpus(files: list[Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A help's free name found by lookups gives the findings that the list of every current and
    former name gives."""
    _, fast = _lint(files)
    monkeypatch.setattr(_help_columns, "free_column_name", _free_column_name_plain)
    import icelint.rules.kit.help_tables as help_tables

    monkeypatch.setattr(help_tables, "free_column_name", _free_column_name_plain)
    _, plain = _lint(files)
    assert _full(fast) == _full(plain)


FREE_NAME_SCRIPT = """CREATE TABLE db.t (id bigint, Amount int, amount_V2 int, s struct<x: int, X_v2: int, ü: int>, é int) USING iceberg;
INSERT INTO db.t VALUES (1, 1, 1, named_struct('x', 1, 'X_v2', 1, 'ü', 1), 1);
ALTER TABLE db.t DROP COLUMN amount_V2;
ALTER TABLE db.t ADD COLUMN amount_v3 int;
ALTER TABLE db.t DROP COLUMN amount_v3;
ALTER TABLE db.t DROP COLUMN s.X_v2;
ALTER TABLE db.t ADD COLUMN s.x_V3 int;
ALTER TABLE db.t ADD COLUMN `amount_v4` string;
ALTER TABLE db.t RENAME COLUMN é TO É_v2;
"""


@pytest.mark.parametrize("small_table", [64, 0], ids=["listed", "looked-up"])
def test_free_column_name_on_every_step(small_table: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Directly, on every step of a script with case twins, nested fields, non-ASCII names and former
    names at the top level and in a struct: every base and suffix set the helps use (compared inside
    a probe rule, while each step's history is the one the rules see)."""
    from icelint.engine.pipeline import replay_text
    from icelint.rules.kit.base import Rule
    from icelint.rules.kit.help import free_name

    monkeypatch.setattr(_help_columns, "SMALL_TABLE", small_table)  # both ways of finding a top-level name
    seen = []

    def probe(ctx):
        if ctx.before is None or ctx.after is None:
            return
        for parent in ((), ("s",), ("S",), ("nope",)):
            for base in ("amount", "Amount", "x", "X", "ü", "é", "É", "id", "s"):
                for suffixes in (_help_columns.DEFAULT_SUFFIXES, ("_old", "_old2", "_old3"), ("", "_2", "_3")):
                    for also in ((), ("amount_v2",), ("X_V2", "x_v3")):
                        got = _help_columns.free_column_name(ctx, parent, base, suffixes, also)
                        want = free_name(_help_columns.taken_names(ctx, parent) + list(also), base, suffixes)
                        assert got == want, (ctx.outcome.step, parent, base, suffixes, also)
                        seen.append(got)
        yield from ()

    lint_run(replay_text(FREE_NAME_SCRIPT, None, path="m.sql"), [Rule("ICE999", "probe", Severity.INFO, probe, "")])
    assert len(seen) > 1000
    assert {"amount_new", "x_v5", "É_v3"} & set(seen)  # former and current names were in the way
