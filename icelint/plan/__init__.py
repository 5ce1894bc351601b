"""The deployment model of a run: which files have already run, and where pipelines wrote rows.

Computed once per run (`make`), whatever door the run came in by (a folder, files named one by
one, the pre-commit hook, `--since`, standard input, an editor buffer, the Python API):

- *Reported* files are the ones the run was asked about. Naming files decides what is reported
  on, never what has run.
- *Applied* or *new*, per file, from git when the file is in a git work tree: with `--since REF`,
  a file unchanged since the merge-base of REF and `HEAD` is applied; without it, a file committed
  at `HEAD` and unchanged in the index and the work tree is applied. Every other file (staged,
  modified, untracked, added since the merge-base) is new. Outside git nothing is known: every file
  is its own deployment.
- *Deployments* (`deployments`): an applied file, and every file git knows nothing about, is a
  deployment of its own; the new files of a run deploy together, as one batch. Between two
  deployments pipelines write rows into every table that exists (`replay/deploy.py`).
- With a table state, the files whose effects the state already holds are applied for that table
  (`plan.state_prefix`).

The files a run reads and which of them are reported on come from `icelint.plan.pending.make_plan`
(a folder, named files, `--since`) and `icelint.engine.stdin.plan` (texts without a file on disk).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

__all__ = ["GitFacts", "git_facts", "fingerprint", "deployments", "applied_names", "new_names"]


@dataclass(frozen=True)
class GitFacts:
    """What git says about the files of a run (paths as the plan spells them)."""

    applied: frozenset[str] = field(default_factory=frozenset)  # unchanged at HEAD / the merge-base
    new: frozenset[str] = field(default_factory=frozenset)  # staged, modified, untracked, added since
    existed: frozenset[str] = field(default_factory=frozenset)  # in the commit (HEAD / the merge-base), changed or not

    def knows(self, path: str) -> bool:
        return path in self.applied or path in self.new


def _key(p: str | Path) -> str:
    return os.path.normcase(os.path.realpath(p))


def _top(directory: Path) -> Path | None:
    """The work tree root holding `directory` (a `.git` entry upwards); None outside git. No process."""
    try:
        d = directory.resolve()
    except OSError:
        return None
    for c in (d, *d.parents):
        if (c / ".git").exists():
            return c
    return None


def _git(args: list[str], cwd: Path) -> str | None:
    import subprocess  # only when git is asked

    try:
        proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8",
                              errors="surrogateescape")
    except (FileNotFoundError, OSError):
        return None
    return proc.stdout if proc.returncode == 0 else None


def _names(out: str | None, top: Path) -> set[str]:
    return {_key(top / n) for n in (out or "").split("\0") if n}


def git_facts(files: Iterable[str | Path], since: str | None = None, texts: dict[str, str] | None = None,
              memo: dict | None = None) -> GitFacts:
    """Applied and new files among `files`, per work tree (`--since REF`: against the merge-base).

    A file whose text is given in memory (`texts`: an editor buffer, standard input) is applied
    only when that text is the text committed at HEAD. `memo`: git's answers, kept by a caller that
    knows the repository and the files unchanged since (`run.checkpoint`)."""
    memo = {} if memo is None else memo
    by_top: dict[Path, list[str]] = {}
    tops: dict[str, Path | None] = {}
    for f in files:
        name = str(f)
        parent = str(Path(name).parent)
        if parent not in tops:
            tops[parent] = _top(Path(parent))
        top = tops[parent]
        if top is not None:
            by_top.setdefault(top, []).append(name)
    applied: set[str] = set()
    new: set[str] = set()
    existed: set[str] = set()
    for top, names in by_top.items():
        if (top, since) not in memo:
            memo[(top, since)] = _tree_facts(top, since)
        got = memo[(top, since)]
        if got is None:
            new.update(names)  # no commit yet (or REF unknown: `--since` says so itself)
            continue
        base, tracked, changed, untracked = got
        for n in names:
            k = _key(n)
            if k in tracked:
                existed.add(n)
            if k in changed or k in untracked:
                new.add(n)
            elif k in tracked:
                if texts and n in texts:  # an editor buffer: applied only as committed
                    rel = Path(k).relative_to(top).as_posix()
                    if (top, base, rel) not in memo:
                        memo[(top, base, rel)] = _git(["show", f"{base}:{rel}"], top)
                    committed = memo[(top, base, rel)]
                    if committed is None or committed.replace("\r\n", "\n") != texts[n].replace("\r\n", "\n"):
                        new.add(n)
                        continue
                applied.add(n)
            # else: ignored by git, or outside the work tree: git says nothing
    return GitFacts(frozenset(applied), frozenset(new), frozenset(existed))


def _tree_facts(top: Path, since: str | None) -> tuple | None:
    """(the commit compared with, real paths tracked in it, changed since, untracked) of one work
    tree; None when there is no such commit."""
    base: str | None = "HEAD"
    if since is not None:
        out = _git(["merge-base", since, "HEAD"], top)
        base = out.strip() if out else None
    tracked_out = _git(["ls-tree", "-r", "--name-only", "-z", base, "--"], top) if base else None
    if tracked_out is None:
        return None
    changed = _names(_git(["diff", "--name-only", "-z", "--no-renames", base, "--"], top), top)
    untracked = _names(_git(["ls-files", "--others", "--exclude-standard", "-z"], top), top)
    return base, _names(tracked_out, top), changed, untracked


def fingerprint(files: Iterable[str | Path]) -> list[str]:
    """What git's facts of `files` depend on besides their contents, read without running git (the
    run cache's key): per work tree, the commit at HEAD and the index's size and time."""
    out: list[str] = []
    parents = {str(Path(str(f)).parent) for f in files}
    for top in sorted({t for t in (_top(Path(p)) for p in parents) if t is not None}):
        git = top / ".git"
        try:
            if git.is_file():  # a linked work tree: `gitdir: PATH`
                text = git.read_text(encoding="utf-8").strip()
                git = Path(text.split(":", 1)[1].strip()) if text.startswith("gitdir:") else git
                git = git if git.is_absolute() else (top / git)
            head = (git / "HEAD").read_text(encoding="utf-8").strip()
            if head.startswith("ref:"):
                ref = head.split(":", 1)[1].strip()
                common = git
                if (git / "commondir").is_file():
                    common = (git / (git / "commondir").read_text(encoding="utf-8").strip()).resolve()
                for d in (git, common):
                    if (d / ref).is_file():
                        head = (d / ref).read_text(encoding="utf-8").strip()
                        break
                else:
                    head = f"{head} packed:{_stat(common / 'packed-refs')}"
            out.append(f"{top} {head} index:{_stat(git / 'index')}")
        except OSError:
            out.append(f"{top} unreadable")
    return out


def _stat(p: Path) -> str:
    try:
        st = p.stat()
        return f"{st.st_size}:{st.st_mtime_ns}"
    except OSError:
        return "-"


def new_names(plan) -> set[str]:
    """The files of the plan that are new: git's new files; outside git, the reported files."""
    git: GitFacts = plan.git
    return {str(f) for f in plan.files if (str(f) in git.new if git.knows(str(f)) else str(f) in plan.pending_names)}


def applied_names(plan) -> set[str]:
    """The files of the plan that have already run: git's applied files; outside git, the files
    that are not reported on (the migrations folder's history)."""
    return {str(f) for f in plan.files} - new_names(plan)


def deployments(plan):
    """Where pipelines write rows (`replay/deploy.py`): after every file, except between two new
    files of git (they deploy together, as one batch)."""
    from icelint.replay.deploy import Deployments

    git: GitFacts = plan.git
    epochs: dict[str, int] = {}
    epoch, previous = 0, None
    for f in plan.files:
        name = str(f)
        if previous is not None and not (previous in git.new and name in git.new):
            epoch += 1
        epochs[name] = epoch
        previous = name
    return Deployments(epochs, frozenset(applied_names(plan)))
