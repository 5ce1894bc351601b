"""DML in migrations, checked as Spark's analyzer would against the replayed schema: `check` (the entry),
`columns` (the columns a statement names) and `fast` (the common statements read from icelint's own
tokens, without sqlglot; its equivalence test is in `tests/equivalence/`).
"""
