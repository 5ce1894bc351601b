"""The reader suite's judge can fail: a missing, late or needless reader warning is a disagreement (no Spark needed)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from tests.differential.harness import Case
from tests.readers.readers import Reading, count_values
from tests.readers.runner import Observation, ReaderRun, judge

CASE = Case("x", Path("."))
FAIL = "fails: Code: 36. DB::Exception: ..."


def _run(*obs: Observation) -> ReaderRun:
    return ReaderRun(observations=list(obs), setup_metadata={"db.events": Path("m.json")})


def _warning(index: int, reader_title: str = "ClickHouse") -> SimpleNamespace:
    return SimpleNamespace(rule="ICE040", statement_index=index, table="db.events", path="m.sql", line=index + 1,
                           message=f"{reader_title} cannot read `db.events` once ...")


def test_agreement_and_each_kind_of_disagreement() -> None:
    failing = _run(Observation(0, "m.sql:1", "db.events", "clickhouse", None),
                   Observation(2, "m.sql:3", "db.events", "clickhouse", FAIL))
    assert "quotes another error" in judge(CASE, failing, [_warning(1)])[0]
    quoting = _warning(1)
    quoting.message += ": Code: 36. DB::Exception: ..."
    assert judge(CASE, failing, [quoting]) == []
    assert "no reader warning" in judge(CASE, failing, [])[0]
    late = _warning(3)
    late.message += ": Code: 36. DB::Exception: ..."
    assert "warns later" in judge(CASE, failing, [late])[0]
    reading = _run(Observation(2, "m.sql:3", "db.events", "clickhouse", None))
    assert "reads db.events as Spark does" in judge(CASE, reading, [_warning(1)])[0]
    assert judge(CASE, failing, [quoting, _warning(1, "pyiceberg")]) == [
        "x: m.sql:2: icelint warns ICE040 (pyiceberg cannot read `db.events` once ...), but pyiceberg reads db.events as Spark does"]


def test_counts_follow_field_ids_into_nested_types() -> None:
    schema = {"fields": [
        {"id": 1, "name": "id", "type": "long"},
        {"id": 2, "name": "s", "type": {"type": "struct", "fields": [{"id": 3, "name": "x", "type": "int"}]}},
        {"id": 4, "name": "m", "type": {"type": "map", "key-id": 5, "key": "string", "value-id": 6, "value": "int"}},
    ]}
    spark = count_values([{"id": 1, "s": {"x": 1}, "m": {"k": 1}}], schema)
    pyice = count_values([{"id": 1, "s": {"x": None}, "m": [("k", 1)]}], schema)
    assert spark.counts == {1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1}
    assert pyice.differs(spark, {3: "s.x"}) == "wrong: s.x: 0 values, Spark 1"
    assert spark.differs(pyice, {}) == "wrong: 3: 1 values, Spark 0"  # a field Spark has no value in counts too
    assert Reading(error="boom").differs(spark, {}) == "fails: boom"
