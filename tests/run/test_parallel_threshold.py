"""When a run is split into processes: from AUTO_MIN_STEPS statements by default, from MIN_STEPS when
ICELINT_JOBS asks for processes (the fork costs more CPU than it saves on mid-sized runs)."""

from __future__ import annotations

import pytest

from icelint.run import parallel


def _decides_to_split(monkeypatch: pytest.MonkeyPatch, n: int) -> bool:
    asked: list[int] = []
    monkeypatch.setattr(parallel, "enabled", True)
    monkeypatch.setattr(parallel, "partition", lambda steps, groups: asked.append(len(steps)))  # returns None: no fork
    assert parallel.lint_partitioned(list(range(n)), lambda part: []) is None
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
