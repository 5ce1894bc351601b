"""`util/fast_init.py`: the `__init__` that fills a frozen dataclass's instance dict makes what the
dataclass's own `__init__` makes: every finding of the rule corpus and generated ones, called with
keywords, positionally, with defaults left out; the same instance dict (keys in the same order),
equality, hash, repr, sort key, pickling, `replace`; frozen; the same errors for missing or
unknown arguments. It refuses the classes it cannot speak for."""

from __future__ import annotations

import copy
import pickle
from dataclasses import FrozenInstanceError, dataclass, field, fields, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icelint.engine.checker import lint_run
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES
from icelint.util.fast_init import fills_dict
from icelint.values.findings import Finding, Severity
from icelint.values.source import SourceFile
from tests.corpus import corpus_runs, iceberg_version

NAMES = [k.name for k in fields(Finding)]


def _plain(*args, **kwargs) -> Finding:
    """The finding the dataclass's own `__init__` makes of the arguments."""
    out = Finding.__new__(Finding)
    Finding._dataclass_init(out, *args, **kwargs)
    return out


def _assert_same(fast: Finding, plain: Finding) -> None:
    assert type(fast) is type(plain) is Finding
    # the fields, in order; then at most the sort key, once asked
    assert list(vars(fast).items())[: len(NAMES)] == list(vars(plain).items())[: len(NAMES)]
    assert set(vars(fast)) - set(NAMES) <= {"_sort_key"} and set(vars(plain)) - set(NAMES) <= {"_sort_key"}
    assert fast == plain and hash(fast) == hash(plain) and repr(fast) == repr(plain)
    assert fast.sort_key == plain.sort_key and fast.to_json() == plain.to_json()
    for again in (pickle.loads(pickle.dumps(fast)), copy.copy(fast), copy.deepcopy(fast)):
        assert list(vars(again).items())[: len(NAMES)] == list(vars(plain).items())[: len(NAMES)]


def test_every_finding_of_the_rule_corpus_is_made_alike() -> None:
    seen = 0
    for files in corpus_runs():
        if "fixtures/rules/" not in files[0].as_posix():
            continue
        parsed = parse_sources([SourceFile.read(p) for p in files])
        for f in lint_run(replay(parsed, iceberg_version=iceberg_version(files)), ALL_RULES):
            values = {k: getattr(f, k) for k in NAMES}
            _assert_same(Finding(**values), _plain(**values))
            _assert_same(Finding(*values.values()), _plain(**values))
            _assert_same(f, _plain(**values))  # as the rules made it
            seen += 1
    assert seen > 400


_TEXT = st.text(max_size=30) | st.sampled_from(["名前 → `événement`", "\udc80", "\0\r\n", ""])
_VALUES = st.fixed_dictionaries(
    {"rule": st.sampled_from(["ICE001", "ICE100"]), "name": _TEXT, "severity": st.sampled_from(list(Severity)),
     "path": st.sampled_from(["a.sql", "V2__b.sql", "V10__c.sql", "n.ipynb:cell 2"]), "line": st.integers(1, 9),
     "column": st.integers(1, 9), "end_line": st.integers(1, 9), "end_column": st.integers(0, 9), "message": _TEXT},
    optional={"help": st.none() | _TEXT, "table": st.none() | _TEXT, "column_path": st.none() | _TEXT,
              "field_id": st.none() | st.integers(0, 99), "statement_index": st.integers(0, 99),
              "suppressed_reason": st.none() | _TEXT},
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(_VALUES)
def test_generated_findings_are_made_alike(values: dict) -> None:
    fast = Finding(**values)
    _assert_same(fast, _plain(**values))
    given_in_order = [k for k in NAMES if k in values]
    n = next((i for i, k in enumerate(NAMES) if k not in values), len(NAMES))  # the longest positional prefix
    _assert_same(Finding(*[values[k] for k in NAMES[:n]], **{k: values[k] for k in given_in_order[n:]}), fast)
    with pytest.raises(FrozenInstanceError):
        fast.line = 5  # type: ignore[misc]
    other = replace(fast, message=fast.message + "x")
    _assert_same(other, _plain(**{**values, "message": fast.message + "x"}))
    assert other != fast and other.sort_key[-1] == fast.message + "x"


def test_wrong_arguments_fail_alike() -> None:
    base = {"rule": "ICE001", "name": "n", "severity": Severity.ERROR, "path": "a.sql", "line": 1, "column": 1,
            "end_line": 1, "end_column": 1}  # fmt: skip
    for bad_args, bad_kwargs in [((), base), ((), {**base, "message": "m", "nope": 1}), (("x",) * 20, {})]:
        with pytest.raises(TypeError):
            Finding(*bad_args, **bad_kwargs)
        with pytest.raises(TypeError):
            _plain(*bad_args, **bad_kwargs)


def test_classes_it_cannot_speak_for_are_refused() -> None:
    @dataclass
    class Mutable:
        a: int

    @dataclass(frozen=True, slots=True)
    class Slotted:
        a: int

    @dataclass(frozen=True)
    class Factory:
        a: list = field(default_factory=list)

    @dataclass(frozen=True)
    class Post:
        a: int

        def __post_init__(self) -> None:
            pass

    @dataclass(frozen=True)
    class NoInit:
        a: int = field(default=0, init=False)

    for cls in (Mutable, Slotted, Factory, Post, NoInit, int):
        with pytest.raises(TypeError):
            fills_dict(cls)

    @fills_dict
    @dataclass(frozen=True)
    class Plain:
        a: int
        b: str = "b"

    assert Plain(1) == Plain(1, "b") and vars(Plain(a=2, b="c")) == {"a": 2, "b": "c"}
