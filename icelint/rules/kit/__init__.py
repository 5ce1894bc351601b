"""The public kit rules are written with: what a rule is and what it sees (`base`), what a rule over
files sees and when it runs (`files`), where a finding points (`positions`), the data at stake
(`impact`), help recipes as SQL (`help`, `help_*`), fixes built from them (`fixes`), look-ups over
a run's outcomes (`outcomes`), backfill detection (`backfill`) and Spark's names of column types
(`types`). What a rule computes once and shares lives on the objects it is handed, never in a
module: per statement in `ctx.shared(name, make)` (a family of rules over one analysis), per run on
`ctx.run` (`icelint.engine.context.RunContext`: the outcome look-ups, the suggestion budget,
`analyses`). See CONTRIBUTING.md, "Adding a rule" and "Following a rule".
"""
