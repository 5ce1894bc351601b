"""Every finding points at the token that is wrong, not at the whole statement."""

from __future__ import annotations

import pytest

from icelint.engine import suppress
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES
from icelint.values.source import LineIndex, SourceFile
from icelint.syntax.parser import parse_file
from tests.rules.test_help_replay import INPUTS, lint

# Findings about a statement as a whole: `SET spark.sql.caseSensitive=true` (the statement is the
# setting), rejected DML (the whole row or statement does not fit the table), DROP of a table, CALL
# arguments, branch and tag commands (their names carry no span).
WHOLE_STATEMENT_OK = {("ICE008", "set")} | {("ICE005", k) for k in ("insert", "update", "delete", "merge", "other", "ref")}


def _statements(path: str, text: str):
    return parse_file(SourceFile(path, text)).statements


def _kind(stmt) -> str:
    name = type(stmt).__name__
    if name == "SetConfig":
        return "set"
    if name == "Other":
        return stmt.keyword.split()[0]
    if name == "AlterTable" and type(stmt.action).__name__ == "BranchOrTag":
        return "ref"
    return "other" if name in ("DropTable", "Call") else name


def test_no_finding_spans_its_whole_statement() -> None:
    bad = []
    for inp in INPUTS:
        texts = dict(inp.files)
        spans = {p: _statements(p, t) for p, t in inp.files}
        for f in lint(inp):
            for s in spans.get(f.path, ()):
                sp = s.span
                if (sp.line, sp.column) <= (f.line, f.column) <= (sp.end_line, sp.end_column):
                    whole = (f.line, f.column, f.end_line, f.end_column) == (sp.line, sp.column, sp.end_line, sp.end_column)
                    if whole and (f.rule, _kind(s)) not in WHOLE_STATEMENT_OK:
                        bad.append(f"{inp.id} {f.path}:{f.line}:{f.column} {f.rule}: {texts[f.path][sp.start:sp.end][:80]!r}")
                    break
    assert not bad, "findings that point at a whole statement:\n" + "\n".join(bad)


def _flagged(sql: str, code: str) -> list[str]:
    """The source text under each `code` finding's span (end exclusive, as the JSON contract says)."""
    src = SourceFile("m.sql", sql)
    findings = suppress.lint(replay(parse_sources([src])), ALL_RULES).findings
    index = LineIndex("m.sql", sql)
    out = []
    for f in findings:
        if f.rule != code:
            continue
        start = index._starts[f.line - 1] + f.column - 1
        end = index._starts[f.end_line - 1] + f.end_column  # Finding.end_column is the last character
        out.append(sql[start:end])
    return out


T = "CREATE TABLE db.t (id bigint NOT NULL, qty int, region string, ts timestamp, note string, s struct<a: int>) USING iceberg PARTITIONED BY (region);\n"
# a full row: Spark 3.5 rejects an INSERT whose column list leaves columns out
ROW = "INSERT INTO db.t VALUES (1, 2, 'eu', TIMESTAMP '2024-01-01 00:00:00', 'x', named_struct('a', 1));\n"


@pytest.mark.parametrize(
    ("sql", "code", "token"),
    [
        (T + "ALTER TABLE db.t ALTER COLUMN qty TYPE string;\n", "ICE002", "string"),
        (T + "ALTER TABLE db.t ALTER COLUMN note SET NOT NULL;\n", "ICE004", "note"),
        (T + "ALTER TABLE db.t DROP COLUMN region;\n", "ICE003", "region"),
        (T + "ALTER TABLE db.t RENAME COLUMN region TO area;\n", "ICE027", "region"),  # ICE027 since the ICE003 split
        (T + "ALTER TABLE db.t ADD PARTITION FIELD bucket(16, nope);\n", "ICE003", "nope"),
        (T + "ALTER TABLE db.t DROP PARTITION FIELD days(ts);\n", "ICE003", "days(ts)"),
        (T + "ALTER TABLE db.t SET TBLPROPERTIES ('a' = 'b', 'format-version' = '3');\n", "ICE013", "'format-version'"),
        (T + "ALTER TABLE db.t RENAME COLUMN note TO memo;\n", "ICE012", "note"),
        (T + "ALTER TABLE db.t DROP COLUMN s.a;\n", "ICE007", "s.a"),
        (T + "ALTER TABLE db.t ADD COLUMN s.b int;\n", "ICE014", "s.b int"),
        # ICE001 needs rows written before the drop (on an empty table the same re-add is ICE015, below)
        (T + ROW + "ALTER TABLE db.t DROP COLUMN note;\nALTER TABLE db.t ADD COLUMN note string;\n", "ICE001", "note string"),
        (T + ROW + "ALTER TABLE db.t ADD COLUMN q2 int;\nALTER TABLE db.t DROP COLUMN note;\nALTER TABLE db.t RENAME COLUMN q2 TO note;\n", "ICE001", "note"),
        (T + "ALTER TABLE db.t DROP COLUMN note;\nALTER TABLE db.t ADD COLUMN note string;\n", "ICE015", "note string"),
        (T + "ALTER TABLE db.t DROP COLUMN note;\nALTER TABLE db.t RENAME COLUMN qty TO note;\n", "ICE016", "note"),
        (T + "ALTER TABLE db.t ALTER COLUMN nope COMMENT 'x';\n", "ICE005", "nope"),
        (T + "CREATE OR REPLACE TABLE db.t (id bigint) USING iceberg;\n", "ICE009", "db.t"),
        (T + "CALL cat.system.expire_snapshots(table => 'db.t');\n", "ICE010", "cat.system.expire_snapshots"),
    ],
)
def test_finding_points_at_the_wrong_token(sql: str, code: str, token: str) -> None:
    assert token in _flagged(sql, code)


K = "CREATE TABLE db.k (id bigint NOT NULL, region string NOT NULL) USING iceberg;\nALTER TABLE db.k SET IDENTIFIER FIELDS id, region;\n"


@pytest.mark.parametrize(
    ("sql", "code", "token"),
    [
        (T + "ALTER TABLE db.t ALTER COLUMN note FIRST;\n", "ICE017", "note"),
        (K + "ALTER TABLE db.k DROP IDENTIFIER FIELDS region;\n", "ICE018", "region"),
        (K + "ALTER TABLE db.k SET IDENTIFIER FIELDS id;\n", "ICE018", "id"),
        (T + "DROP TABLE db.t PURGE;\n", "ICE019", "db.t"),
        (T + ROW + "TRUNCATE TABLE db.t;\n", "ICE019", "db.t"),
        (T + "ALTER TABLE db.t RENAME TO db.u;\n", "ICE019", "db.u"),
        (T + "ALTER TABLE db.t ADD COLUMN code varchar(3);\n", "ICE020", "varchar(3)"),
        (T + "ALTER TABLE db.t ADD COLUMN ctx struct<`page.url`: string>;\n", "ICE021", "`page.url`: string"),
        (T + "ALTER TABLE db.t RENAME COLUMN note TO `note.text`;\n", "ICE021", "`note.text`"),
    ],
)
def test_new_rules_point_at_the_token(sql: str, code: str, token: str) -> None:
    """ICE017-ICE021 (written alongside the positions work): the column, key field, table name, dotted name."""
    assert token in _flagged(sql, code)
