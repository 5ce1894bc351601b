"""The analysis the partition-source rules share: what a statement does to the columns that partition
specs read (the current spec and older ones), and Iceberg's rejections of partition changes.

`findings(ctx)` works out, once per statement, the findings of all four rules of the family:
ICE003 `partition-source-change` (`partition_source_change.py`), ICE025
`old-partition-source-drop`, ICE026 `partition-source-widening` and ICE027
`partition-source-rename`; each rule keeps its own.
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
    RuleContext,
    RuleId,
    error_owner,
)
from icelint.config.target import old_partition_sources_bind
from icelint.rules.kit.impact import impact

# the family's members, whose findings this analysis makes (each module makes its `Rule` from its id)
SOURCE_CHANGE = RuleId(PARTITION_RULE, "partition-source-change", Severity.ERROR)
OLD_SOURCE_DROP = RuleId("ICE025", "old-partition-source-drop", Severity.WARNING)
SOURCE_WIDENING = RuleId("ICE026", "partition-source-widening", Severity.INFO)
SOURCE_RENAME = RuleId("ICE027", "partition-source-rename", Severity.WARNING)


# the changes that can drop, retype or rename a partition source
_SOURCE_CHANGES = (ch.DeleteColumn, ch.ReplaceColumns, ch.UpdateColumnType, ch.HiveChangeColumn, ch.RenameColumn)


def findings(ctx: RuleContext) -> list[Finding]:
    """The findings of the four partition-source rules (ICE003, ICE025, ICE026, ICE027), worked out
    once per statement (each of the four rules asks)."""
    return ctx.shared("partition_findings", _all_findings)


def _all_findings(ctx: RuleContext) -> list[Finding]:
    return list(_findings(ctx))


def _findings(ctx: RuleContext) -> Iterator[Finding]:
    if ctx.error is not None and error_owner(ctx.outcome) == PARTITION_RULE:
        e = ctx.error
        assert e is not None
        msg, help_ = _help_tables.partition_reject(ctx, e)
        yield ctx.finding(SOURCE_CHANGE, msg, help_, span=_positions.error_span(ctx, e), column=e.column, field_id=e.field_id)
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
                    msg, rule = _binding_drop(ctx, fid, name, fields), SOURCE_CHANGE
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
                SOURCE_CHANGE if identity else SOURCE_WIDENING,
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
) -> tuple[str, RuleId]:
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
        return f"{head}: Spark accepts it, but " + "; and ".join(harms), SOURCE_CHANGE
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
            SOURCE_CHANGE,
            f"`{ctx.table_name}`: the new partition spec {after.default_spec_id} holds partition field id {dup[0]} twice "
            f"({names}); Spark accepts it, but every later read, write and metadata query fails with "
            "'Multiple entries with same key'",
            "a field dropped while the table was format v1 stays as a void transform; re-add the partition under "
            "a name no partition field of any spec had (AS a new name) or with a different transform",
            span=next((c.span for c in ctx.changes if isinstance(c, PARTITION_CHANGES)), None),
        )
