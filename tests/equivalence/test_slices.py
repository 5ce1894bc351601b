"""The server's speed layer (`icelint.server.slices`) changes no finding: a check that leaves out the
files of other tables reports exactly what the check of the whole folder reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from icelint.config import load_config
from icelint.server.engine import check_document
from icelint.server.slices import Slicer, file_tables
from tests.rules.test_rule_cases import CASES
from tests.server.editor import project


def both(path: Path, text: str, slicer: Slicer):
    whole = check_document(path, text, {str(path): text})
    cut = check_document(path, text, {str(path): text}, slicer)
    assert whole.error == cut.error
    if whole.report is None:
        return cut.sliced
    # everything a report shows of a finding (not its run-wide statement number, which counts the files left out)
    assert [f.to_json() for f in cut.report.findings] == [f.to_json() for f in whole.report.findings]
    assert [f.suppressed_reason for f in cut.report.suppressed] == [f.suppressed_reason for f in whole.report.suppressed]
    return cut.sliced


def folder(n_tables: int = 4, n_files: int = 12) -> dict[str, str]:
    files = {}
    for k in range(n_files):
        t = k % n_tables
        lines = [f"CREATE TABLE db.t{t} (id bigint, kind string, payload string) USING iceberg PARTITIONED BY (kind);"] if k < n_tables else []
        lines += [f"ALTER TABLE db.t{t} ADD COLUMN c{k}_{i} {'string' if i % 2 else 'int'};" for i in range(8)]
        if k == 6:
            lines.append(f"ALTER TABLE db.t{t} DROP COLUMN payload;")
        files[f"migrations/V{k + 1}__step_{k + 1}.sql"] = "\n".join(lines) + "\n"
    return files


EDITS = {
    "re-add after a drop": "ALTER TABLE db.t2 ADD COLUMN payload string;\n",
    "a typo in the table": "ALTER TABLE db.t22 ADD COLUMN x int;\nALTER TABLE db.tt2 ADD COLUMN y int;\n",
    "two tables": "ALTER TABLE db.t2 DROP COLUMN kind;\nALTER TABLE db.t1 ADD COLUMN c4_1 int;\n",
    "a SET in the file": "SET spark.sql.caseSensitive=true;\nALTER TABLE db.t2 ADD COLUMN PayLoad string;\n",
    "no namespace": "ALTER TABLE t2 ADD COLUMN z int;\n",
    "a table renamed": "ALTER TABLE db.t2 RENAME TO db.t9;\nALTER TABLE db.t9 ADD COLUMN payload string;\n",
    "CTAS": "CREATE TABLE db.t7 USING iceberg AS SELECT * FROM db.t1;\nALTER TABLE db.t2 ADD COLUMN payload string;\n",
    "a parse error": "ALTER TABLE db.t2 ADD COLUMN ((;\nALTER TABLE db.t2 ADD COLUMN payload string;\n",
    "a placeholder": "ALTER TABLE ${schema}.t2 ADD COLUMN payload string;\n",
    "a suppression": "-- icelint: ignore ICE001 -- backfilled\nALTER TABLE db.t2 ADD COLUMN payload string;\n-- icelint: ignore ICE011\n",
    "an INSERT reading another table": "INSERT INTO db.t2 SELECT id FROM db.t1;\nINSERT INTO db.t2 SELECT * FROM db.t3;\n",
    "a MERGE": "MERGE INTO db.t2 t USING (SELECT * FROM db.t0) s ON t.id = s.id WHEN MATCHED THEN UPDATE SET *;\n",
    "a CTE": "WITH x AS (SELECT * FROM db.t1) INSERT INTO db.t2 SELECT * FROM x;\n",
    "nothing": "",
}


@pytest.mark.parametrize("name", list(EDITS))
def test_edits_in_a_folder_of_several_tables(tmp_path: Path, monkeypatch, name: str) -> None:
    root = project(tmp_path, folder())
    monkeypatch.chdir(root)
    slicer = Slicer()
    for target in ("V11__step_11.sql", "V7__step_7.sql", "V13__new.sql"):  # last, in the middle, a new file
        path = root / "migrations" / target
        both(path, (path.read_text() if path.exists() else "") + EDITS[name], slicer)


def test_a_cut_is_made_and_kept_files_are_the_right_ones(tmp_path: Path, monkeypatch) -> None:
    files = folder()
    files["migrations/V5__step_5.sql"] += "SET spark.sql.caseSensitive=false;\n"  # kept in every cut
    root = project(tmp_path, files)
    monkeypatch.chdir(root)
    slicer = Slicer()
    path = root / "migrations" / "V11__step_11.sql"  # table t2
    assert both(path, path.read_text() + EDITS["re-add after a drop"], slicer)

    blank = {p.name for p in slicer.blank_files(path, path.read_text(), load_config(root), {})}
    assert blank == {f"V{k + 1}__step_{k + 1}.sql" for k in range(12) if k % 4 != 2 and k != 4}
    # a file naming t2 and t3 joins t3 to the cut
    (root / "migrations" / "V12__step_12.sql").write_text("ALTER TABLE db.t3 ADD COLUMN j int;\nALTER TABLE db.t2 ADD COLUMN k int;\n")
    blank = {p.name for p in slicer.blank_files(path, path.read_text(), load_config(root), {})}
    assert blank == {f"V{k + 1}__step_{k + 1}.sql" for k in range(12) if k % 4 in (0, 1) and k != 4}
    # no cut when the file under review resolves names through a SET, or a folder file renames a table
    assert slicer.blank_files(path, EDITS["a SET in the file"], load_config(root), {}) == []
    (root / "migrations" / "V3__step_3.sql").write_text("ALTER TABLE db.t2 RENAME TO db.t8;\n")
    assert slicer.blank_files(path, path.read_text(), load_config(root), {}) == []


def test_the_typo_falls_back_to_the_whole_folder(tmp_path: Path, monkeypatch) -> None:
    root = project(tmp_path, folder())
    monkeypatch.chdir(root)
    path = root / "migrations" / "V11__step_11.sql"
    got = check_document(path, EDITS["a typo in the table"], {}, Slicer())
    assert not got.sliced and any("not known here" in f.message for f in got.report.findings)


def test_file_tables() -> None:
    assert file_tables("a.sql", "ALTER TABLE cat.DB.Events ADD COLUMN x int;\nINSERT INTO db.o VALUES (1);\n").tables == {"db.events", "db.o"}
    assert file_tables("a.sql", "USE db;\n").has_other
    assert file_tables("a.sql", "ALTER TABLE db.t.branch_x ADD COLUMN x int;\n").forbids
    reads = "INSERT INTO db.a SELECT * FROM db.b JOIN `db`.`c` ON 1 = 1;\nMERGE INTO db.a USING (SELECT * FROM cat.db.d) s ON 1 = 1 WHEN MATCHED THEN DELETE;\n"
    assert file_tables("a.sql", reads).tables == {"db.a", "db.b", "db.c", "db.d"}


FOLDER_CASES = [c for c in CASES if c.path.is_dir()]


def test_the_rule_corpus_folders(tmp_path: Path, monkeypatch) -> None:
    """Every file of every folder case of the rule corpus, as a migrations folder with files on other
    tables between its own: the same findings, cut or not."""
    cut = 0
    others = {f"migrations/V{i}_5__other_{i}.sql": f"CREATE TABLE IF NOT EXISTS db.other{i % 2} (id bigint) USING iceberg;\n"
              f"ALTER TABLE db.other{i % 2} ADD COLUMN c{i} int;\n" for i in range(6)}
    for n, case in enumerate(FOLDER_CASES):
        root = project(tmp_path / f"p{n}", {**others, **{f"migrations/{f.name}": f.read_text(encoding="utf-8") for f in case.files}})
        monkeypatch.chdir(root)
        slicer = Slicer()
        for f in sorted((root / "migrations").iterdir()):
            cut += both(f, f.read_text(encoding="utf-8"), slicer)
    assert len(FOLDER_CASES) >= 10 and cut > 0


def test_a_query_reads_the_schemas_of_other_tables(tmp_path: Path, monkeypatch) -> None:
    """`INSERT INTO db.b SELECT ... FROM db.a` is typed from `db.a`'s schema: db.a's files stay in the cut."""
    root = project(tmp_path, {
        "migrations/V1__a.sql": "CREATE TABLE db.a (id bigint, name string) USING iceberg;\n",
        "migrations/V2__b.sql": "CREATE TABLE db.b (id bigint, n int, s struct<x: int>) USING iceberg;\n",
        "migrations/V3__c.sql": "CREATE TABLE db.c (id bigint) USING iceberg;\n",
    })
    monkeypatch.chdir(root)
    path = root / "migrations" / "V4__insert.sql"
    for text in ("INSERT INTO db.b SELECT id, name, name FROM db.a;\n",
                 "INSERT INTO db.b SELECT id, name, name FROM (SELECT * FROM db.a);\n",
                 "MERGE INTO db.b t USING db.a s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *;\n"):
        slicer = Slicer()
        assert both(path, text, slicer)
        assert [p.name for p in slicer.blank_files(path, text, load_config(root), {})] == ["V3__c.sql"]  # db.a stays
    assert any("CANNOT_SAFELY_CAST" in f.message for f in check_document(path, "INSERT INTO db.b SELECT id, name, name FROM db.a;\n", {}, Slicer()).report.findings)
