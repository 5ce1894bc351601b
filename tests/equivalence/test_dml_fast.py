"""`replay/dml_fast.py` (plain DML checked without sqlglot) never passes a statement the sqlglot
path rejects, and gives the same findings on every fixture."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from icelint.engine.pipeline import replay_text
from icelint.replay.dml import check as dml
from icelint.replay.dml import fast as dml_fast
from icelint.replay.errors import ReplayError
from icelint.values.source import Span

ROOT = Path(__file__).resolve().parents[2]
CREATE = (
    "CREATE TABLE db.t (id bigint NOT NULL, Kind string, d date, ts timestamp, n int, b boolean, "
    "s struct<a: int>, tags array<string>) USING iceberg"
)
META = replay_text(CREATE).result.tables["db.t"]
ALL_COLS = "id, Kind, d, ts, n, b, s, tags"

LITERALS = ["1", "-2", "1.5", "'x'", "NULL", "TRUE", "DATE '2024-01-01'", "TIMESTAMP '2024-01-01 00:00:00'", "10L"]
NAMES = ["id", "kind", "Kind", "KIND", "nope", "`n`", "default", "s", "t.id"]


def statements() -> list[str]:
    out = []
    for name, lit in itertools.product(NAMES, LITERALS):
        out.append(f"DELETE FROM db.t WHERE {name} < {lit}")
        out.append(f"DELETE FROM db.t WHERE {name} IS NOT NULL OR id = {lit};")
        out.append(f"UPDATE db.t SET {name} = {lit} WHERE id > 3")
        out.append(f"UPDATE db.t SET n = 1, {name} = {lit}")
    out += ["DELETE FROM db.t", "DELETE FROM db.t AS x WHERE x.id = 1", "UPDATE db.t SET n = n + 1",
            "DELETE FROM db.t WHERE id IN (1, 2)"]  # fmt: skip
    row = ["1", "'k'", "DATE '2024-01-01'", "TIMESTAMP '2024-01-01 00:00:00'", "2", "TRUE", "NULL", "NULL"]
    out.append(f"INSERT INTO db.t VALUES ({', '.join(row)})")
    out.append(f"INSERT INTO db.t ({ALL_COLS}) VALUES ({', '.join(row)}), ({', '.join(row)})")
    for i, lit in itertools.product(range(len(row)), LITERALS):  # each value replaced by each literal
        r = [*row[:i], lit, *row[i + 1 :]]
        out.append(f"INSERT INTO db.t ({ALL_COLS}) VALUES ({', '.join(r)})")
        out.append(f"INSERT INTO db.t VALUES ({', '.join(r)})")
    out += [
        f"INSERT INTO db.t (id, kind, d, ts, n, b, s) VALUES ({', '.join(row[:7])})",  # a column missing
        f"INSERT INTO db.t ({ALL_COLS}, id) VALUES ({', '.join(row)}, 1)",  # listed twice
        f"INSERT INTO db.t ({ALL_COLS.replace('Kind', 'nope')}) VALUES ({', '.join(row)})",
        f"INSERT INTO db.t ({ALL_COLS}) VALUES ({', '.join(row[:7])})",  # arity
        f"INSERT INTO db.t VALUES ({', '.join(row)}), ({', '.join(row[:7])})",
        f"INSERT INTO db.t ({ALL_COLS.replace('Kind', 'KIND')}) VALUES ({', '.join(row)})",
        f"INSERT OVERWRITE db.t VALUES ({', '.join(row)})",
        "INSERT INTO db.t SELECT * FROM db.u",
    ]
    return out


def verdict(sql: str, case_sensitive: bool, fast: bool) -> str | None:
    span = Span("f.sql", 1, 1, 1, len(sql), 0, len(sql))
    if fast:
        s = dml_fast.shape(sql)
        if s is None or not dml_fast.passes(s, META, case_sensitive):
            return "not decided"
        return None
    try:
        import sqlglot

        try:
            tree = sqlglot.parse_one(sql, read="spark")
        except Exception:  # noqa: BLE001 - as dml.check_statement
            return None
        fields = dml.dml_columns.check(tree, "`db`.`t`", META, case_sensitive, span, sql)
        if fields is not None:
            dml.check_values(tree, fields, "`db`.`t`")
    except ReplayError as e:
        return e.message
    return None


@pytest.mark.parametrize("case_sensitive", [False, True])
def test_fast_path_passes_only_what_sqlglot_passes(case_sensitive: bool) -> None:
    decided = rejected = 0
    for sql in statements():
        fast = verdict(sql, case_sensitive, fast=True)
        slow = verdict(sql, case_sensitive, fast=False)
        if fast is None:
            decided += 1
            assert slow is None, f"{sql!r}: the fast path passes it, sqlglot's says {slow}"
        elif slow is not None:
            rejected += 1
    assert decided > 100 and rejected > 50  # both kinds are exercised


def test_shapes() -> None:
    assert dml_fast.shape("DELETE FROM db.t WHERE id < 3;") == dml_fast.Shape("delete", ("id",))
    assert dml_fast.shape("UPDATE db.t SET kind = 'b' WHERE kind IS NULL") == dml_fast.Shape("update", ("kind", "kind"))
    s = dml_fast.shape("INSERT INTO db.t (a, b) VALUES (1, NULL), (-1, TIMESTAMP '2024-01-01')")
    assert s == dml_fast.Shape("insert", (), ("a", "b"), (("number", "null"), ("number", "timestamp")))
    for other in ["INSERT INTO db.t VALUES (10L)", "DELETE FROM db.t WHERE f(id) = 1", "MERGE INTO db.t USING s ON 1 = 1"]:
        assert dml_fast.shape(other) is None


def test_rows_loop_reads_as_the_general_parser() -> None:
    """`_Tokens.rows` (one loop over an INSERT's VALUES) gives the shape `comma_list(row)` gives."""
    inserts = [sql for sql in statements() if sql.startswith("INSERT")]
    rows = ["(1, 'a')", "(-1, DATE '2024-01-01')", "(TRUE, FALSE)", "(NULL)", "(1,)", "(1 2)", "()", "(-'x')",
            "(DATE 1)", "(TIMESTAMP '2024-01-01')", "(- 3)", "((1))", "(1), ", "(1) (2)", "(x)", "(1", "1, 2"]  # fmt: skip
    for a, b in itertools.product(rows, repeat=2):
        inserts.append(f"INSERT INTO db.t VALUES {a}, {b}")
        inserts.append(f"INSERT INTO db.t (a, b) VALUES {a}, {b};")
        inserts.append(f"INSERT INTO db.t VALUES {a} {b}")
    seen = {None: 0, "shape": 0}
    for sql in inserts:
        fast, general = dml_fast._shape(sql, True), dml_fast._shape(sql, False)
        assert fast == general, sql
        seen["shape" if fast is not None else None] += 1
    assert seen["shape"] > 50 and seen[None] > 50  # both outcomes are exercised


def test_same_findings_on_fixtures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every fixture with DML: the findings with the fast path and with sqlglot's alone are equal."""
    from icelint.engine.checker import lint_run
    from icelint.engine.pipeline import replay_paths
    from icelint.rules import ALL_RULES

    files = [p for p in sorted((ROOT / "fixtures").rglob("*.sql"))
             if any(k in p.read_text(encoding="utf-8", errors="replace").upper() for k in ("INSERT", "UPDATE", "DELETE"))]  # fmt: skip
    assert len(files) > 20
    calls = []
    real_shape = dml_fast.shape

    def counting(sql: str):
        got = real_shape(sql)
        calls.append(got is not None)
        return got

    def run_all() -> list:
        out = []
        for p in files:
            try:
                out.append(lint_run(replay_paths([p]), ALL_RULES))
            except Exception as e:  # noqa: BLE001 - the same failure either way
                out.append(repr(e))
        return out

    monkeypatch.setattr(dml_fast, "shape", counting)
    fast = run_all()
    monkeypatch.setattr(dml_fast, "shape", lambda sql: None)
    slow = run_all()
    assert any(calls), "no fixture statement took the fast path"
    assert fast == slow
