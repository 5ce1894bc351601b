"""ICE008's `_last_relying` (`rules/case_sensitive_session.py`: the last statement that relies on a
`SET spark.sql.caseSensitive`) answers as the scan of every later statement it replaced.
"""

from __future__ import annotations

from tests.equivalence.test_kit_outcomes import _nested_scripts


def _relied_on_by_scan(run, index: int) -> bool:
    """What `relied_on` computed before `_last_relying`: every later outcome, for each SET."""
    from icelint.rules.case_sensitivity.analysis import _relies

    return any(o.case_sensitive and _relies(o) for o in run.outcomes if o.step.index > index)


def test_relied_on_equals_the_scan_of_every_later_statement() -> None:
    from icelint.engine.pipeline import replay_sources
    from icelint.rules.case_sensitivity.analysis import _last_relying
    from icelint.values import changes as ch
    from icelint.values.source import SourceFile
    from tests.corpus import corpus_runs

    runs = [[SourceFile.read(p) for p in files] for files in corpus_runs()]
    runs += [[SourceFile(f"n{i}.sql", text)] for i, text in enumerate(_nested_scripts())]
    relied = not_relied = 0
    for sources in runs:
        run = replay_sources(sources).result
        sets = [o.step.index for o in run.outcomes if isinstance(o.step, ch.SessionConfig)]
        for index in sets + [-1]:
            want = _relied_on_by_scan(run, index)
            assert (_last_relying(run) > index) == want, (sources[0].path, index)
            relied += want
            not_relied += not want
    assert relied > 5 and not_relied > 5
