"""What one lint of a replay carries from its first outcome to its last: the per-run context.

`checker.lint_replay` and `checker.lint_run` make one `RunContext` for the replay they lint (the
engine's entry, `icelint.engine.run`, reaches them through `check`; each table group of a parallel
run is a replay and a lint of its own), and every `RuleContext` of that lint holds it as `ctx.run`.
What a rule or the rules' kit builds once per run instead of once per finding lives here, never
in a module: the look-ups over the run's outcomes (`icelint.rules.kit.outcomes`), the budget of
"did you mean" comparisons (`icelint.rules.kit.help`), and the analyses a rule makes once over
the whole run (`analyses`, keyed by the rule's name). A new run starts from a new context: nothing
one check learnt leaks into the next one in the same process (a language server, the tests).
"""

from __future__ import annotations

from typing import Any


class RunContext:
    """The state of one lint run: its replay result and what was built over it."""

    __slots__ = ("result", "index", "suggestions", "analyses")

    def __init__(self, result: Any) -> None:
        self.result = result  # the `ReplayResult` being linted (its outcomes grow while the replay streams)
        self.index: Any = None  # the look-ups over `result.outcomes` (`rules.kit.outcomes.index`), built on first ask
        self.suggestions = 0  # name comparisons spent on "did you mean" so far (`rules.kit.help.SUGGESTION_BUDGET`)
        self.analyses: dict[str, Any] = {}  # a rule's name → what it found once over the whole run


__all__ = ["RunContext"]
