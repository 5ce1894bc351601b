"""A `${name}` placeholder that has no value.

## What it does
Reports every Flyway placeholder `${name}` and Spark variable `${name}` / `${hivevar:name}` in
a migration (comments and strings included, as Flyway reads them) that neither `--var
name=value` nor `[tool.icelint.vars]` gives a value, naming it.
The statement it stands in is not checked (instead of a parse error, this one finding says why).
Placeholders that have a value are substituted before the check, and findings still point into
the file as written.

## Why is this bad?
Flyway refuses to run a script with a placeholder it has no value for (`No value provided for
placeholder`), and Spark leaves an unknown `${name}` in the text, where it does not parse. Either
way the migration fails when it runs, and icelint cannot tell what the statement would do to the
table.

## Example
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
ALTER TABLE db.events ADD COLUMN ${new_column} string;
```

## Use instead
```sql
CREATE TABLE db.events (id bigint, payload string) USING iceberg;
ALTER TABLE db.events ADD COLUMN country string;
```
Or keep the placeholder and give icelint its value, as Flyway gets it:
`icelint check migrations/ --var new_column=country`, or in `pyproject.toml`:

    [tool.icelint.vars]
    new_column = "country"

## References
- Flyway placeholders: https://documentation.red-gate.com/fd/placeholders-184127537.html
- Spark SQL variable substitution (`spark.sql.variable.substitute`, `${hivevar:name}`)
"""

from __future__ import annotations

from typing import Iterator

from icelint.values.findings import Finding, Severity
from icelint.rules.kit.base import Rule
from icelint.rules.kit.files import TEXT, FilesContext


def check_files(ctx: FilesContext) -> Iterator[Finding]:
    """Every placeholder without a value in the files under review (the engine drops the parse error
    of the statement it breaks: this finding says why the statement is not checked)."""
    for p in ctx.placeholders():
        name = p.name
        short = name.split(":", 1)[1] if name.lower().startswith("hivevar:") else name
        if p.field is not None:  # an f-string field: Python fills it when the code runs
            message = (f"the f-string field `{p.field}` is filled in when the code runs, and icelint, which does not "
                       "run it, has no value for it, so it cannot tell what the statement does")
            help = (f"give it the value it has when the migration runs: `icelint check --var {name}=VALUE`, or "
                    f"`{name} = \"VALUE\"` under [tool.icelint.vars] in pyproject.toml")
        else:
            message = (f"placeholder `${{{name}}}` has no value: Flyway refuses to run this script (\"No value "
                       f"provided for placeholder\"), and Spark leaves `${{{name}}}` in the SQL as written, so icelint "
                       "cannot tell what the statement does")
            help = (f"give it a value: `icelint check --var {short}=VALUE`, or `{short} = \"VALUE\"` under "
                    "[tool.icelint.vars] in pyproject.toml")
        yield Finding(rule=RULE.code, name=RULE.name, severity=RULE.severity, path=p.path, line=p.line,
                      column=p.column, end_line=p.end_line, end_column=p.end_column, message=message, help=help)


RULE = Rule.over_files(("ICE060", "unresolved-placeholder", Severity.ERROR), check_files, __doc__, TEXT)
