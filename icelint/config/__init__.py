"""`[tool.icelint]` in `pyproject.toml`: found by walking up from the current directory, validated
strictly (an unknown key, a wrong type or an unknown rule is one line and exit code 2), merged
with the command line (flags win).

```toml
[tool.icelint]
migrations = "migrations"          # the folder of migrations: context for the files under review
order = "flyway"                   # flyway | natural | lexicographic (see icelint.plan.discovery)
select = ["ICE001", "drop-column-with-data"] # codes, names, prefixes (ICE0, ICE01) or ALL; default: every rule
ignore = ["ICE013"]
extend-select = []                 # added to `select` (also to the default), as ruff's
extend-ignore = []                 # the same as `ignore` (ruff's spelling)
fail-on = "error"                  # error | warning | info
catalog-kind = "iceberg"           # iceberg (SparkCatalog) | session (SparkSessionCatalog)
readers = ["spark", "clickhouse"]  # reader profiles the reader rules check; default: all (icelint.readers)
catalog = "prod"                   # state sources, handed to the state loaders
warehouse = "warehouse/"
metadata = { "db.events" = "snapshots/db.events.metadata.json" }  # or a list of unnamed files

docs-url = "https://example.com/icelint/rules/{code}.md"  # rule-doc links (icelint.rules.kit.docs_url)
cache-dir = ".icelint_cache"       # the run cache (icelint.run.cache); --no-cache turns it off
fix = false                        # as --fix: apply safe fixes (icelint.fixes.apply); --no-fix wins
unsafe-fixes = false               # as --unsafe-fixes: unsafe fixes apply too; --no-unsafe-fixes wins

[tool.icelint.vars]                # values of ${name} placeholders (icelint.engine.placeholders); --var wins
schema = "analytics"

[tool.icelint.severity]            # per-rule severity
ICE011 = "error"

[tool.icelint.per-file-ignores]    # glob (relative to this file, or a bare file name) → rules
"migrations/legacy/*.sql" = ["ICE001"]
"V1__*.sql" = ["drop-column-with-data"]
```

Relative paths in the file are relative to the directory of the `pyproject.toml`.

Along the data flow: `files` finds and reads the file, `keys` validates the section into a `Config`,
`model` is the `Config` (merged with the flags, asked by the check), `show` prints it (--show-config).
"""

from icelint.config.files import FILE_NAME, find_config, load_config
from icelint.config.keys import CATALOG_KINDS, KEYS, SEVERITIES, STATE_KEYS, parse_section
from icelint.config.model import Config, ConfigError
from icelint.config.show import render_toml

__all__ = ["CATALOG_KINDS", "FILE_NAME", "KEYS", "SEVERITIES", "STATE_KEYS", "Config", "ConfigError", "find_config",
           "load_config", "parse_section", "render_toml"]
