"""Where a request's configuration comes from: the nearest `[tool.icelint]` of each input, as ruff
finds it (`config_start`), and the inputs grouped by the configuration in force (`config_groups`)."""

from __future__ import annotations

from pathlib import Path

STDIN = "-"  # the name of a text from standard input that has no file name (`icelint check -`)


def config_start(paths, texts, cwd: Path) -> Path:
    """Where the search for the configuration starts: the first input's folder (a folder: itself);
    the current directory for standard input without a name, or no input at all."""
    first = next(iter(paths), None) or next((t for t in texts if t != STDIN), None)
    if first is None:
        return cwd
    p = cwd / first
    try:
        return p if p.is_dir() else p.parent
    except OSError:  # a name the file system refuses (too long): the inputs' own check names it as given
        return p.parent


def config_groups(request) -> list[tuple[object, tuple[str, ...]]]:
    """The request's paths by the configuration in force for each (nearest `[tool.icelint]` from the
    path's folder), in the order of their first path; one group when `config` is given."""
    if request.config is not None or len(request.paths) < 2:
        return []
    from icelint.config import find_config, load_config

    cwd = request.cwd or Path.cwd()
    groups: dict[object, list[str]] = {}
    starts: dict[object, Path] = {}
    for p in request.paths:
        start = config_start((p,), {}, cwd)
        found = find_config(start.resolve())
        groups.setdefault(found, []).append(p)
        starts.setdefault(found, start)
    if len(groups) < 2:
        return []
    out = []
    for found, paths in groups.items():
        cfg = load_config(starts[found])
        out.append((request.configure(cfg) if request.configure is not None else cfg, tuple(paths)))
    return out


def batch_plan(request):
    """The plan of a batch (`CheckRequest.batch`): the statements already run, then the inputs, in the
    order given; all new to git, so that they deploy together."""
    from icelint.plan import GitFacts
    from icelint.plan.pending import Plan

    names = [*request.context_texts, *(p for p in request.texts if p not in request.context_texts)]
    plan = Plan([Path(n) for n in names], [Path(n) for n in request.texts])
    plan.git = GitFacts(new=frozenset(str(f) for f in plan.files))
    return plan
