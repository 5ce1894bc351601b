"""Does icelint stay linear? Time and memory of `icelint check` on inputs built to be hard.

    python bench/scale.py [--runs 3] [--scale 1.0] [--only NAME ...] [--no-big] [--big-runs 1] [--against REV]

Each input is generated into bench/out/scale/ and checked as a whole process (start-up included),
against `sqlglot.parse(text, read="spark")` of the same text (errors ignored: sqlglot does not know
Iceberg's `ADD PARTITION FIELD` and friends) in a process of its own: the ratio is
icelint's CPU time over sqlglot's (target: 3 or less). Medians of interleaved runs, as
`bench_cli.py` measures. Memory is the maximum resident set of the process (`ru_maxrss` of that
child alone, from `os.wait4` in a small wrapper process).

- `drop-add`: N alternating `DROP COLUMN c` / `ADD COLUMN c` on one table (each add is an ICE001).
- `drop-add-junit`: the same file with `--format junit` (not compared with sqlglot: the report's own
  cost; each finding was placed in its statement's test case by a scan of the file's statements: 13.8 s).
- `schema-json`: `icelint schema --format json` of 4,000 `ADD COLUMN`s: 4,001 schema versions, written
  as metadata.json keeps them (~470 MB of text: its time grows with the text, N² columns; its memory
  stays that of the replay: it was 2.5 GB when the whole object was built first). Not compared.
- `suppressions`: 50,000 `-- icelint: ignore` lines before one statement (each an unused suppression).
- `nested-comments`: one block comment nested 50,000 deep before one statement (sqlglot's Spark
  dialect does not nest comments: it parses one flat comment of the same length).
- `replace-columns`: a `CREATE TABLE` of N = 5,000 and 10,000 columns, one row, and `REPLACE COLUMNS`
  of the same columns (one ICE001 for the statement: its help, the net change, is computed once; it
  was computed per column, 40 s at 5,000).
- `add-columns`: N `ADD COLUMN` on one table (one schema version per statement, each one column longer).
- `migration-x20`: `bench/make_inputs.py`'s 2,000-statement migration scaled ×20 (40,000
  statements over the same four tables); timed again with `--ignore ICE017` (its findings list the
  whole column order: output cost apart from the replay's). Memory target: at most 2 KB per statement beyond the final
  schemas' own size (the baseline: the max RSS of one statement checked against the final state of
  each table, loaded from a metadata file holding only its current schema), measured in one process
  (`ICELINT_JOBS=1`, as every case here: the whole replay's memory in one place). `migration-x20-as-run`
  runs it as a user does: tables replayed in parallel processes (two on a 2-CPU machine; its max RSS
  is the largest process's, each holding the parsed file and its own tables' replay) and the run
  cache written (emptied before each run).
- `unknown-table`: N `SET` statements, then N statements on a table no statement creates (each
  skipped; the first one an ICE005).
- `case-sensitive`: N times `SET spark.sql.caseSensitive = true` and a column comment (each SET an
  ICE029 whose fix removes it: the fixes' rows and columns, and whether a later statement relies
  on the setting).
- `emptied-structs`: N times `ADD COLUMN sK struct<a:int>` and `DROP COLUMN sK.a` (each drop an
  ICE007 whose help looks for a later statement refilling the struct). The table ends with N/2
  struct columns: each statement copies the table's list of nested columns (C speed, ~1 us per
  thousand), the one cost here that grows with the table.
- `unknown-tables`: N `CREATE TABLE`, then N statements each on a misspelled table name (each an
  ICE005 whose help looks for the table meant among the N known ones).
- `unknown-columns`: N `ADD COLUMN`, then N statements each on a misspelled column (each an ICE005
  quoting the table's schema, its help looking for the column meant among the N).
- `placeholders`: N statements each with a placeholder that has no value (each an ICE060; the
  parse errors of statements holding one are dropped).
- `rename-back`: N `ADD COLUMN`, then N renames of one column away and back (each rename gives
  the table an older schema id again, as Iceberg reuses an identical schema).
- `rename-cycles`: N `ADD COLUMN`, then N renames of 150 columns in turn, away and back (each
  reuses a schema last current 300 statements before: one the replay keeps as a difference).
- `rename-back-state`: N renames of one column back and forth against a metadata.json of N
  columns (1.3 MB at N = 12,500) whose two schema versions hold the two names (each rename gives
  the table one of the file's schema ids again).
- `identifier-adds`: a table with an identifier field, then N `ADD COLUMN`.
- `nested-identifier-adds`: the same with the identifier field inside a required struct.
- `move-back`: N `ADD COLUMN`, then N moves of one column first and back (each an ICE017).
- `partition-evolution`: N partition changes on one table (a bucket field added, then dropped, on
  another column each time: thousands of specs).
- `sort-orders`: N `WRITE ORDERED BY` on one table, each a pair of columns not used before.
- `nested-twins`: one `ADD COLUMN` of a struct of N = 32,000 fields, in pairs differing only in
  case (16,000 ICE029 findings at one place).
- `readds-with-history`: 149 re-added columns against a metadata.json of 200 schema versions and
  N = 20,000 snapshots (each an ICE001 naming the newest snapshot that still has the column). Not
  compared with sqlglot (the SQL is 149 statements; the metadata is the input that grows).
- `big-50mb`: a 50 MB file of ~1.3 million statements over 500 columns (comments, renames, adds,
  drops): under 3 minutes within 4 GB. Not compared with sqlglot (`--no-big` leaves it out).

`--scale 0.1` divides every N by ten: run two scales to see the slope while iterating.

`--against REV` also times the icelint of git revision REV (its `icelint/` exported into
bench/out/scale/against-REV/), each of its runs next to the checkout's own on the same input (which
of the two goes first alternates from run to run), and adds its CPU time and max RSS and the
checkout's change: a figure of the shared machine moves by 10-30 % between hours, a change measured
this way does not. The 50 MB file runs once unless `--big-runs N` asks for more (a run takes
minutes; on 2026-11-23 the same code measured 168 s and 196 s CPU an hour apart).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE / "out" / "scale"
ICELINT = [sys.executable, "-m", "icelint"]
SQLGLOT = [sys.executable, "-c", "import sys, sqlglot; sqlglot.parse(open(sys.argv[1], encoding='utf-8').read(), read='spark', "
           "error_level=sqlglot.ErrorLevel.IGNORE)"]  # fmt: skip  # it does not know Iceberg's partition DDL


# ---------------------------------------------------------------------------- inputs


def drop_add(n: int) -> str:
    out = ["CREATE TABLE db.t (id bigint, c string) USING iceberg;", "INSERT INTO db.t VALUES (1, 'a');"]
    for i in range(n):
        out.append("ALTER TABLE db.t DROP COLUMN c;" if i % 2 == 0 else "ALTER TABLE db.t ADD COLUMN c string;")
    return "\n".join(out) + "\n"


def replace_columns(n: int) -> str:
    cols = ", ".join(f"c{i} bigint" for i in range(n))
    values = ", ".join(str(i) for i in range(n))
    return (
        f"CREATE TABLE db.t ({cols}) USING iceberg;\nINSERT INTO db.t VALUES ({values});\n"
        f"ALTER TABLE db.t REPLACE COLUMNS ({cols});\n"
    )


def unknown_table(n: int) -> str:
    out = [f"SET spark.sql.shuffle.partitions = {i};" for i in range(n)]
    out += [f"ALTER TABLE db.x ALTER COLUMN id COMMENT 'c{i}';" for i in range(n)]
    return "\n".join(out) + "\n"


def unknown_tables(n: int) -> str:
    out = [f"CREATE TABLE db.orders_{i} (id bigint) USING iceberg;" for i in range(n)]
    out += [f"ALTER TABLE db.order_{i} ADD COLUMN c int;" for i in range(n)]
    return "\n".join(out) + "\n"


def unknown_columns(n: int) -> str:
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"] + [f"ALTER TABLE db.t ADD COLUMN col_{i} int;" for i in range(n)]
    out += [f"ALTER TABLE db.t ALTER COLUMN kol_{i} COMMENT 'x';" for i in range(n)]
    return "\n".join(out) + "\n"


def placeholders(n: int) -> str:
    out = ["CREATE TABLE db.events (id bigint) USING iceberg;"]
    out += [f"ALTER TABLE ${{schema}}.events ADD COLUMN c{i} int;" for i in range(n)]
    return "\n".join(out) + "\n"


def case_sensitive(n: int) -> str:
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"]
    for i in range(n):
        out += ["SET spark.sql.caseSensitive = true;", f"ALTER TABLE db.t ALTER COLUMN id COMMENT 'c{i}';"]
    return "\n".join(out) + "\n"


def emptied_structs(n: int) -> str:
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"]
    for i in range(n):
        out += [f"ALTER TABLE db.t ADD COLUMN s{i} struct<a:int>;", f"ALTER TABLE db.t DROP COLUMN s{i}.a;"]
    return "\n".join(out) + "\n"


def rename_back(n: int) -> str:
    """N `ADD COLUMN`, then N renames of one column and back: every rename gives the table an older
    schema id again (Iceberg reuses an identical schema), on a table of N columns."""
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"] + [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(n)]
    out += ["ALTER TABLE db.t RENAME COLUMN c0 TO x;" if i % 2 == 0 else "ALTER TABLE db.t RENAME COLUMN x TO c0;" for i in range(n)]
    return "\n".join(out) + "\n"


def rename_cycles(n: int) -> str:
    """N `ADD COLUMN`, then N renames of 150 columns in turn, away and back: each rename reuses a
    schema last current 300 statements before (older than the versions the replay keeps whole)."""
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"] + [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(n)]
    for i in range(n):
        c = i % 150
        out.append(f"ALTER TABLE db.t RENAME COLUMN c{c} TO d{c};" if (i // 150) % 2 == 0 else f"ALTER TABLE db.t RENAME COLUMN d{c} TO c{c};")
    return "\n".join(out) + "\n"


def rename_back_state(n: int) -> tuple[str, str]:
    """N renames of one column back and forth against a metadata.json of N columns whose two schema
    versions are the two names: every rename gives the table one of the file's schema ids again
    (the older one read lazily, from the text when the file has 4 MB or more). (SQL, metadata JSON.)"""
    import json

    fields = [{"id": 1, "name": "id", "required": False, "type": "long"}]
    fields += [{"id": i + 2, "name": f"c{i}", "required": False, "type": "int"} for i in range(n)]
    renamed = [dict(f) for f in fields]
    renamed[1]["name"] = "x"
    meta = {
        "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "s3://b/db/t",
        "last-sequence-number": 0, "last-updated-ms": 1700000000000, "last-column-id": n + 1,
        "schemas": [{"type": "struct", "schema-id": 0, "fields": fields}, {"type": "struct", "schema-id": 1, "fields": renamed}],
        "current-schema-id": 1, "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}],
        "last-partition-id": 999, "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}],
        "properties": {}, "current-snapshot-id": -1, "refs": {}, "snapshots": [], "snapshot-log": [], "metadata-log": [],
    }  # fmt: skip
    sql = ["ALTER TABLE db.t RENAME COLUMN x TO c0;" if i % 2 == 0 else "ALTER TABLE db.t RENAME COLUMN c0 TO x;" for i in range(n)]
    return "\n".join(sql) + "\n", json.dumps(meta)


def identifier_adds(n: int) -> str:
    """A table with an identifier field, then N `ADD COLUMN` (each update finds and validates the
    identifier field in the schema it makes)."""
    out = ["CREATE TABLE db.t (id bigint NOT NULL) USING iceberg;", "ALTER TABLE db.t SET IDENTIFIER FIELDS id;"]
    out += [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(n)]
    return "\n".join(out) + "\n"


def nested_identifier_adds(n: int) -> str:
    """`identifier_adds` with the identifier field inside a required struct (`s.a`)."""
    out = ["CREATE TABLE db.t (id bigint NOT NULL, s struct<a: int NOT NULL> NOT NULL) USING iceberg;",
           "ALTER TABLE db.t SET IDENTIFIER FIELDS s.a;"]  # fmt: skip
    out += [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(n)]
    return "\n".join(out) + "\n"


def move_back(n: int) -> str:
    """N `ADD COLUMN`, then N moves of one column first and back (each an ICE017 comparing the two orders)."""
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"] + [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(n)]
    out += ["ALTER TABLE db.t ALTER COLUMN c5 FIRST;" if i % 2 == 0 else "ALTER TABLE db.t ALTER COLUMN c5 AFTER c4;" for i in range(n)]
    return "\n".join(out) + "\n"


def partition_evolution(n: int) -> str:
    """A table of 200 columns, then N partition changes: a bucket field added, then dropped, each on
    another column and bucket count (a new spec almost every statement: thousands of specs)."""
    out = [f"CREATE TABLE db.t (id bigint, {', '.join(f'c{i} int' for i in range(200))}) USING iceberg;"]
    for i in range(n):
        k = i - i % 2
        verb = "ADD" if i % 2 == 0 else "DROP"
        out.append(f"ALTER TABLE db.t {verb} PARTITION FIELD bucket({k % 97 + 2}, c{k % 200});")
    return "\n".join(out) + "\n"


def sort_orders(n: int) -> str:
    """A table of 200 columns, then N `WRITE ORDERED BY` two columns, a pair not used before each
    time (a new sort order per statement)."""
    out = [f"CREATE TABLE db.t (id bigint, {', '.join(f'c{i} int' for i in range(200))}) USING iceberg;"]
    for i in range(n):
        a, b = i % 200, (i // 200) % 200
        out.append(f"ALTER TABLE db.t WRITE ORDERED BY c{a}, c{b + 1 if b == a else b};")
    return "\n".join(out) + "\n"


def nested_twins(n: int) -> str:
    """One `ADD COLUMN` of a struct of N fields in N/2 pairs differing only in case (`f7`, `F7`):
    N/2 ICE029 findings at one place, each naming its field."""
    fields = ", ".join(f"f{i}: int, F{i}: int" for i in range(n // 2))
    return f"CREATE TABLE db.t (id bigint) USING iceberg;\nALTER TABLE db.t ADD COLUMN s struct<{fields}>;\n"


def readds_with_history(n: int) -> tuple[str, str]:
    """A metadata.json of 200 schema versions (one column added each) and N snapshots written with
    them, whose current schema has 149 of those columns dropped; the SQL re-adds the 149 (each an
    ICE001 whose help names the newest snapshot still holding the column). (SQL, metadata JSON.)"""
    import json
    import random

    rng = random.Random(1)
    fields = [{"id": 1, "name": "id", "required": False, "type": "long"}]
    schemas = []
    for v in range(200):
        fields = [*fields, {"id": len(fields) + 1, "name": f"c{len(fields)}", "required": False, "type": "int"}]
        schemas.append({"type": "struct", "schema-id": v, "fields": fields})
    kept = [f for f in fields if not (f["name"].startswith("c") and 1 <= int(f["name"][1:]) < 150)]
    schemas.append({"type": "struct", "schema-id": 200, "fields": kept})
    snaps = [{"snapshot-id": i + 1, "timestamp-ms": 1700000000000 + i, "schema-id": rng.randrange(200),
              "manifest-list": f"/nonexistent/snap-{i}.avro", "summary": {"operation": "append"}} for i in range(n)]  # fmt: skip
    meta = {
        "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "/nonexistent/db/t",
        "last-sequence-number": n, "last-updated-ms": 1700000000000, "last-column-id": len(fields),
        "current-schema-id": 200, "schemas": schemas, "default-spec-id": 0, "partition-specs": [{"spec-id": 0, "fields": []}],
        "last-partition-id": 999, "default-sort-order-id": 0, "sort-orders": [{"order-id": 0, "fields": []}],
        "properties": {}, "current-snapshot-id": n, "refs": {"main": {"snapshot-id": n, "type": "branch"}},
        "snapshots": snaps, "snapshot-log": [], "metadata-log": [],
    }  # fmt: skip
    sql = [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(1, 150)]
    return "\n".join(sql) + "\n", json.dumps(meta)


def suppressions(n: int) -> str:
    return "-- icelint: ignore ICE001 -- not this one\n" * n + "CREATE TABLE db.t (id bigint) USING iceberg;\n"


def nested_comments(n: int) -> str:
    return "/* " * n + "deep" + " */" * n + "\nCREATE TABLE db.t (id bigint) USING iceberg;\n"


def add_columns(n: int) -> str:
    out = ["CREATE TABLE db.t (id bigint) USING iceberg;"]
    out += [f"ALTER TABLE db.t ADD COLUMN c{i} int;" for i in range(n)]
    return "\n".join(out) + "\n"


def big(size: int, columns: int = 500) -> str:
    """`size` bytes of statements over one table of `columns` columns; the column count stays put."""
    cols = ", ".join(f"c{i} int" for i in range(columns))
    out = [f"CREATE TABLE db.t (id bigint, {cols}) USING iceberg;"]
    total = len(out[0]) + 1
    i = 0
    while total < size:
        c = i % columns
        k = (i // columns) % 6
        if k == 0:
            s = f"ALTER TABLE db.t ALTER COLUMN c{c} COMMENT 'v{i}';"
        elif k == 1:
            s = f"ALTER TABLE db.t RENAME COLUMN c{c} TO d{c};"
        elif k == 2:
            s = f"ALTER TABLE db.t RENAME COLUMN d{c} TO c{c};"
        elif k == 3:
            s = f"ALTER TABLE db.t ADD COLUMN e{c} int;"
        elif k == 4:
            s = f"ALTER TABLE db.t DROP COLUMN e{c};"
        else:
            s = f"ALTER TABLE db.t ALTER COLUMN c{c} TYPE bigint;" if i // (6 * columns) == 0 else f"ALTER TABLE db.t ALTER COLUMN c{c} COMMENT '';"
        out.append(s)
        total += len(s) + 1
        i += 1
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------- measuring


@dataclass
class Case:
    name: str
    path: Path
    statements: int
    compare: bool = True  # time sqlglot on the same text
    samples: list[tuple[float, float, int]] = field(default_factory=list)  # icelint: wall, cpu, maxrss KB
    against: list[tuple[float, float, int]] = field(default_factory=list)  # the icelint of --against REV
    ref: list[tuple[float, float, int]] = field(default_factory=list)  # sqlglot
    extra: list[str] = field(default_factory=list)  # more arguments
    ref_path: Path | None = None  # what sqlglot parses, when not `path`
    as_run: bool = False  # as a user runs it: tables in parallel processes, the run cache written (emptied first)
    command: str = "check"  # the icelint command run (`schema` for schema-json)


# Runs the command and prints its CPU time and max RSS. A small process of its own: a child's max RSS
# starts from its parent's (Linux counts the pages of a forked parent until exec), so the bench
# process itself, holding the generated texts, must not be that parent.
_WRAPPER = """import os, sys
pid = os.fork()
if pid == 0:
    fd = os.open(os.devnull, os.O_WRONLY)
    os.dup2(fd, 1)
    os.execvp(sys.argv[1], sys.argv[1:])
_, status, ru = os.wait4(pid, 0)
print(os.waitstatus_to_exitcode(status), ru.ru_utime + ru.ru_stime, ru.ru_maxrss)
"""


def run(cmd: list[str], cwd: Path, env: dict[str, str] | None = None, ok=(0, 1), fresh: bool = False) -> tuple[float, float, int]:
    """Wall time, CPU time (user+sys, workers included) and max RSS (KB; of the largest process) of one
    child process; `fresh` empties the run cache of `cwd` first (the run then writes its entry)."""
    if fresh:
        import shutil

        shutil.rmtree(cwd / ".icelint_cache", ignore_errors=True)
    t0 = time.perf_counter()
    r = subprocess.run([sys.executable, "-S", "-c", _WRAPPER, *cmd], cwd=cwd, capture_output=True, text=True,
                       env={**os.environ, **env} if env else None)  # fmt: skip
    wall = time.perf_counter() - t0
    code, cpu, rss = r.stdout.split()
    if int(code) not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {code}: {r.stderr[-500:]}")
    return wall, float(cpu), int(rss)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every N by this (0.1 while iterating)")
    ap.add_argument("--only", nargs="*", help="case names to run")
    ap.add_argument("--no-big", action="store_true", help="leave out the 50 MB file")
    ap.add_argument("--big-runs", type=int, default=1, help="runs of the 50 MB file (minutes each; this machine's CPU time moves by 10 %% between runs)")
    ap.add_argument("--against", metavar="REV", help="also time the icelint of this git revision, interleaved")
    args = ap.parse_args(argv)
    OUT.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(HERE))
    from bench_cli import require_this_tree

    require_this_tree(OUT)

    import icelint

    subprocess.run([sys.executable, "-m", "compileall", "-q", str(Path(icelint.__file__).parent)], check=True)
    other = _export(args.against) if args.against else None  # PYTHONPATH of the other revision

    def n(x: int) -> int:
        return max(2, int(x * args.scale))

    cases: list[Case] = []

    def add(name: str, text: str, statements: int, compare: bool = True, ref_text: str | None = None) -> None:
        path = OUT / f"{name}.sql"
        path.write_text(text, encoding="utf-8")
        cases.append(Case(name, path, statements, compare))
        if ref_text is not None:
            cases[-1].ref_path = OUT / f"{name}.ref.sql"
            cases[-1].ref_path.write_text(ref_text, encoding="utf-8")

    want = lambda name: not args.only or name in args.only  # noqa: E731
    if want("drop-add"):
        add("drop-add", drop_add(n(12_500)), n(12_500) + 2)
    if want("unknown-table"):
        add("unknown-table", unknown_table(n(12_500)), 2 * n(12_500))
    if want("unknown-tables"):
        add("unknown-tables", unknown_tables(n(6_250)), 2 * n(6_250))
    if want("unknown-columns"):
        add("unknown-columns", unknown_columns(n(6_250)), 2 * n(6_250) + 1)
    if want("placeholders"):
        add("placeholders", placeholders(n(12_500)), n(12_500) + 1)
    if want("case-sensitive"):
        add("case-sensitive", case_sensitive(n(6_250)), 2 * n(6_250) + 1)
    if want("emptied-structs"):
        add("emptied-structs", emptied_structs(n(6_250)), 2 * n(6_250) + 1)
    if want("rename-back"):
        add("rename-back", rename_back(n(6_250)), 2 * n(6_250) + 1)
    if want("rename-cycles"):
        add("rename-cycles", rename_cycles(n(6_250)), 2 * n(6_250) + 1)
    if want("rename-back-state"):
        sql, meta = rename_back_state(n(12_500))
        add("rename-back-state", sql, n(12_500))
        (OUT / "rename-back-state.metadata.json").write_text(meta, encoding="utf-8")
        cases[-1].extra = ["--metadata", "db.t=rename-back-state.metadata.json"]
    if want("identifier-adds"):
        add("identifier-adds", identifier_adds(n(12_500)), n(12_500) + 2)
    if want("nested-identifier-adds"):
        add("nested-identifier-adds", nested_identifier_adds(n(12_500)), n(12_500) + 2)
    if want("move-back"):
        add("move-back", move_back(n(6_250)), 2 * n(6_250) + 1)
    if want("partition-evolution"):
        add("partition-evolution", partition_evolution(n(12_500)), n(12_500) + 1)
    if want("sort-orders"):
        add("sort-orders", sort_orders(n(12_500)), n(12_500) + 1)
    if want("nested-twins"):
        add("nested-twins", nested_twins(n(32_000)), 2)
    if want("readds-with-history"):
        sql, meta = readds_with_history(n(20_000))
        add("readds-with-history", sql, 149, compare=False)
        (OUT / "readds-with-history.metadata.json").write_text(meta, encoding="utf-8")
        cases[-1].extra = ["--metadata", "db.t=readds-with-history.metadata.json"]
    if want("drop-add-junit"):
        # drop-add's file as a JUnit report (each finding placed in its statement's test case)
        if not any(c.name == "drop-add" for c in cases):
            (OUT / "drop-add.sql").write_text(drop_add(n(12_500)), encoding="utf-8")
        cases.append(Case("drop-add-junit", OUT / "drop-add.sql", n(12_500) + 2, compare=False, extra=["--format", "junit"]))
    if want("schema-json"):
        # `icelint schema --format json` of N ADD COLUMNs: N + 1 schema versions, as metadata.json keeps
        # them (text of N²/2 columns: its time grows with it; its memory must not)
        add("schema-json", add_columns(n(4_000)), n(4_000) + 1, compare=False)
        cases[-1].command, cases[-1].extra = "schema", ["--format", "json"]
    if want("suppressions"):
        add("suppressions", suppressions(n(50_000)), 1)
    if want("nested-comments"):
        # sqlglot's Spark dialect does not nest block comments (Spark does): it parses one flat
        # comment of the same length instead
        text = nested_comments(n(50_000))
        add("nested-comments", text, 1, ref_text="/*" + " " * (6 * n(50_000)) + text[6 * n(50_000) + 2 :])
    if want("replace-columns"):
        for k in (5_000, 10_000):
            add(f"replace-columns-{n(k)}", replace_columns(n(k)), 3)
    if want("add-columns"):
        for k in (12_500, 25_000, 50_000):
            add(f"add-columns-{n(k)}", add_columns(n(k)), n(k) + 1)
    if want("migration-x20"):
        sys.path.insert(0, str(HERE))
        from make_inputs import make_migration

        statements = n(40_000)
        add("migration-x20", make_migration(statements), statements)
        # the same file without ICE017, whose findings list the whole column order (output cost apart)
        cases.append(Case("migration-x20-no-ICE017", OUT / "migration-x20.sql", statements, compare=False,
                          extra=["--ignore", "ICE017"]))  # fmt: skip
        # as a user runs it: its tables replayed in two processes on this machine, the report cached
        cases.append(Case("migration-x20-as-run", OUT / "migration-x20.sql", statements, compare=False, as_run=True))
        base = _final_schemas(OUT / "migration-x20.sql")
        if base is not None:
            cases.append(Case("migration-x20-final-schemas", base[0], 1, compare=False, extra=base[1]))
    if want("big-50mb") and not args.no_big:
        text = big(n(50_000_000))
        add("big-50mb", text, text.count("\n"), compare=False)
    add("start-up", "CREATE TABLE db.t (id bigint) USING iceberg;\n", 1, compare=False)

    for i in range(max(args.runs, args.big_runs)):
        for c in cases:
            if i >= (args.big_runs if c.name == "big-50mb" else args.runs):
                continue  # the 50 MB file takes minutes a run: `--big-runs` says how many
            env = {"ICELINT_JOBS": "", "ICELINT_NO_CACHE": ""} if c.as_run else {"ICELINT_JOBS": "1", "ICELINT_NO_CACHE": "1"}
            mine = lambda: c.samples.append(run([*ICELINT, c.command, c.path.name, *c.extra], OUT, env, fresh=c.as_run))  # noqa: E731
            theirs = lambda: c.against.append(run([*ICELINT, c.command, c.path.name, *c.extra], OUT,  # noqa: E731
                                                  {**env, "PYTHONPATH": str(other)}, fresh=c.as_run))  # fmt: skip
            # with --against, the two alternate which runs first (a slow minute then hits both alike)
            for go in ((mine,) if other is None else (mine, theirs) if i % 2 == 0 else (theirs, mine)):
                go()
            if c.compare:
                c.ref.append(run([*SQLGLOT, (c.ref_path or c.path).name], OUT, ok=(0,)))

    start = next((c for c in cases if c.name == "start-up"), None)
    base_rss = statistics.median(s[2] for s in start.samples) if start else 0
    print(f"`icelint check` as whole processes, median of {args.runs} interleaved runs "
          f"({os.cpu_count()} CPUs, Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}); "
          f"sqlglot = `sqlglot.parse(text, read=\"spark\")` in its own process.\n")  # fmt: skip
    print("| Input | Statements | Size | icelint CPU | sqlglot CPU | Ratio (target ≤ 3) | Max RSS | Per statement |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    by_name = {c.name: c for c in cases}
    for c in cases:
        cpu = statistics.median(s[1] for s in c.samples)
        rss = statistics.median(s[2] for s in c.samples)
        ref = statistics.median(s[1] for s in c.ref) if c.ref else None
        ratio = f"{cpu / ref:.1f}×" if ref else ""
        per = f"{(rss - base_rss) * 1024 / c.statements / 1024:.2f} KB" if c.statements > 1 and c.name != "start-up" else ""
        size = c.path.stat().st_size
        print(f"| {c.name} | {c.statements:,} | {size / 1e6:.1f} MB | {cpu:.2f} s | {f'{ref:.2f} s' if ref else ''} "
              f"| {ratio} | {rss / 1024:.0f} MB | {per} |")  # fmt: skip
    mig, fin = by_name.get("migration-x20"), by_name.get("migration-x20-final-schemas")
    if mig and fin:
        extra = statistics.median(s[2] for s in mig.samples) - statistics.median(s[2] for s in fin.samples)
        print(f"\nmigration-x20: {extra * 1024 / mig.statements:,.0f} bytes per statement beyond its final schemas "
              "(target ≤ 2,048)")  # fmt: skip
        as_run = by_name.get("migration-x20-as-run")
        if as_run:
            extra = statistics.median(s[2] for s in as_run.samples) - statistics.median(s[2] for s in fin.samples)
            print(f"migration-x20 as run (two processes, cache written): {extra * 1024 / mig.statements:,.0f} bytes per "
                  "statement beyond its final schemas in its largest process")  # fmt: skip
    quiet = by_name.get("migration-x20-no-ICE017")
    if mig and quiet and mig.ref:
        cpu = statistics.median(s[1] for s in quiet.samples)
        print(f"migration-x20 with --ignore ICE017: {cpu:.2f} s CPU, "
              f"{cpu / statistics.median(s[1] for s in mig.ref):.1f}× sqlglot's parse")  # fmt: skip
    if other is not None:
        print(f"\nAgainst {args.against} (its runs interleaved with the checkout's; CPU and max RSS, medians):\n")
        print(f"| Input | {args.against} CPU | checkout CPU | CPU change | {args.against} max RSS | checkout max RSS | RSS change |")
        print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
        for c in cases:
            old_cpu, new_cpu = (statistics.median(s[1] for s in x) for x in (c.against, c.samples))
            old_rss, new_rss = (statistics.median(s[2] for s in x) for x in (c.against, c.samples))
            print(f"| {c.name} | {old_cpu:.2f} s | {new_cpu:.2f} s | {100 * (new_cpu / old_cpu - 1):+.0f} % "
                  f"| {old_rss / 1024:.0f} MB | {new_rss / 1024:.0f} MB | {100 * (new_rss / old_rss - 1):+.0f} % |")  # fmt: skip
    b = by_name.get("big-50mb")
    if b:
        wall, cpu, rss = (statistics.median(s[k] for s in b.samples) for k in range(3))
        each = f" (runs: {', '.join(f'{s[1]:.0f} s' for s in b.samples)})" if len(b.samples) > 1 else ""
        print(f"big-50mb: {wall:.0f} s wall, {cpu:.0f} s CPU{each}, {rss / 1024 / 1024:.2f} GB (targets: < 180 s, < 4 GB; medians)")
    return 0


def _export(rev: str) -> Path:
    """`icelint/` of git revision `rev`, exported (once) into bench/out/scale/against-REV/ and
    byte-compiled; stops when git cannot give it or Python would import another icelint from there."""
    repo = HERE.parent
    r = subprocess.run(["git", "-C", str(repo), "rev-parse", "--verify", f"{rev}^{{commit}}"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"bench: --against {rev}: not a revision of {repo}: {r.stderr.strip()}")
    dest = OUT / f"against-{r.stdout.strip()[:12]}"
    if not (dest / "icelint" / "__init__.py").exists():
        dest.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(repo), "archive", rev, "icelint"], capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(dest)], input=archive, check=True)
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(dest / "icelint")], check=True)
    got = subprocess.run([sys.executable, "-c", "import icelint; print(icelint.__file__)"], cwd=OUT, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(dest)}).stdout.strip()  # fmt: skip
    if Path(got).resolve().parent != (dest / "icelint").resolve():
        raise SystemExit(f"bench: --against {rev}: Python imports {got or 'nothing'}, not {dest / 'icelint'}")
    return dest


def _final_schemas(path: Path) -> tuple[Path, list[str]] | None:
    """The baseline of `migration-x20`: one statement checked against the final state of each of its
    tables, loaded from metadata files holding only the current schema."""
    import json

    # not `icelint schema --format json`: it writes every schema version in full, as Iceberg does
    final = ("import json, sys; from icelint.engine.pipeline import replay_paths; run = replay_paths([sys.argv[1]]); "
             "print(json.dumps({k: v.evolve(schemas=(v.schema,)).to_json() for k, v in run.result.tables.items() if v}))")
    r = subprocess.run([sys.executable, "-c", final, path.name], cwd=OUT, capture_output=True, text=True)
    if r.returncode != 0:
        print(f"(no baseline for {path.name}: {r.stderr[-300:]})", file=sys.stderr)
        return None
    extra: list[str] = []
    for name, meta in json.loads(r.stdout).items():
        meta["schemas"] = [s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"]]
        meta.setdefault("table-uuid", "00000000-0000-0000-0000-000000000000")
        meta.setdefault("location", f"/tmp/{name}")
        meta.setdefault("last-sequence-number", 0)
        meta.setdefault("last-updated-ms", 0)
        f = OUT / f"final.{name}.metadata.json"
        f.write_text(json.dumps(meta), encoding="utf-8")
        extra += ["--metadata", f"{name}={f.name}"]
    sql = OUT / "final-schemas.sql"
    first = extra[1].split("=")[0] if extra else "db.t"
    sql.write_text(f"ALTER TABLE {first} SET TBLPROPERTIES ('k' = 'v');\n", encoding="utf-8")
    return sql, extra


if __name__ == "__main__":
    sys.exit(main())
