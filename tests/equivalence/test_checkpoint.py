"""A check that goes on from a checkpoint (`icelint.run.checkpoint`, the language server's speed)
reports exactly what a check from nothing reports: the same findings (rule, message, help, positions,
fixes, severity), the same suppressed findings and statement positions.

Each sequence keeps one `Checkpoints` across its edits, as the server does, and after every edit
checks one file (the edited one, or a later one whose history changed) both ways, as an editor's
buffer with the folder's other files as history. The inputs: generated folders (many tables, one
table, `USE`, `SET`, drops, re-adds, renames, type changes, rows written, suppressions) edited in
their first, middle and last files; the rule corpus (`fixtures/rules`) and the differential cases'
migrations (`tests/differential/cases`) as migrations folders; configuration changes (rules
selected, values, catalog kind) and table states given and taken away between checks; files
saved to disk in a git repository (applied and new files deploy differently).
"""

from __future__ import annotations

import random
import re
import subprocess
from pathlib import Path

import pytest

from icelint.config import load_config
from icelint.engine import CheckRequest, run
from icelint.plan.discovery import order_folder
from icelint.run.checkpoint import Checkpoints

ROOT = Path(__file__).resolve().parents[2]
RULE_FILES = sorted(p for p in (ROOT / "fixtures" / "rules").rglob("*.sql"))
CASES = sorted(p for p in (ROOT / "tests" / "differential" / "cases").iterdir() if (p / "migrations").is_dir())


def view(report) -> tuple:
    """Everything a report says about its inputs."""
    return (report.findings, report.suppressed, report.statements, report.statements_by_file,
            report.inferred, [(s.path, s.text) for s in report.sources], report.context_files)


class Project:
    """A migrations folder with `[tool.icelint]`, its files' editor buffers, and one `Checkpoints`."""

    def __init__(self, root: Path, files: dict[str, str], config: str = "") -> None:
        self.root = root
        self.folder = root / "migrations"
        self.folder.mkdir(parents=True)
        self.write_config(config)
        for name, text in files.items():
            (self.folder / name).write_text(text, encoding="utf-8")
        self.buffers: dict[str, str] = {}
        self.cp = Checkpoints()
        self.checks = 0

    def write_config(self, extra: str = "") -> None:
        (self.root / "pyproject.toml").write_text(f'[tool.icelint]\nmigrations = "migrations"\n{extra}', encoding="utf-8")

    def names(self) -> list[str]:
        return [p.name for p in order_folder(self.folder, "flyway")]

    def text(self, name: str) -> str:
        return self.buffers.get(name, (self.folder / name).read_text(encoding="utf-8"))

    def edit(self, name: str, text: str, save: bool = False) -> None:
        if save:
            (self.folder / name).write_text(text, encoding="utf-8")
            self.buffers.pop(name, None)
        else:
            self.buffers[name] = text

    def check(self, name: str, **request) -> None:
        """Check `name` as the server does, with the checkpoints and from nothing: the same report."""
        target = f"migrations/{name}"
        context = {f"migrations/{n}": t for n, t in self.buffers.items() if n != name}
        cfg = load_config(self.root)

        def report(cp):
            return run(CheckRequest(texts={target: self.text(name)}, context_texts=context, config=cfg, positions=True,
                                    checkpoints=cp, cwd=self.root, **request))

        cold = view(report(None))
        warm = view(report(self.cp))
        self.checks += 1
        assert warm == cold, f"check {self.checks} of {name}: the report with checkpoints differs"


@pytest.fixture
def project(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)

    def make(files: dict[str, str], config: str = "") -> Project:
        return Project(tmp_path, files, config)

    return make


# ---------------------------------------------------------------------------- generated folders

def statement(rng: random.Random, tables: list[str], columns: dict[str, list[str]]) -> str:
    """One statement of a random migration over `tables` (their columns so far in `columns`)."""
    t = rng.choice(tables)
    cols = columns.setdefault(t, ["id", "payload"])
    c = rng.choice(cols)
    n = rng.randrange(1000)
    kind = rng.randrange(30)
    if kind >= 16:
        return rng.choice([
            f"ALTER TABLE {t} RENAME TO {t}_old;",
            f"CREATE TABLE {t}_copy AS SELECT * FROM {t};",
            f"CREATE OR REPLACE TABLE {t} (id bigint, payload string) USING iceberg;",
            f"DROP TABLE IF EXISTS {t}_old;",
            f"ALTER TABLE {t} WRITE ORDERED BY {c};",
            f"ALTER TABLE {t} SET IDENTIFIER FIELDS id;",
            f"ALTER TABLE {t} ADD COLUMN s{n} struct<a: int, b: string>;",
            f"ALTER TABLE {t} DROP COLUMN s{n}.a;",
            f"MERGE INTO {t} USING {t} AS src ON {t}.id = src.id WHEN MATCHED THEN UPDATE SET *;",
            f"TRUNCATE TABLE {t};",
            f"DELETE FROM {t} WHERE id = {n};",
            f"ALTER TABLE ${{db}}.t0 ADD COLUMN v{n} int;",
            "-- icelint: ignore-file ICE005 -- made elsewhere",
            "THIS IS NOT SQL;",
            f"UPDATE {t} SET {c} = NULL;",
            f"ALTER TABLE {t} REPLACE COLUMNS (id bigint, payload string);",
            f"ALTER TABLE {t} CHANGE COLUMN {c} {c} bigint;",
            f"CALL system.rewrite_data_files('{t}');",
        ])
    if kind == 0:
        cols.remove(c) if len(cols) > 1 else None
        return f"ALTER TABLE {t} DROP COLUMN {c};"
    if kind == 1:
        return f"ALTER TABLE {t} ADD COLUMN payload string;"  # a re-add after a drop (ICE001), or a duplicate
    if kind == 2:
        new = f"r{n}"
        cols.append(new)
        return f"ALTER TABLE {t} RENAME COLUMN {c} TO {new};"
    if kind == 3:
        return f"ALTER TABLE {t} ALTER COLUMN {c} TYPE bigint;"
    if kind == 4:
        return f"ALTER TABLE {t} ALTER COLUMN {c} COMMENT 'note {n}';"
    if kind == 5:
        return f"INSERT INTO {t} SELECT * FROM {t};"
    if kind == 6:
        return f"ALTER TABLE {t} SET TBLPROPERTIES ('format-version' = '{rng.choice([1, 2, 3])}');"
    if kind == 7:
        return f"ALTER TABLE {t} ADD PARTITION FIELD bucket(4, {c});"
    if kind == 8:
        return rng.choice(["SET spark.sql.caseSensitive = true;", "RESET;", "USE db;"])
    if kind == 9:
        return f"ALTER TABLE {t.split('.')[-1]} ADD COLUMN u{n} int;"  # an unqualified name
    if kind == 10:
        return f"ALTER TABLE db.missing{n % 3} ADD COLUMN x int;"  # a table nothing creates (ICE005)
    if kind == 11:
        return f"-- icelint: ignore ICE001 -- refilled\nALTER TABLE {t} ADD COLUMN {c} string;"
    if kind == 12:
        return f"ALTER TABLE {t} ALTER COLUMN {c} DROP NOT NULL;"
    if kind == 13:
        return f"DROP TABLE {t};\nCREATE TABLE {t} (id bigint, payload string) USING iceberg;"
    if kind == 14:
        return f"ALTER TABLE {t} ADD COLUMN {c.upper()} string;"
    cols.append(f"c{n}")
    return f"ALTER TABLE {t} ADD COLUMN c{n} {rng.choice(['int', 'string', 'struct<a: int>', 'decimal(10,2)'])};"


def generated(seed: int, files: int, tables: int) -> dict[str, str]:
    rng = random.Random(seed)
    names = [f"db.t{k}" for k in range(tables)]
    columns: dict[str, list[str]] = {}
    out = {}
    for i in range(files):
        lines = [f"CREATE TABLE {t} (id bigint NOT NULL, payload string) USING iceberg;" for t in names] if i == 0 else []
        lines += [statement(rng, names, columns) for _ in range(rng.randrange(3, 12))]
        out[f"V{i + 1}__step.sql"] = "\n".join(lines) + "\n"
    return out


@pytest.mark.parametrize("seed", range(12))
def test_generated_edit_sequences(project, seed: int) -> None:
    rng = random.Random(1000 + seed)
    p = project(generated(seed, files=rng.randrange(3, 9), tables=1 + seed % 3))
    names = p.names()
    columns: dict[str, list[str]] = {}
    tables = [f"db.t{k}" for k in range(1 + seed % 3)]
    p.check(names[-1])  # a cold start: the checkpoint before the last file is taken
    for _ in range(10):
        where = rng.choice([0, len(names) // 2, len(names) - 1, len(names) - 1])
        name = names[where]
        text = p.text(name)
        how = rng.randrange(4)
        if how == 0:  # a statement typed at the end
            text += statement(rng, tables, columns) + "\n"
        elif how == 1 and text.count(";") > 1:  # the last statement deleted
            text = text.rstrip().rsplit(";", 2)[0] + ";\n"
        elif how == 2:  # a statement half typed
            text += "ALTER TABLE db.t0 ADD COL"
        else:
            text = text.replace("string", "int", 1)
        p.edit(name, text, save=rng.random() < 0.2)
        p.check(name)
        if where < len(names) - 1:  # the later files' history changed: the server checks them again
            p.check(names[-1])
    assert p.cp.resumed > 0, "no check went on from a checkpoint: the test compared nothing"


def test_one_long_table_edited_at_the_end(project) -> None:
    """The language server's worst case (`bench/lsp.py`): many statements on one table, the last file edited."""
    files = {}
    for k in range(8):
        lines = ["CREATE TABLE db.t (id bigint, kind string, payload string) USING iceberg PARTITIONED BY (kind);"] if k == 0 else []
        lines += [f"ALTER TABLE db.t ADD COLUMN c{k}_{i} {'string' if i % 2 else 'int'};" for i in range(40)]
        files[f"V{k + 1}__step.sql"] = "\n".join(lines) + "\n"
    p = project(files)
    last = p.names()[-1]
    base = p.text(last)
    for i in range(8):
        extra = ("ALTER TABLE db.t DROP COLUMN payload;\nALTER TABLE db.t ADD COLUMN payload string;\n" if i % 2
                 else f"ALTER TABLE db.t ADD COLUMN e{i} int;\n")
        p.edit(last, base + extra)
        p.check(last)
    assert p.cp.resumed >= 7


def test_what_the_checked_file_did_is_forgotten(project) -> None:
    """A drop, a rename, a `SET` and a table created in one version of the checked file are not
    in the state the next check goes on from (the checkpoint is taken before the file)."""
    p = project({"V1__create.sql": "CREATE TABLE db.t (id bigint NOT NULL, c string, d int) USING iceberg;\n",
                 "V2__more.sql": "ALTER TABLE db.t ADD COLUMN e int;\nINSERT INTO db.t SELECT * FROM db.t;\n",
                 "V3__edited.sql": "ALTER TABLE db.t DROP COLUMN c;\n"})
    versions = [
        "ALTER TABLE db.t ADD COLUMN z int;\nALTER TABLE db.t DROP COLUMN c;\nALTER TABLE db.t ADD COLUMN c int;\n",
        "ALTER TABLE db.t RENAME COLUMN d TO c2;\nSET spark.sql.caseSensitive = true;\nCREATE TABLE db.u (id int) USING iceberg;\n",
        "ALTER TABLE db.t ADD COLUMN C string;\nALTER TABLE db.t DROP COLUMN d;\nALTER TABLE u ADD COLUMN x int;\n",
        "ALTER TABLE db.t ADD COLUMN c2 int;\nALTER TABLE db.t DROP COLUMN c;\nALTER TABLE db.t ADD COLUMN c string;\n",
        "ALTER TABLE db.t DROP COLUMN c;\n",
    ]
    p.check("V3__edited.sql")
    for text in versions:
        p.edit("V3__edited.sql", text)
        p.check("V3__edited.sql")
    assert p.cp.resumed == len(versions)


def test_a_name_a_later_file_makes_a_table_or_a_ref(project) -> None:
    """`db.t.branch_b1` is a branch of `db.t` unless the run names a table `db.t.branch_b1`: the last
    file decides for an earlier one, which the checkpoint before it must not have decided already."""
    p = project({"V1__create.sql": "CREATE TABLE db.t (id bigint, payload string) USING iceberg;\n",
                 "V2__branch.sql": "ALTER TABLE db.t CREATE BRANCH b1;\nINSERT INTO db.t.branch_b1 VALUES (1, 'x');\n"
                                   "ALTER TABLE db.t.branch_b1 ADD COLUMN z int;\n",
                 "V3__last.sql": "CREATE TABLE db.t.branch_b1 (id int) USING iceberg;\n"})
    _git(p.root, "init", "-q")  # every file new: one deployment, so only a write gives `db.t` rows
    p.check("V3__last.sql")
    readd = "ALTER TABLE db.t DROP COLUMN payload;\nALTER TABLE db.t ADD COLUMN payload string;\n"
    p.edit("V3__last.sql", readd)  # the branch's rows are `db.t`'s: the re-add is an error
    p.check("V3__last.sql")
    p.check("V2__branch.sql")
    p.edit("V3__last.sql", "CREATE TABLE db.t.branch_b1 (id int) USING iceberg;\n" + readd)
    p.check("V3__last.sql")


def _git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@t", "HOME": str(root), "PATH": "/usr/bin:/bin:/usr/local/bin"})


@pytest.mark.parametrize("in_git", [False, True])
def test_middle_file_then_later_files(project, in_git: bool) -> None:
    """A middle file edited, then each later file checked: each goes on from the longest unchanged
    run of files (in git, new files deploy together: the checkpoint before the last file, taken by
    the check of the middle one, serves the last one's)."""
    p = project(generated(7, files=7, tables=2))
    names = p.names()
    if in_git:
        _git(p.root, "init", "-q")
        _git(p.root, "add", "pyproject.toml", *[f"migrations/{n}" for n in names[:2]])
        _git(p.root, "commit", "-qm", "applied")
    for name in names[2:]:
        p.check(name)
    p.edit(names[3], p.text(names[3]) + "ALTER TABLE db.t0 DROP COLUMN id;\nALTER TABLE db.t1 ADD COLUMN id bigint;\n")
    for name in names[3:]:
        p.check(name)
    p.edit(names[0], p.text(names[0]).replace("payload string", "payload int", 1))
    for name in reversed(names):
        p.check(name)
    before = p.cp.resumed
    p.edit(names[4], p.text(names[4]) + "ALTER TABLE db.t0 ADD COLUMN w int;\n")
    p.check(names[4])
    p.check(names[-1])
    assert p.cp.resumed == before + 2
    assert p.cp.skipped == (len(names) - 1 if in_git else 4)


# ---------------------------------------------------------------------------- configuration and state changes

def test_configuration_changes(project) -> None:
    p = project(generated(3, files=5, tables=2))
    names = p.names()
    last = names[-1]
    p.check(last)
    for extra in ['ignore = ["ICE001"]\n', "", 'catalog-kind = "session"\n', 'iceberg-version = "1.9"\n',
                  'readers = ["spark"]\n', '[tool.icelint.severity]\nICE001 = "info"\n', '[tool.icelint.vars]\nx = "1"\n', ""]:
        p.write_config(extra)
        p.edit(last, p.text(last) + "ALTER TABLE db.t0 DROP COLUMN payload;\nALTER TABLE db.t0 ADD COLUMN payload string;\n")
        p.check(last)
    p.check(last, select=("ICE001",))
    p.check(last, ignore=("ICE001",))
    p.check(last, vars={"x": "2"})
    p.check(last)


def test_states_given_and_taken_away(project) -> None:
    from icelint.engine.pipeline import replay_text

    p = project(generated(5, files=5, tables=2))
    last = p.names()[-1]
    p.check(last)
    state = replay_text("CREATE TABLE db.t0 (id bigint NOT NULL, payload string, extra int) USING iceberg;").result.tables["db.t0"]
    p.check(last, states={"db.t0": state})  # a state: from nothing, whatever the checkpoints hold
    p.edit(last, p.text(last) + "ALTER TABLE db.t0 DROP COLUMN extra;\n")
    p.check(last)
    p.check(last, states={"db.t0": state})
    p.check(last)
    assert p.cp.resumed >= 2


def test_files_saved_in_a_git_repository(project) -> None:
    """Applied files (committed) and new ones deploy differently: a commit changes what a checkpoint is worth."""
    p = project(generated(11, files=5, tables=2))
    names = p.names()

    def git(*args: str) -> None:
        _git(p.root, *args)

    git("init", "-q")
    git("add", *[f"migrations/{n}" for n in names[:3]], "pyproject.toml")
    git("commit", "-qm", "first")
    last = names[-1]
    p.check(last)
    p.edit(last, p.text(last) + "ALTER TABLE db.t1 DROP COLUMN payload;\n")
    p.check(last)
    p.edit(names[2], p.text(names[2]) + "ALTER TABLE db.t0 ADD COLUMN z int;\n")  # a committed file changed in the editor
    p.check(last)
    p.check(names[2])
    p.edit(names[2], p.text(names[2]), save=True)
    p.check(last)
    git("add", "-A")
    git("commit", "-qm", "second")
    p.check(last)
    p.edit(last, p.text(last) + "ALTER TABLE db.t1 ADD COLUMN payload string;\n")
    p.check(last)


# ---------------------------------------------------------------------------- the corpora


def _statements(text: str) -> list[str]:
    """A file's statements with their comments, split after lines ending a statement."""
    out, cur = [], []
    for line in text.splitlines(keepends=True):
        cur.append(line)
        if re.sub(r"--.*$", "", line).rstrip().endswith(";"):
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def _corpus_folders(paths: list[Path], per_folder: int, rename) -> list[dict[str, str]]:
    folders = []
    for start in range(0, len(paths), per_folder):
        files = {}
        for k, path in enumerate(paths[start:start + per_folder]):
            files.update(rename(k, path))
        folders.append(files)
    return folders


def _rule_file(k: int, path: Path) -> dict[str, str]:
    text = re.sub(r"\bdb\.", f"db{k % 3}.", path.read_text(encoding="utf-8"))  # some tables shared, most apart
    return {f"V{k + 1}__{path.stem[:20]}.sql": text}


def _case_files(k: int, case: Path) -> dict[str, str]:
    out = {}
    for j, f in enumerate(order_folder(case / "migrations", "flyway")):
        text = re.sub(r"\bdb\.", f"db{k % 3}.", f.read_text(encoding="utf-8"))
        out[f"V{k * 20 + j + 1}__c{k}.sql"] = text
    return out


RULE_FOLDERS = _corpus_folders(RULE_FILES, 12, _rule_file)
CASE_FOLDERS = _corpus_folders(CASES, 8, _case_files)


def _edit_corpus_folder(p: Project) -> None:
    names = p.names()
    last, middle = names[-1], names[len(names) // 2]
    p.check(last)
    statements = [s for n in names for s in _statements(p.text(n))]
    rng = random.Random(len(statements))
    for i in range(3):  # the last file: a statement of the corpus typed at its end, then deleted again
        extra = rng.choice(statements)
        p.edit(last, p.text(last) + "\n" + extra)
        p.check(last)
    p.edit(middle, p.text(middle) + "\n" + rng.choice(statements))
    p.check(middle)
    p.check(last)


def _names_refs(p: Project) -> bool:
    """Whether a statement of the folder names a table by a name that may be a branch's or a tag's
    (no checkpoint then: the whole run's names decide)."""
    from icelint.engine.pipeline import parse_sources
    from icelint.run.checkpoint import _ref_like
    from icelint.values.source import SourceFile

    steps = parse_sources([SourceFile(f"migrations/{n}", p.text(n)) for n in p.names()]).steps
    return any(map(_ref_like, steps))


@pytest.mark.parametrize("k", range(len(RULE_FOLDERS)))
def test_rule_corpus(project, k: int) -> None:
    p = project(RULE_FOLDERS[k])
    _edit_corpus_folder(p)
    assert p.cp.resumed > 0 or _names_refs(p)


@pytest.mark.parametrize("k", range(len(CASE_FOLDERS)))
def test_differential_cases(project, k: int) -> None:
    p = project(CASE_FOLDERS[k])
    _edit_corpus_folder(p)
    assert p.cp.resumed > 0 or _names_refs(p)


def test_checkpoints_cost_nothing_unused(tmp_path, monkeypatch) -> None:
    """Without checkpoints (the command line), no checkpoint module is imported by a check."""
    import subprocess as sp
    import sys

    (tmp_path / "V1__a.sql").write_text("CREATE TABLE db.t (id bigint) USING iceberg;\n", encoding="utf-8")
    code = ("import sys; from icelint.engine import CheckRequest, run; run(CheckRequest(paths=(sys.argv[1],))); "
            "print('icelint.run.checkpoint' in sys.modules)")
    out = sp.run([sys.executable, "-c", code, str(tmp_path / "V1__a.sql")], capture_output=True, text=True, cwd=tmp_path, check=False,
                 env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
