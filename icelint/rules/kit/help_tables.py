"""Help recipes for partitions, identifier fields, sort orders and tables (the SQL conventions are
`_help.py`'s)."""

from __future__ import annotations

import re

from icelint.model import types as it
from icelint.rules.kit.help import did_you_mean, did_you_mean_column, ident, may_suggest, path_sql, sql, table_sql, transform_sql, type_sql
from icelint.rules.kit.help_columns import free_column_name


def rename_source_help(ctx, c, field_id: int) -> str:
    """ICE003: renaming a partition source: what the old partition field name still blocks (Spark-checked in
    tests/differential/cases/099_help_recipes_followed: renaming the partition field too does not free it)."""
    before = ctx.before
    current = [f for f in before.spec.fields if f.source_id == field_id]
    old_path = before.schema.path_of(field_id) or c.path
    new_path = tuple(old_path[:-1]) + (c.new_name,)
    if not current:
        older = sorted({f.name for s in before.specs for f in s.fields if f.source_id == field_id})
        names = ", ".join(f"`{n}`" for n in older)
        return (
            f"only an older partition spec uses it, and its partition field {names} cannot be renamed any more; "
            f"the rename itself is safe, but a column added later must not be named {names}"
        )
    identity = [f.name for f in current if f.transform == "identity"]
    if not identity:
        names = ", ".join(f"`{f.name}`" for f in current)
        return (
            f"the rename is safe for the data; the partition field {names} keeps its name, so do not name a new column "
            f"{names}, and update queries on the partitions metadata table"
        )
    names = ", ".join(f"`{n}`" for n in identity)
    return (
        f"the rename is safe for the data, but the partition field {names} keeps the old name in every spec that has "
        f"it, so no new column can be named {names} (Iceberg: Cannot create identity partition sourced from different "
        f"field in schema); renaming the partition field in the same migration (REPLACE PARTITION FIELD {identity[0]} "
        f"WITH {path_sql(new_path)} AS {ident(new_path[-1])}) renames it in a new spec only: the older spec keeps "
        f"{names}, so pick other names for new columns"
    )


def partition_reject(ctx, e) -> tuple[str, str]:
    """ICE003 on a rejected partition change: what happens in the user's terms, and what to do."""
    from icelint.values import changes as ch

    t = table_sql(ctx.table_name)
    table = ctx.table_name
    before = ctx.before
    if "Cannot find source column for partition field" in e.message and before is not None:
        drops = [c for c in ctx.changes if isinstance(c, ch.DeleteColumn)]
        sources = {f.source_id: f for f in before.spec.fields}
        keep, fields, rest = [], [], []
        for c in drops:
            f = before.schema.find(c.path, case_sensitive=False)
            if f is not None and f.id in sources:
                keep.append(f"`{before.schema.name_of(f.id)}` (field id {f.id})")
                fields.append(sources[f.id].name)
            elif f is not None:
                rest.append(path_sql(before.schema.path_of(f.id) or c.path))
        what = ", ".join(keep) or "the column"
        msg = (
            f"`{table}`: dropping {what} fails and the table is unchanged: the current partition spec partitions by it "
            f"(partition field {', '.join(f'`{n}`' for n in fields)}); Iceberg: {e.quoted}"
        )
        if fields and len(drops) == len(keep) + len(rest):
            stmts = [f"ALTER TABLE {t} DROP PARTITION FIELD {ident(n)}" for n in fields]
            if rest:
                stmts.append(f"ALTER TABLE {t} DROP COLUMN{'S' if len(rest) > 1 else ''} {', '.join(rest)}")
            return msg, (
                f"stop partitioning by it first: {sql(*stmts)}; drop the column in a later migration, once no snapshot "
                f"needs files of the old spec (rewrite them with `CALL system.rewrite_data_files(table => '{table}')` "
                "and expire the old snapshots)"
            )
        return msg, "stop partitioning by it first (DROP or REPLACE PARTITION FIELD), then drop the column in a later migration"
    msg = f"`{table}`: the partition change fails and the table is unchanged; {'Spark' if e.layer == 'spark' else 'Iceberg'}: {e.quoted}"
    if "Found duplicate column(s) in the partitioning" in e.message:
        return msg, (
            "write each transform of a column once: Spark takes two transforms of the same name over the same columns "
            "for one, whatever their width (`bucket(4, id)` and `bucket(8, id)`), and `CLUSTERED BY (c) INTO n BUCKETS` "
            "is one more `bucket` transform of `c`"
        )
    if "more than one column reference" in e.message:
        return msg, _multi_column_help(ctx, e)
    hint = ""
    m = re.search(r"(?:Cannot find partition field to remove: (?:ref\(name=\")?|Cannot find field ')([^\"')]+)", e.message)
    if m and before is not None:
        name = m.group(1)
        if "partition field" in e.message:
            hint = did_you_mean(name, [f.name for f in before.spec.fields if f.transform != "void"], ctx.run)
            current = ", ".join(f"`{f.name}`" for f in before.spec.fields if f.transform != "void") or "none"
            return msg, f"{hint + ' ' if hint else ''}the current partition fields are {current}; partition commands name them exactly (case-sensitive)"
        hint = did_you_mean_column(before.schema, name, ctx.run)
    return msg, (hint + " " if hint else "") + "check the column and partition field names with `icelint schema`; partition commands are case-sensitive"


def _multi_column_help(ctx, e) -> str:
    """ICE003: a transform over several columns (`CLUSTERED BY (a, b)`, `bucket(4, a, b)`, SORTED BY)."""
    from icelint.values import changes as ch

    t = next((t for c in ctx.changes if isinstance(c, ch.CreateTable) for t in c.partition_by if t.span == e.span), None)
    cols = [a.dotted for a in t.args if not isinstance(a, (int, str))] if t is not None else []
    widths = [a for a in t.args if isinstance(a, int)] if t is not None else []
    n = widths[0] if widths else 16
    if t is not None and t.func == "sorted_bucket":
        order = ", ".join(path_sql(c) for c in cols[1:]) or "..."
        return (
            f"Iceberg has no sorted buckets: leave SORTED BY out (`CLUSTERED BY ({path_sql(cols[0]) if cols else '...'}) INTO {n} "
            f"BUCKETS`), and once the table exists give it a write order instead: ALTER TABLE {table_sql(ctx.table_name)} "
            f"WRITE ORDERED BY {order}"
        )
    if len(cols) < 2:
        return "partition by transforms of one column each"
    each = ", ".join(f"bucket({n}, {path_sql(c)})" for c in cols)
    return (
        f"an Iceberg partition transform takes one column: bucket by one of them (`CLUSTERED BY ({path_sql(cols[0])}) INTO {n} "
        f"BUCKETS`), or by each on its own (`PARTITIONED BY ({each})`: {n} buckets of each, {n ** len(cols)} in all)"
    )


def widen_source_help(ctx, f_before, f_after) -> str:
    """ICE003 widening a partition source: a new column with the wider type, partitioned on instead."""
    t = table_sql(ctx.table_name)
    before = ctx.before
    path = before.schema.path_of(f_before.id) or (f_before.name,)
    current = [f for f in before.spec.fields if f.source_id == f_before.id and f.transform != "void"]
    if not current or len(path) > 1:
        return (
            f"keep `{'.'.join(path)}` as {type_sql(f_before.type)}: add a new column with the wider type, backfill it, "
            "and partition on the new column instead of widening a partition source"
        )
    new = free_column_name(ctx, (), path[-1])
    stmts = [f"ALTER TABLE {t} ADD COLUMN {ident(new)} {type_sql(f_after.type)}", f"UPDATE {t} SET {ident(new)} = {path_sql(path)}"]
    for f in current:
        stmts.append(f"ALTER TABLE {t} REPLACE PARTITION FIELD {ident(f.name)} WITH {transform_sql(f.transform, new)}")
    return f"keep `{path[-1]}` as it is and partition on a new, wider column: {sql(*stmts)}"


def _identifier_candidates(schema) -> list[str]:
    """Columns Iceberg accepts as identifier fields: required primitives, not float/double, not in lists,
    maps or optional structs."""
    out = []
    for path, f in schema.all_fields():
        if not f.required or not f.type.is_primitive or getattr(f.type, "name", "") in ("float", "double"):
            continue
        if all(a.required and isinstance(a.type, it.StructType) for a in schema.ancestors(f.id)):
            out.append(".".join(path))
    return out


def identifier_help(ctx, e) -> str:
    """ICE005 on an identifier-field error: the statements that do what was meant, with the real names."""
    from icelint.values import changes as ch

    t = table_sql(ctx.table_name)
    schema = ctx.before.schema if ctx.before is not None else None
    if schema is None:
        return "identifier fields must be required primitive columns"
    current = [schema.name_of(i) for i in schema.identifier_field_ids]
    current_txt = ", ".join(f"`{c}`" for c in current if c) or "none"
    changes = ctx.changes
    if "Cannot delete" in e.message and all(isinstance(c, ch.DeleteColumn) for c in changes):
        deleted = set()
        for c in changes:
            f = schema.find(c.path, case_sensitive=False)
            if f is not None:
                deleted.add(f.id)
                deleted.update(i for i in schema.identifier_field_ids if f.id in {a.id for a in schema.ancestors(i)})
        keep = [schema.name_of(i) for i in schema.identifier_field_ids if i not in deleted]
        drops = ", ".join(path_sql(schema.path_of(schema.find(c.path, case_sensitive=False).id) or c.path) if schema.find(c.path, case_sensitive=False) else path_sql(c.path) for c in changes)
        first = (
            f"ALTER TABLE {t} SET IDENTIFIER FIELDS {', '.join(path_sql(k) for k in keep)}"
            if keep
            else f"ALTER TABLE {t} DROP IDENTIFIER FIELDS {', '.join(path_sql(schema.name_of(i)) for i in schema.identifier_field_ids if i in deleted)}"
        )
        second = f"ALTER TABLE {t} DROP COLUMN{'S' if len(changes) > 1 else ''} {drops}"
        return (
            f"the identifier fields (now {current_txt}) are what upserts and equality deletes key on: if the key really "
            f"changes, update them first, then drop: {sql(first, second)}"
        )
    if any(isinstance(c, ch.DropIdentifierFields) for c in changes):
        c = next(c for c in changes if isinstance(c, ch.DropIdentifierFields))
        ids = set(schema.identifier_field_ids)
        listed = [p for p in c.paths if (f := schema.find(p)) is not None and f.id in ids]
        hint = did_you_mean(e.column or "", current, ctx.run) if e.column else ""
        if listed:
            return f"{hint + ' ' if hint else ''}only {current_txt} are identifier fields: {sql(f'ALTER TABLE {t} DROP IDENTIFIER FIELDS ' + ', '.join(path_sql(p) for p in listed))}"
        return f"{hint + ' ' if hint else ''}the identifier fields are {current_txt}: this statement has nothing to drop, delete it"
    if any(isinstance(c, ch.SetIdentifierFields) for c in changes):
        c = next(c for c in changes if isinstance(c, ch.SetIdentifierFields))
        ok = set(_identifier_candidates(schema))
        valid = [schema.name_of(f.id) for p in c.paths if (f := schema.find(p)) is not None and schema.name_of(f.id) in ok]
        bad = e.column or ""
        why = ""
        f = schema.find(tuple(bad.split("."))) if bad else None
        if f is not None and not f.required and f.type.is_primitive:
            why = f"`{bad}` is optional, and Iceberg cannot make an existing optional column required; "
        elif f is None and bad:
            hint = did_you_mean_column(schema, bad, ctx.run)
            why = f"`{bad}` is not a column{'; ' + hint if hint else ''}; "
        cands = ", ".join(f"`{n}`" for n in sorted(ok)) or "none"
        if valid:
            return (
                f"{why}identifier fields must be required primitive columns (here: {cands}); with the valid ones "
                f"only: {sql(f'ALTER TABLE {t} SET IDENTIFIER FIELDS ' + ', '.join(path_sql(v) for v in valid))}"
            )
        return f"{why}identifier fields must be required primitive columns, not float or double, not inside a list, map or optional struct (here: {cands})"
    return f"update the identifier fields (now {current_txt}) first, in a separate statement"


def known_table_hint(ctx) -> str:
    """`did you mean `db.events`? If not, ` from the tables the run knows (or '')."""
    result = ctx.whole_run()  # the tables at the end of the run
    if not may_suggest(len(result.tables), ctx.run):
        return ""
    names = [result.display_names.get(k, k) for k, v in result.tables.items() if v is not None]
    hint = did_you_mean(ctx.table_name, names, ctx.run)
    return f"{hint} If not, " if hint else ""


def sort_order_help(ctx, e) -> str | None:
    """ICE005 on dropping a column of the current sort order: the sort order without it, then the drop."""
    from icelint.values import changes as ch

    before = ctx.before
    if before is None or not ctx.changes or not all(isinstance(c, ch.DeleteColumn) for c in ctx.changes):
        return None
    t = table_sql(ctx.table_name)
    schema = before.schema
    dropped = set()
    for c in ctx.changes:
        f = schema.find(c.path, case_sensitive=False)
        if f is not None:
            dropped.add(f.id)
            dropped.update(i for _, g in schema.all_fields() for i in [g.id] if f.id in {a.id for a in schema.ancestors(g.id)})
    terms = []
    for sf in before.sort_order.fields:
        if sf.source_id in dropped:
            continue
        name = schema.name_of(sf.source_id)
        if name is None:
            return None
        term = transform_sql(sf.transform, name)
        term += " DESC" if sf.direction == "desc" else " ASC"
        term += " NULLS FIRST" if sf.null_order == "nulls-first" else " NULLS LAST"
        terms.append(term)
    mode = before.properties.get("write.distribution-mode")
    how = {"none": "LOCALLY ORDERED BY", "hash": "DISTRIBUTED BY PARTITION LOCALLY ORDERED BY"}.get(mode or "", "ORDERED BY")
    order = f"ALTER TABLE {t} WRITE {how} {', '.join(terms)}" if terms else f"ALTER TABLE {t} WRITE UNORDERED"
    drops = ", ".join(path_sql(schema.path_of(f.id) or c.path) for c in ctx.changes if (f := schema.find(c.path, case_sensitive=False)) is not None)
    drop = f"ALTER TABLE {t} DROP COLUMN{'S' if len(ctx.changes) > 1 else ''} {drops}"
    return f"the table's write order sorts by it: change the sort order first, then drop: {sql(order, drop)}"


def hive_command_help(ctx, c) -> str:
    """What to write instead of a Hive table command Spark refuses on an Iceberg table (`replay/hive.py`):
    the DELETE or UPDATE that does what a partition's DROP, TRUNCATE or RENAME meant, where every key of
    its partition spec is a column of the table with a value; else what Iceberg does instead, in words."""
    t = table_sql(ctx.table_name)
    cmd = c.command
    conditions = [_partition_condition(ctx, spec) for spec in c.partitions]
    known = bool(conditions) and all(conditions)
    if cmd in ("drop partition", "truncate partition"):
        if known:
            where = conditions[0] if len(conditions) == 1 else " OR ".join(f"({w})" for w in conditions)
            return (
                f"an Iceberg table has no Hive partitions to drop or truncate: delete the rows instead, {sql(f'DELETE FROM {t} WHERE {where}')} "
                "(where the condition follows the partitioning, Iceberg removes whole data files)"
            )
        return f"an Iceberg table has no Hive partitions to drop or truncate: delete the rows instead, with `DELETE FROM {t} WHERE` a condition on the columns the partition values come from"
    if cmd == "rename partition":
        old, new = c.partitions
        if known and len(old) == len(new) == 1 and old[0][0].lower() == new[0][0].lower() and new[0][1] is not None:
            column = ident(_column_name(ctx, old[0][0]))
            return (
                "an Iceberg table's partitions are not named, they follow the rows' values: to move the rows, "
                + sql(f"UPDATE {t} SET {column} = {new[0][1]} WHERE {conditions[0]}")
            )
        return "an Iceberg table's partitions are not named, they follow the rows' values: to move rows, UPDATE the columns the partition values come from"
    if cmd == "add partition":
        return (
            "an Iceberg table has no partitions to add: a partition exists once rows with its values are written; remove "
            f"this statement (to change how rows are partitioned: `ALTER TABLE {t} ADD PARTITION FIELD` and a column or transform)"
        )
    if cmd == "partition location":
        return "an Iceberg table has no per-partition locations (its data files go under the table's location or `write.data.path`): remove this statement"
    if cmd in ("recover partitions", "repair table"):
        return (
            "Iceberg lists every data file in the table's metadata, so there is nothing to recover: remove this statement (files "
            "written outside Iceberg are added with its `add_files` procedure)"
        )
    if cmd == "analyze table":
        return (
            "Iceberg keeps column statistics in its manifests as it writes; remove this statement, or compute table statistics "
            f"with Iceberg's procedure: {sql(f'CALL system.compute_table_stats(table => {_string(ctx.table_name)})')}"
        )
    if cmd == "create table like":
        return "write the new table out instead: " + sql(create_like_sql(ctx, c.target))  # the source exists here
    if cmd == "drop index":
        return "Iceberg tables have no indexes, so there is none to drop: remove this statement"
    if cmd == "create index":
        return (
            "Iceberg tables have no indexes: remove this statement; to let lookups skip data files, sort the rows by "
            f"the looked-up columns (`ALTER TABLE {t} WRITE ORDERED BY` them, then Iceberg's `rewrite_data_files` procedure)"
        )
    return "an Iceberg table has no SerDe: its file format and writer settings are table properties (`write.format.default` and others): remove this statement"


def _partition_condition(ctx, spec) -> str | None:
    """`dt = '2024-01-01' AND region = 'eu'` for a partition spec whose keys are all columns of the table
    (found as the session compares names) with values; None otherwise (a partition field's name, `ts_day`)."""
    if ctx.before is None or not spec:
        return None
    parts = []
    for key, value in spec:
        if value is None:
            return None
        name = _column_name(ctx, key)
        if name is None:
            return None
        parts.append(f"{ident(name)} = {value}")
    return " AND ".join(parts)


def _column_name(ctx, key: str) -> str | None:
    f = ctx.before.schema.top_level(key, ctx.outcome.case_sensitive)
    return f.name if f is not None else None


def _string(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def create_like_sql(ctx, target: str) -> str:
    """`CREATE TABLE target (...) USING iceberg [PARTITIONED BY (...)]` with the columns (top-level NOT NULL
    and comments) and the current partitioning of the table the statement would copy (`ctx.before`)."""
    meta = ctx.before
    cols = []
    for f in meta.schema.fields:
        col = f"{ident(f.name)} {type_sql(f.type)}"
        if f.required:
            col += " NOT NULL"
        if f.doc is not None:
            col += " COMMENT " + _string(f.doc)
        cols.append(col)
    out = f"CREATE TABLE {table_sql(target)} ({', '.join(cols)}) USING iceberg"
    parts = []
    for pf in meta.spec.fields:
        source = meta.schema.name_of(pf.source_id)
        if source is None or pf.transform == "void":
            continue
        parts.append(transform_sql(pf.transform, source))
    if parts:
        out += f" PARTITIONED BY ({', '.join(parts)})"
    return out


def old_source_help(table: str, column: str) -> str:
    """ICE003/ICE025: the drop waits for operational steps that no migration can run."""
    return (
        f"keep `{column}` for now (remove this drop): first rewrite the files of the old spec and expire the snapshots "
        f"that reference them, which are operational steps run from a Spark session or job, not in a migration "
        f"(written there, the drop fails the same way): `CALL system.rewrite_data_files(table => '{table}', options => "
        f"map('rewrite-all', 'true'))`, then `CALL system.expire_snapshots(table => '{table}', older_than => "
        f"TIMESTAMP '9999-12-31 00:00:00', retain_last => 1)` (it ends time travel to every snapshot before the "
        f"rewrite); then drop `{column}` in a later migration"
    )

