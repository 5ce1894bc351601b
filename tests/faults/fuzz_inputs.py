"""Fuzzing icelint: generated Spark/Iceberg DDL and mutated metadata.json files.

Shared by the bounded property tests (`tests/faults/test_fuzz.py`, about a minute) and the long run
(`python bench/fuzz.py --minutes 30`). The property is the same everywhere: whatever the input,
icelint gives a result (exit 0 or 1) or the documented input error (exit 2, exactly one line on
stderr naming the file), never anything else, and the same output twice for the same input.
"""

from __future__ import annotations

import copy
import gzip
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

# ---------------------------------------------------------------------------- the oracle


@dataclass(frozen=True)
class Outcome:
    code: int
    stdout: str
    stderr: str


def run_cli(args: list[str]) -> Outcome:
    from click.testing import CliRunner

    from icelint.cli.main import main

    r = CliRunner().invoke(main, args)
    if r.exception is not None and not isinstance(r.exception, SystemExit):
        import traceback

        tb = "".join(traceback.format_exception(type(r.exception), r.exception, r.exception.__traceback__))
        raise AssertionError(f"icelint {' '.join(args)} raised:\n{tb}")
    return Outcome(r.exit_code, r.stdout, r.stderr)


def assert_result_or_input_error(o: Outcome, names: tuple[str, ...], args: list[str]) -> None:
    """Exit 0/1 (a result) or 2 with one line naming one of `names`; no internal error, no traceback."""
    context = f"icelint {' '.join(args)}\nexit {o.code}\nstderr: {o.stderr}\nstdout: {o.stdout[-2000:]}"
    assert "Traceback" not in o.stderr and "Traceback" not in o.stdout, context
    assert "internal error" not in o.stderr, context
    assert "internal parser error" not in o.stdout, context
    if o.code in (0, 1):
        assert not [ln for ln in o.stderr.splitlines() if ln.startswith("icelint: error")], context
        return
    assert o.code == 2, context
    lines = o.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("icelint: error: "), context
    assert any(n in lines[0] for n in names), context


def check_twice(args: list[str], names: tuple[str, ...]) -> Outcome:
    first = run_cli(args)
    assert_result_or_input_error(first, names, args)
    second = run_cli(args)
    assert second == first, f"icelint {' '.join(args)}: different output for the same input"
    return first


# ---------------------------------------------------------------------------- SQL

COLUMNS = ["id", "data", "ts", "a", "b", "Data", "`odd name`", "point", "x1"]
TABLES = ["db.t", "db.u", "t", "cat.db.t"]
PRIMITIVES = [
    "int", "bigint", "smallint", "tinyint", "string", "double", "float", "decimal(10,2)", "decimal(38, 0)",
    "decimal(5)", "date", "timestamp", "timestamp_ntz", "boolean", "binary", "char(3)", "varchar(5)", "long",
    "interval day to second", "void", "unknowntype",
]  # fmt: skip


def sql_types() -> st.SearchStrategy[str]:
    def extend(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        field = st.tuples(st.sampled_from(COLUMNS), inner, st.sampled_from(["", " NOT NULL", " COMMENT 'c'"]))
        return st.one_of(
            inner.map(lambda t: f"array<{t}>"),
            st.tuples(st.sampled_from(PRIMITIVES[:6]), inner).map(lambda kv: f"map<{kv[0]}, {kv[1]}>"),
            st.lists(field, min_size=0, max_size=3).map(lambda fs: "struct<" + ", ".join(f"{n}: {t}{x}" for n, t, x in fs) + ">"),
        )

    return st.recursive(st.sampled_from(PRIMITIVES), extend, max_leaves=6)


@st.composite
def statements(draw) -> str:
    t = draw(st.sampled_from(TABLES))
    c = draw(st.sampled_from(COLUMNS))
    c2 = draw(st.sampled_from(COLUMNS))
    typ = draw(sql_types())
    nested = draw(st.sampled_from(["", ".a", ".element", ".key", ".value", ".a.b"]))
    kind = draw(st.integers(0, 26))
    cols = ", ".join(f"{n} {ty}" for n, ty in draw(st.lists(st.tuples(st.sampled_from(COLUMNS), sql_types()), min_size=1, max_size=4)))
    return [
        f"CREATE TABLE {t} ({cols}) USING iceberg",
        f"CREATE TABLE IF NOT EXISTS {t} ({cols}) USING iceberg PARTITIONED BY ({c}, bucket(4, {c2})) TBLPROPERTIES ('format-version'='{draw(st.sampled_from('123'))}')",
        f"CREATE OR REPLACE TABLE {t} ({cols}) USING iceberg",
        f"ALTER TABLE {t} ADD COLUMN {c}{nested} {typ}" + draw(st.sampled_from(["", " FIRST", f" AFTER {c2}", " COMMENT 'x'"])),
        f"ALTER TABLE {t} ADD COLUMNS ({cols})",
        f"ALTER TABLE {t} DROP COLUMN {c}{nested}",
        f"ALTER TABLE {t} RENAME COLUMN {c}{nested} TO {c2}",
        f"ALTER TABLE {t} ALTER COLUMN {c}{nested} TYPE {typ}",
        f"ALTER TABLE {t} ALTER COLUMN {c} {draw(st.sampled_from(['SET NOT NULL', 'DROP NOT NULL', 'FIRST', 'COMMENT ' + repr('d')]))}",
        f"ALTER TABLE {t} ADD PARTITION FIELD {draw(st.sampled_from([c, f'bucket(16, {c})', f'days({c})', f'truncate({c}, 4)', f'years({c}) AS y']))}",
        f"ALTER TABLE {t} DROP PARTITION FIELD {draw(st.sampled_from([c, 'y', f'bucket(16, {c})']))}",
        f"ALTER TABLE {t} REPLACE PARTITION FIELD {c} WITH bucket(8, {c2})",
        f"ALTER TABLE {t} WRITE ORDERED BY {c}, {c2} DESC NULLS LAST",
        f"ALTER TABLE {t} WRITE DISTRIBUTED BY PARTITION LOCALLY ORDERED BY {c}",
        f"ALTER TABLE {t} SET IDENTIFIER FIELDS {c}, {c2}",
        f"ALTER TABLE {t} DROP IDENTIFIER FIELDS {c}",
        f"ALTER TABLE {t} SET TBLPROPERTIES ('{draw(st.sampled_from(['format-version', 'write.format.default', 'k']))}'='{draw(st.sampled_from(['1', '2', '3', 'x']))}')",
        f"ALTER TABLE {t} REPLACE COLUMNS ({cols})",
        f"ALTER TABLE {t} RENAME TO {draw(st.sampled_from(TABLES))}",
        draw(st.sampled_from([f"DROP TABLE {t}", f"INSERT INTO {t} VALUES (1, 'a')", "SET spark.sql.caseSensitive=true",
                              f"CALL system.rewrite_data_files('{t}')", f"-- icelint: ignore ICE001\nALTER TABLE {t} DROP COLUMN {c}",
                              f"ALTER TABLE {t} CREATE BRANCH audit", f"DROP TABLE {t}.branch_audit", f"ALTER TABLE {t}.tag_v1 DROP COLUMN {c}",
                              f"DELETE FROM {t}.branch_audit WHERE {c} IS NULL", f"TRUNCATE TABLE {t}.branch_audit",
                              "SET spark.wap.branch = audit", "RESET", "RESET spark.sql.caseSensitive",
                              f"ALTER TABLE {t} SET TBLPROPERTIES ('write.wap.enabled'='true')"])),
        f"ALTER TABLE {t} CHANGE COLUMN {c} {c2} {typ}",
        f"CREATE TABLE{draw(st.sampled_from(['', ' IF NOT EXISTS']))} {t} ({cols}) USING iceberg "
        f"{draw(st.sampled_from(['', f'PARTITIONED BY (days({c2})) ', f'PARTITIONED BY (bucket(4, {c})) ']))}"
        f"CLUSTERED BY ({draw(st.sampled_from([c, f'{c}, {c2}']))}){draw(st.sampled_from(['', f' SORTED BY ({c2} DESC)']))} "
        f"INTO {draw(st.sampled_from(['4', '0', '16']))} BUCKETS",
        f"CREATE TABLE IF NOT EXISTS {t} ({cols}) USING iceberg PARTITIONED BY "
        f"({draw(st.sampled_from([f'{c}, {c2}', f'days({c}), hours({c})', f'bucket(4, {c}), bucket(8, {c2})', f'{c}.a', f'truncate(2, {c}), {c}']))})",
        # Hive's and Delta Lake's forms (cases 626-628)
        draw(st.sampled_from(HIVE_FORMS)).format(t=t, c=c, c2=c2),
        f"CREATE TABLE {t} ({cols}) {draw(st.sampled_from(['', 'USING iceberg ']))}" + draw(st.sampled_from(HIVE_CLAUSES)).format(c=c),
        f"ALTER TABLE {t} ALTER COLUMN {c} TYPE {typ} " + draw(st.sampled_from(["COMMENT 'd'", "FIRST", f"DROP NOT NULL AFTER {c2}", "x"])),
        # INSERT ... SELECT by position, with or without CTEs and a column list (cases 630-632)
        draw(st.sampled_from(["", f"WITH x AS (SELECT * FROM {draw(st.sampled_from(TABLES))}) "]))
        + f"INSERT {draw(st.sampled_from(['INTO', 'OVERWRITE', 'INTO TABLE']))} {t}{draw(st.sampled_from(['', '', '.branch_audit', '.tag_v1', '.branch_main']))}"
        + draw(st.sampled_from(["", f" ({c}, {c2})", f" PARTITION ({c})"]))
        + f" SELECT {draw(st.sampled_from([f'{c2}, {c}', f'{c} AS {c2}, 1', '*', f'CAST({c} AS string), {c2}']))} "
        + draw(st.sampled_from(["FROM x", f"FROM {draw(st.sampled_from(TABLES))}"])),
    ][kind]


HIVE_FORMS = [
    "ALTER TABLE {t} ADD PARTITION ({c}='a')",
    "ALTER TABLE {t} DROP IF EXISTS PARTITION ({c}='a'), PARTITION ({c2}=1) PURGE",
    "ALTER TABLE {t} PARTITION ({c}='a') RENAME TO PARTITION ({c}='b')",
    "TRUNCATE TABLE {t} PARTITION ({c}=1)",
    "MSCK REPAIR TABLE {t}",
    "ANALYZE TABLE {t} COMPUTE STATISTICS",
    "ALTER TABLE {t} SET SERDEPROPERTIES ('a'='b')",
    "CREATE INDEX i ON {t} ({c})",
    "OPTIMIZE {t} ZORDER BY ({c}, {c2})",
    "VACUUM {t}",
    "GRANT SELECT ON {t} TO u",
    "COMMENT ON COLUMN {t}.{c} IS 'x'",
]
HIVE_CLAUSES = [
    "STORED AS ORC",
    "ROW FORMAT DELIMITED FIELDS TERMINATED BY ','",
    "ROW FORMAT SERDE 'x' STORED AS TEXTFILE",
    "STORED BY 'x'",
    "PARTITIONED BY ({c}) USING iceberg",
]


NOISE = ["\x00", "`", "'", '"', "/*", "*/", "--", ";", "(", ")", "<", ">", ",", ".", "\n", "é", "\u2028", "struct<", "${x}", "\\"]


@st.composite
def sql_files(draw) -> str:
    text = ";\n".join(draw(st.lists(statements(), min_size=1, max_size=8))) + ";\n"
    for _ in range(draw(st.integers(0, 3))):  # text mutations: insert noise, cut a slice, repeat a slice
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + 30)))
        text = draw(st.sampled_from([
            text[:i] + draw(st.sampled_from(NOISE)) + text[i:],
            text[:i] + text[j:],
            text[:j] + text[i:j] + text[j:],
        ]))  # fmt: skip
    return text


# ---------------------------------------------------------------------------- metadata


def _field(fid: int, name: str, typ: Any, required: bool = False) -> dict:
    return {"id": fid, "name": name, "required": required, "type": typ}


BASE_V2: dict[str, Any] = {
    "format-version": 2, "table-uuid": "9c12d441-03fe-4693-9a96-a0705ddf69c1", "location": "/tmp/t",
    "last-sequence-number": 1, "last-updated-ms": 1, "last-column-id": 9, "current-schema-id": 1,
    "schemas": [
        {"type": "struct", "schema-id": 0, "fields": [_field(1, "id", "long", True), _field(2, "data", "string")]},
        {"type": "struct", "schema-id": 1, "identifier-field-ids": [1], "fields": [
            _field(1, "id", "long", True), _field(2, "data", "string"), _field(3, "ts", "timestamptz"),
            _field(4, "point", {"type": "struct", "fields": [_field(5, "x", "double"), _field(6, "y", "decimal(10, 2)")]}),
            _field(7, "tags", {"type": "map", "key-id": 8, "key": "string", "value-id": 9, "value-required": False,
                               "value": "int"}),
        ]},
    ],
    "default-spec-id": 1,
    "partition-specs": [
        {"spec-id": 0, "fields": []},
        {"spec-id": 1, "fields": [{"name": "ts_day", "transform": "day", "source-id": 3, "field-id": 1000},
                                  {"name": "id_b", "transform": "bucket[4]", "source-ids": [1], "field-id": 1001}]},
    ],
    "last-partition-id": 1001, "default-sort-order-id": 1,
    "sort-orders": [{"order-id": 0, "fields": []},
                    {"order-id": 1, "fields": [{"transform": "identity", "source-id": 2, "direction": "asc", "null-order": "nulls-first"}]}],
    "properties": {"write.format.default": "parquet"},
    "current-snapshot-id": 5, "refs": {"main": {"snapshot-id": 5, "type": "branch"}},
    "snapshots": [{"snapshot-id": 5, "timestamp-ms": 2, "schema-id": 1, "summary": {"operation": "append"}, "manifest-list": "m"}],
    "snapshot-log": [], "metadata-log": [],
}  # fmt: skip

BASE_V1: dict[str, Any] = {
    "format-version": 1, "table-uuid": "5d7c9d4e-8f7a-4b8e-9a53-b6b8a2b0e4f1", "location": "/tmp/v1", "last-updated-ms": 1,
    "last-column-id": 3,
    "schema": {"type": "struct", "schema-id": 0, "fields": [_field(1, "id", "long"), _field(2, "data", "string"),
                                                            _field(3, "ts", "timestamp")]},
    "partition-spec": [{"name": "data", "transform": "identity", "source-id": 2}],
    "properties": {}, "current-snapshot-id": -1, "snapshots": [],
}  # fmt: skip

BASES = {"v2": BASE_V2, "v1": BASE_V1}
# replayed against the state: touches every older schema (ICE001 reads history), specs and orders
META_SQL = (
    "ALTER TABLE db.t DROP COLUMN data;\nALTER TABLE db.t ADD COLUMN data int;\nALTER TABLE db.t RENAME COLUMN id TO id2;\n"
    "ALTER TABLE db.t ALTER COLUMN ts TYPE date;\nALTER TABLE db.t ADD PARTITION FIELD bucket(8, id2);\n"
    "ALTER TABLE db.t WRITE ORDERED BY id2;\nALTER TABLE db.t ADD COLUMN point.z float;\n"
)

SAME_INTS = [0, 1, 2, 3, 4, 5, 9, 10, -1, 999, 1000, 1001, 2**31 - 1, 2**62]
SAME_STRINGS = ["id", "data", "ts", "", "x.y", "ID", "identity", "void", "bucket[0]", "bucket[16]", "truncate[-1]", "day",
                "hour", "month", "year", "asc", "desc", "nulls-last", "decimal(38, 10)", "decimal(2, 5)", "fixed[0]",
                "unknown", "variant", "timestamp_ns", "geometry", "uuid", "struct", "list", "map", "tag", "branch",
                "1", "2", "3"]  # fmt: skip
WEIRD = [None, True, False, 0, -1, 1.5, 2**31, -(2**31) - 1, 2**63, 10**30, "", "x", "struct", "Struct", "long",
         [], [None], [1, 2], {}, {"type": "struct"}, {"type": "list"}, {"type": "map", "fields": []}]  # fmt: skip


def _paths(obj: Any) -> list[tuple]:
    """Every path (tuple of keys and indexes) in a JSON value, iteratively."""
    out: list[tuple] = []
    todo: list[tuple[tuple, Any]] = [((), obj)]
    while todo:
        path, v = todo.pop()
        out.append(path)
        if isinstance(v, dict):
            todo.extend((path + (k,), x) for k, x in v.items())
        elif isinstance(v, list):
            todo.extend((path + (i,), x) for i, x in enumerate(v))
    return sorted(out, key=repr)


def _get(obj: Any, path: tuple) -> Any:
    for k in path:
        obj = obj[k]
    return obj


def _deep_type(kind: str, n: int) -> Any:
    t: Any = "string"
    for i in range(n):
        if kind == "struct":
            t = {"type": "struct", "fields": [_field(100 + i, f"f{i}", t)]}
        elif kind == "list":
            t = {"type": "list", "element-id": 100 + i, "element-required": False, "element": t}
        else:
            t = {"type": "map", "key-id": 5000 + i, "key": "int", "value-id": 100 + i, "value-required": False, "value": t}
    return t


def _dumps_deep(obj: Any) -> str:
    """`json.dumps` for values nested deeper than its recursion allows."""
    import sys

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        return json.dumps(obj)
    finally:
        sys.setrecursionlimit(old)


@st.composite
def metadata_files(draw) -> tuple[str, bytes]:
    """(base name, file bytes): a valid file mutated a few times, as JSON, then as text or gzip bytes."""
    name = draw(st.sampled_from(sorted(BASES)))
    obj = copy.deepcopy(BASES[name])
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in _paths(obj) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent, key = _get(obj, path[:-1]), path[-1]
        action = draw(st.sampled_from(["delete", "weird", "weird", "nest", "deep-type", "empty", "same-kind", "same-kind",
                                       "same-kind", "same-kind"]))
        if action == "same-kind":  # a value of the right JSON type: the file often stays valid, but odd
            value = parent[key]
            if isinstance(value, bool):
                parent[key] = not value
            elif isinstance(value, int):
                parent[key] = draw(st.sampled_from(SAME_INTS))
            elif isinstance(value, str):
                parent[key] = draw(st.sampled_from(SAME_STRINGS))
            elif isinstance(value, list) and value:
                i = draw(st.integers(0, len(value) - 1))
                if draw(st.booleans()):
                    value.append(value[i])  # a duplicate: two fields with one id, two specs... (shared: may be deep)
                else:
                    del value[i]
            elif isinstance(value, dict) and value:
                k = draw(st.sampled_from(sorted(value)))
                value[k + "-2" if draw(st.booleans()) else k.upper()] = value[k]
        elif action == "delete":
            del parent[key]
        elif action == "weird":
            parent[key] = copy.deepcopy(draw(st.sampled_from(WEIRD)))
        elif action == "nest":
            value = parent[key]
            for _ in range(draw(st.sampled_from([1, 2, 50, 400, 995, 1200]))):
                value = [value]
            parent[key] = value
        elif action == "deep-type":
            parent[key] = _deep_type(draw(st.sampled_from(["struct", "list", "map"])), draw(st.sampled_from([3, 98, 99, 150, 330, 400, 990])))
        else:
            parent[key] = type(parent[key])() if isinstance(parent[key], (list, dict, str)) else parent[key]
    text = _dumps_deep(obj)
    action = draw(st.sampled_from(["json", "json", "json", "text", "gzip", "gzip-garbage"]))
    if action == "text":
        i = draw(st.integers(0, len(text)))
        text = draw(st.sampled_from([
            text[:i],  # truncated
            text[:i] + ",," + text[i:],
            text[:i] + draw(st.sampled_from(["NaN", "Infinity", "-Infinity", "1e400", "-0", "\x00", '"\\ud800"'])) + text[i:],
            text.replace(": 1,", ": 1e400,", 1),
        ]))  # fmt: skip
    data = text.encode("utf-8", "surrogatepass")
    if action.startswith("gzip"):
        data = bytearray(gzip.compress(data))
        if action == "gzip-garbage":
            for _ in range(draw(st.integers(1, 3))):
                i = draw(st.integers(0, len(data) - 1))
                data[i] ^= 1 << draw(st.integers(0, 7))
            if draw(st.booleans()):
                data = data[: draw(st.integers(2, len(data)))]
        data = bytes(data)
    return name, data


def check_metadata_file(tmp: Path, data: bytes, fast: bool, extra_sql: str = "") -> Outcome:
    """`icelint check` (and `schema --format json`) of META_SQL against the file: the property holds."""
    from icelint.model.storage import fastload

    meta = tmp / "db.t.metadata.json"
    meta.write_bytes(data)
    sql = tmp / "m.sql"
    sql.write_text(META_SQL + extra_sql)
    saved = fastload.THRESHOLD
    fastload.THRESHOLD = 0 if fast else saved
    try:
        names = (str(meta), str(sql))
        out = check_twice(["check", str(sql), "--metadata", f"db.t={meta}"], names)
        if out.code != 2:  # whatever check accepts, schema prints...
            schema = check_twice(["schema", "--format", "json", str(sql), "--metadata", f"db.t={meta}"], names)
            # ... except an older schema version that check never needed to decode (they are read
            # lazily, and `schema` prints them all): then the input error names it
            assert schema.code == 0 or ": invalid Iceberg metadata: schemas[" in schema.stderr, schema
        return out
    finally:
        fastload.THRESHOLD = saved


def check_sql_file(tmp: Path, text: str, with_state: bool) -> Outcome:
    sql = tmp / "f.sql"
    sql.write_bytes(text.encode("utf-8", "surrogatepass"))
    args = ["check", str(sql)]
    names: tuple[str, ...] = (str(sql),)
    if with_state:
        meta = tmp / "db.t.metadata.json"
        meta.write_text(json.dumps(BASE_V2))
        args += ["--metadata", f"db.t={meta}"]
        names += (str(meta),)
    out = check_twice(args, names)
    if out.code != 2:  # whatever check accepts, schema prints
        schema = check_twice(["schema", "--format", "json", *args[1:]], names)
        assert schema.code == 0, schema
    return out
