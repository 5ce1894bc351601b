"""`values/findings.py`'s shortcuts: a finding with long texts keeps them compressed (`findings._pack`)
and reads as one that does not; `Finding`'s own `__init__` and hash store and give what the
dataclass's would; findings at one place on other fields are not compared text by text."""

from __future__ import annotations

import copy
import pickle
import random
from dataclasses import fields, replace

import pytest

from icelint.values import findings as fmod
from icelint.values.findings import PACK_MIN, Finding, Severity
from pathlib import Path
from tests.corpus import corpus_runs, lint_files, run_id

WORDS = ["`events`", "column", "→", "…", "shift", "position", "\udc80", "é", "名前", "INSERT INTO db.t VALUES (1)", " ", "\n", "\0"]


def _text(rng: random.Random, n: int) -> str:
    out: list[str] = []
    while sum(map(len, out)) < n:
        out.append(rng.choice(WORDS))
    return "".join(out)


def _finding(rng: random.Random, message: str, help: str | None) -> Finding:
    return Finding(
        rule=rng.choice(["ICE017", "ICE011", "ICE999"]), name="n", severity=rng.choice(list(Severity)),
        path=rng.choice(["V1__a.sql", "V2__b.sql"]), line=rng.randrange(1, 3), column=rng.randrange(1, 3),
        end_line=3, end_column=4, message=message, help=help, table="db.t", field_id=rng.randrange(5),
    )  # fmt: skip


def _plain(f: Finding) -> Finding:
    """The same finding made by the dataclass's own `__init__` (nothing packed)."""
    out = Finding.__new__(Finding)
    Finding._plain_init(out, **{k.name: getattr(f, k.name) for k in fields(Finding)})
    return out


@pytest.mark.parametrize("seed", range(20))
def test_packed_texts_read_as_given(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        message = _text(rng, rng.choice([1, 100, PACK_MIN, 3000]))
        help = rng.choice([None, "", _text(rng, rng.choice([1, 200, 2000]))])
        f = _finding(rng, message, help)
        packed = len(message) + len(help or "") >= PACK_MIN
        assert (vars(f)["message"].__class__ is fmod._Packed) is packed and list(vars(f)) == [k.name for k in fields(Finding)]
        assert f.message == message and f.help == help
        plain = _plain(f)
        assert isinstance(vars(plain)["message"], str)
        assert f == plain and hash(f) == hash(plain) and repr(f) == repr(plain) and f.sort_key == plain.sort_key
        for again in (pickle.loads(pickle.dumps(f)), copy.copy(f), copy.deepcopy(f)):
            assert again == f and again.message == message and again.help == help
        other = replace(f, help="x")
        assert other.help == "x" and other.message == message and other != f
        with pytest.raises(AttributeError):
            f.no_such_thing  # noqa: B018


def test_packing_saves_what_it_is_for() -> None:
    """A rule's findings repeat its sentences: after the first, each packs to a small part of its text."""
    rng = random.Random(7)
    shared = "leave the position out: add columns at the end and keep the physical order " * 4
    found = [_finding(rng, f"`c{i}` moves: " + " → ".join(f"col_{j}" for j in range(i, i + 60)), shared) for i in range(50)]
    later = [f for f in found[1:] if f.rule == found[0].rule] or found[1:]
    for f in later:
        z, _, _ = vars(f)["message"]
        assert len(z) * 4 < len(f.message) + len(f.help)


def test_sort_matches_plain_sort_ties_included() -> None:
    """Ties on place and rule are ordered by message, packed or not, as before packing."""
    rng = random.Random(3)
    made = []
    for _ in range(300):
        message = rng.choice(["a", "b", ""]) + _text(rng, rng.choice([2, PACK_MIN + 10]))
        made.append(_finding(rng, message, rng.choice([None, "h"])))
    plain = [_plain(f) for f in made]
    assert [f.message for f in sorted(made, key=lambda f: f.sort_key)] == [
        f.message for f in sorted(plain, key=lambda f: f.sort_key)
    ]
    assert sorted(set(made), key=lambda f: f.sort_key) == sorted(set(plain), key=lambda f: f.sort_key)


def test_a_rule_dictionary_is_kept_once_per_pickle(monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers send their findings as one pickled list: the rule's dictionary travels once."""
    monkeypatch.setattr(fmod, "_zdicts", {})
    rng = random.Random(11)
    base = "x" * 5000
    found = [replace(_finding(rng, base + str(i), None), rule="ICE017") for i in range(100)]
    one = len(pickle.dumps(found[:1]))
    assert len(pickle.dumps(found)) < one + 99 * 400
    assert [f.message for f in pickle.loads(pickle.dumps(found))] == [base + str(i) for i in range(100)]


def test_packing_texts_switch_is_scoped() -> None:
    """`packing_texts(False)` keeps long texts as they are within it, and what was before after it
    (an error included)."""
    rng = random.Random(5)
    long = _text(rng, PACK_MIN + 50)
    with fmod.packing_texts(False):
        assert isinstance(vars(_finding(rng, long, None))["message"], str)
        with fmod.packing_texts(True):
            assert vars(_finding(rng, long, None))["message"].__class__ is fmod._Packed
        assert isinstance(vars(_finding(rng, long, "h"))["help"], str)
    with pytest.raises(RuntimeError):
        with fmod.packing_texts(False):
            raise RuntimeError
    assert vars(_finding(rng, long, None))["message"].__class__ is fmod._Packed


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_icelint_check_packs_texts_only_in_long_runs(tmp_path, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    """A run of fewer than `packed_findings.PACK_FROM` statements keeps its findings' texts as they are
    (packing was ~6 % of 12,500 drop/re-add pairs' CPU); a longer one packs them; the output is the same."""
    from click.testing import CliRunner

    from icelint import reporters
    from icelint.cli.main import main

    sql = "CREATE TABLE db.t (id bigint, c string) USING iceberg;\nINSERT INTO db.t VALUES (1, 'a');\n"
    sql += "ALTER TABLE db.t DROP COLUMN c;\nALTER TABLE db.t ADD COLUMN c string;\n" * 3
    (tmp_path / "V1__x.sql").write_text(sql, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("ICELINT_JOBS", "1")
    kinds: list[set] = []
    real = reporters.Report

    class Seen(real):  # the findings as the engine hands them to the reporters
        def __init__(self, found, *args, **kwargs):
            kinds.append({vars(f)["message"].__class__ for f in found})
            super().__init__(found, *args, **kwargs)

    monkeypatch.setattr(reporters, "Report", Seen)
    args = ["check", "--no-cache", "--format", fmt, "V1__x.sql"]
    short = CliRunner().invoke(main, args)
    monkeypatch.setattr("icelint.run.packed_findings.PACK_FROM", 1)
    long = CliRunner().invoke(main, args)
    assert kinds == [{str}, {fmod._Packed}]
    assert short.exit_code == long.exit_code == 1 and short.output == long.output and "ICE001" in short.output
    assert vars(_finding(random.Random(1), "x" * PACK_MIN, None))["message"].__class__ is fmod._Packed  # restored


def test_findings_at_one_place_on_other_fields_are_not_compared_text_by_text(monkeypatch: pytest.MonkeyPatch) -> None:
    """A struct's fields reported at one place (ICE029 on `struct<f0, F0, f1, F1, ...>`): findings that
    differ only in their field hash apart, so deduplicating them compares no pair of texts (each
    comparison unpacked two long messages: quadratic before); equal findings still collapse."""
    from icelint.values import findings as fmod
    from icelint.values.findings import Finding, Severity, in_report_order

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


RUNS = corpus_runs()


def _fields_of(f: Finding) -> dict:
    """A finding's instance dict as the dataclass's own `__init__` fills it (long texts unpacked)."""
    return {k.name: getattr(f, k.name) for k in fields(Finding)}


@pytest.mark.parametrize("files", RUNS, ids=run_id)
def test_finding_init_over_the_corpus(files: list[Path]) -> None:
    _, findings = lint_files(files)
    for f in findings:
        again = Finding.__new__(Finding)
        Finding._plain_init(again, **{k.name: getattr(f, k.name) for k in fields(Finding)})
        assert again == f and vars(again) == _fields_of(f)
        assert hash(again) == hash(f) and again.sort_key == f.sort_key


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
