"""Findings about the migration files themselves, not their statements: the plan's history.

`icelint check` calls `check_plan` once, next to the replay (`icelint.engine.check`). Three rules live here
(their documentation is in `icelint/rules/`):

- ICE022 `out-of-order-migration`: a pending versioned file whose version is lower than the newest
  applied (context) one: Flyway refuses it, or with `outOfOrder=true` runs it last, not where its
  name sorts (and where icelint replays it);
- ICE023 `applied-migration-changed`: with `--since REF`, a versioned file that already existed at
  the merge-base and was modified: it has been applied where REF is deployed, and the change will
  never run there (Flyway's `validate` fails on its checksum);
- ICE024 `duplicate-migration-version`: two versioned files with the same version (Flyway refuses
  to run any of them).

Only the `flyway` order (the default) knows versions; the other orders have no such findings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from icelint.plan.discovery import VERSIONED, classify, duplicate_versions
from icelint.values.findings import Finding
from icelint.plan.pending import Plan, _git, _key


# the rules about files, whose findings point at a file (its line 1, column 1), not into its SQL
FILE_RULES = frozenset({"ICE022", "ICE023", "ICE024"})


def check_plan(
    plan: Plan, rules: Sequence, *, order: str = "flyway", since: str | None = None, cwd: Path | None = None,
    texts=None,
) -> list[Finding]:
    """The history findings of the pending files, for the enabled `rules` (Rule objects).

    ICE022 and ICE024 are about new files only (`icelint.plan.new_names`: git's new files;
    outside git, the files under review): a migration that has already run is never advised to
    be renamed, whoever names it."""
    from icelint.plan import new_names

    enabled = {r.code: r for r in rules}
    wanted = FILE_RULES & enabled.keys()
    if order != "flyway" or not wanted or not plan.pending:
        return []
    fresh = new_names(plan)
    pending = {_key(p): p for p in plan.pending if str(p) in fresh}
    out: list[Finding] = []
    if "ICE024" in wanted:
        for f, other in duplicate_versions(plan.files):
            for here, there in ((f, other), (other, f)):
                if _key(here) in pending:
                    v = ".".join(map(str, classify(here.name)[1] or ()))
                    out.append(
                        _finding(
                            enabled["ICE024"],
                            pending[_key(here)],
                            f"version {v} is also the version of {there}: Flyway refuses to run any migration while "
                            "two files have the same version",
                            f"give one of them the next free version (for example `V{_next(plan.files)}__"
                            f"{classify(here.name)[2]}{_suffix(here)}`)",
                        )
                    )
    if "ICE022" in wanted:
        applied = [classify(p.name)[1] for p in plan.files if str(p) not in fresh and classify(p.name)[0] == VERSIONED]
        applied_versions = {v for v in applied if v is not None}
        newest = max(applied_versions, default=None)
        if newest is not None:
            for p in pending.values():
                kind, v, desc = classify(p.name)
                if kind != VERSIONED or v is None or v >= newest or v in applied_versions:
                    continue
                if str(p) in plan.git.existed:
                    continue  # an applied migration edited: ICE023's (with --since), never a rename
                out.append(
                    _finding(
                        enabled["ICE022"],
                        p,
                        f"version {_v(v)} is lower than {_v(newest)}, the newest migration already in the folder: "
                        f"a database that already ran {_v(newest)} refuses this file (Flyway: `Detected resolved "
                        "migration not applied to database`), or with outOfOrder=true runs it after "
                        f"{_v(newest)}, not where its name sorts (and where icelint replayed it)",
                        f"give it a version above {_v(newest)}: rename it to `V{_next(plan.files)}__{desc}{_suffix(p)}`",
                    )
                )
    if "ICE023" in wanted and since is not None:
        fresh_files = list(pending.values())
        start = cwd or (fresh_files[0].resolve().parent if fresh_files else Path.cwd())
        for p in _modified_since(since, start, fresh_files):
            kind, v, desc = classify(p.name)
            if kind != VERSIONED:
                continue  # repeatable and plain files are meant to be edited and re-run
            out.append(
                _finding(
                    enabled["ICE023"],
                    p,
                    f"this migration (version {_v(v)}) already exists in {since} and was changed: where it has "
                    "been applied, the change never runs, and Flyway's validate fails on the changed checksum",
                    f"restore the file as it is in {since} (`git checkout {since} -- {p.as_posix()}`) and put the "
                    f"change in a new migration (`V{_next(plan.files)}__...{_suffix(p)[1:]}`)",
                )
            )
    return out


def _v(v: tuple[int, ...] | None) -> str:
    return ".".join(map(str, v or ()))


def _next(files: Iterable[Path]) -> str:
    """The next free major version of the folder (Flyway compares versions numerically)."""
    versions = [classify(p.name)[1] for p in files if classify(p.name)[0] == VERSIONED]
    top = max((v[0] for v in versions if v), default=0)
    return str(top + 1)


def _modified_since(ref: str, cwd: Path, pending: Iterable[Path]) -> list[Path]:
    """The pending files that existed at the merge-base of REF and HEAD and differ from it now."""
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd, "not inside a git repository").strip())
    base = _git(["merge-base", ref, "HEAD"], top, f"no common ancestor of {ref!r} and HEAD").strip()
    diff = _git(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=M", base, "--"], top, "git diff failed")
    modified = {_key(top / n) for n in diff.split("\0") if n}
    return [p for p in pending if _key(p) in modified]


def _finding(rule, path: Path, message: str, help: str) -> Finding:
    first = _first_line(path)
    return Finding(
        rule=rule.code,
        name=rule.name,
        severity=rule.severity,
        path=str(path),
        line=1,
        column=1,
        end_line=1,
        end_column=max(first, 1),
        message=message,
        help=help,
        statement_index=-1,
    )


def _first_line(path: Path) -> int:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return len(fh.readline().rstrip("\r\n"))
    except OSError:
        return 1


def _suffix(p) -> str:
    """The file's own suffix in a new name suggested for it: `.sql`, or `.py` / `.ipynb` (icelint.embedded)."""
    suffix = Path(p).suffix.lower()
    return suffix if suffix in (".py", ".ipynb") else ".sql"
