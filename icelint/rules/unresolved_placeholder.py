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
from icelint.rules.kit.base import Rule, RuleContext


def check(ctx: RuleContext) -> Iterator[Finding]:
    """Nothing per statement: `icelint.engine.placeholders` reports placeholders without a value, from the text."""
    return iter(())


RULE = Rule("ICE060", "unresolved-placeholder", Severity.ERROR, check, __doc__, triggers=frozenset())
