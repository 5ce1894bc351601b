"""CTAS / RTAS columns whose type icelint cannot know (`model.types.UntypedType`, `replay/ctas.py`):
the table is created with every column (names, Spark's field ids), the typed columns are checked as
usual, and checks that need the unknown type skip it. Differential cases 560-564 run the same in Spark."""

from __future__ import annotations

import json
from pathlib import Path

from icelint.engine.checker import lint_run
from icelint.model.types import LONG, STRING, UntypedType, is_untyped
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES
from icelint.values.source import SourceFile
from tests.cli.test_commands import put, run

ORDERS = "CREATE TABLE db.orders (order_id bigint NOT NULL, customer string, amount decimal(10, 2)) USING iceberg;\n"
ENRICHED = (
    "CREATE TABLE db.enriched USING iceberg PARTITIONED BY (bucket(4, order_id)) AS SELECT o.order_id, r.region, "
    "my_score(o.amount) AS score, upper(o.customer) AS cu FROM db.orders o JOIN ext.regions r ON o.customer = r.customer;\n"
)


def _run(sql: str):
    run_ = replay(parse_sources([SourceFile("m.sql", sql)]), None)
    return run_, lint_run(run_, ALL_RULES)


def test_ctas_keeps_every_column_with_spark_ids_and_the_reason() -> None:
    r, _ = _run(ORDERS + ENRICHED)
    meta = r.result.tables["db.enriched"]
    assert "db.enriched" not in r.result.unknown
    fields = meta.schema.fields
    assert [(f.id, f.name) for f in fields] == [(1, "order_id"), (2, "region"), (3, "score"), (4, "cu")]
    assert fields[0].type == LONG and not fields[0].required  # CTAS columns are nullable (Spark's asNullable)
    assert [is_untyped(f.type) for f in fields] == [False, True, True, True]
    assert "`ext.regions`" in fields[1].type.reason
    assert "`my_score`" in fields[2].type.reason
    assert "`upper`" in fields[3].type.reason
    assert meta.last_column_id == 4
    assert [(f.source_id, f.transform) for f in meta.spec.fields] == [(1, "bucket[4]")]


def test_typed_columns_are_checked_untyped_ones_skip_type_checks() -> None:
    sql = ORDERS + ENRICHED + (
        "ALTER TABLE db.enriched ALTER COLUMN order_id TYPE int;\n"  # typed: illegal, an error
        "ALTER TABLE db.enriched ALTER COLUMN score TYPE double;\n"  # untyped: accepted, info
        "ALTER TABLE db.enriched ADD PARTITION FIELD days(region);\n"  # untyped: accepted, info
        "ALTER TABLE db.enriched DROP COLUMN cu;\n"
        "ALTER TABLE db.enriched ADD COLUMN cu string;\n"  # drop-then-add: needs no type
        "ALTER TABLE db.enriched RENAME COLUMN region TO area;\n"
        "INSERT INTO db.enriched VALUES (1, 'north', 0.5, 'x');\n"
    )
    r, findings = _run(sql)
    by_line = {}
    for f in findings:
        by_line.setdefault(f.line, []).append((f.rule, f.severity.value))
    errors = sorted((f.line, f.rule) for f in findings if f.severity.value == "error")
    assert errors == [(3, "ICE002"), (7, "ICE001")], findings
    assert ("ICE028", "info") in by_line[4] and ("ICE028", "info") in by_line[5]
    outcomes = [o for o in r.result.outcomes if o.table == "db.enriched"]
    assert [o.accepted for o in outcomes] == [True, False, True, True, True, True, True, True]
    meta = r.result.tables["db.enriched"]
    fields = {f.name: f for f in meta.schema.fields}
    assert fields["score"].type.to_json() == "double"  # after an accepted type change the type is known
    assert is_untyped(fields["area"].type) and fields["area"].id == 2
    assert fields["cu"].id == 5 and fields["cu"].type == STRING
    assert [f.transform for f in meta.spec.fields] == ["bucket[4]", "day"]


def test_reaching_into_an_untyped_column_is_skipped_not_an_error() -> None:
    sql = ORDERS + ENRICHED + "ALTER TABLE db.enriched ADD COLUMN region.zone string;\nALTER TABLE db.enriched DROP COLUMN region.zone;\n"
    r, findings = _run(sql)
    skipped = [o.skipped for o in r.result.outcomes[2:]]
    assert skipped == ["untyped-column:region", "untyped-column:region"]
    assert not [f for f in findings if f.severity.value == "error"]
    assert sum(1 for f in findings if f.rule == "ICE028" and f.line in (3, 4)) == 2
    assert r.result.tables["db.enriched"].last_column_id == 4  # not replayed


def test_unknown_columns_still_make_the_whole_table_unknown() -> None:
    for query, why in (
        ("SELECT * FROM ext.regions", "`SELECT *` over table `ext.regions`"),
        ("SELECT upper(customer) FROM db.orders", "has no alias"),
    ):
        r, findings = _run(ORDERS + f"CREATE TABLE db.x USING iceberg AS {query};\n")
        assert "db.x" in r.result.unknown
        assert why in r.result.unknown_why["db.x"]
        assert [f.rule for f in findings] == ["ICE028"]


def test_cte_over_an_unknown_table_and_ctas_of_a_ctas() -> None:
    sql = ORDERS + ENRICHED + (
        "CREATE TABLE db.c USING iceberg AS WITH r AS (SELECT id, v FROM ext.t) SELECT r.id, o.customer FROM r JOIN db.orders o ON r.id = o.order_id;\n"
        "CREATE TABLE db.d USING iceberg AS SELECT order_id, score, CAST(cu AS string) AS cu FROM db.enriched;\n"
    )
    r, _ = _run(sql)
    c = r.result.tables["db.c"].schema.fields
    assert [(f.name, is_untyped(f.type)) for f in c] == [("id", True), ("customer", False)]
    d = r.result.tables["db.d"].schema.fields
    assert [(f.name, is_untyped(f.type)) for f in d] == [("order_id", False), ("score", True), ("cu", False)]
    assert "column `score` of `db.enriched`" in d[1].type.reason and "`my_score`" in d[1].type.reason


def test_rtas_keeps_ids_of_same_named_columns_whatever_their_type() -> None:
    sql = ORDERS + ENRICHED + "REPLACE TABLE db.enriched USING iceberg AS SELECT r.region, o.order_id, r.extra FROM db.orders o JOIN ext.regions r ON o.customer = r.customer;\n"
    r, findings = _run(sql)
    fields = r.result.tables["db.enriched"].schema.fields
    assert [(f.id, f.name, is_untyped(f.type)) for f in fields] == [(2, "region", True), (1, "order_id", False), (5, "extra", True)]
    assert not [f for f in findings if f.severity.value == "error"]


def test_untyped_type_is_not_an_iceberg_type() -> None:
    t = UntypedType("function `f`")
    assert t.to_json() == {"type": "icelint-unknown", "reason": "function `f`"}
    assert "function `f`" in str(t) and not is_untyped(STRING)
    assert t.is_primitive and UntypedType("a") != UntypedType("b")


def test_schema_shows_the_unknown_type_in_text_and_json(tmp_path: Path) -> None:
    import jsonschema

    put(tmp_path, "m.sql", ORDERS + ENRICHED)
    text = run("schema", "m.sql", cwd=tmp_path)
    assert text.returncode == 0, text.stderr
    assert "2: region <type not known: table `ext.regions`, which is not known here> (optional)" in text.stdout
    assert "1: order_id long (optional)" in text.stdout
    r = run("schema", "m.sql", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    fields = out["db.enriched"]["schemas"][0]["fields"]
    assert fields[2]["type"] == {"type": "icelint-unknown", "reason": fields[2]["type"]["reason"]}
    assert "`my_score`" in fields[2]["type"]["reason"] and fields[0]["type"] == "long"
    schema = json.loads((Path(__file__).resolve().parents[2] / "icelint" / "schemas" / "schema-output.json").read_text())
    jsonschema.validate(out, schema, cls=jsonschema.Draft202012Validator)
    fields[2]["type"] = {"type": "icelint-unknown"}  # the reason is required
    import pytest

    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(out, schema, cls=jsonschema.Draft202012Validator)


def test_check_exit_code_with_only_unknown_types_is_clean(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", ORDERS + ENRICHED + "ALTER TABLE db.enriched ALTER COLUMN region TYPE string;\n")
    r = run("check", "m.sql", "--format", "json", cwd=tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    rules = [(f["rule"], f["severity"], f["line"]) for f in json.loads(r.stdout)["findings"]]
    assert rules == [("ICE028", "info", 2), ("ICE028", "info", 3)]


def test_whether_an_untyped_column_may_be_nested_and_the_caveat_on_ids() -> None:
    r, findings = _run(ORDERS + ENRICHED)
    fields = {f.name: f.type for f in r.result.tables["db.enriched"].schema.fields}
    assert fields["region"].maybe_nested and fields["score"].maybe_nested  # unknown table, UDF: anything
    assert not fields["cu"].maybe_nested  # upper(): a string of some kind, never nested
    assert "field ids icelint gives to columns added later" in next(f.message for f in findings if f.rule == "ICE028")
    r, findings = _run(ORDERS + "CREATE TABLE db.s USING iceberg AS SELECT order_id, upper(customer) AS cu, length(customer) AS n FROM db.orders;\n")
    assert not any(t.maybe_nested for t in (f.type for f in r.result.tables["db.s"].schema.fields[1:]))
    assert "field ids icelint gives" not in next(f.message for f in findings if f.rule == "ICE028")


def test_rtas_help_names_the_untyped_column_instead_of_a_placeholder() -> None:
    sql = (
        "CREATE TABLE db.orders (order_id bigint NOT NULL, customer string, amount decimal(10, 2)) USING iceberg;\n"
        "CREATE TABLE db.summary (customer string, total decimal(20, 2), n int) USING iceberg;\n"
        "REPLACE TABLE db.summary USING iceberg AS SELECT customer, sum(amount) AS total, count(*) AS n, "
        "max(order_id) AS last_order FROM db.orders GROUP BY customer;\n"
    )
    _, findings = _run(sql)
    ice009 = next(f for f in findings if f.rule == "ICE009")
    assert "`last_order` has a type icelint cannot know (function `max`" in ice009.help
    assert "<type>" not in ice009.help and "`total` cannot change" not in ice009.help


def test_no_type_verdict_on_an_untyped_column_from_other_rules() -> None:
    sql = ORDERS + ENRICHED + (
        "INSERT INTO db.enriched VALUES (1, 2, 3, true);\n"  # literals into untyped columns: not judged
        "CREATE TABLE IF NOT EXISTS db.enriched (order_id bigint, region string, score double, cu string) USING iceberg "
        "PARTITIONED BY (bucket(4, order_id));\n"  # the same partitioning: ICE061 would compare only the columns
        "ALTER TABLE db.enriched ADD PARTITION FIELD region;\n"
        "ALTER TABLE db.enriched ALTER COLUMN region TYPE bigint;\n"  # an identity source of unknown type
    )
    _, findings = _run(sql)
    assert not [f for f in findings if f.severity.value != "info"], findings
    assert [f.line for f in findings if f.rule == "ICE028"] == [2, 5, 6]
    assert not [f for f in findings if f.rule in ("ICE026", "ICE061")]


def test_schema_names_a_table_it_cannot_infer_at_all(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", ORDERS + "CREATE TABLE db.star USING iceberg AS SELECT * FROM ext.regions;\n")
    r = run("schema", "m.sql", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "db.star  schema not known: `SELECT *` over table `ext.regions`" in r.stdout
    assert "db.orders  format v2" in r.stdout


def test_a_cte_or_subquery_column_is_typed_only_when_what_it_reads_is() -> None:
    # sqlglot types `amount * 2` as decimal(10,2); Spark as decimal(12,2) (case 560): never trusted
    sql = ORDERS + (
        "CREATE TABLE db.c USING iceberg AS WITH c AS (SELECT order_id, amount * 2 AS a2, CAST(amount AS double) AS d "
        "FROM db.orders) SELECT order_id, a2, d FROM c;\n"
        "CREATE TABLE db.t USING iceberg AS SELECT t.order_id, t.cu FROM (SELECT order_id, upper(customer) AS cu FROM db.orders) t;\n"
    )
    r, _ = _run(sql)
    c = r.result.tables["db.c"].schema.fields
    assert [(f.name, str(f.type)) for f in c if not is_untyped(f.type)] == [("order_id", "long"), ("d", "double")]
    assert c[1].type.reason == "column `a2` of `c`: expression `orders.amount * 2`, whose type icelint does not infer"
    t = r.result.tables["db.t"].schema.fields
    assert not is_untyped(t[0].type) and "column `cu` of `t`: function `upper`" in t[1].type.reason


def test_ctas_partitioned_by_a_field_inside_an_untyped_column_leaves_the_table_unknown() -> None:
    sql = "CREATE TABLE db.x USING iceberg PARTITIONED BY (bucket(4, r.k)) AS SELECT r FROM ext.t;\nALTER TABLE db.x ADD COLUMN z int;\n"
    r, findings = _run(sql)
    assert "db.x" in r.result.unknown and "inside `r`" in r.result.unknown_why["db.x"]
    assert [(f.rule, f.severity.value) for f in findings] == [("ICE028", "info")]


def test_sqlglot_warnings_do_not_reach_the_terminal(tmp_path: Path) -> None:
    """A CTAS whose text sqlglot can only read as a command: sqlglot logs "contains unsupported
    syntax" (found by bench/fuzz.py: it reached stderr, once per process); icelint says itself what it
    cannot judge (ICE028), and nothing else is written to stderr."""
    put(tmp_path, "m.sql", "CREATE TABLE db.t (id int) USING iceberg;\n"
                           "CREATE TABLE IF NOT EXISTS dx TABLE IF NOT EXISTS db.v (id binary) USING iceberg;\n")  # fmt: skip
    r = run("check", "m.sql", cwd=tmp_path)
    assert r.returncode in (0, 1) and r.stderr == "", r.stderr
    assert "ICE028" in r.stdout


def test_each_parse_gives_a_tree_of_its_own() -> None:
    """sqlglot's trees are mutable and cyclic (parent links): `parse_spark` must not share them between
    statements (a cache decorator once slipped onto it from its neighbour `table_key`)."""
    from icelint.replay.common import parse_spark, table_key

    sql = "INSERT INTO db.t VALUES (1)"
    assert parse_spark(sql) is not parse_spark(sql)
    assert table_key("Local.DB.T") == "db.t"
