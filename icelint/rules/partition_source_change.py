"""Changing a column that a partition spec (current or older) is built on.

## What it does
Reports changes to partition source columns and partition-field commands that go wrong:
- dropping a column the **current** spec uses (Iceberg rejects the commit);
- dropping a column only an **older** spec uses as an identity partition, where Spark 3.5.9 +
  Iceberg 1.10.2 accept it and then fail:
  - a `string`, `decimal` or `binary` source (v1 and v2): time travel to the snapshots written
    with the old spec fails (`java.lang.ClassCastException: class java.lang.String cannot be cast
    to class org.apache.spark.unsafe.types.UTF8String`, and the same for `BigDecimal`/`Decimal` and
    `HeapByteBuffer`/`[B`);
  - on a **v1** table, of any source type, while another partition field is live in the current
    spec (v1 keeps the old field as `void`): every later `INSERT` fails
    (`java.lang.IllegalArgumentException: Cannot build accessor for field: null`).

  The same drop of an `int`, `bigint`, `date`, `timestamp`, `timestamp_ntz`, `boolean`, `double`
  or `float` source on v2 (or on v1 whose current spec is only void fields) breaks nothing in
  Spark; it is ICE025, like older non-identity fields. So is the drop of a `string`, `decimal` or
  `binary` source whose old spec never held a file, when the table's state proves it (no snapshot
  references a manifest of that spec): there is nothing to time-travel into. Without a state, or
  once the migration wrote the table, the old spec is presumed written;
- with `iceberg-version = "1.9"`, dropping a column that **any** older spec uses, whatever the
  transform (v1 and v2): Iceberg 1.9.2 accepts it, then every read, write and time travel of the
  table fails (`ValidationException: Cannot find source column for partition field`; on 1.10 the
  drops that keep working are ICE025);
- widening a column used by an identity partition (accepted, then reads of older snapshots fail
  with a `ClassCastException`; bucket/truncate sources keep their values: ICE026);
- `ADD/DROP/REPLACE PARTITION FIELD` naming unknown columns or fields, or duplicates (error);
- partition evolution that leaves two partition fields with the same field id (a v1 table upgraded
  to v2, then re-partitioned on a dropped field): accepted, and then every read fails.

## Why is this bad?
Data files record their partition values under the spec they were written with, and old specs stay
live for as long as any snapshot references them. A spec whose source column is gone, or whose
source changed type, can no longer interpret those files.

## Example
```sql
CREATE TABLE db.sales (id bigint, region string, sold_at timestamp) USING iceberg PARTITIONED BY (region);
INSERT INTO db.sales VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);
ALTER TABLE db.sales DROP COLUMN region;
```

## Use instead
```sql
CREATE TABLE db.sales (id bigint, region string, sold_at timestamp) USING iceberg PARTITIONED BY (region);
INSERT INTO db.sales VALUES (1, 'EU', TIMESTAMP '2024-01-01 00:00:00');
ALTER TABLE db.sales REPLACE PARTITION FIELD region WITH days(sold_at);
-- keep `region` until no snapshot references files of the old spec: rewrite them and expire the old
-- snapshots from a Spark session or job (not in a migration), then drop it in a later migration
```

Renaming a partition source is ICE027.

## Fix
`DROP PARTITION FIELD` / `REPLACE PARTITION FIELD` that name a partition field, or the column of a
transform, in the wrong case: partition commands are case-sensitive whatever
`spark.sql.caseSensitive` says (`Cannot find partition field to remove: Logged_At_Day`). When
exactly one current partition field (or one column whose transform is a current partition field)
matches the name ignoring case, the fix writes its exact name (`DROP PARTITION FIELD logged_at_day`,
`DROP PARTITION FIELD bucket(4, id)`): safe, Spark accepts the statement and it does what it says
(tests/differential/cases/620_partition_field_name_case).

## References
- apache/iceberg#4563, #10234 (reads fail after dropping an old partition source)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values import changes as ch
from icelint.values.findings import Finding, Severity
from icelint.model.table import TableMetadata
from icelint.model.types import is_untyped
from icelint.rules.kit import help_tables as _help_tables
from icelint.rules.kit import positions as _positions
from icelint.rules.kit.base import (
    PARTITION_CHANGES,
    PARTITION_RULE,
    REJECTED,
    SCHEMA_CHANGED,
    Rule,
    RuleContext,
    RuleId,
    error_owner,
)
from icelint.config.target import old_partition_sources_bind
from icelint.rules.kit.impact import impact

# the family's members, whose findings this analysis makes (each module makes its `Rule` from its id)
OLD_SOURCE_DROP = RuleId("ICE025", "old-partition-source-drop", Severity.WARNING)
SOURCE_WIDENING = RuleId("ICE026", "partition-source-widening", Severity.INFO)
SOURCE_RENAME = RuleId("ICE027", "partition-source-rename", Severity.WARNING)


# the changes that can drop, retype or rename a partition source
_SOURCE_CHANGES = (ch.DeleteColumn, ch.ReplaceColumns, ch.UpdateColumnType, ch.HiveChangeColumn, ch.RenameColumn)


def check(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.accepted:  # DROP/REPLACE PARTITION FIELD misspelt: the fix names the field exactly
        from icelint.rules.kit.partition_names import with_fix

        return (with_fix(ctx, f) for f in findings(ctx) if f.rule == RULE.code)
    found = findings(ctx)
    return (f for f in found if f.rule == RULE.code) if found else ()


def findings(ctx: RuleContext) -> list[Finding]:
    """This rule's findings and those of the partition rules split from it (ICE025, ICE026, ICE027),
    worked out once per statement (each of the four rules asks)."""
    return ctx.shared("partition_findings", _all_findings)


def _all_findings(ctx: RuleContext) -> list[Finding]:
    return list(_findings(ctx))


def _findings(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.error is not None and error_owner(ctx.outcome) == PARTITION_RULE:
        e = ctx.error
        assert e is not None
        msg, help_ = _help_tables.partition_reject(ctx, e)
        yield ctx.finding(RULE, msg, help_, span=_positions.error_span(ctx, e), column=e.column, field_id=e.field_id)
        return
    if not ctx.accepted or ctx.before is None or ctx.after is None:
        return
    before, after = ctx.before, ctx.after
    for c in ctx.changes:  # a loop, not a generator per statement: most steps change no source
        if isinstance(c, _SOURCE_CHANGES):
            yield from _source_changes(ctx, before, after)
            break
    if after.spec is not before.spec or after.default_spec_id != before.default_spec_id:
        yield from _duplicate_field_ids(ctx, after)


def _source_changes(ctx: RuleContext, before: TableMetadata, after: TableMetadata) -> Iterator[Finding]:
    """Dropping, widening or renaming a column that a partition spec (current or older) reads (called
    for a step with one of `_SOURCE_CHANGES`)."""
    table = ctx.table_name
    current, every = before.partition_sources  # source id → fields of the current spec / of any spec
    if not every:
        return
    for c in ctx.changes:
        if isinstance(c, (ch.DeleteColumn, ch.ReplaceColumns)):
            removed = {f.id for _, f in ctx.diff.removed}  # in the old schema, not in the new one
            for fid, fields in sorted(every.items()):
                if fid in current or fid not in removed:
                    continue
                name = before.schema.name_of(fid)
                identity = any(f.transform == "identity" for f in fields)
                names = ", ".join(sorted({f"{f.name} ({f.transform})" for f in fields}))
                help_ = _help_tables.old_source_help(table, name)
                if old_partition_sources_bind(ctx.result.iceberg_version):
                    msg, rule = _binding_drop(ctx, fid, name, fields), RULE
                    help_ = (f"keep `{name}`: on Iceberg {ctx.result.iceberg_version} every partition spec of the table, "
                             "however old, must still find its source column")
                elif identity:
                    msg, rule = _identity_drop(ctx, before, after, fid, name, names)
                else:
                    msg = (
                        f"`{table}`: dropping `{name}` (field id {fid}), the source of the older partition field {names}: "
                        f"on Iceberg {ctx.result.iceberg_version} Spark keeps reading and writing the table, but {_ON_1_9}"
                    )
                    rule = OLD_SOURCE_DROP
                imp = impact(ctx, before, fid)
                if imp is not None and imp.known:
                    msg += f"; the table {imp.table_phrase()[3:]}"
                yield ctx.finding(
                    rule,
                    msg,
                    help_,
                    span=c.span,
                    column=name,
                    field_id=fid,
                    impact=imp,
                )
        elif isinstance(c, (ch.UpdateColumnType, ch.HiveChangeColumn)):
            f_before = ctx.field_before(c.path)
            if f_before is None or f_before.id not in every:
                continue
            f_after = after.schema.field_by_id(f_before.id)
            if f_after is None or f_after.type == f_before.type or is_untyped(f_before.type):
                continue  # from a type icelint cannot know (CTAS): ICE028 says it is not checked
            fields = every[f_before.id]
            identity = any(f.transform == "identity" for f in fields)
            names = ", ".join(sorted({f"{f.name} ({f.transform})" for f in fields}))
            msg = (
                f"`{table}`: widening `{before.schema.name_of(f_before.id)}` (field id {f_before.id}) from {f_before.type} "
                f"to {f_after.type}, the source of partition field {names}"
            )
            type_span = c.type.span or c.span
            if identity:
                msg += ": Spark accepts it, but reading snapshots written before fails with a ClassCastException"
            else:
                msg += (
                    ": every partition value stays the same (Iceberg's bucket hashes int and long, and decimals of "
                    "any precision, alike; truncate works on the value), so files written before keep their partitions"
                )
            yield ctx.finding(
                RULE if identity else SOURCE_WIDENING,
                msg,
                _help_tables.widen_source_help(ctx, f_before, f_after)
                if identity
                else f"no action needed: the partition field {names} keeps its value in every file written before; "
                f"this is reported so that a reviewer sees the partition source's type change to {f_after.type}",
                span=type_span,
                column=before.schema.name_of(f_before.id),
                field_id=f_before.id,
            )
        elif isinstance(c, ch.RenameColumn):
            f_before = ctx.field_before(c.path)
            if f_before is None or f_before.id not in every:
                continue
            fields = every[f_before.id]
            old = before.schema.name_of(f_before.id)
            names = ", ".join(sorted({f.name for f in fields}))
            yield ctx.finding(
                SOURCE_RENAME,
                f"`{table}`: renaming `{old}` (field id {f_before.id}), a partition source: the partition field "
                f"{names} keeps its name, so adding a column named "
                + " or ".join(f"`{f}`" for f in sorted({f.name for f in fields}))
                + " later fails, and queries on partition metadata tables still use the old name",
                _help_tables.rename_source_help(ctx, c, f_before.id),
                span=c.span,
                column=old,
                field_id=f_before.id,
            )


# Source types whose old identity partition values Spark 3.5.9 + Iceberg 1.10.2 still reads after the
# source column is dropped (cases 501, 503, 504): time travel to the old snapshots works. Iceberg hands
# Spark the Java value of a partition constant; for these types it is the value Spark expects. For
# string, decimal and binary it is not (cases 500, 097, 098), and unmeasured types stay errors.
_READABLE_CONSTANTS = frozenset({"boolean", "int", "long", "float", "double", "date", "timestamp", "timestamptz"})

_CCE = {
    "string": "java.lang.ClassCastException: class java.lang.String cannot be cast to class "
    "org.apache.spark.unsafe.types.UTF8String",
    "decimal": "java.lang.ClassCastException: class java.math.BigDecimal cannot be cast to class "
    "org.apache.spark.sql.types.Decimal",
    "binary": "java.lang.ClassCastException: class java.nio.HeapByteBuffer cannot be cast to class [B",
}


def _identity_drop(
    ctx: RuleContext, before: TableMetadata, after: TableMetadata, fid: int, name: str, names: str
) -> tuple[str, Rule]:
    """The verdict on dropping the source of an older identity partition field, as Spark shows it.

    Time travel to the old snapshots fails for string/decimal/binary sources (v1 and v2); on v1, whose
    current spec keeps the field as `void`, every later INSERT fails while another partition field
    is live; otherwise nothing fails in Spark and only older Iceberg runtimes are at risk (ICE025).
    """
    table = ctx.table_name
    f = before.schema.field_by_id(fid)
    type_ = str(f.type) if f is not None else "?"
    kind = "decimal" if type_.startswith("decimal") else type_
    reads = kind in _READABLE_CONSTANTS
    live = [p.name for p in after.spec.fields if p.transform != "void"]
    writes_fail = after.format_version == 1 and bool(live)
    head = (
        f"`{table}`: dropping `{name}` (field id {fid}, {type_}), the source of the older identity partition field {names}"
    )
    harms = []
    unwritten = _specs_never_written(ctx, before, fid)
    if not reads and unwritten:  # the state's snapshots hold no file of those specs: nothing to time-travel into
        head += f" (no snapshot of the table holds a file written with {'that spec' if len(unwritten) == 1 else 'those specs'}: its manifests say so)"
    elif not reads:
        error = _CCE.get(kind)
        harms.append(
            "time travel to the snapshots written with that spec fails"
            + (f" (`{error}`)" if error else " (a ClassCastException, as with string sources)")
        )
    if writes_fail:
        harms.append(
            "every later INSERT fails (`java.lang.IllegalArgumentException: Cannot build accessor for field: null`): "
            f"the v1 table's current spec keeps it as a void field next to {', '.join(live)}"
        )
    if harms:
        return f"{head}: Spark accepts it, but " + "; and ".join(harms), RULE
    return (
        f"{head}: on Iceberg {ctx.result.iceberg_version} Spark keeps reading and writing the table (old {type_} partition "
        f"values read back without their column), but {_ON_1_9}",
        OLD_SOURCE_DROP,
    )


# What Iceberg 1.9.2 does after the drop (differential cases 034-038, 045, 410, 500-515 on that runtime),
# said where the target is 1.10; runtimes older than 1.9 are known from reports only.
_ON_1_9 = (
    "on Iceberg 1.9 every read, write and time travel of the table then fails (measured with 1.9.2; "
    "older runtimes fail too by apache/iceberg#4563 and #10234, not measured here)"
)


def _binding_drop(ctx: RuleContext, fid: int, name: str, fields) -> str:
    """The verdict where the runtime binds every partition spec of the table (Iceberg 1.9): the drop is
    accepted, then every read, write and time travel of the table fails, whatever the transform."""
    first = min(fields, key=lambda f: f.field_id)
    return (
        f"`{ctx.table_name}`: dropping `{name}` (field id {fid}), the source of the older partition field "
        f"{first.name} ({first.transform}): on Iceberg {ctx.result.iceberg_version} Spark accepts it, but every read, "
        "write and time travel of the table then fails (`org.apache.iceberg.exceptions.ValidationException: "
        f"Cannot find source column for partition field: {first.field_id}: {first.name}: {first.transform}({fid})`"
        + ("; reads: `[INTERNAL_ERROR] The Spark SQL phase analysis failed with an internal error`)"
           if first.transform == "identity" else ")")
    )


def _specs_never_written(ctx: RuleContext, before: TableMetadata, fid: int) -> list[int]:
    """The older specs with an identity field on `fid`, when the table's state proves that no snapshot
    holds a file written with any of them (else []: without a state, or once the scripts wrote the
    table, a spec is presumed written)."""
    origin = before.data_origin
    if origin is None or origin.kind not in ("snapshot", "no-snapshot", "empty-snapshot"):
        return []
    old = [sp.spec_id for sp in before.specs if sp.spec_id != before.default_spec_id
           and any(f.source_id == fid and f.transform == "identity" for f in sp.fields)]
    provider = getattr(ctx.result, "stats", None)
    if not old or provider is None or not ctx.outcome.table or not hasattr(provider, "written_specs"):
        return []
    written = provider.written_specs(ctx.outcome.table)
    return old if written is not None and not written.intersection(old) else []


def _duplicate_field_ids(ctx: RuleContext, after: TableMetadata) -> Iterator[Finding]:
    ids = [f.field_id for f in after.spec.fields]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        names = ", ".join(f.name for f in after.spec.fields if f.field_id in dup)
        yield ctx.finding(
            RULE,
            f"`{ctx.table_name}`: the new partition spec {after.default_spec_id} holds partition field id {dup[0]} twice "
            f"({names}); Spark accepts it, but every later read, write and metadata query fails with "
            "'Multiple entries with same key'",
            "a field dropped while the table was format v1 stays as a void transform; re-add the partition under "
            "a name no partition field of any spec had (AS a new name) or with a different transform",
            span=next((c.span for c in ctx.changes if isinstance(c, PARTITION_CHANGES)), None),
        )


RULE = Rule(PARTITION_RULE, "partition-source-change", Severity.ERROR, check, __doc__, triggers=frozenset({REJECTED, SCHEMA_CHANGED, *PARTITION_CHANGES}))
