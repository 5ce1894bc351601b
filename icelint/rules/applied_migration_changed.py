"""A versioned migration that was already merged (and so applied) has been edited.

## What it does
With `icelint check --since REF`, flags every pending `V<version>__*.sql` file that already existed
at the merge-base of REF and `HEAD` and was modified since. The example's files are shown one
after another, each under a `-- file:` comment; `(applied; changed since main)` marks the edited one.

## Why is this bad?
A versioned migration runs once. Databases that already applied it never see the edit, while new
environments do: the environments drift apart silently. Flyway's `validate` (run before every
`migrate` by default) fails on the changed checksum and stops all further migrations.

## Example
```sql
-- file: V1__create_events.sql (applied; changed since main)
CREATE TABLE db.events (id bigint, source string) USING iceberg;
```

## Use instead
```sql
-- file: V1__create_events.sql (applied)
CREATE TABLE db.events (id bigint) USING iceberg;
-- file: V2__add_source.sql
ALTER TABLE db.events ADD COLUMN source string;
```
"""

from __future__ import annotations

from typing import Iterator

from icelint.plan.discovery import VERSIONED, classify
from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule
from icelint.rules.kit.files import PLAN, FilesContext, at_file_top, next_version, suffix, version_text


def check_files(ctx: FilesContext) -> Iterator[Finding]:
    """With `--since REF`: each new versioned file under review that git says existed at the
    merge-base and was modified (repeatable and plain files are meant to be edited and re-run)."""
    if ctx.order != "flyway" or ctx.since is None or not ctx.plan.pending:
        return
    since = ctx.since
    for p in ctx.modified_since():
        kind, v, desc = classify(p.name)
        if kind != VERSIONED:
            continue
        yield at_file_top(
            RULE,
            p,
            f"this migration (version {version_text(v)}) already exists in {since} and was changed: where it has "
            "been applied, the change never runs, and Flyway's validate fails on the changed checksum",
            f"restore the file as it is in {since} (`git checkout {since} -- {p.as_posix()}`) and put the "
            f"change in a new migration (`V{next_version(ctx.plan.files)}__...{suffix(p)[1:]}`)",
        )


RULE = Rule.over_files(("ICE023", "applied-migration-changed", Severity.WARNING), check_files, __doc__, PLAN)
