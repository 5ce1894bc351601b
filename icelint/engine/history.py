"""The rules over the migration files themselves, not their statements: the plan's history.

`icelint check` calls `check_plan` once, next to the replay (`icelint.engine.check`): it runs the
enabled rules of the `PLAN` stage (`rules/kit/files.py`: ICE022 `out-of-order-migration`, ICE023
`applied-migration-changed`, ICE024 `duplicate-migration-version`; each holds its own logic) with
the plan, and answers their one question to git (`_modified_since`: which files changed since REF).
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from icelint.values.findings import Finding
from icelint.plan.pending import Plan, _git, _key
from icelint.rules.kit.files import PLAN, FilesContext, findings_at


def check_plan(
    plan: Plan, rules: Sequence, *, order: str = "flyway", since: str | None = None, cwd: Path | None = None,
    texts=None,
) -> list[Finding]:
    """The findings of the rules over the plan's files, for the enabled `rules` (Rule objects)."""
    ctx = FilesContext(enabled=frozenset(r.code for r in rules), plan=plan, order=order, since=since, cwd=cwd,
                       changed_since=_modified_since)
    return findings_at(PLAN, rules, ctx)


def file_rules(rules: Sequence) -> frozenset[str]:
    """The codes of the rules whose findings point at a file (its line 1, column 1), not into its SQL."""
    return frozenset(r.code for r in rules if r.stage == PLAN)


def _modified_since(ref: str, cwd: Path, pending: Iterable[Path]) -> list[Path]:
    """The pending files that existed at the merge-base of REF and HEAD and differ from it now."""
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd, "not inside a git repository").strip())
    base = _git(["merge-base", ref, "HEAD"], top, f"no common ancestor of {ref!r} and HEAD").strip()
    diff = _git(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=M", base, "--"], top, "git diff failed")
    modified = {_key(top / n) for n in diff.split("\0") if n}
    return [p for p in pending if _key(p) in modified]
