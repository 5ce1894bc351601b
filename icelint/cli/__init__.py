"""The command line: click options and arguments become one `CheckRequest` for `icelint.engine`.

`main` holds the click commands (the only module that knows click), `help` their sections, `check`
what `icelint check` does around the engine (the run cache, `--fix`/`--diff`, `--statistics`), `state_flags`
the state sources of `icelint snapshot`, `schema_view` the `icelint schema` command, `color` whether to colour.
"""
