"""ICE005 on an `INSERT ... SELECT` whose value lands, by position, in a column that cannot take it
(`[INCOMPATIBLE_DATA_FOR_TABLE.CANNOT_SAFELY_CAST]`, differential case 630): the finding points at
that value, names the column and its field id, and its help writes the INSERT with a column list
when the SELECT's names are the table's columns (pasted in Spark: differential case 631), or says
which value goes where when they are not."""

from __future__ import annotations

from icelint.rules.kit.help import proposals
from tests.rules.test_findings_detail import lint

TABLES = """CREATE TABLE db.events (id bigint, ts timestamp, kind string, payload binary) USING iceberg PARTITIONED BY (kind);
CREATE TABLE db.staging (id bigint, ts timestamp, payload binary, kind string, note string) USING iceberg;
"""


def _ice005(statement: str):
    found = [f for f in lint(TABLES + statement, "ICE005") if f.line > 2]
    assert len(found) == 1, [f.message for f in found]
    return found[0]


def test_points_at_the_value_and_names_the_column_it_is_written_to() -> None:
    f = _ice005("INSERT INTO db.events\nSELECT id, ts, payload, kind\nFROM db.staging;\n")
    assert (f.line, f.column, f.end_column) == (4, 25, 28)  # `kind`, the 4th value
    assert f.field_id == 4 and f.column_path == "payload"
    assert "its 4th value, `kind` (STRING), is written to `payload` (field id 4, BINARY)" in f.help


def test_help_names_the_columns_when_the_selects_names_are_the_tables_and_the_paste_works() -> None:
    statement = "INSERT INTO db.events -- the backfill\n  SELECT id, ts, payload, kind FROM db.staging;\n"
    f = _ice005(statement)
    (target, pasted), = proposals(f.help)
    assert target is None
    assert pasted == "INSERT INTO db.events (id, ts, payload, kind) SELECT id, ts, payload, kind FROM db.staging"
    assert [x.message for x in lint(TABLES + pasted + ";\n", "ICE005")] == []


def test_aliases_and_case_count_as_names() -> None:
    f = _ice005("INSERT INTO TABLE db.events SELECT ID, ts, payload AS Payload, kind FROM db.staging;\n")
    (_, pasted), = proposals(f.help)
    assert pasted == "INSERT INTO TABLE db.events (id, ts, payload, kind) SELECT ID, ts, payload AS Payload, kind FROM db.staging"


def test_no_column_list_when_the_names_would_not_fit_either() -> None:
    # `note` is no column of db.events: naming the columns cannot help; the help says where each value goes
    f = _ice005("INSERT INTO db.events SELECT id, ts, payload, note FROM db.staging;\n")
    assert proposals(f.help) == []
    assert "the values go to (id, ts, kind, payload) in this order: select a value of type BINARY for `payload`" in f.help
    assert "column list" in f.help


def test_a_column_list_already_given_or_a_static_partition_changes_where_values_go() -> None:
    f = _ice005("INSERT INTO db.events (id, ts, payload, kind) SELECT id, ts, kind, payload FROM db.staging;\n")
    assert "into the columns listed by position" in f.help and "(id, ts, payload, kind) in this order" in f.help
    assert "column list" not in f.help and f.column_path == "payload"
    f = _ice005("INSERT INTO db.events PARTITION (kind = 'web') SELECT id, ts, note FROM db.staging;\n")
    assert "its 3rd value, `note` (STRING), is written to `payload`" in f.help and "(id, ts, payload) in this order" in f.help
    assert proposals(f.help) == []  # a column list would go after the PARTITION clause: not written


def test_a_star_keeps_the_statement_and_the_general_help() -> None:
    f = _ice005("CREATE TABLE db.swapped (id bigint, ts timestamp, payload binary, kind string) USING iceberg;\n"
                "INSERT INTO db.events SELECT * FROM db.swapped s;\n")
    assert f.line == 4 and f.column == 1 and f.column_path == "payload"
    assert "one value per column" in f.help
