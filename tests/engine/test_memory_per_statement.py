"""What a long run keeps per statement (memory): the check keeps spans, not syntax trees;
a schema diff keeps tuples, not lists; a name written in many statements is one string; a DML step
shares its file's text; states share their dict layout, not their spec-derived tables.

Each test compares the lean form with what it replaces (memory itself is measured by
`bench/scale.py`, never here).
"""

from __future__ import annotations

import platform
import subprocess
import sys

import pytest

from icelint.model.diff import NO_CHANGE, SchemaDiff, diff
from icelint.model.table import Schema
from icelint.plan.pending import make_plan, parse_plan
from icelint.engine.pipeline import parse_sources, replay
from icelint.replay.dml import fast as dml_fast
from icelint.rules.kit.base import RuleContext, TableHistory
from icelint.engine.context import RunContext
from icelint.values.source import SourceFile, TextSpan
from icelint.syntax.ast import Placed, PlacedSpans

SQL = """\
CREATE TABLE db.t (id bigint, payload string, meta struct<a: int>) USING iceberg;
-- a comment between statements
ALTER TABLE db.t RENAME COLUMN payload TO body;
ALTER TABLE db.t ALTER COLUMN body COMMENT 'x';
INSERT INTO db.t (id, body) VALUES (1, 'a');
ALTER TABLE db.t ADD COLUMN meta.b int;
ALTER TABLE db.t DROP COLUMN meta.a;
this is not sql;
ALTER TABLE db.t ADD COLUMN payload string;
"""


def test_parse_without_trees_keeps_the_spans_and_the_same_steps():
    full = parse_sources([SourceFile("m.sql", SQL)])
    lean = parse_sources([SourceFile("m.sql", SQL)], trees=False)
    assert lean.steps == full.steps
    assert [f.comments for f in lean.files] == [f.comments for f in full.files]
    (pf,), (lf,) = full.files, lean.files
    assert len(lf.statements) == len(pf.statements) == 8
    assert all(type(s) is Placed for s in lf.statements)
    assert [s.span for s in lf.statements] == [s.span for s in pf.statements]
    assert type(pf.statements[0]) is not Placed  # the default keeps the trees (the API, the tests)
    # read as Placed, held as the spans alone (the steps hold the same span objects)
    assert type(lf.statements) is PlacedSpans and all(type(x) is TextSpan for x in tuple.__iter__(lf.statements))
    assert tuple.__getitem__(lf.statements, 2) is lean.steps[2].span
    assert lf.statements[-1] == Placed(lean.steps[-1].span) and list(reversed(lf.statements))[0] == lf.statements[-1]
    assert lf.statements == tuple(lf.statements) and lf.statements[1:3] == (lf.statements[1], lf.statements[2])


def test_the_spans_of_a_statement_keep_no_line_or_column_ints():
    """A line or column past 256 is an int object of its own: a parsed span holds its text's index and
    its two offsets only (a `TextSpan`), and computes its line and column when asked."""
    text = "\n" * 1000 + "ALTER TABLE db.t ALTER COLUMN c COMMENT 'x';\nALTER TABLE db.t RENAME COLUMN c TO d;\n"
    lean = parse_sources([SourceFile("m.sql", text)], trees=False)
    a, b = lean.steps
    spans = [a.span, a.table_span, a.changes[0].span, b.span, b.table_span]
    assert all(type(sp) is TextSpan and tuple.__len__(sp) == 3 for sp in spans)
    assert all(0 <= tuple.__getitem__(sp, 2) <= 256 for sp in spans)  # its length: a shared small int, not its end
    assert {sp.line for sp in spans[:3]} == {1001} and b.span.line == b.table_span.line == 1002
    assert (a.table_span.column, a.table_span.end_column) == (13, 16)  # `db.t`


def test_the_check_command_parses_without_trees(tmp_path):
    f = tmp_path / "V1__m.sql"
    f.write_text(SQL, encoding="utf-8")
    parsed = parse_plan(make_plan([str(f)]))
    assert parsed.files and all(type(s) is Placed for pf in parsed.files for s in pf.statements)


def test_diffs_are_kept_as_tuples_and_equal_the_lists_they_were_built_in():
    run = replay(parse_sources([SourceFile("m.sql", SQL)]))
    diffs = [o.diff for o in run.result.outcomes if o.diff is not None]
    assert len(diffs) == 5
    for o in run.result.outcomes:
        if o.diff is None:
            continue
        d = o.diff
        assert not hasattr(d, "__dict__")  # slots
        for part in ("added", "removed", "changed", "replaced_top"):
            assert type(getattr(d, part)) is tuple
        again = diff(o.before.schema, o.after.schema)  # built from scratch: the same contents
        assert [list(getattr(again, p)) for p in ("added", "removed", "changed")] == [
            list(getattr(d, p)) for p in ("added", "removed", "changed")
        ]
    renamed = diffs[0]
    assert [(p, new.name, old.name) for p, new, old in renamed.renamed] == [(("body",), "body", "payload")]
    assert renamed.added == () and renamed.removed == ()
    assert SchemaDiff().added == []  # built empty in lists, as `diff` builds it
    unchanged = [o for o in run.result.outcomes if o.diff is None]
    assert unchanged  # the INSERT and the statement Spark rejects change no schema
    for o in unchanged:  # the rules see one shared empty diff of tuples for them, not a new one each
        d = RuleContext(o, run.result, TableHistory(), "db.t", RunContext(run.result)).diff
        assert d is NO_CHANGE and d.added == () and d.removed == () and d.changed == () and d.renamed == []


def test_a_name_written_in_many_statements_is_one_string():
    sql = "".join(f"ALTER TABLE db.t ALTER COLUMN c{i % 3} COMMENT 'v{i}';\n" for i in range(30))
    parsed = parse_sources([SourceFile("m.sql", "CREATE TABLE db.t (c0 int, c1 int, c2 int) USING iceberg;\n" + sql)])
    tables = {id(s.table) for s in parsed.steps}
    assert len(tables) == 1
    paths = [s.changes[0].path[0] for s in parsed.steps[1:]]
    assert len({id(p) for p in paths}) == 3 and sorted(set(paths)) == ["c0", "c1", "c2"]


def test_an_insert_lists_the_schemas_own_names():
    cols = ", ".join(f"col_{i}" for i in range(50))
    sql = f"CREATE TABLE db.w ({', '.join(f'col_{i} int' for i in range(50))}) USING iceberg;\n"
    sql += f"INSERT INTO db.w ({cols}) VALUES ({', '.join(['1'] * 50)});\n"
    run = replay(parse_sources([SourceFile("w.sql", sql)]))
    schema = run.result.tables["db.w"].schema
    shape = dml_fast.shape(run.result.outcomes[1].step.changes[0].sql)
    assert shape is not None and shape.listed is not None and len(shape.listed) == 50
    assert all(a is f.name for a, f in zip(shape.listed, schema.fields))


def test_dml_steps_share_their_files_text_instead_of_copying_the_statement():
    text = SQL
    parsed = parse_sources([SourceFile("m.sql", text)])
    writes = [c for s in parsed.steps for c in getattr(s, "changes", ()) if type(c).__name__ == "WriteData"]
    assert len(writes) == 1
    w = writes[0]
    assert w.text is text  # the file's own string, not a slice of it
    assert w.sql == "INSERT INTO db.t (id, body) VALUES (1, 'a')"  # what the replay's checks read


def test_partition_lookups_are_not_kept_on_every_state():
    sql = "CREATE TABLE db.p (id bigint, ts timestamp, k int, a int, b int) USING iceberg PARTITIONED BY (days(ts));\n"
    sql += "".join(f"ALTER TABLE db.p ADD PARTITION FIELD {c};\n" for c in ("k", "a", "b"))
    sql += "ALTER TABLE db.p DROP PARTITION FIELD k;\nALTER TABLE db.p RENAME COLUMN k TO kk;\n"
    run = replay(parse_sources([SourceFile("p.sql", sql)]))
    assert all(o.accepted for o in run.result.outcomes)
    states = [s for o in run.result.outcomes for s in (o.before, o.after) if s is not None]
    current, every = states[-1].partition_sources
    assert sorted(every) == [2, 3, 4, 5] and 3 not in current  # k (3) is in older specs only
    assert all("partition_sources" not in s.__dict__ for s in states)  # one table per spec history, not per state
    assert all("partition_names" not in s.__dict__ for s in states)
    assert states[-1].partition_names == {"ts_day", "k", "a", "b"}
    # a spec that keeps a field keeps the same object: five specs, not five copies of `ts_day`
    specs = states[-1].specs
    assert len(specs) == 5 and len({id(f) for s in specs for f in s.fields if f.name == "ts_day"}) == 1


def test_a_state_keeps_its_values_in_the_dict_layout_all_states_share():
    if platform.python_implementation() != "CPython" or sys.version_info[:2] != (3, 11):
        pytest.skip("key-sharing dicts are CPython's; their layout differs from one minor version to the next")
    sql = "".join(
        f"CREATE TABLE db.t{i} (id bigint NOT NULL COMMENT 'id', a int) USING iceberg;\n"
        f"INSERT INTO db.t{i} (id, a) VALUES (1, 2);\n"
        for i in range(4)
    )
    sql += "ALTER TABLE db.t1 ADD COLUMN b int;\nALTER TABLE db.t2 ADD COLUMN b int;\n"
    # a fresh interpreter: the layout the class's instances share is made by its first instances
    script = (
        "import sys; from icelint.engine.pipeline import replay_text; run = replay_text(sys.argv[1]); "
        "print(max(sys.getsizeof(o.after.__dict__) for o in run.result.outcomes if o.after is not None))"
    )
    out = subprocess.run([sys.executable, "-c", script, sql], capture_output=True, text=True, check=True).stdout
    # a dict of its own for 22 entries takes ~830 bytes; the shared layout ~250
    assert int(out) < 400


def test_the_dml_shape_cache_keeps_a_few_statements():
    dml_fast._cached_shape.cache_clear()
    sql = "CREATE TABLE db.w (c0 int, c1 int) USING iceberg;\n"
    sql += "".join(f"INSERT INTO db.w (c0, c1) VALUES ({i}, {i});\n" for i in range(200))
    run = replay(parse_sources([SourceFile("w.sql", sql)]))
    assert all(o.accepted for o in run.result.outcomes)
    assert 0 < dml_fast._cached_shape.cache_info().currsize <= 64  # not one text and shape per INSERT of the run


def test_the_dml_shape_cache_does_not_keep_a_long_statement():
    dml_fast._cached_shape.cache_clear()
    cols = [f"c{i}" for i in range(600)]
    sql = f"CREATE TABLE db.w ({', '.join(c + ' int' for c in cols)}) USING iceberg;\n"
    sql += f"INSERT INTO db.w ({', '.join(cols)}) VALUES ({', '.join('1' for _ in cols)});\n"
    sql += "CREATE TABLE db.s (c0 int) USING iceberg;\nINSERT INTO db.s (c0) VALUES (2);\n"
    run = replay(parse_sources([SourceFile("w.sql", sql)]))
    assert all(o.accepted for o in run.result.outcomes)
    long_sql = run.result.outcomes[1].step.changes[0].sql
    assert len(long_sql) > dml_fast.CACHED_MAX
    assert dml_fast.shape(long_sql) == dml_fast._shape(long_sql, True)  # the same shape, read again
    assert dml_fast._cached_shape.cache_info().currsize == 1  # the short INSERT only


def test_the_schema_index_files_a_lone_version_as_itself_under_an_int():
    sql = "CREATE TABLE db.t (id bigint) USING iceberg;\n"
    sql += "".join(f"ALTER TABLE db.t ADD COLUMN c{i} int;\n" for i in range(30))
    sql += "ALTER TABLE db.t DROP COLUMN c29;\n"  # the schema of 30 statements before: reused, not added
    run = replay(parse_sources([SourceFile("t.sql", sql)]))
    meta = run.result.tables["db.t"]
    assert len(meta.schemas) == 31 and meta.current_schema_id == 29
    index = meta.schema_index
    replayed = [k for k in index if isinstance(k, int)]
    assert len(replayed) >= 30 and all(type(index[k]) is Schema for k in replayed)  # no list of one per version
