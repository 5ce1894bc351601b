"""Help recipes a user can follow blind: what each one proposes, linted in-process.

Each test here checks one recipe's shape on a small migration; the same recipes are run in real Spark
on tables with rows by `tests/differential/test_help_in_spark.py`.
"""

from __future__ import annotations

import re
from pathlib import Path

from icelint.rules.kit.help import proposals
from tests.rules.test_help_replay import Input, lint

ROOT = Path(__file__).resolve().parents[2]


def _findings(*files: tuple[str, str], metadata: tuple[str, ...] = (), last_only: bool = True):
    reviewed = frozenset({files[-1][0]}) if last_only else None
    return lint(Input("advice", tuple(files), metadata, reviewed))


ORDERS = ("V1__orders.sql", "CREATE TABLE db.orders (order_id bigint, quantity bigint) USING iceberg;\n"
          "INSERT INTO db.orders VALUES (1, 3000000000), (2, 5);\n")  # fmt: skip


def test_narrowing_backfill_keeps_values_that_do_not_fit_out() -> None:
    (f,) = _findings(ORDERS, ("V2__narrow.sql", "ALTER TABLE db.orders ALTER COLUMN quantity TYPE int;\n"))
    assert f.rule == "ICE002"
    sqls = " ; ".join(s for _, s in proposals(f.help))
    # a bare CAST wraps 3000000000 to -1294967296 with ANSI off: the backfill must guard it
    assert not re.search(r"=\s*CAST\(quantity AS int\)\s*($|;)", sqls), sqls
    assert "CASE WHEN" in sqls and "quantity_v2" in sqls, sqls
    assert "SELECT count(*)" in f.help, f.help  # how many did not fit: the user decides


def test_widening_to_string_needs_no_guard() -> None:
    (f,) = _findings(ORDERS, ("V2__s.sql", "ALTER TABLE db.orders ALTER COLUMN quantity TYPE string;\n"))
    sqls = " ; ".join(s for _, s in proposals(f.help))
    assert "= CAST(quantity AS string)" in sqls, sqls


EVENTS = ("V1__events.sql", "CREATE TABLE db.events (id bigint, payload string) USING iceberg;\n"
          "INSERT INTO db.events VALUES (1, 'a');\n")  # fmt: skip


def test_drop_then_readd_in_one_pending_file_leads_with_keeping_the_values() -> None:
    mig = ("V2__readd.sql", "ALTER TABLE db.events DROP COLUMN payload;\nALTER TABLE db.events ADD COLUMN payload binary;\n")
    (f,) = [g for g in _findings(EVENTS, mig) if g.rule == "ICE001"]
    first_target, first_sql = proposals(f.help)[0]
    assert first_target is not None and first_target[1] == 1, f.help  # the drop's statement, replaced
    assert "RENAME COLUMN payload TO payload_old" in first_sql, f.help
    assert f.help.index("RENAME COLUMN payload TO payload_old") < f.help.index("give the new column another name"), f.help


def test_drop_in_an_earlier_file_leads_with_another_name() -> None:
    files = (EVENTS, ("V2__drop.sql", "ALTER TABLE db.events DROP COLUMN payload;\n"),
             ("V3__add.sql", "ALTER TABLE db.events ADD COLUMN payload binary;\n"))  # fmt: skip
    (f,) = [g for g in _findings(*files) if g.rule == "ICE001"]
    target, sql = proposals(f.help)[0]
    assert target is None and "ADD COLUMN payload_v2 binary" in sql, f.help


LOGS = ("V1__logs.sql", "CREATE TABLE db.logs (id bigint, region string, ts timestamp) USING iceberg PARTITIONED BY (region);\n"
        "INSERT INTO db.logs VALUES (1, 'eu', TIMESTAMP'2024-01-01 00:00:00');\n"
        "ALTER TABLE db.logs REPLACE PARTITION FIELD region WITH days(ts);\n")  # fmt: skip


def test_old_partition_source_help_says_the_rewrite_is_operational() -> None:
    (f,) = [g for g in _findings(LOGS, ("V2__drop.sql", "ALTER TABLE db.logs DROP COLUMN region;\n")) if g.rule == "ICE003"]
    assert "not in a migration" in f.help and "later migration" in f.help, f.help
    assert "rewrite_data_files(table => 'db.logs', options => map('rewrite-all', 'true'))" in f.help, f.help
    # the same two statements, run from a Spark session, are the setup of differential case 528
    setup = (ROOT / "tests/differential/cases/528_drop_old_identity_source_after_rewrite_and_expire/setup.sql").read_text()
    for call in re.findall(r"`(CALL [^`]*)`", f.help):
        assert call.replace("db.logs", "db.sales") + ";" in setup, call
