"""The reader differential suite: icelint's reader findings against chDB and pyiceberg reading Spark's tables.

See :mod:`tests.readers.runner`. Run by hand with ``python -m tests.readers.runner [CASE ...]``.
"""

from __future__ import annotations

import pytest

from tests.readers.runner import load_reader_cases, run_case

pytestmark = pytest.mark.readers

CASES = load_reader_cases()


def test_enough_cases() -> None:
    assert len(CASES) >= 40


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_reader_case(case, reader_oracle, tmp_path) -> None:
    run, problems = run_case(reader_oracle, case, tmp_path)
    assert any(st.accepted for st in run.statements), f"{case.name}: Spark accepted no statement"
    assert run.observations, f"{case.name}: no table was read after any statement"
    assert not problems, "\n".join(problems)
