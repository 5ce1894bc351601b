"""`engine/checker.py`'s shortcuts find what the plain computations find. `icelint check` lints each
outcome as the replay makes it (`checker.lint_replay`) and keeps of it only what later rules look back at: the same findings as linting a replay that is over
(`checker.lint_run`), on every script of the corpus and on the cases that must look ahead.
Rule dispatch by trigger loses nothing: calling every rule on every outcome finds the same. And what
the shortcuts of `lint_run` rest on."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.values import changes as ch
from icelint.engine.checker import lint_replay, lint_run
from icelint.engine.pipeline import parse_sources, replay
from icelint.replay.engine import PastState, Replay
from icelint.rules import ALL_RULES
from icelint.rules.kit import base as _base
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, deployments, iceberg_version, run_id

RUNS = corpus_runs()


def _both(files: list[tuple[str, str]], deployed: bool = False):
    parsed = parse_sources([SourceFile(p, t) for p, t in files])
    if deployed:
        parsed.deployments = deployments([Path(p) for p, _ in files])
    whole = lint_run(replay(parsed), ALL_RULES)
    streamed, result = lint_replay(Replay(deployments=parsed.deployments), parsed.steps, ALL_RULES)
    # as `icelint check` runs it in one process: the steps handed over, each linted one kept lean
    own = list(parsed.steps)
    lean, lean_result = lint_replay(Replay(deployments=parsed.deployments), own, ALL_RULES, own_steps=True)
    assert lean == streamed
    for step, kept, o in zip(parsed.steps, own, lean_result.outcomes, strict=True):
        assert kept is o.step and kept in (step, ch.linted(step))  # the step itself: a check asked again at the end
    return whole, streamed, result


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_streamed_lint_finds_what_linting_the_whole_replay_finds(files: list[Path]) -> None:
    texts = [(str(p), p.read_text(encoding="utf-8")) for p in files]
    whole, streamed, result = _both(texts)
    assert streamed == whole
    assert result.final and len(result.outcomes) == len(result.steps)
    if len(files) > 1:
        whole, streamed, _ = _both(texts, deployed=True)
        assert streamed == whole


def test_the_corpus_has_findings_to_compare() -> None:
    """Without this, the equivalence above could hold because nothing is found."""
    found = set()
    for files in RUNS[:60]:
        whole, _, _ = _both([(str(p), p.read_text(encoding="utf-8")) for p in files])
        found.update(f.rule for f in whole)
    assert len(found) >= 10


# Each of these makes a rule look at statements after the one it reports on; streamed, the check
# raises NeedsFuture and runs again at the end: the finding must be the one a whole replay gives.
LOOK_AHEAD = {
    # ICE005's "did you mean" lists the tables that exist at the end of the run
    "known-tables": "CREATE TABLE db.events (id bigint) USING iceberg;\n"
    "ALTER TABLE db.event ADD COLUMN c int;\n"
    "CREATE TABLE db.eventz (id bigint) USING iceberg;\n",
    # the re-add's fix depends on rows written after the drop, by an unqualified name (resolved by the replay)
    "writes-after-unqualified": "CREATE TABLE db.t (id bigint, payload string) USING iceberg;\n"
    "INSERT INTO db.t VALUES (1, 'a');\n"
    "ALTER TABLE db.t DROP COLUMN payload;\n"
    "ALTER TABLE db.t ADD COLUMN payload binary;\n"
    "INSERT INTO t VALUES (2, X'00');\n",
    "writes-after-qualified": "CREATE TABLE db.t (id bigint, payload string) USING iceberg;\n"
    "INSERT INTO db.t VALUES (1, 'a');\n"
    "ALTER TABLE db.t DROP COLUMN payload;\n"
    "ALTER TABLE db.t ADD COLUMN payload binary;\n"
    "INSERT INTO db.t VALUES (2, X'00');\n",
    # the session setting is relied on by a later statement
    "case-sensitive": "CREATE TABLE db.t (id bigint, Name string) USING iceberg;\n"
    "SET spark.sql.caseSensitive=true;\n"
    "ALTER TABLE db.t RENAME COLUMN Name TO name;\n",
    # emptying a struct, refilled by a later statement (named with its namespace: read from the steps ahead)
    "emptied-struct-qualified": "CREATE TABLE db.t (id bigint, s struct<a: int>) USING iceberg;\n"
    "ALTER TABLE db.t DROP COLUMN s.a;\n"
    "ALTER TABLE db.t ADD COLUMN s.b int;\n",
    # ... by an unqualified name, which only the replay resolves
    "emptied-struct-unqualified": "CREATE TABLE db.t (id bigint, s struct<a: int>) USING iceberg;\n"
    "ALTER TABLE db.t DROP COLUMN s.a;\n"
    "ALTER TABLE t ADD COLUMN s.b int;\n",
}
AHEAD_BY_STEPS = {"writes-after-qualified", "emptied-struct-qualified"}  # read from the steps ahead: no need to wait


@pytest.mark.parametrize("name", sorted(LOOK_AHEAD))
def test_a_rule_that_looks_ahead_is_asked_again_at_the_end(name: str, monkeypatch) -> None:
    from icelint.engine import checker

    deferred = []
    real = checker._Linter.run_deferred

    def spy(self):
        deferred.extend(self.deferred)
        return real(self)

    monkeypatch.setattr(checker._Linter, "run_deferred", spy)
    whole, streamed, _ = _both([("V1__x.sql", LOOK_AHEAD[name])])
    assert whole and streamed == whole
    if name not in AHEAD_BY_STEPS:
        assert deferred, "the case does not look ahead while streamed: it tests nothing"
    else:
        assert not deferred


def test_writes_ahead_by_a_qualified_name_are_read_from_the_steps() -> None:
    from icelint.engine.context import RunContext
    from icelint.rules.kit import outcomes as _outcome_index

    sql = LOOK_AHEAD["writes-after-qualified"]
    parsed = parse_sources([SourceFile("V1__x.sql", sql)])
    result, outcomes = Replay().stream(parsed.steps)
    next(outcomes), next(outcomes), next(outcomes)  # up to the drop (step 2)
    run = RunContext(result)
    assert _outcome_index.writes_after(run, "db.t", 2)  # the INSERT of step 4, not replayed yet
    assert not _outcome_index.writes_after(run, "db.t", 4)
    parsed = parse_sources([SourceFile("V1__x.sql", LOOK_AHEAD["writes-after-unqualified"])])
    result, outcomes = Replay().stream(parsed.steps)
    next(outcomes), next(outcomes), next(outcomes)
    with pytest.raises(_base.NeedsFuture):
        _outcome_index.writes_after(RunContext(result), "db.t", 2)


def test_a_linted_outcome_keeps_no_table_state() -> None:
    sql = "CREATE TABLE db.t (id bigint, a int, b int) USING iceberg;\n" + "".join(
        f"ALTER TABLE db.t ALTER COLUMN a COMMENT 'c{i}';\nALTER TABLE db.t DROP COLUMN b;\nALTER TABLE db.t ADD COLUMN b int;\n"
        for i in range(5)
    )
    parsed = parse_sources([SourceFile("V1__x.sql", sql)])
    _, result = lint_replay(Replay(), parsed.steps, ALL_RULES)
    kept = [o for o in result.outcomes if o.after is not None]
    assert len(kept) == len(parsed.steps)
    assert all(isinstance(o.before, (PastState, type(None))) and isinstance(o.after, PastState) for o in kept)
    # one PastState per state: an outcome's `after` is the next one's `before`
    assert all(a.after is b.before for a, b in zip(kept, kept[1:]))
    # the diffs kept are those that removed fields (drops a later re-add looks back at)
    assert {bool(o.diff.removed) for o in kept if o.diff is not None and o.diff.removed} == {True}
    assert all(not o.diff.changed for o in kept if o.diff is not None and not o.diff.removed)


def test_drops_found_among_slimmed_outcomes_are_the_drops_of_the_whole_replay() -> None:
    """`_help_columns.drop_outcome` looks back at outcomes that `lint_replay` has slimmed (their
    states `PastState`s, their diffs kept only when they removed fields): the same step as in the
    whole replay, for every field id at every statement of scripts that drop and re-add columns."""
    from types import SimpleNamespace

    from icelint.engine.context import RunContext
    from icelint.rules.kit.help_columns import drop_outcome
    from tests.equivalence.test_kit_help_columns import _drop_scripts

    checked = 0
    for i, text in enumerate(_drop_scripts()):
        parsed = parse_sources([SourceFile(f"s{i}.sql", text)])
        whole = replay(parsed).result
        ids = {f.id for o in whole.outcomes for m in (o.before, o.after) if m is not None for _, f in m.schema.all_fields()}
        result, outcomes = Replay().stream(parsed.steps)
        streamed_run, whole_run = RunContext(result), RunContext(whole)
        last: dict = {}
        for k, o in enumerate(outcomes):
            if o.table is not None and (len(whole.outcomes) < 400 or k % 37 == 0):
                for fid in sorted(ids | {-1})[:40]:
                    got = drop_outcome(SimpleNamespace(result=result, run=streamed_run, step=o.step, outcome=o, memo={}), fid)
                    want = drop_outcome(SimpleNamespace(result=whole, run=whole_run, step=o.step, outcome=whole.outcomes[k], memo={}), fid)
                    assert (got and got.step) is (want and want.step), (o.step.span, fid)
                    checked += want is not None
            result.outcomes[k] = o.slimmed(last)
    assert checked > 50


def test_the_streamed_replay_keeps_links_only_between_its_newest_versions() -> None:
    """`carry_indexes` links each version to the next (`_undo`, `_pred`) so that a lookup in a recent
    version costs a few entries; the streamed replay cuts the links `UNDO_KEPT` versions back (its
    rules ask the newest versions). An old version cut off still answers every lookup right."""
    from icelint.model.table import UNDO_KEPT, Schema

    n = UNDO_KEPT + 60
    sql = "CREATE TABLE db.t (id bigint, " + ", ".join(f"c{i} int" for i in range(80)) + ") USING iceberg;\n"
    sql += "".join(f"ALTER TABLE db.t ALTER COLUMN c{i % 80} COMMENT 'v{i}';\n" for i in range(n))
    parsed = parse_sources([SourceFile("V1__x.sql", sql)])
    _, result = lint_replay(Replay(), parsed.steps, ALL_RULES)
    versions = list(result.tables["db.t"].schemas)
    assert len(versions) == n + 1
    linked = [i for i, s in enumerate(versions) if "_undo" in s.__dict__]
    assert linked and min(linked) >= len(versions) - 1 - UNDO_KEPT  # the older ones were cut
    assert not any("_pred" in s.__dict__ for s in versions[: len(versions) - UNDO_KEPT])
    for s in versions[::17] + versions[-3:]:
        fresh = Schema(s.schema_id, tuple(s.fields), s.identifier_field_ids)
        for f in fresh.fields:
            assert s.find((f.name.upper(),), case_sensitive=False) == f
            assert s.field_by_id(f.id) == f and s.path_of(f.id) == (f.name,)
        assert s.field_by_id(10_000) is None
    # the whole replay (no streaming) keeps every link: the rules it serves ask any version
    whole = replay(parsed).result.tables["db.t"].schemas
    assert sum("_undo" in s.__dict__ for s in whole) > UNDO_KEPT + 30


def test_a_linted_step_keeps_what_later_rules_read() -> None:
    """`changes.linted`: an ADD COLUMN's type, comment and default and a type change's type go; the
    table, spans, index, paths, positions and every other change stay."""
    sql = (
        "CREATE TABLE db.t (id bigint, s struct<a: int>) USING iceberg;\n"
        "ALTER TABLE db.t ADD COLUMN c decimal(10,2) COMMENT 'cents' AFTER id;\n"
        "ALTER TABLE db.t ALTER COLUMN c TYPE decimal(12,2);\n"
        "ALTER TABLE db.t ALTER COLUMN c COMMENT 'euro cents';\n"
        "ALTER TABLE db.t ADD COLUMNS (s.b string FIRST, d int);\n"
        "ALTER TABLE db.t RENAME COLUMN d TO e;\n"
        "INSERT INTO db.t VALUES (1, 2.5, named_struct('b', 'x', 'a', 1), 3);\n"
        "SELECT 1;\n"
    )
    steps = parse_sources([SourceFile("V1__t.sql", sql)]).steps
    lean = [ch.linted(s) for s in steps]
    for before, after in zip(steps, lean):
        assert after.__class__ is before.__class__ and after.index == before.index and after.span is before.span
        assert ch.linted(after) is after  # once is enough
        if not isinstance(before, ch.Commit):
            assert after is before
            continue
        assert (after.table, after.table_span) == (before.table, before.table_span)
        for b, a in zip(before.changes, after.changes, strict=True):
            assert a.__class__ is b.__class__
            if isinstance(b, ch.AddColumn):
                assert a.column == b.column._replace(type=None, doc=None, default=None) and a.span is b.span
            elif isinstance(b, ch.UpdateColumnType):
                assert a == b._replace(type=None)
            else:
                assert a is b
    kinds = [type(c).__name__ for s in steps if isinstance(s, ch.Commit) for c in s.changes]
    assert {"AddColumn", "UpdateColumnType", "UpdateColumnDoc", "RenameColumn", "WriteData", "CreateTable"} <= set(kinds)
    assert lean[0] is steps[0] and lean[5] is steps[5] and lean[1] is not steps[1]
    own = list(steps)
    found, result = lint_replay(Replay(), own, ALL_RULES, own_steps=True)
    assert own == lean and [o.step for o in result.outcomes] == lean
    assert found == lint_replay(Replay(), steps, ALL_RULES)[0] and found


def test_icelint_check_in_one_process_keeps_linted_steps_lean(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`icelint check` linting in its own process hands the steps to the checker (`own_steps`): every
    step it linted is passed through `changes.linted`, and the report is the one without it."""
    from click.testing import CliRunner

    from icelint.cli.main import main

    f = tmp_path / "V1__t.sql"
    f.write_text(
        "CREATE TABLE db.t (id bigint, p string) USING iceberg;\nINSERT INTO db.t VALUES (1, 'a');\n"
        "ALTER TABLE db.t DROP COLUMN p;\nALTER TABLE db.t ADD COLUMN p binary COMMENT 'x';\n",
        encoding="utf-8",
    )
    seen: list = []
    real = ch.linted
    monkeypatch.setattr(ch, "linted", lambda s: seen.append(s) or real(s))
    monkeypatch.setenv("ICELINT_JOBS", "1")
    lean = CliRunner().invoke(main, ["check", "--no-cache", "--format", "json", str(f)])
    assert [s.index for s in seen] == [0, 1, 2, 3]
    monkeypatch.setattr(ch, "linted", lambda s: s)
    plain = CliRunner().invoke(main, ["check", "--no-cache", "--format", "json", str(f)])
    assert lean.exit_code == plain.exit_code == 1 and lean.output == plain.output and "ICE001" in lean.output


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_dispatch_finds_what_calling_every_rule_finds(files: list[Path]) -> None:
    run = replay(parse_sources([SourceFile.read(p) for p in files]), iceberg_version=iceberg_version(files))
    assert lint_run(run, ALL_RULES) == lint_run(run, ALL_RULES, dispatch=False)
    if len(files) > 1:  # and with a deployment between the files (tables presumed to hold data)
        parsed = parse_sources([SourceFile.read(p) for p in files])
        parsed.deployments = deployments(files)
        run = replay(parsed)
        assert lint_run(run, ALL_RULES) == lint_run(run, ALL_RULES, dispatch=False)


def test_the_corpus_makes_every_rule_report() -> None:
    """Without this, the equivalence above could hold because no rule ever reports."""
    seen = set()
    for files in RUNS:
        run = replay(parse_sources([SourceFile.read(p) for p in files]), iceberg_version=iceberg_version(files))
        seen.update(f.rule for f in lint_run(run, ALL_RULES, dispatch=False))
    # rules with no trigger (ICE100, ICE060) report from passes after the rules: suppressions, placeholders
    assert seen >= {r.code for r in ALL_RULES if r.triggers != frozenset()}
    assert {"ICE100", "ICE060"} <= {r.code for r in ALL_RULES if r.triggers == frozenset()}


def test_every_rule_declares_its_triggers() -> None:
    for rule in ALL_RULES:
        assert rule.triggers is not None, rule.code


def test_write_data_has_no_subclass() -> None:
    """lint_run looks for a row-writing change only when the classes of the step's changes (its trigger
    kinds) include WriteData itself: a subclass of it would be missed there."""
    assert ch.WriteData.__subclasses__() == []
