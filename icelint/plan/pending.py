"""Which files a run reads, and which of them it reports on (the plan's files).

- The files named on the command line are reported on (folders: all their `.sql` files). With
  `--since REF`, the reported files are those changed between the merge-base of REF and `HEAD` and
  the work tree (plus untracked ones), among the named paths (default: the migrations folder).
- The other files of the `migrations` folder (and, with `--since`, of the folders named) are read
  too, before or between them in migration order: their history (`Plan.context`).

Which of the files have already run, where pipelines write rows and which state each table
starts from is the deployment model's (`icelint.plan`): it never depends on which files are named.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

from icelint.plan.discovery import DEFAULT_ORDER, discover, is_migration_name, order_folder
from icelint.plan import GitFacts
from icelint.values.source import InputError

PROGRESS_MIN_FILES = 20  # fewer files parse in well under a second: no bar


@dataclass
class Plan:
    """The files a run reads, in replay order, and which of them are under review (the rest is applied history)."""

    files: list[Path]  # everything to read, in replay order
    pending: list[Path]  # the files under review, in replay order (a subset of `files`)
    # pending files that came from a folder checked as a whole (each is its own deployment)
    whole_folder: set[str] = field(default_factory=set)
    git: GitFacts = field(default_factory=GitFacts)  # applied and new files, as git says (`icelint.plan`)

    @property
    def pending_names(self) -> set[str]:
        return {str(p) for p in self.pending}

    @property
    def context(self) -> list[Path]:
        names = self.pending_names
        return [p for p in self.files if str(p) not in names]


def _key(p: Path) -> str:
    return os.path.normcase(os.path.realpath(p))


def _display(p: Path, cwd: Path) -> Path:
    """A path found by icelint (not typed by the user), shown relative to the current directory."""
    try:
        return Path(os.path.relpath(p, cwd))
    except ValueError:  # pragma: no cover - another drive on Windows
        return p


def make_plan(
    paths: Sequence[str],
    *,
    migrations: Path | None = None,
    since: str | None = None,
    order: str = DEFAULT_ORDER,
    cwd: Path | None = None,
    note: Callable[[str], None] | None = None,
) -> Plan:
    cwd = cwd or Path.cwd()
    if migrations is not None and not migrations.is_dir():
        raise InputError(f"{migrations}: the migrations folder does not exist (set by `migrations` or --migrations)")
    if not paths and migrations is None and since is None:
        raise InputError("no paths given and no `migrations` folder configured ([tool.icelint] migrations = \"...\")")

    if note is not None:  # a folder is listed more than once here: each skipped file said once
        note = _once(note)
    named = discover(list(paths), order, note) if paths else []
    folders: list[Path] = [migrations] if migrations is not None else []
    if since is not None:
        folders += [Path(p) for p in paths if Path(p).is_dir()]
        changed = changed_since(since, _repo_start(paths, migrations, cwd))
        if paths:
            pending = [p for p in named if _key(p) in changed]
        elif migrations is not None:
            pending = [p for p in _folder(migrations, order, cwd, note) if _key(p) in changed]
        else:
            pending = [_display(Path(p), cwd) for p in sorted(changed) if _under(Path(p), cwd)]
            pending = order_files_like(pending, order)
    else:
        pending = named if paths else _folder(migrations, order, cwd, note)  # type: ignore[arg-type]

    # every file once, by real path; the spelling the user typed wins over the folder's
    spelling: dict[str, Path] = {}
    for p in pending:
        spelling.setdefault(_key(p), p)
    files: list[Path] = []
    seen: set[str] = set()
    for folder in dict.fromkeys(folders):
        for f in _folder(folder, order, cwd, note):
            k = _key(f)
            if k in seen:
                continue
            seen.add(k)
            files.append(spelling.get(k, f))
    for p in pending:
        k = _key(p)
        if k not in seen:
            seen.add(k)
            files.append(p)
    pending_keys = {_key(p) for p in pending}
    if since is None:  # a folder named (or the configured one, when nothing is named): every file is deployed apart
        whole = {_key(f) for f in (discover([p for p in paths if Path(p).is_dir()], order, note) if paths else pending)}
    else:
        whole = set()
    return Plan(files, [f for f in files if _key(f) in pending_keys], {str(f) for f in files if _key(f) in whole})


def _repo_start(paths: Sequence[str], migrations: Path | None, cwd: Path) -> Path:
    """Where git is asked about `--since`: the first path's folder, else the migrations folder, else the CWD."""
    for p in [*(Path(p) for p in paths), *([migrations] if migrations is not None else [])]:
        p = p if p.is_absolute() else cwd / p
        return p if p.is_dir() else p.parent
    return cwd


def deployments(plan: Plan):
    """Where the replay presumes data: the deployment model's (`icelint.plan.deployments`)."""
    from icelint.plan import deployments as model

    return model(plan)


def _once(note: Callable[[str], None]) -> Callable[[str], None]:
    said: set[str] = set()

    def once(line: str) -> None:
        if line not in said:
            said.add(line)
            note(line)

    return once


def _folder(folder: Path, order: str, cwd: Path, note: Callable[[str], None] | None = None) -> list[Path]:
    """The folder's files in migration order; a folder from the configuration is shown relative to the CWD."""
    files = order_folder(folder, order, note)
    return [_display(f, cwd) for f in files] if folder.is_absolute() else files


def order_files_like(files: list[Path], order: str) -> list[Path]:
    from icelint.plan.discovery import sort_key

    return sorted(files, key=lambda f: (f.parent.as_posix(), sort_key(f.name, order)))


def _under(p: Path, folder: Path) -> bool:
    try:
        Path(p).resolve().relative_to(folder.resolve())
        return True
    except ValueError:
        return False


# ---------------------------------------------------------------------------- git


def _git(args: list[str], cwd: Path, what: str) -> str:
    try:
        import subprocess  # only for --since

        proc = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, encoding="utf-8", errors="surrogateescape"
        )
    except FileNotFoundError:
        raise InputError("--since needs git, which is not installed") from None
    if proc.returncode != 0:
        detail = (proc.stderr.strip().splitlines() or ["git failed"])[-1]
        raise InputError(f"--since: {what}: {detail}")
    return proc.stdout


def changed_since(ref: str, cwd: Path) -> set[str]:
    """Real paths of the `.sql` files added, copied, modified, renamed into or untracked since the merge-base of REF and HEAD."""
    top = Path(_git(["rev-parse", "--show-toplevel"], cwd, "not inside a git repository").strip())
    _git(["rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"], top, f"unknown git revision {ref!r} (fetch it first, e.g. `git fetch origin main`)")
    base = _git(
        ["merge-base", ref, "HEAD"], top, f"no common ancestor of {ref!r} and HEAD (a shallow clone? fetch with depth 0)"
    ).strip()
    diff = _git(["diff", "--name-only", "-z", "--no-renames", "--diff-filter=ACMRT", base, "--"], top, "git diff failed")
    untracked = _git(["ls-files", "--others", "--exclude-standard", "-z"], top, "git ls-files failed")
    names = [n for n in (diff + untracked).split("\0") if n]
    return {_key(top / n) for n in names if is_migration_name(n.rsplit("/", 1)[-1])}


# ---------------------------------------------------------------------------- parsing


def show_progress(stream=None) -> bool:
    """A progress bar only on a terminal, never in a pipe, a file or a CI log."""
    import sys

    stream = stream or sys.stderr
    ci = os.environ.get("CI", "").lower() not in ("", "0", "false", "no")
    if ci or os.environ.get("GITHUB_ACTIONS") == "true" or os.environ.get("TERM") == "dumb":
        return False
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def parse_plan(plan: Plan, pending_only: bool = False, read=None, pack=None):
    """Read and parse the files of the plan (with a progress bar on a terminal for long runs);
    `read` turns a path into a `SourceFile` (default: `SourceFile.read`); `pack` as
    `pipeline.parse_sources` takes it."""
    from icelint.engine.pipeline import parse_sources
    from icelint.values.source import SourceFile

    read = read or SourceFile.read
    sources = [read(f) for f in (plan.pending if pending_only else plan.files)]
    if len(sources) >= PROGRESS_MIN_FILES and show_progress():
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

        with Progress(
            TextColumn("icelint: parsing"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=Console(stderr=True),
            transient=True,
        ) as bar:
            task = bar.add_task("parse", total=len(sources))
            return parse_sources(sources, on_file=lambda: bar.advance(task), trees=False, pack=pack)
    return parse_sources(sources, trees=False, pack=pack)  # what follows reads only the steps and the statements' spans


def pending_part(parsed, plan: Plan):
    """The pending files' share of a parsed run: their sources, syntax trees and steps."""
    from icelint.engine.pipeline import Parsed

    names = plan.pending_names
    return Parsed(
        [s for s in parsed.sources if s.path in names],
        [f for f in parsed.files if f.path in names],
        [s for s in parsed.steps if s.span.path in names],
    )


def only_pending(findings, run, plan: Plan) -> list:
    """The findings of the pending files.

    A table that no file creates and no state describes is reported (ICE005) once, at its first
    reference; when that reference is in a context file, the report moves to the table's first
    reference in a pending file, so that its statements are never skipped silently.
    """
    return with_moved([f for f in findings if f.path in plan.pending_names], moved_reports(findings, run, plan))


def with_moved(pending: list, moved: list) -> list:
    from icelint.values.findings import in_report_order

    return in_report_order(pending + moved) if moved else pending


def moved_reports(findings, run, plan: Plan) -> list:
    """The ICE005 reports of `findings` made in a context file, moved to the table's first reference
    in a pending file (see `only_pending`); `findings` is read once, in order."""
    from dataclasses import replace

    from icelint.values import changes as ch
    from icelint.values.findings import in_report_order

    names = plan.pending_names
    moved = [f for f in findings if f.path not in names and f.rule == "ICE005"]
    if not moved:
        return []
    out: list = []
    by_index = {o.step.index: o for o in run.result.outcomes}
    for f in moved:
        origin = by_index.get(f.statement_index)
        if origin is None or origin.skipped != "unknown-table":
            continue
        first = next(
            (
                o
                for o in run.result.outcomes
                if o.table == origin.table and o.step.span.path in names and isinstance(o.step, ch.Commit)
            ),
            None,
        )
        if first is None:
            continue
        sp = first.step.table_span
        out.append(
            replace(
                f,
                path=sp.path,
                line=sp.line,
                column=sp.column,
                end_line=sp.end_line,
                end_column=sp.end_column,
                statement_index=first.step.index,
            )
        )
    return in_report_order(out)
