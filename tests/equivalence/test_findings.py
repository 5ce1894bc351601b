"""`values/findings.py`'s shortcuts: `Finding`'s hash over its place, rule and field (not its texts)
and its sort key kept once computed give what the plain computations give; findings at one place on
other fields are not compared text by text. (Its `__init__` is `util/fast_init.py`'s:
tests/equivalence/test_fast_init.py.)"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from icelint.values import findings as fmod
from icelint.values.findings import Finding, Severity, in_report_order

WORDS = ["`events`", "column", "→", "…", "\udc80", "é", "名前", " ", "\n", "\0", "a", "b"]


def _text(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(WORDS) for _ in range(n))


def _finding(rng: random.Random) -> Finding:
    return Finding(
        rule=rng.choice(["ICE017", "ICE011", "ICE999"]), name="n", severity=rng.choice(list(Severity)),
        path=rng.choice(["V1__a.sql", "V2__b.sql", "V10__c.sql", "dir/V3__d.sql", "n.ipynb:cell 2", "n.ipynb:cell 10"]),
        line=rng.randrange(1, 3), column=rng.randrange(1, 3), end_line=3, end_column=4,
        message=_text(rng, rng.choice([0, 1, 3, 300])), help=rng.choice([None, "h"]), table="db.t",
        field_id=rng.choice([None, 1, 2]), column_path=rng.choice([None, "s.a"]), statement_index=rng.randrange(3),
    )  # fmt: skip


def _plain_key(f: Finding) -> tuple:
    return (*fmod._path_key(f.path), f.line, f.column, f.rule, f.message)


@pytest.mark.parametrize("seed", range(10))
def test_sort_key_and_hash_are_the_plain_ones(seed: int) -> None:
    """The kept sort key is the one computed afresh (ties on place and rule ordered by message);
    equal findings hash alike, and `in_report_order` is the plain sort of the distinct findings."""
    rng = random.Random(seed)
    made = [_finding(rng) for _ in range(300)]
    made += [replace(f) for f in rng.sample(made, 50)]  # equal findings, other objects
    for f in made:
        assert f.sort_key == _plain_key(f) and f.sort_key is f.sort_key
        twin = replace(f)
        assert twin == f and hash(twin) == hash(f)
    distinct: list[Finding] = []
    for f in made:
        if all(f != g for g in distinct):
            distinct.append(f)
    out = in_report_order(made)  # findings equal in key but not in other fields: in either order
    assert len(out) == len(distinct) and set(out) == set(distinct)
    assert [_plain_key(f) for f in out] == sorted(_plain_key(f) for f in distinct)
    assert [f.message for f in sorted(made, key=lambda f: f.sort_key)] == [f.message for f in sorted(made, key=_plain_key)]


def test_findings_at_one_place_on_other_fields_are_not_compared_text_by_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A struct's fields reported at one place (ICE029 on `struct<f0, F0, f1, F1, ...>`): findings that
    differ only in their field hash apart, so deduplicating them compares no pair of long texts
    (quadratic before); equal findings still collapse."""
    made = [Finding(rule="ICE029", name="n", severity=Severity.ERROR, path="m.sql", line=2, column=29, end_line=2,
                    end_column=60, message=f"`s.F{i}` (field id {i}) " + "x" * 300, help="h" * 300, column_path=f"s.F{i}",
                    field_id=i) for i in range(2000)]  # fmt: skip
    compared = [0]
    eq = Finding.__eq__

    def counting(a, b):
        compared[0] += 1
        return eq(a, b)

    monkeypatch.setattr(fmod.Finding, "__eq__", counting)
    out = in_report_order(made + made[:10])
    assert len(out) == 2000 and {f.field_id for f in out} == set(range(2000))
    assert compared[0] < 100  # the ten repeats, and no more than a few hash collisions
