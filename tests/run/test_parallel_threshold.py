"""When a run is split into processes: from AUTO_MIN_STEPS statements by default, from MIN_STEPS when
ICELINT_JOBS asks for processes (the fork costs more CPU than it saves on mid-sized runs)."""

from __future__ import annotations

import pytest

from icelint.run import parallel


def _decides_to_split(monkeypatch: pytest.MonkeyPatch, n: int) -> bool:
    asked: list[int] = []
    monkeypatch.setattr(parallel, "partition", lambda steps, groups: asked.append(len(steps)))  # returns None: no fork
    assert parallel.lint_partitioned(list(range(n)), lambda part: [], allowed=True) is None
    return bool(asked)


def test_default_splits_only_large_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ICELINT_JOBS", raising=False)
    assert parallel.MIN_STEPS < parallel.AUTO_MIN_STEPS
    assert not _decides_to_split(monkeypatch, parallel.AUTO_MIN_STEPS - 1)
    assert _decides_to_split(monkeypatch, parallel.AUTO_MIN_STEPS)


def test_icelint_jobs_splits_from_min_steps(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ICELINT_JOBS", "2")
    assert _decides_to_split(monkeypatch, parallel.MIN_STEPS)  # partition() then applies MIN_STEPS itself
    monkeypatch.setenv("ICELINT_JOBS", " ")
    assert not _decides_to_split(monkeypatch, parallel.AUTO_MIN_STEPS - 1)


def test_a_process_that_is_not_icelint_own_never_forks(monkeypatch: pytest.MonkeyPatch) -> None:
    """`allowed` False (a library call, the language server, `main` in the tests): not split, however
    large the run and whatever ICELINT_JOBS says."""
    asked: list[int] = []
    monkeypatch.setenv("ICELINT_JOBS", "2")
    monkeypatch.setattr(parallel, "partition", lambda steps, groups: asked.append(len(steps)))
    assert parallel.lint_partitioned(list(range(parallel.AUTO_MIN_STEPS)), lambda part: [], allowed=False) is None
    assert asked == []


@pytest.mark.parametrize("own", [True, False])
def test_only_icelint_own_process_asks_for_parallel_runs(tmp_path, monkeypatch: pytest.MonkeyPatch, own: bool) -> None:
    """`cli.entry` hands `main` its context object; the check's request asks for processes only then."""
    from icelint import engine
    from icelint.cli.main import OWN_PROCESS, main

    (tmp_path / "m.sql").write_text("CREATE TABLE db.t (id bigint) USING iceberg;\n")
    monkeypatch.chdir(tmp_path)
    seen = []
    real = engine.run
    monkeypatch.setattr(engine, "run", lambda request: seen.append(request.parallel) or real(request))
    with pytest.raises(SystemExit):
        main(["check", "--no-cache", "m.sql"], obj={OWN_PROCESS: True} if own else None)
    assert seen == [own]
