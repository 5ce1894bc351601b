"""ICE003's fix for `DROP / REPLACE PARTITION FIELD` naming the field in a form Spark rejects.

Partition commands resolve names case-sensitively, whatever `spark.sql.caseSensitive` says
(Iceberg's `UpdatePartitionSpec` matches partition field names exactly, and binds the columns of a
transform case-sensitively): `DROP PARTITION FIELD Logged_At_Day` fails with `Cannot find partition
field to remove: Logged_At_Day` when the field is `logged_at_day`, and `DROP PARTITION FIELD
days(Logged_At)` fails with `Cannot find field 'Logged_At'`. Spark accepts the same statement with
the exact spelling (tests/differential/cases/620_partition_field_name_case). The fix respells the
one name, when exactly one current partition field (or, in a transform, one column whose transform
is a current partition field) matches it ignoring case: safe, the statement then does what it says.
"""

from __future__ import annotations

from dataclasses import replace

from icelint.values import changes as ch
from icelint.values.findings import Finding
from icelint.values.fix import Applicability, Edit, Fix
from icelint.rules.kit.help import ident, path_sql


def with_fix(ctx, finding: Finding) -> Finding:
    """`finding` (ICE003 on a rejected statement) with the respelling fix, when there is one."""
    if finding.fix is not None or ctx.before is None or ctx.error is None or ctx.error.kind not in ("partition", "unknown-column"):
        return finding
    for c in ctx.changes:
        old = c.transform if isinstance(c, ch.DropPartitionField) else c.old if isinstance(c, ch.ReplacePartitionField) else None
        if old is None:
            continue
        edit = _respell(ctx.before, old)
        if edit is not None:
            return replace(finding, fix=Fix(Applicability.SAFE, f"name the partition field exactly: `{edit.content}`", (edit,)))
    return finding


def _respell(before, old) -> Edit | None:
    schema, fields = before.schema, [f for f in before.spec.fields if f.transform != "void"]
    cols = old.columns
    if len(cols) != 1:
        return None
    name = cols[0]
    if old.func is None and len(name.parts) == 1 and schema.find(name.parts) is None:
        n = name.parts[0]  # removed by name: a partition field's name, exactly
        if any(f.name == n for f in fields):
            return None
        same = [f for f in fields if f.name.lower() == n.lower()]
        return Edit.replace(name.span, ident(same[0].name)) if len(same) == 1 else None
    if schema.find(name.parts) is not None:
        return None  # the column resolves: the statement fails for another reason
    col = schema.find(name.parts, case_sensitive=False)
    if col is None:
        return None
    from icelint.replay.partitioning import transform_kind

    from icelint.replay.errors import ReplayError

    try:
        kind = transform_kind(old)
    except ReplayError:
        return None
    if not any(f.source_id == col.id and f.transform == kind for f in fields):
        return None
    exact = schema.path_of(col.id)
    return Edit.replace(name.span, path_sql(exact)) if exact else None
