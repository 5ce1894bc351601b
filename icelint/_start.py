"""The `icelint` executable's first module (`python -m icelint` and the console script).

Ctrl-C at any moment of the start-up ends the run quietly: the first thing this module does is to
make SIGINT print one line and exit with 130, before anything else is imported (an interrupted
import would otherwise print a traceback). Once the command runs, `cli.IcelintGroup` turns SIGINT
back into `KeyboardInterrupt` for the command's own clean-up (and says "interrupted" with 130
itself), then hands it back to `interrupted` for the exit.

`cli.entry` runs the command with Python's cyclic garbage collector off (see its docstring). Turned
off here, before `icelint.cli.main` is imported, it also stays out of the imports: click, sqlglot's
tokenizer and icelint's own modules make a few hundred classes and modules, and the collector's
passes over them cost about 10 ms of every run's start-up.
"""

import os  # already imported by Python's own start-up: no code runs here
import _signal  # the C module under `signal`: importing `signal` runs Python code (its enums) that Ctrl-C could interrupt


def interrupted(signum, frame) -> None:
    """SIGINT outside the command: nothing to clean up, one line, exit 130."""
    try:
        os.write(2, b"icelint: interrupted\n")
    finally:
        os._exit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not when SIGINT is ignored (`nohup`, `&`)
    _signal.signal(_signal.SIGINT, interrupted)

import gc  # after the handler: nothing before it may be interrupted loudly


def entry() -> None:
    gc.disable()
    from icelint.cli.main import entry as run

    run()
