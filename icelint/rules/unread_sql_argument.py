"""A `spark.sql(...)` call in Python whose SQL is not a string literal.

## What it does
In a `.py` migration file or a notebook, reports every call of a SQL callable (`spark.sql`,
`session.sql`, `self.spark.sql`, and the names in `sql-callables` of `[tool.icelint]`) whose SQL
argument is not a string literal: a variable, a function call, `str.format`, `%` formatting. It
names the call and its argument. Literals (plain, triple-quoted, raw, concatenated, f-strings) are
read and checked as SQL; this finding is the one place where icelint says it could not.

## Why is this bad?
icelint reads Python without running it, so SQL built at run time is invisible to it: the statement
is not checked, and the migrations after it are checked as if it never ran. A `DROP COLUMN` in a
variable passes unseen, and a later re-add of that column looks safe.

## Example
```python
spark.sql("CREATE TABLE db.events (id bigint, payload string) USING iceberg")
stmt = "ALTER TABLE db.events DROP COLUMN payload"
spark.sql(stmt)
```

## Use instead
```python
spark.sql("CREATE TABLE db.events (id bigint, payload string) USING iceberg")
spark.sql("ALTER TABLE db.events DROP COLUMN payload")
```
An f-string works too: its fields become `${...}` placeholders, given with `--var`
(`spark.sql(f"ALTER TABLE {db}.events DROP COLUMN payload")` with `icelint check --var db=prod`).
A helper of your own that takes SQL is read like `spark.sql` once named in `pyproject.toml`:

    [tool.icelint]
    sql-callables = ["jobs.run_sql"]

## Fix
None: write the SQL as a literal, or keep the statement in a `.sql` migration file.
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule
from icelint.rules.kit.files import SOURCE, FilesContext


def check_files(ctx: FilesContext) -> Iterator[Finding]:
    """Every SQL call of the Python files and notebooks under review whose SQL is not a string literal."""
    for c in ctx.unread_calls():
        arg = f"`{_short(c.argument)}`" if c.argument is not None else "no SQL argument icelint can find"
        call = f"{c.callable}({_short(c.argument) if c.argument is not None else '...'})"
        yield Finding(
            rule=RULE.code, name=RULE.name, severity=RULE.severity, path=c.path, line=c.line, column=c.column,
            end_line=c.end_line, end_column=c.end_column,
            message=f"`{call}` runs SQL that icelint cannot read: its argument is {arg}, not a string "
            "literal, so this statement is not checked and the migrations after it are checked without it",
            help="pass the SQL to the call as a string literal (an f-string's fields become `${...}` "
            "placeholders, given with `--var NAME=VALUE`), or keep the statement in a `.sql` migration file",
        )  # fmt: skip


def _short(text: str, limit: int = 60) -> str:
    one = " ".join(text.split())
    return one if len(one) <= limit else one[: limit - 3] + "..."


RULE = Rule.over_files(("ICE063", "unread-sql-argument", Severity.INFO), check_files, __doc__, SOURCE)
