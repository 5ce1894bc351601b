"""Fixes built from help: the SQL a `help:` line proposes, as an edit of the migration file.

One source of truth: a rule's help recipe (`_help_columns.py`, `_help_tables.py`) writes the SQL once,
in the help's backticks (`_help.py` conventions); `from_help` turns the proposal the fix is about into
a `Fix` (`icelint/values/fix.py`) that replaces exactly the statement it is meant for. The statement's span
stops before its `;`, so the terminator and every comment around the statement stay as written; the
proposal's statements are written one per line, joined by `;`. `tests/rules/test_help_replay.py`
pastes every proposal and `tests/rules/test_fix_replay.py` applies every fix, and both replay the result.

Which proposal and which applicability are the rule's choice (its `## Fix` section says why).
"""

from __future__ import annotations

import functools

from icelint.values.fix import Applicability, Edit, Fix
from icelint.rules.kit.help import Proposed, parsed_statements, proposals, simple_statements

SAFE, UNSAFE, DISPLAY_ONLY = Applicability.SAFE, Applicability.UNSAFE, Applicability.DISPLAY_ONLY


@functools.lru_cache(maxsize=4096)  # one proposal recurs once per finding: parsed once
def statements_text(sql: str) -> str | None:
    """`a; b` as `a;\\nb` (one statement a line, no final `;`: the replaced statement's own stays)."""
    simple = simple_statements(sql)  # the parser's statements, without parsing (see there)
    if simple is not None:
        return ";\n".join(simple)
    stmts = parsed_statements(sql)
    if not stmts:
        return None
    return ";\n".join(sql[s.span.start : s.span.end] for s in stmts)


@functools.lru_cache(maxsize=64)  # the same help recurs in every finding of one shape (N drops of one column)
def _proposals(help_text: str) -> tuple:
    return tuple(proposals(help_text))


def from_help(ctx, help_text: str | None, applicability: Applicability, message: str, elsewhere: bool = False) -> Fix | None:
    """The fix that applies the help's first proposal for the flagged statement (or, with `elsewhere`,
    for the earlier statement it names as "replace the statement at FILE:LINE with", when that
    statement is in the same file), or None when the help proposes none."""
    here = ctx.step.span
    for target, text in _proposals(help_text or ""):
        if (target is not None) != elsewhere:
            continue
        span = here if target is None else statement_span(ctx, target[0], target[1])
        if span is None or span.path != here.path:
            continue
        content = statements_text(text)
        if content is None:
            continue
        return Fix(applicability, message, (Edit.replace(span, content),))
    return None


def from_proposed(ctx, proposed: Proposed, applicability: Applicability, message: str, elsewhere: bool = False) -> Fix | None:
    """`from_help(ctx, proposed.text, ...)` from the statements the recipe recorded: the same edit
    (`tests/equivalence/test_kit_fixes.py` compares the two), without parsing the help."""
    here = ctx.step.span
    if elsewhere:
        if proposed.elsewhere is None:
            return None
        span, stmts = proposed.elsewhere
    else:
        span, stmts = here, proposed.here
    if not stmts or span.path != here.path:
        return None
    return Fix(applicability, message, (Edit.replace(span, ";\n".join(s.strip().rstrip(";") for s in stmts)),))


def statement_span(ctx, path: str, line: int):
    """The span of the step of this run that starts at `path:line`."""
    from icelint.rules.kit.outcomes import statement_span as _indexed

    return _indexed(ctx.run, path, line)  # an index: a scan per finding is quadratic


def replace_columns_fix(ctx, help_text: str) -> Fix | None:
    """REPLACE COLUMNS → the net ALTER statements of `_help_columns.replace_columns_help`: safe when every
    listed column is matched by name, unsafe when one is taken as a rename (same position and type);
    deleting the statement when the listed columns are the current ones (safe)."""
    if "so delete the statement" in help_text:
        return Fix(SAFE, "Delete the statement: the listed columns are the table's current columns", (Edit.replace(ctx.step.span, ""),))
    import re

    fix = from_help(ctx, help_text, SAFE, "")
    if fix is None:
        return None
    from icelint.replay.names import repeats_name

    if any(repeats_name(col.type, str.lower) for c in ctx.changes for col in getattr(c, "columns", ())):
        # a struct with names differing only in case (ICE029): the ALTERs would break the table as well
        return Fix(DISPLAY_ONLY, "Change the columns in place with ALTER TABLE statements, once no struct names two fields "
                   "that differ only in case", fix.edits)  # fmt: skip
    renames = [m for m in re.finditer(r"RENAME COLUMN (\S+) TO ([^\s;]+)", fix.edits[0].content) if m[1].split(".")[-1].lower() != m[2].lower()]
    if renames:
        pairs = ", ".join(f"{m[1]} → {m[2]}" for m in renames)
        return Fix(UNSAFE, f"Change the columns in place, keeping field ids; taken as renames (same position and type): {pairs}", fix.edits)
    return Fix(SAFE, "Change the columns in place with ALTER TABLE statements, keeping every field id", fix.edits)
