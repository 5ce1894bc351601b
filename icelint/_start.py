"""The `icelint` executable's first module (`python -m icelint` and the console script).

`cli.entry` runs the command with Python's cyclic garbage collector off (see its docstring). Turned
off here, before `icelint.cli` is imported, it also stays out of the imports: click, sqlglot's
tokenizer and icelint's own modules make a few hundred classes and modules, and the collector's
passes over them cost about 10 ms of every run's start-up.
"""

from __future__ import annotations

import gc


def entry() -> None:
    gc.disable()
    from icelint.cli import entry as run

    run()
