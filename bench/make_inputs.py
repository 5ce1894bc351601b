"""Generate the benchmark inputs into bench/out/ (gitignored). Deterministic (fixed seed).

- `migration.sql`: a realistic 2,000-statement migration history of a few tables: CREATE TABLE, then
  mixed ALTERs (ADD COLUMN(S) with comments and positions, nested adds, renames, legal type
  widenings, comments, moves, drops, partition fields, sort orders, table properties) and some DML,
  with comments and multi-line statements, as a team's migrations folder concatenated would look.
  Every statement is valid for Spark 3.5 + Iceberg 1.10 at the point it runs.
- `big.metadata.json`: a valid Iceberg v2 table-metadata file with 500 schema versions whose current
  schema has 5,000 top-level columns (structs, lists and maps among them), with renames, promotions
  and drops across versions, 5 partition specs, 3 sort orders and 20 snapshots.
- `one.sql`: a single CREATE TABLE (start-up time); `one_alter.sql`: one ALTER of the big table.

    python bench/make_inputs.py [--statements 2000] [--columns 5000] [--schemas 500] [--validate]

`--validate` also parses big.metadata.json with pyiceberg (slow; checks it is valid Iceberg metadata).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

OUT = Path(__file__).resolve().parent / "out"

WORDS = ("user account order item event session device price amount status kind source channel region country city "
         "campaign score rank weight height width label note tag flag code ref batch shard tier plan step stage "
         "owner team vendor carrier sku brand color size unit rate ratio total count latency duration").split()  # fmt: skip
PRIMS = ["string", "bigint", "int", "double", "float", "boolean", "date", "timestamp", "decimal(10,2)", "binary"]
WIDEN = {"int": "bigint", "float": "double"}


@dataclass
class Table:
    name: str
    cols: dict[str, str] = field(default_factory=dict)  # name -> Spark type (top level; structs as 'struct')
    structs: dict[str, list[str]] = field(default_factory=dict)  # struct column -> field names
    partitioned: set[str] = field(default_factory=set)  # source columns of partition fields (kept)
    part_fields: list[str] = field(default_factory=list)  # droppable partition field names we added
    sorted_by: set[str] = field(default_factory=set)
    required: set[str] = field(default_factory=set)
    n: int = 0

    def fresh(self, rng: random.Random) -> str:
        self.n += 1
        return f"{rng.choice(WORDS)}_{rng.choice(WORDS)}_{self.n}"

    def movable(self) -> list[str]:
        return [c for c in self.cols if c not in self.partitioned and c not in self.sorted_by and c not in self.required]


def _decimal_widen(t: str) -> str | None:
    if t.startswith("decimal("):
        p, s = (int(x) for x in t[8:-1].split(","))
        if p + 2 <= 38:
            return f"decimal({p + 2},{s})"
    return None


def make_migration(n_statements: int, seed: int = 42) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    count = 0

    def emit(sql: str, comment: str | None = None) -> None:
        nonlocal count
        if comment:
            out.append(f"-- {comment}")
        out.append(sql)
        count += 1

    tables = []
    for i, tname in enumerate(("db.events", "db.orders", "db.customers", "db.sessions")):
        t = Table(tname)
        cols = [("id", "bigint NOT NULL"), ("created_at", "timestamp"), ("kind", "string"), ("amount", "decimal(10,2)"),
                ("qty", "int"), ("ratio", "float"), ("region", "string"),
                ("meta", "struct<source: string, version: int>"), ("tags", "array<string>"), ("attrs", "map<string, string>")]  # fmt: skip
        for k in range(8):
            c = t.fresh(rng)
            cols.append((c, rng.choice(PRIMS)))
        for c, ty in cols:
            t.cols[c] = "struct" if ty.startswith("struct") else ty.replace(" NOT NULL", "")
        t.structs["meta"] = ["source", "version"]
        t.required.add("id")
        t.partitioned |= {"created_at", "region"}
        body = ",\n".join(f"  {c} {ty}" + (f" COMMENT '{c.replace('_', ' ')}'" if rng.random() < 0.3 else "") for c, ty in cols)
        emit(f"CREATE TABLE {tname} (\n{body}\n) USING iceberg\nPARTITIONED BY (days(created_at), region)\n"
             f"TBLPROPERTIES ('format-version' = '2', 'write.parquet.compression-codec' = 'zstd');",
             f"V{i + 1}__create_{tname.split('.')[1]}.sql")  # fmt: skip
        seed = {"id": str(i), "created_at": "TIMESTAMP '2024-01-01 00:00:00'", "kind": "'seed'"}
        emit(_insert(tname, t, seed))
        tables.append(t)

    kinds = [("add", 30), ("add_pos", 8), ("add_cols", 5), ("add_nested", 4), ("rename", 9), ("widen", 7),
             ("comment", 8), ("move", 4), ("drop", 7), ("drop_cols", 2), ("add_part", 2), ("drop_part", 1),
             ("sort", 2), ("props", 6), ("drop_not_null", 1), ("dml", 4)]  # fmt: skip
    names, weights = zip(*kinds)
    version = len(tables) + 1
    while count < n_statements:
        t = rng.choice(tables)
        k = rng.choices(names, weights)[0]
        tn = t.name
        if rng.random() < 0.04:
            version += 1
            out.append(f"\n-- V{version}__{rng.choice(WORDS)}_{rng.choice(WORDS)}.sql")
        if k == "add":
            c, ty = t.fresh(rng), rng.choice(PRIMS)
            t.cols[c] = ty
            emit(f"ALTER TABLE {tn} ADD COLUMN {c} {ty} COMMENT 'the {c.replace('_', ' ')}';")
        elif k == "add_pos":
            c, ty = t.fresh(rng), rng.choice(PRIMS)
            pos = "FIRST" if rng.random() < 0.2 else f"AFTER {rng.choice(list(t.cols))}"
            t.cols[c] = ty
            emit(f"ALTER TABLE {tn} ADD COLUMN {c} {ty} {pos};")
        elif k == "add_cols":
            new = [(t.fresh(rng), rng.choice(PRIMS)) for _ in range(rng.randint(2, 4))]
            t.cols.update(new)
            body = ",\n    ".join(f"{c} {ty} COMMENT '{c}'" for c, ty in new)
            emit(f"ALTER TABLE {tn} ADD COLUMNS (\n    {body}\n);")
        elif k == "add_nested":
            s = rng.choice(list(t.structs))
            f = f"f{t.n}"
            t.n += 1
            t.structs[s].append(f)
            emit(f"ALTER TABLE {tn} ADD COLUMN {s}.{f} {rng.choice(['string', 'bigint', 'double'])};")
        elif k == "rename":
            cands = [c for c in t.movable() if c not in t.structs and c not in ("tags", "attrs", "kind")]
            if not cands:
                continue
            old = rng.choice(cands)
            new = t.fresh(rng)
            t.cols = {(new if c == old else c): ty for c, ty in t.cols.items()}
            emit(f"ALTER TABLE {tn} RENAME COLUMN {old} TO {new};")
        elif k == "widen":
            cands = [(c, ty) for c, ty in t.cols.items() if (ty in WIDEN or _decimal_widen(ty)) and c not in t.partitioned]
            if not cands:
                continue
            c, ty = rng.choice(cands)
            new = WIDEN.get(ty) or _decimal_widen(ty)
            t.cols[c] = new
            emit(f"ALTER TABLE {tn} ALTER COLUMN {c} TYPE {new};")
        elif k == "comment":
            c = rng.choice(list(t.cols))
            emit(f"ALTER TABLE {tn} ALTER COLUMN {c} COMMENT '{rng.choice(WORDS)} {rng.choice(WORDS)}';")
        elif k == "move":
            cands = list(t.cols)
            a, b = rng.sample(cands, 2)
            emit(f"ALTER TABLE {tn} ALTER COLUMN {a} AFTER {b};" if rng.random() < 0.8 else f"ALTER TABLE {tn} ALTER COLUMN {a} FIRST;")
        elif k in ("drop", "drop_cols"):
            cands = [c for c in t.movable() if c not in t.structs and c not in ("tags", "attrs", "kind", "created_at")]
            if len(cands) < 12:
                continue
            victims = rng.sample(cands, 1 if k == "drop" else 2)
            for v in victims:
                del t.cols[v]
            emit(f"ALTER TABLE {tn} DROP COLUMN {victims[0]};" if k == "drop" else f"ALTER TABLE {tn} DROP COLUMNS ({', '.join(victims)});")
        elif k == "add_part":
            cands = [c for c, ty in t.cols.items() if ty in ("bigint", "int", "string") and c not in t.partitioned]
            if not cands:
                continue
            c = rng.choice(cands)
            name = f"{c}_b{t.n}"
            t.n += 1
            t.partitioned.add(c)
            t.part_fields.append(name)
            emit(f"ALTER TABLE {tn} ADD PARTITION FIELD bucket({rng.choice([8, 16, 32])}, {c}) AS {name};")
        elif k == "drop_part":
            if not t.part_fields:
                continue
            emit(f"ALTER TABLE {tn} DROP PARTITION FIELD {t.part_fields.pop(0)};")
        elif k == "sort":
            cols = rng.sample([c for c, ty in t.cols.items() if ty != "struct" and not ty.startswith(("array", "map"))], 2)
            t.sorted_by |= set(cols)
            emit(f"ALTER TABLE {tn} WRITE ORDERED BY {cols[0]} DESC NULLS LAST, {cols[1]};")
        elif k == "props":
            key = rng.choice(["write.target-file-size-bytes", "commit.retry.num-retries", "write.metadata.previous-versions-max",
                              "history.expire.max-snapshot-age-ms", "write.distribution-mode"])  # fmt: skip
            val = {"write.distribution-mode": "hash"}.get(key, str(rng.randint(1, 10) * 1000))
            emit(f"ALTER TABLE {tn} SET TBLPROPERTIES ('{key}' = '{val}');")
        elif k == "drop_not_null":
            emit(f"ALTER TABLE {tn} ALTER COLUMN id DROP NOT NULL;" if False else f"ALTER TABLE {tn} ALTER COLUMN kind DROP NOT NULL;")
        elif k == "dml":
            emit(rng.choice([
                f"UPDATE {tn} SET kind = 'backfilled' WHERE kind IS NULL;",
                f"DELETE FROM {tn} WHERE id < 0;",
                _insert(tn, t, {"id": str(count), "kind": "'x'"}),
            ]))  # fmt: skip
    return "\n".join(out) + "\n"


def _insert(name: str, t, values: dict[str, str]) -> str:
    """An INSERT naming every current column (Spark 3.5 fills no missing column of an Iceberg table)."""
    cols = list(t.cols)
    return f"INSERT INTO {name} ({', '.join(cols)}) VALUES ({', '.join(values.get(c, 'NULL') for c in cols)});"


# --------------------------------------------------------------------------- big metadata.json


def _type(rng: random.Random, next_id: list[int]) -> object:
    r = rng.random()
    if r < 0.03:
        fields = []
        for j in range(rng.randint(2, 3)):
            next_id[0] += 1
            fields.append({"id": next_id[0], "name": f"f{j}", "required": False, "type": rng.choice(["string", "long", "double"])})
        return {"type": "struct", "fields": fields}
    if r < 0.05:
        next_id[0] += 1
        return {"type": "list", "element-id": next_id[0], "element": "string", "element-required": False}
    if r < 0.06:
        next_id[0] += 2
        return {"type": "map", "key-id": next_id[0] - 1, "key": "string", "value-id": next_id[0], "value": "long", "value-required": False}
    return rng.choice(["string", "long", "int", "double", "float", "boolean", "date", "timestamptz", "decimal(10, 2)", "binary"])


def make_metadata(n_columns: int = 5000, n_schemas: int = 500, seed: int = 7) -> dict:
    """Iceberg v2 metadata: schema k holds the columns added so far; versions also rename, promote and drop."""
    rng = random.Random(seed)
    next_id = [0]
    cols: list[dict] = []  # current top-level fields
    schemas = []
    per_version = n_columns // n_schemas
    dropped = 0
    for k in range(n_schemas):
        # each version adds columns; some also rename, promote or drop one
        adds = per_version + (dropped if k == n_schemas - 1 else 0)
        for _ in range(adds):
            next_id[0] += 1
            fid = next_id[0]
            f = {"id": fid, "name": f"c{fid}_{rng.choice(WORDS)}", "required": fid == 1}
            f["type"] = "long" if fid == 1 else _type(rng, next_id)
            if rng.random() < 0.2:
                f["doc"] = f"{rng.choice(WORDS)} {rng.choice(WORDS)}"
            cols.append(f)
        if k and rng.random() < 0.15:
            i = rng.randrange(1, len(cols))
            cols[i] = {**cols[i], "name": cols[i]["name"] + "_v2"}
        if k and rng.random() < 0.15:
            for i, f in enumerate(cols):
                if f["type"] == "int":
                    cols[i] = {**f, "type": "long"}
                    break
        if k and k < n_schemas - 1 and rng.random() < 0.1:
            i = rng.randrange(1, len(cols))
            if isinstance(cols[i]["type"], str):
                cols.pop(i)
                dropped += 1
        schemas.append({"type": "struct", "schema-id": k, "identifier-field-ids": [1], "fields": list(cols)})
    assert len(cols) == n_columns, len(cols)
    by_name = {f["name"]: f for f in cols}
    prim = [f for f in cols if f["type"] in ("long", "string", "int", "date", "timestamptz")]
    ts = next(f for f in prim if f["type"] == "timestamptz")
    s1, s2, s3 = prim[1], prim[2], prim[3]
    specs = [
        {"spec-id": 0, "fields": []},
        {"spec-id": 1, "fields": [{"name": f"{ts['name']}_day", "transform": "day", "source-id": ts["id"], "field-id": 1000}]},
        {"spec-id": 2, "fields": [{"name": f"{ts['name']}_day", "transform": "day", "source-id": ts["id"], "field-id": 1000},
                                  {"name": f"{s1['name']}_bucket_16", "transform": "bucket[16]", "source-id": s1["id"], "field-id": 1001}]},
        {"spec-id": 3, "fields": [{"name": f"{ts['name']}_hour", "transform": "hour", "source-id": ts["id"], "field-id": 1002},
                                  {"name": f"{s1['name']}_bucket_16", "transform": "bucket[16]", "source-id": s1["id"], "field-id": 1001}]},
        {"spec-id": 4, "fields": [{"name": f"{ts['name']}_hour", "transform": "hour", "source-id": ts["id"], "field-id": 1002},
                                  {"name": s2["name"], "transform": "identity", "source-id": s2["id"], "field-id": 1003}]},
    ]  # fmt: skip
    orders = [
        {"order-id": 0, "fields": []},
        {"order-id": 1, "fields": [{"transform": "identity", "source-id": s3["id"], "direction": "asc", "null-order": "nulls-first"}]},
        {"order-id": 2, "fields": [{"transform": "identity", "source-id": ts["id"], "direction": "desc", "null-order": "nulls-last"},
                                   {"transform": "identity", "source-id": 1, "direction": "asc", "null-order": "nulls-first"}]},
    ]  # fmt: skip
    t0 = 1_700_000_000_000
    snapshots, log = [], []
    parent = None
    for i in range(20):
        sid = 1000 + i
        snap = {"snapshot-id": sid, "sequence-number": i + 1, "timestamp-ms": t0 + i * 3_600_000,
                "manifest-list": f"s3://warehouse/db/big/metadata/snap-{sid}-1-{uuid.UUID(int=sid)}.avro",
                "summary": {"operation": "append", "added-records": "1000", "total-records": str(1000 * (i + 1)),
                            "engine-name": "spark", "engine-version": "3.5.9"},
                "schema-id": (i * n_schemas) // 20}  # fmt: skip
        if parent is not None:
            snap["parent-snapshot-id"] = parent
        parent = sid
        snapshots.append(snap)
        log.append({"timestamp-ms": snap["timestamp-ms"], "snapshot-id": sid})
    assert by_name
    return {
        "format-version": 2,
        "table-uuid": str(uuid.UUID(int=seed)),
        "location": "s3://warehouse/db/big",
        "last-sequence-number": 20,
        "last-updated-ms": t0 + 20 * 3_600_000,
        "last-column-id": next_id[0],
        "current-schema-id": n_schemas - 1,
        "schemas": schemas,
        "default-spec-id": 4,
        "partition-specs": specs,
        "last-partition-id": 1003,
        "default-sort-order-id": 2,
        "sort-orders": orders,
        "properties": {"write.format.default": "parquet", "write.parquet.compression-codec": "zstd"},
        "current-snapshot-id": parent,
        "refs": {"main": {"snapshot-id": parent, "type": "branch"}},
        "snapshots": snapshots,
        "statistics": [],
        "partition-statistics": [],
        "snapshot-log": log,
        "metadata-log": [],
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--statements", type=int, default=2000)
    ap.add_argument("--columns", type=int, default=5000)
    ap.add_argument("--schemas", type=int, default=500)
    ap.add_argument("--out", type=Path, default=OUT)
    ap.add_argument("--validate", action="store_true", help="parse big.metadata.json with pyiceberg")
    args = ap.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)

    (args.out / "migration.sql").write_text(make_migration(args.statements), encoding="utf-8")
    meta = make_metadata(args.columns, args.schemas)
    text = json.dumps(meta, separators=(",", ":"))  # compact, as Iceberg writes it
    (args.out / "big.metadata.json").write_text(text, encoding="utf-8")
    (args.out / "one.sql").write_text("CREATE TABLE db.t (id bigint NOT NULL, name string, ts timestamp) USING iceberg PARTITIONED BY (days(ts));\n")
    first_col = meta["schemas"][-1]["fields"][1]["name"]
    (args.out / "one_alter.sql").write_text(f"ALTER TABLE db.big ALTER COLUMN {first_col} COMMENT 'checked against 500 schemas';\n")
    fields = sum(len(s["fields"]) for s in meta["schemas"])
    print(f"{args.out / 'migration.sql'}: {args.statements} statements")
    print(f"{args.out / 'big.metadata.json'}: {len(text) / 1e6:.1f} MB, {args.schemas} schemas, "
          f"{len(meta['schemas'][-1]['fields'])} columns in the current schema, {fields} top-level field entries")  # fmt: skip
    if args.validate:
        from pyiceberg.table.metadata import TableMetadataUtil

        m = TableMetadataUtil.parse_raw(text)
        assert len(m.schemas) == args.schemas and len(m.schema().fields) == args.columns
        print("pyiceberg: valid Iceberg v2 table metadata")
    return 0


if __name__ == "__main__":
    sys.exit(main())
