"""The differential harness: run a case in real Spark + Iceberg, then in icelint, and compare.

A case is a folder ``cases/<NNN_name>/`` holding

* ``setup.sql``: CREATE TABLE ``db.<t>`` ..., INSERTs with a non-null value in every column
  (nested ones included) and ALTERs that build history (older specs, dropped columns, ...).
  Every setup statement must be accepted, and the tables must be healthy afterwards;
* the migration: ``migration.sql``, or a ``migrations/`` folder of ordered ``*.sql`` files
  (``V1__a.sql``, ``V2__b.sql``, ... in natural order).

What Spark does (:meth:`SparkOracle.run`): namespace ``db`` is emptied; ``setup.sql`` runs; each
table's current ``metadata.json`` is copied aside (it is what icelint gets, like ``--metadata``);
the non-null values of every field id are counted. Then every migration statement runs on its
own. After each accepted statement, for every table whose metadata changed:

* **data**: the non-null values of every field id are counted again (one projection query:
  ``SELECT <one IS NOT NULL predicate per field id>, * FROM t``; nested fields inside lists and
  maps are counted per row with ``exists``). For a schema statement (not DML), a field id that is
  still there must keep its count; a field that is *new*, or renamed by the statement, and now
  carries a name (path, compared case-insensitively) that an original field now gone had at any
  time (in the setup's schemas or during the migration) must read as many values as that field
  last had, else the statement lost data (the drop-then-add, REPLACE
  COLUMNS and rename-into-a-dropped-name traps); an *original* top-level column renamed into such
  a name must also still hold every value (as text, a multiset) that field last held, else every
  row reads another column's values under the name (unless an UPDATE copied them in first). "Original" fields are those of the setup,
  including fields the setup dropped (counted by time travel to the newest snapshot that had
  them), so a re-add across the snapshot boundary counts too. An original
  field that held values and is gone is a *drop with data*; rows that vanish in a schema statement
  (CREATE OR REPLACE TABLE) are *rows removed*.
* **health**: (1) *read*: the projection above, with Spark's default ``caseSensitive=false``,
  references every column by name and returns ``*``; (2) *write*: ``INSERT INTO t VALUES (...)``
  one row with a non-null literal for every field of the current schema; (3) *time travel*:
  ``SELECT * FROM t VERSION AS OF <s>`` for every snapshot ``s`` of the setup, oldest first (an
  older partition source can break the reads of some snapshots and not of others). A check that passed before
  and fails now is charged to the statement. After DML (INSERT/UPDATE/DELETE/MERGE/TRUNCATE)
  the schema, specs and properties are unchanged, so only the read runs (it re-bases the counts).
  Counts are tracked across the health-check INSERTs (each adds one non-null value to every field).

What icelint does (:func:`run_in_icelint`): the same migration files (same paths, so lines match)
are linted in-process against the copied setup metadata. That is the ``state`` workflow mode; the
suite also runs icelint as pre-commit does (the setup's DDL as an applied migration, no state) and
on the whole folder (no state), and judges each mode against the same Spark run: see
``tests/differential/modes.py`` for the modes and what each cannot know.

:func:`judge` then asserts, per statement (a finding belongs to a statement when it is in the
statement's file and line range):

1. a statement Spark rejects has an error finding (``rejected-no-error``), unless Spark's error is
   one of the tiny, documented :data:`CATALOG_SPECIFIC` rejections;
2. an accepted statement that lost data (``data-loss-no-error``) or broke a health check
   (``health-failure-no-error``) has an error finding; one that dropped a column holding data
   (``drop-with-data-no-warning``) or removed rows (``rows-removed-no-warning``) has at least a
   warning;
3. an accepted statement that did none of that has no error finding (``error-on-harmless``), and
   no error finding lies outside every statement (``error-outside-statements``); an accepted
   statement on a table whose health check was already failing cannot be judged harmless;
4. per table, icelint's replayed final state equals Spark's final metadata.json on the keys
   ``tests/replay/test_replay_fixtures.py`` compares (``final-state-mismatch``); a column type icelint
   cannot know (``{"type": "icelint-unknown", ...}``, a CTAS column) matches any type of Spark's.

Run one or a few cases by hand (prints every statement's outcome)::

    python -m tests.differential.harness 001_drop_then_add_same_file [...]
    python -m tests.differential.harness --runtime 1.9 001_drop_then_add_same_file [...]  # on Iceberg 1.9.2
"""

from __future__ import annotations

import json
import re
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # `python -m tests.differential.harness` and plain pytest alike
    sys.path.insert(0, str(ROOT))

from tests.oracle.spark import error_line, split_statements

_TASK_FAILURE = re.compile(r"most recent failure: Lost task .*? \(TID \d+\) \([^)]*\): (.*)")


def spark_error(exc: BaseException) -> str:
    """Spark's first error line; for a failed job, the task's exception (without stage/TID numbers)."""
    line = error_line(exc)
    m = _TASK_FAILURE.search(line)
    return f"Job aborted due to stage failure: {m[1]}" if m else line


CASES_DIR = Path(__file__).parent / "cases"
NAMESPACE = "db"

# Keys of metadata.json that the replay must reproduce (as tests/replay/test_replay_fixtures.py):
# volatile keys (uuid, location, timestamps, snapshots) and the `owner` property are not compared.
COMPARED = (
    "format-version", "schemas", "current-schema-id", "last-column-id", "partition-specs", "default-spec-id",
    "last-partition-id", "sort-orders", "default-sort-order-id", "properties",
)  # fmt: skip

# Rejections that depend on the catalog, not on the table, so a linter that reads metadata.json
# cannot predict them (docs/iceberg-behaviour.md, "Catalog-specific rejections"). Keep this tiny.
CATALOG_SPECIFIC: dict[str, str] = {
    "Cannot rename Hadoop tables": "the Hadoop catalog cannot rename tables; Hive/REST/Glue catalogs can",
    "Creating a view is not supported by catalog": "the Hadoop catalog has no views; other catalogs do",
}

# Disagreement categories, in the order the summary prints them.
CATEGORIES = (
    "rejected-no-error",
    "data-loss-no-error",
    "health-failure-no-error",
    "drop-with-data-no-warning",
    "rows-removed-no-warning",
    "error-on-harmless",
    "error-outside-statements",
    "final-state-mismatch",
)

DML = {"INSERT", "UPDATE", "DELETE", "MERGE", "TRUNCATE"}
SESSION = {"SET", "RESET", "USE"}
QUERY = {"SELECT", "WITH", "SHOW", "DESCRIBE", "DESC", "EXPLAIN", "VALUES", "TABLE", "FROM"}


# ---------------------------------------------------------------------------------------- cases
def natural_key(path: Path) -> list[Any]:
    return [int(p) if p.isdigit() else p.lower() for p in re.split(r"(\d+)", path.name)]


@dataclass(frozen=True)
class Case:
    name: str
    dir: Path

    @property
    def setup(self) -> Path:
        return self.dir / "setup.sql"

    @property
    def migration_files(self) -> list[Path]:
        single = self.dir / "migration.sql"
        folder = self.dir / "migrations"
        files = ([single] if single.is_file() else []) + (
            sorted(folder.glob("*.sql"), key=natural_key) if folder.is_dir() else []
        )
        if not files:
            raise FileNotFoundError(f"{self.dir}: no migration.sql and no migrations/*.sql")
        return files


def load_cases(names: Iterable[str] = ()) -> list[Case]:
    names = list(names)
    dirs = sorted((p for p in CASES_DIR.iterdir() if p.is_dir() and (p / "setup.sql").is_file()), key=natural_key)
    if names:
        dirs = [d for d in dirs if d.name in names or any(d.name.startswith(n) for n in names)]
    return [Case(d.name, d) for d in dirs]


# ----------------------------------------------------------------------------------- statements
@dataclass
class Statement:
    path: Path
    line: int
    end_line: int
    text: str
    kind: str  # ddl | dml | call | session | query
    accepted: bool | None = None
    error: str | None = None
    seconds: float = 0.0
    # what the statement did to the tables, observed in Spark (human-readable lines)
    data_loss: list[str] = field(default_factory=list)
    dropped_with_data: list[str] = field(default_factory=list)
    rows_removed: list[str] = field(default_factory=list)
    health_failures: list[str] = field(default_factory=list)
    masked: list[str] = field(default_factory=list)  # checks that already failed before the statement

    @property
    def where(self) -> str:
        return f"{self.path.parent.name + '/' if self.path.parent.name == 'migrations' else ''}{self.path.name}:{self.line}"

    @property
    def first_line(self) -> str:
        text = " ".join(self.text.split())
        return text if len(text) <= 110 else text[:107] + "..."

    @property
    def spark_outcome(self) -> str:
        if not self.accepted:
            return f"rejected: {self.error}"
        harms = self.data_loss + self.health_failures + self.dropped_with_data + self.rows_removed + self.masked
        return "accepted" + (": " + "; ".join(harms) if harms else " (harmless)")


def statement_kind(text: str) -> str:
    words = re.findall(r"[A-Za-z_]+", text[:200])
    first = words[0].upper() if words else ""
    if first in DML:
        return "dml"
    if first == "CALL":
        return "call"
    if first in SESSION:
        return "session"
    if first in QUERY:
        return "query"
    return "ddl"


def read_statements(path: Path) -> list[Statement]:
    return [
        Statement(path, line, line + text.count("\n"), text, statement_kind(text))
        for line, text in split_statements(path.read_text())
    ]


# ------------------------------------------------------------------------------ schema helpers
def quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


@dataclass(frozen=True)
class FieldInfo:
    id: int
    path: tuple[str, ...]  # names; "element" / "key" / "value" inside lists and maps
    predicate: str  # row-level SQL: true when the row holds a non-null value for this field

    @property
    def key(self) -> tuple[str, ...]:
        return tuple(p.lower() for p in self.path)

    @property
    def dotted(self) -> str:
        return ".".join(self.path)


def current_schema(meta: dict) -> dict:
    return next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])


def schema_fields(schema: dict) -> list[FieldInfo]:
    """Every field id of ``schema`` (nested ones too) with a non-null predicate over a table row."""
    out: list[FieldInfo] = []
    depth = [0]

    def walk(ftype: Any, fid: int, path: tuple[str, ...], expr: str, wrap: Callable[[str], str]) -> None:
        out.append(FieldInfo(fid, path, wrap(f"{expr} IS NOT NULL")))
        if not isinstance(ftype, dict):
            return
        kind = ftype["type"]
        if kind == "struct":
            for f in ftype["fields"]:
                walk(f["type"], f["id"], path + (f["name"],), f"{expr}.{quote(f['name'])}", wrap)
        elif kind == "list":
            depth[0] += 1
            var = f"x{depth[0]}"
            walk(ftype["element"], ftype["element-id"], path + ("element",), var,
                 lambda inner, e=expr, v=var, w=wrap: w(f"exists({e}, {v} -> {inner})"))  # fmt: skip
        elif kind == "map":
            for part in ("key", "value"):
                depth[0] += 1
                var = f"{part[0]}{depth[0]}"
                walk(ftype[part], ftype[f"{part}-id"], path + (part,), var,
                     lambda inner, e=expr, v=var, w=wrap, p=part: w(f"exists(map_{p}s({e}), {v} -> {inner})"))  # fmt: skip

    for f in schema["fields"]:
        walk(f["type"], f["id"], (f["name"],), quote(f["name"]), lambda inner: inner)
    return out


_DECIMAL = re.compile(r"decimal\((\d+),\s*(\d+)\)")
_FIXED = re.compile(r"fixed\[(\d+)\]")


def literal(ftype: Any) -> str:
    """A non-null Spark SQL literal of Iceberg type ``ftype`` (nested values non-null too)."""
    if isinstance(ftype, dict):
        kind = ftype["type"]
        if kind == "struct":
            return "named_struct(" + ", ".join(f"'{f['name']}', {literal(f['type'])}" for f in ftype["fields"]) + ")"
        if kind == "list":
            return f"array({literal(ftype['element'])})"
        if kind == "map":
            return f"map({literal(ftype['key'])}, {literal(ftype['value'])})"
        raise ValueError(f"unknown nested type {kind!r}")
    simple = {
        "boolean": "true",
        "int": "7",
        "long": "CAST(7 AS BIGINT)",
        "float": "CAST(1.5 AS FLOAT)",
        "double": "CAST(1.5 AS DOUBLE)",
        "date": "DATE'2024-01-02'",
        "timestamp": "TIMESTAMP_NTZ'2024-01-02 03:04:05'",
        "timestamptz": "TIMESTAMP'2024-01-02 03:04:05'",
        "string": "'hc'",
        "uuid": "'00000000-0000-0000-0000-000000000007'",
        "binary": "X'0107'",
    }
    if ftype in simple:
        return simple[ftype]
    if m := _DECIMAL.fullmatch(ftype):
        return f"CAST(0 AS DECIMAL({m[1]},{m[2]}))"
    if m := _FIXED.fullmatch(ftype):
        return f"unhex(repeat('07', {m[1]}))"
    raise ValueError(f"no literal for Iceberg type {ftype!r}")


def _text(value: Any) -> str:
    """A value as text, the same for a string and its bytes (a CAST between them keeps it)."""
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "replace")
    return str(value)


def comparable(meta: dict) -> dict:
    out = {k: meta.get(k) for k in COMPARED}
    out["properties"] = {k: v for k, v in (meta.get("properties") or {}).items() if k != "owner"}
    return out


# ------------------------------------------------------------------------------------ Spark side
@dataclass
class TableTrack:
    """What the harness knows about one table while the migration runs."""

    name: str  # db.t
    version: int  # metadata version (version-hint) last looked at
    original: bool  # created by the setup (its field values are the data that must stay visible)
    counts: dict[int, int] = field(default_factory=dict)  # field id → non-null values, now
    rows: int = 0
    fields: dict[int, FieldInfo] = field(default_factory=dict)  # current schema
    first_snapshot: int | None = None
    snapshots: list[int] = field(default_factory=list)  # every snapshot of the setup, oldest first
    healthy: dict[str, bool] = field(default_factory=lambda: {"read": True, "write": True, "time travel": True})
    original_ids: set[int] = field(default_factory=set)  # field ids of the setup (current and dropped)
    # last observation of every original field id: id → (path key, dotted path, non-null values)
    last_seen: dict[int, tuple[tuple[str, ...], str, int]] = field(default_factory=dict)
    # every name (path key) an original field id has had: in any schema of the setup, or since
    names: dict[int, set[tuple[str, ...]]] = field(default_factory=dict)
    # the non-null values of every top-level field, as text (a multiset), now and at the last
    # observation of each original field id
    values: dict[int, Counter] = field(default_factory=dict)
    last_values: dict[int, Counter] = field(default_factory=dict)


class SetupError(Exception):
    """The setup of a case failed: a harness/case bug, never an icelint verdict."""


@dataclass
class SparkRun:
    setup_metadata: dict[str, Path]  # db.t → copy of the metadata.json after setup
    statements: list[Statement]
    final_metadata: dict[str, dict]  # db.t → metadata.json after the migration
    seconds: float = 0.0
    runtime: str = "1.10"  # the Iceberg runtime it ran on


class SparkOracle:
    """One Spark session (Hadoop catalog ``local`` in ``warehouse``) that runs cases one after another.

    The session starts on first use and can be stopped early (:meth:`stop`), so that other tests of
    the same pytest run can start their own (only one SparkContext can live in a process); a later
    case starts it again.
    """

    def __init__(self, warehouse: Path, runtime: str = "1.10", before_start: Callable[[str], None] | None = None) -> None:
        self.warehouse = Path(warehouse)
        self.runtime = runtime  # the Iceberg runtime ("1.10", "1.9": tests/oracle/runtimes.py)
        self.before_start = before_start  # called with the runtime before the session starts (stops other oracles)
        self._spark: Any = None

    @property
    def spark(self) -> Any:
        if self._spark is None:
            if self.before_start is not None:
                self.before_start(self.runtime)
            self._spark = start_differential_session(self.warehouse, self.runtime)
        return self._spark

    def stop(self) -> None:
        if self._spark is not None:
            self._spark.stop()
            self._spark = None

    # -- session helpers
    def sql(self, statement: str) -> list[Any]:
        return self.spark.sql(statement).collect()

    def _with_case_sensitive(self, value: bool, fn: Callable[[], Any]) -> Any:
        conf = self.spark.conf
        key = "spark.sql.caseSensitive"
        old = conf.get(key, None)
        conf.set(key, "true" if value else "false")
        try:
            return fn()
        finally:
            if old is None:
                conf.unset(key)
            else:
                conf.set(key, old)

    # -- catalog files
    def table_dirs(self) -> dict[str, Path]:
        ns = self.warehouse / NAMESPACE
        if not ns.is_dir():
            return {}
        return {
            f"{NAMESPACE}.{d.name}": d for d in sorted(ns.iterdir()) if (d / "metadata" / "version-hint.text").is_file()
        }

    def version(self, table: str) -> int:
        d = self.warehouse.joinpath(*table.split(".")) / "metadata"
        return int((d / "version-hint.text").read_text().strip())

    def metadata_file(self, table: str) -> Path:
        d = self.warehouse.joinpath(*table.split(".")) / "metadata"
        return d / f"v{self.version(table)}.metadata.json"

    def metadata(self, table: str) -> dict:
        return json.loads(self.metadata_file(table).read_text())

    def reset(self) -> None:
        """Empty namespace ``db`` (the catalog's table cache is disabled, so removing files is enough)."""
        shutil.rmtree(self.warehouse / NAMESPACE, ignore_errors=True)
        self.sql(f"CREATE NAMESPACE IF NOT EXISTS {NAMESPACE}")

    # -- observations
    def observe(self, track: TableTrack, meta: dict) -> str | None:
        """Count non-null values per field id (and rows) into ``track``; return the read failure, if any."""
        fields = schema_fields(current_schema(meta))
        preds = ", ".join(f"{f.predicate} AS `__p{i}`" for i, f in enumerate(fields))
        query = f"SELECT {preds + ', ' if preds else ''}* FROM {track.name}"
        failure = None
        try:
            rows = self._with_case_sensitive(False, lambda: self.sql(query))
        except Exception as exc:  # noqa: BLE001 - the read a default-configured reader does
            failure = spark_error(exc)
            try:  # exact names: still count what is there
                rows = self._with_case_sensitive(True, lambda: self.sql(query))
            except Exception:  # noqa: BLE001
                rows = None
        track.fields = {f.id: f for f in fields}
        if rows is None:
            track.counts = {}
            track.rows = -1
            track.values = {}
        else:
            track.counts = {f.id: sum(1 for r in rows if r[i]) for i, f in enumerate(fields)}
            track.rows = len(rows)
            top = current_schema(meta)["fields"]
            base = len(fields)  # `*` follows the predicates, one value per top-level column
            track.values = {
                f["id"]: Counter(_text(r[base + j]) for r in rows if r[base + j] is not None)
                for j, f in enumerate(top) if not isinstance(f["type"], dict)
            }  # fmt: skip
        return failure

    def write_check(self, track: TableTrack, meta: dict) -> str | None:
        schema = current_schema(meta)
        values = ", ".join(literal(f["type"]) for f in schema["fields"])
        try:
            self._with_case_sensitive(False, lambda: self.sql(f"INSERT INTO {track.name} VALUES ({values})"))
        except Exception as exc:  # noqa: BLE001 - Spark rejections arrive as many types
            return spark_error(exc)
        for fid in track.counts:
            track.counts[fid] += 1
        track.rows += 1
        return None

    def time_travel_check(self, track: TableTrack) -> str | None:
        for snapshot in track.snapshots or ([track.first_snapshot] if track.first_snapshot is not None else []):
            try:
                self._with_case_sensitive(False, lambda: self.sql(f"SELECT * FROM {track.name} VERSION AS OF {snapshot}"))
            except Exception as exc:  # noqa: BLE001 - Spark rejections arrive as many types
                return f"snapshot {snapshot}: {spark_error(exc)}" if snapshot != track.first_snapshot else spark_error(exc)
        return None

    def remember(self, track: TableTrack) -> None:
        """Update the last observation of the original field ids (those of the setup) still present."""
        if track.rows < 0:
            return
        for fid, info in track.fields.items():
            if fid in track.original_ids:
                track.last_seen[fid] = (info.key, info.dotted, track.counts.get(fid, 0))
                track.names.setdefault(fid, set()).add(info.key)
                if fid in track.values:
                    track.last_values[fid] = track.values[fid]

    def historic_fields(self, track: TableTrack, meta: dict) -> None:
        """Original field ids dropped during the setup: count them in the newest snapshot that had them."""
        current_ids = {f.id for f in schema_fields(current_schema(meta))}
        snapshots = sorted(
            meta.get("snapshots") or [], key=lambda s: (s.get("sequence-number", 0), s.get("timestamp-ms", 0))
        )
        schemas = {s["schema-id"]: s for s in meta["schemas"]}
        for schema in sorted(meta["schemas"], key=lambda s: s["schema-id"]):
            gone = [f for f in schema_fields(schema) if f.id not in current_ids and f.id not in track.last_seen]
            if not gone:
                continue
            for f in gone:
                holders = [
                    s
                    for s in snapshots
                    if s.get("schema-id") in schemas and f.id in {x.id for x in schema_fields(schemas[s["schema-id"]])}
                ]
                if not holders:
                    track.last_seen[f.id] = (f.key, f.dotted, 0)
                    continue
                snap = holders[-1]
                hschema = schemas[snap["schema-id"]]
                hfield = next(x for x in schema_fields(hschema) if x.id == f.id)
                rows = self.sql(f"SELECT {hfield.predicate} FROM {track.name} VERSION AS OF {snap['snapshot-id']}")
                track.last_seen[f.id] = (hfield.key, hfield.dotted, sum(1 for r in rows if r[0]))

    # -- a whole case
    def run(self, case: Case, workdir: Path) -> SparkRun:
        started = time.monotonic()
        self.reset()
        touched_conf: set[str] = set()
        used_namespace = False
        try:
            tracks = self._setup(case, workdir)
            setup_metadata = {t: workdir / "before" / f"{t}.metadata.json" for t in tracks}
            statements = [s for path in case.migration_files for s in read_statements(path)]
            for st in statements:
                if st.kind == "session":
                    m = re.match(r"\s*SET\s+`?([\w.:-]+)", st.text, re.IGNORECASE)
                    if m:
                        touched_conf.add(m[1])
                    used_namespace = used_namespace or bool(re.match(r"\s*USE\b", st.text, re.IGNORECASE))
                self._run_statement(st, tracks)
            final = {t: self.metadata(t) for t in self.table_dirs()}
        finally:
            for key in touched_conf:
                self.spark.conf.unset(key)
            if used_namespace:  # back to catalog `local` and its default namespace, as at session start
                self.sql("USE spark_catalog")
                self.sql("USE local")
        return SparkRun(setup_metadata, statements, final, time.monotonic() - started, self.runtime)

    def _setup(self, case: Case, workdir: Path) -> dict[str, TableTrack]:
        for line, text in split_statements(case.setup.read_text()):
            try:
                self.sql(text)
            except Exception as exc:  # noqa: BLE001 - Spark rejections arrive as many types
                raise SetupError(f"setup.sql:{line}: Spark rejected a setup statement: {spark_error(exc)}") from None
        before = workdir / "before"
        if before.exists():
            shutil.rmtree(before)
        before.mkdir(parents=True)
        tracks: dict[str, TableTrack] = {}
        for table in self.table_dirs():
            shutil.copyfile(self.metadata_file(table), before / f"{table}.metadata.json")
            meta = self.metadata(table)
            snaps = sorted(
                meta.get("snapshots") or [], key=lambda s: (s.get("sequence-number", 0), s.get("timestamp-ms", 0))
            )
            track = TableTrack(
                table, self.version(table), True, first_snapshot=snaps[0]["snapshot-id"] if snaps else None,
                snapshots=[s["snapshot-id"] for s in snaps],
            )
            read = self.observe(track, meta)
            empty = [track.fields[i].dotted for i, n in track.counts.items() if n == 0]
            if empty:
                raise SetupError(f"{table}: setup.sql leaves fields without a non-null value: {', '.join(empty)}")
            failures = [
                f"{name}: {msg}"
                for name, msg in (
                    ("read", read),
                    ("write", self.write_check(track, meta)),
                    ("time travel", self.time_travel_check(track)),
                )
                if msg
            ]
            if failures:
                raise SetupError(f"{table} is not healthy after setup.sql: " + "; ".join(failures))
            for schema in meta["schemas"]:
                for f in schema_fields(schema):
                    track.names.setdefault(f.id, set()).add(f.key)
            track.original_ids = set(track.names)
            self.remember(track)
            self.historic_fields(track, meta)
            track.version = self.version(table)
            tracks[table] = track
        return tracks

    def _run_statement(self, st: Statement, tracks: dict[str, TableTrack]) -> None:
        t0 = time.monotonic()
        try:
            self.sql(st.text)
            st.accepted = True
        except Exception as exc:  # noqa: BLE001 - Spark rejections arrive as many types
            st.accepted = False
            st.error = spark_error(exc)
        st.seconds = time.monotonic() - t0
        if not st.accepted:
            return
        present = self.table_dirs()
        for table in list(tracks):
            if table not in present:
                del tracks[table]  # dropped (or renamed away): nothing left to check
        for table in present:
            track = tracks.get(table)
            if track is None:  # created by the migration
                track = tracks[table] = TableTrack(table, 0, False)
            if self.version(table) == track.version:
                continue
            self._check_table(st, track)
            track.version = self.version(table)

    def _check_table(self, st: Statement, track: TableTrack) -> None:
        meta = self.metadata(track.name)
        before_counts, before_rows, before_fields = dict(track.counts), track.rows, dict(track.fields)
        results: dict[str, str | None] = {"read": self.observe(track, meta)}
        if st.kind == "ddl" and track.original and before_rows >= 0 and track.rows >= 0:
            self._judge_data(st, track, before_counts, before_rows, before_fields)
        self.remember(track)
        if st.kind != "dml":  # DML changes no schema, spec, sort order or property
            results["write"] = self.write_check(track, meta)
            results["time travel"] = self.time_travel_check(track)
            self.remember(track)  # with the INSERTed row
        for check, failure in results.items():
            if failure and track.healthy[check]:
                st.health_failures.append(f"{track.name}: {check} fails: {failure}")
            elif failure:  # already failing: whether this statement would break it too cannot be told
                st.masked.append(f"{track.name}: {check} already failing")
            track.healthy[check] = failure is None

    def _judge_data(self, st: Statement, track: TableTrack, before_counts: dict[int, int], before_rows: int,
                    before_fields: dict[int, FieldInfo]) -> None:  # fmt: skip
        after, after_rows = track.counts, track.rows
        if after_rows < before_rows:
            st.rows_removed.append(f"{track.name}: {before_rows - after_rows} of {before_rows} rows gone")
            return
        for fid, n in after.items():
            info = track.fields[fid]
            if fid in before_counts and n < before_counts[fid]:
                st.data_loss.append(f"{track.name}.{info.dotted} (id {fid}) reads {n} of {before_counts[fid]} values")
                continue
            if fid in before_fields and before_fields[fid].key == info.key:
                continue
            # a new field, or one renamed by this statement: does it now carry the name of an original
            # field that is gone, and read fewer values than that field held?
            for oid, (_, dotted, held) in track.last_seen.items():
                if oid not in after and info.key in track.names.get(oid, ()) and held > n:
                    how = "a new field" if fid not in before_fields else f"renamed from {before_fields[fid].dotted}"
                    st.data_loss.append(
                        f"{track.name}.{info.dotted} is {how} (id {fid}) reading {n} values; "
                        f"field id {oid} ({dotted}) held {held}"
                    )
                elif (oid not in after and info.key in track.names.get(oid, ()) and fid in before_fields
                      and fid in track.original_ids and oid in track.last_values and fid in track.values):  # fmt: skip
                    # an original column renamed into the name: its own values, not the gone field's
                    # (unless an UPDATE copied them into it): every value the name held must still be there
                    missing = track.last_values[oid] - track.values[fid]
                    if missing:
                        some = ", ".join(sorted(missing)[:3])
                        st.data_loss.append(
                            f"{track.name}.{info.dotted} is renamed from {before_fields[fid].dotted} (id {fid}): "
                            f"{sum(missing.values())} of the values field id {oid} ({dotted}) held are not there ({some})"
                        )
        for fid, n in before_counts.items():
            if fid not in after and n > 0 and fid in track.last_seen:
                st.dropped_with_data.append(f"{track.name}.{before_fields[fid].dotted} (id {fid}, {n} values) dropped")


# ---------------------------------------------------------------------------------- icelint side
@dataclass
class IcelintRun:
    findings: list[Any]
    tables: dict[str, dict | None]  # db.t → replayed metadata (to_json) or None (dropped)
    unknown: set[str]


def run_in_icelint(case: Case, setup_metadata: dict[str, Path], iceberg_version: str = "1.10") -> IcelintRun:
    from icelint.engine.checker import lint_run
    from icelint.model.metadata import parse_metadata_bytes
    from icelint.engine.pipeline import parse_sources, replay
    from icelint.rules import ALL_RULES
    from icelint.values.source import SourceFile

    sources = [SourceFile(str(p), p.read_text()) for p in case.migration_files]
    initial = {t: parse_metadata_bytes(p.read_bytes(), str(p)) for t, p in setup_metadata.items()}
    run = replay(parse_sources(sources), initial, iceberg_version=iceberg_version)
    findings = lint_run(run, ALL_RULES)
    tables = {k: (v.to_json() if v is not None else None) for k, v in run.result.tables.items()}
    return IcelintRun(findings, tables, set(run.result.unknown))


# -------------------------------------------------------------------------------------- judging
@dataclass
class Disagreement:
    category: str
    where: str
    statement: str
    spark: str
    icelint: str

    def __str__(self) -> str:
        return (
            f"[{self.category}] {self.where}: {self.statement}\n"
            f"      Spark:   {self.spark}\n"
            f"      icelint: {self.icelint}"
        )


@dataclass
class Verdict:
    case: str
    statements: int
    accepted: int
    agreements: int  # statements (and final tables) on which Spark and icelint agree
    disagreements: list[Disagreement]
    seconds: float
    runtime: str = "1.10"  # the Iceberg runtime Spark ran on (and icelint's `iceberg-version`)


def describe(findings: list[Any]) -> str:
    if not findings:
        return "no findings"
    return "; ".join(f"{f.rule} {f.severity.value} line {f.line}: {f.message}" for f in findings)


def _catalog_specific(error: str | None) -> str | None:
    for needle, reason in CATALOG_SPECIFIC.items():
        if error and needle in error:
            return reason
    return None


def _expected_history_loss(st: Any, mine: list[Any]) -> bool:
    """Policy, documented in docs/iceberg-behaviour.md: snapshot procedures are warnings (their
    severity is fixed), so when `expire_snapshots` and its kind make time travel to the expired snapshots
    fail, that is the procedure doing its job, and ICE010's warning is the expected verdict."""
    only_time_travel = all(": time travel fails:" in h for h in st.health_failures)
    return only_time_travel and any(f.rule == "ICE010" for f in mine)


def judge(case: Case, spark: SparkRun, lint: IcelintRun) -> Verdict:
    out: list[Disagreement] = []
    agreements = 0
    for st in spark.statements:
        mine = [f for f in lint.findings if f.path == str(st.path) and st.line <= f.line <= st.end_line]
        severities = {f.severity.value for f in mine}
        has_error = "error" in severities
        has_warning = has_error or "warning" in severities
        problems: list[str] = []
        if not st.accepted:
            if not has_error and not _catalog_specific(st.error):
                problems.append("rejected-no-error")
        else:
            if st.data_loss and not has_error:
                problems.append("data-loss-no-error")
            if st.health_failures and not has_error and not _expected_history_loss(st, mine):
                problems.append("health-failure-no-error")
            if st.dropped_with_data and not has_warning:
                problems.append("drop-with-data-no-warning")
            if st.rows_removed and not has_warning:
                problems.append("rows-removed-no-warning")
            harmful = st.data_loss or st.health_failures or st.dropped_with_data or st.rows_removed
            if has_error and not (harmful or st.masked):
                problems.append("error-on-harmless")
        for p in problems:
            shown = mine if p != "error-on-harmless" else [f for f in mine if f.severity.value == "error"]
            out.append(Disagreement(p, st.where, st.first_line, st.spark_outcome, describe(shown)))
        agreements += not problems
    # an error finding that belongs to no statement (icelint split or placed it differently)
    for f in lint.findings:
        if f.severity.value == "error" and not any(
            f.path == str(st.path) and st.line <= f.line <= st.end_line for st in spark.statements
        ):
            where = f"{Path(f.path).name}:{f.line}"
            out.append(
                Disagreement("error-outside-statements", where, "(no statement at this line)", "-", describe([f]))
            )
    tables = sorted(set(spark.final_metadata) | {t for t, v in lint.tables.items() if v is not None})
    for table in tables:
        if table in lint.unknown:
            continue
        want = spark.final_metadata.get(table)
        got = lint.tables.get(table)
        if want is None or got is None:
            out.append(Disagreement("final-state-mismatch", table, "(end of migration)",
                                    "table exists" if want else "no such table",
                                    "table exists" if got else "no such table"))  # fmt: skip
            continue
        diff = state_diff(comparable(want), comparable(got))
        if diff:
            out.append(Disagreement("final-state-mismatch", table, "(end of migration)", diff[0], diff[1]))
        else:
            agreements += 1
    return Verdict(case.name, len(spark.statements), sum(1 for s in spark.statements if s.accepted),
                   agreements, out, spark.seconds, spark.runtime)  # fmt: skip


def state_diff(want: dict, got: dict, limit: int = 6) -> tuple[str, str] | None:
    """Where two comparable states differ: the first ``limit`` differing paths, with both values."""
    diffs: list[tuple[str, Any, Any]] = []
    missing = object()

    def walk(path: str, a: Any, b: Any) -> None:
        if len(diffs) >= limit or a == b:
            return
        if isinstance(b, dict) and b.get("type") == "icelint-unknown" and a is not missing:
            return  # a CTAS column whose type icelint cannot know (UntypedType): any type of Spark's matches
        if isinstance(a, dict) and isinstance(b, dict):
            for k in list(a) + [k for k in b if k not in a]:
                walk(f"{path}.{k}" if path else str(k), a.get(k, missing), b.get(k, missing))
        elif isinstance(a, list) and isinstance(b, list):
            for i in range(max(len(a), len(b))):
                walk(f"{path}[{i}]", a[i] if i < len(a) else missing, b[i] if i < len(b) else missing)
        else:
            diffs.append((path, a, b))

    walk("", want, got)
    if not diffs:
        return None

    def show(v: Any) -> str:
        text = "(absent)" if v is missing else json.dumps(v, separators=(",", ":"))
        return text if len(text) <= 300 else text[:297] + "..."

    return (
        "; ".join(f"{p}={show(a)}" for p, a, _ in diffs),
        "; ".join(f"{p}={show(b)}" for p, _, b in diffs),
    )


VERDICTS: list[Verdict] = []  # every case judged in this process (the suite's summary line)


def run_case(oracle: SparkOracle, case: Case, workdir: Path) -> tuple[SparkRun, IcelintRun, Verdict]:
    spark = oracle.run(case, workdir)
    lint = run_in_icelint(case, spark.setup_metadata, oracle.runtime)
    return spark, lint, judge(case, spark, lint)


# --------------------------------------------------------------------------------------- manual
def main(argv: list[str]) -> int:
    import tempfile

    from tests.oracle.spark import spark_available

    runtime = "1.10"
    if argv[:1] == ["--runtime"] and len(argv) > 1:  # `--runtime 1.9 CASE ...`: on Iceberg 1.9.2
        runtime, argv = argv[1], argv[2:]
    ok, reason = spark_available(runtime)
    if not ok:
        print(f"Spark unavailable: {reason}", file=sys.stderr)
        return 2
    cases = load_cases(argv)
    with tempfile.TemporaryDirectory(prefix="icelint-diff-") as tmp:
        oracle = SparkOracle(Path(tmp) / "warehouse", runtime)
        try:
            from tests.differential.modes import run_case_modes

            for case in cases:
                srun, modes = run_case_modes(oracle, case, Path(tmp) / "work" / case.name)
                lint, verdict = modes["state"]
                print(f"== {case.name} ({verdict.seconds:.1f}s)")
                for st in srun.statements:
                    mine = [f for f in lint.findings if f.path == str(st.path) and st.line <= f.line <= st.end_line]
                    print(
                        f"  {st.where} [{st.seconds:.2f}s] {st.first_line}\n     Spark: {st.spark_outcome}\n     icelint: {describe(mine)}"
                    )
                for mode, (_, v) in modes.items():
                    for d in v.disagreements:
                        print(f"  [{mode}] " + str(d).replace("\n", "\n  "))
        finally:
            oracle.stop()
    return 0


def start_differential_session(warehouse: Path, runtime: str = "1.10") -> Any:
    """:func:`tests.oracle.spark.start_session` plus the harness's settings (before the catalog loads)."""
    from tests.oracle.spark import start_session

    spark = start_session(warehouse, runtime)
    # The harness empties the namespace by deleting its folder and reads metadata.json from disk:
    # a cached table would go stale, so the catalog must not cache (set before its first use).
    spark.conf.set("spark.sql.catalog.local.cache-enabled", "false")
    spark.sparkContext.setLogLevel("OFF")  # failed health checks are expected: no JVM stack traces
    return spark


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
