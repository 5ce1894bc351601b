"""A suppression comment that suppresses nothing.

## What it does
Reports an `-- icelint: ignore ...` or `-- icelint: ignore-file ...` comment (or one rule named in
it) that no finding matched: the rule did not fire there, is not enabled, or is not an icelint rule
at all. Only the files under review are checked.

## Why is this bad?
A suppression outlives the problem it waived: once the statement is fixed or moved, the comment
silently waives the next, unrelated finding of that rule on the statement, and reviewers keep
reading a justification for something that no longer happens. A misspelt rule code waives nothing
at all while looking as if it did.

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
-- icelint: ignore drop-then-add -- payload is re-filled by the backfill job
ALTER TABLE db.events RENAME COLUMN payload TO body;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
ALTER TABLE db.events RENAME COLUMN payload TO body;
```
Delete the comment, or move it to the statement it was meant for. A suppression applies to the
statement right after it (on the lines before the statement) or to the statement whose last line
it ends; `ignore-file` applies to the whole file.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule
from icelint.rules.kit.files import SUPPRESSIONS, FilesContext


def check_files(ctx: FilesContext) -> Iterator[Finding]:
    """Every suppression comment of the files under review, or rule named in one, that suppressed
    nothing (the engine has applied them all and noted what each suppressed, `Directive.used`)."""
    memo: dict = {}  # 50,000 copies of one comment line: one message
    for path in sorted(ctx.directives):
        for d in ctx.directives[path]:
            key = (d.file_level, d.target is None, d.names, d.codes, frozenset(d.used) if d.used else None)
            message = memo.get(key)
            if message is None:
                message = memo[key] = _message(d, ctx)
            if not message:
                continue
            line, column, end_line, end_column = d.span.positions()  # two searches of the line starts, not four
            yield Finding(
                RULE.code, RULE.name, RULE.severity, d.path, line, column, end_line, end_column, message,
                "remove the comment (or the rules it no longer needs), or move it next to the statement it is meant for",
            )


def _message(d, ctx: FilesContext) -> str:
    """The message for the directive `d`, or "" when it suppressed everything it names."""
    kind = "ignore-file" if d.file_level else "ignore"
    problems: list[str] = []
    if d.all_rules:
        if "*" not in d.used:
            problems.append("it suppresses nothing" + ("" if d.file_level or d.target is not None else ": no statement follows it"))
    else:
        for name, code in zip(d.names, d.codes):
            if code is None:
                problems.append(f"`{name}` is not an icelint rule")
            elif code == RULE.code or code in d.used:
                continue
            elif code not in ctx.enabled:
                r = ctx.rule(code)
                problems.append(f"{code} ({r.name if r else code}) is not enabled, so there is nothing to suppress")
            elif not d.file_level and d.target is None:
                problems.append(f"`{name}` applies to no statement (none follows the comment)")
            else:
                r = ctx.rule(code)
                label = f"{code} ({r.name})" if r else code
                where = "in this file" if d.file_level else "on this statement"
                problems.append(f"{label} suppresses nothing {where}")
    if not problems:
        return ""
    return f"unused suppression `icelint: {kind}`: " + "; ".join(problems)


RULE = Rule.over_files(("ICE100", "unused-suppression", Severity.WARNING), check_files, __doc__, SUPPRESSIONS)
