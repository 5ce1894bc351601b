"""The body of `icelint.engine.run`: from a `CheckRequest` to the `Report`.

plan (which files, which are reported on, which have run: `icelint.plan`) → read and parse →
states (per table: a state if one is given, else the replay of the applied files; a state's applied
prefix inferred) → replay and rules (tables in parallel when it pays) → the rules over files, each
at its stage (placeholders, the files' history, suppressions, Python sources: `rules/kit/files.py`)
→ `Report`. Nothing here writes output.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from icelint.values.source import InputError


@dataclass
class _Prepared:
    """A request made concrete: its configuration, plan, texts and the run's notes."""

    cfg: object
    plan: object
    read: object
    maps: dict
    pack: object
    notes: list[str] = field(default_factory=list)
    inferred: list[str] = field(default_factory=list)


def config_for(request) -> object:
    """The request's configuration: given, else the nearest `[tool.icelint]` from the first input."""
    from icelint.config import load_config

    cfg = request.config
    if cfg is None:
        from icelint.engine.inputs import config_start

        cfg = load_config(config_start(request.paths, request.texts, request.cwd or Path.cwd()))
        if request.configure is not None:
            cfg = request.configure(cfg)
    if request.select or request.ignore or request.vars:
        cfg = cfg.with_flags(select=request.select, ignore=request.ignore,
                             variables=[f"{k}={v}" for k, v in request.vars.items()])
    return cfg


def merged(reports: list):
    """One report of the reports of several configurations (inputs checked apart)."""
    from icelint.values.findings import in_report_order
    from icelint.reporters import Report

    first = reports[0]
    out = Report(in_report_order(f for r in reports for f in r.findings), [s for r in reports for s in r.sources],
                 sum(r.statements for r in reports), suppressed=in_report_order(f for r in reports for f in r.suppressed),
                 rules=first.rules, context_files=sum(r.context_files for r in reports), docs_url=first.docs_url)
    out.inferred = [line for r in reports for line in r.inferred]
    out.statements_by_file = {k: v for r in reports for k, v in r.statements_by_file.items()}
    out.parts = {k: v for r in reports for k, v in r.parts.items()}
    out.stats_incomplete = any(r.stats_incomplete for r in reports)
    return out


def _prepare(request, pack: bool) -> _Prepared:
    from icelint import embedded
    from icelint.engine import placeholders
    from icelint.engine import stdin as stdin_input
    from icelint.plan.pending import make_plan
    from icelint.plan import git_facts
    from icelint.values.source import SourceFile

    cfg = config_for(request)
    given = [p for p in request.texts if p not in request.paths] if request.texts_are_inputs else []
    texts = {**request.context_texts, **request.texts}
    if request.batch:  # statements of a job: in their order, as one deployment
        from icelint.engine.inputs import batch_plan

        plan = batch_plan(request)
    elif not request.paths and given:  # in-memory inputs (stdin, editor buffers): placed in their folder
        plan = stdin_input.plan_texts(given, cfg.migrations, cfg.order)
    else:
        plan = make_plan(list(request.paths), migrations=cfg.migrations, since=request.since, order=cfg.order,
                         note=request.note)
    if not request.batch and (len(plan.files) > 1 or request.since is not None):  # one file alone: no boundary, no history to weigh
        facts = git_facts if request.checkpoints is None else request.checkpoints.git_facts
        plan.git = facts(plan.files, request.since, texts)
    if not plan.pending and request.since is None:
        raise InputError(f"{' '.join(request.paths) or cfg.migrations}: no .sql files found")
    values = dict(cfg.vars)
    maps: dict = {}
    by_key: dict | None = None  # a buffer stands in for its file however its path is spelt (made when first asked)

    def read(path):
        nonlocal by_key
        name = str(path)
        text = texts.get(name)
        if text is None and texts:
            if by_key is None:
                by_key = {_key(k): v for k, v in texts.items()}
            text = by_key.get(_key(name))
        if text is not None:
            src = SourceFile(name, text)
        else:
            src = embedded.read_file(path) if embedded.wanted(path) else SourceFile.read(path)
        if embedded.wanted(src.path):  # Python and notebooks: their SQL, mapped back to them
            m = embedded.read(src, values, cfg.sql_callables)
        else:
            m = placeholders.substitute(src, values)
        if m is None:
            return src
        maps[src.path] = m
        return m.substituted

    def packing(src) -> bool:  # placeholders: the substituted text is mapped back to the file's own
        return pack and not texts and src.path not in maps

    return _Prepared(cfg, plan, read, maps, packing)


def _key(path: str) -> str:
    import os

    return os.path.normcase(os.path.realpath(path))


def _states(request, cfg, parsed, plan, notes: list[str], inferred: list[str]):
    """Per table: the given states (memory, flags, configuration, SparkSession), their applied
    prefixes applied to `parsed.steps`; (initial states, absent tables, data counts)."""
    from icelint.replay.engine import table_key
    from icelint.sources import StateOptions
    from icelint.sources.options import resolve

    flags = request.state or StateOptions()
    opts = resolve(flags.metadata, flags, cfg.state() or None)
    initial: dict = {}
    absent: dict = {}
    stats = None
    if request.live is not None:  # a live catalog: its states, in place of the sources
        from icelint.sources.table_stats import StatsProvider

        live, gone = request.live(parsed.referenced_tables)
        initial, absent, stats = {k: v.metadata for k, v in live.items()}, dict(gone), StatsProvider(live)
    elif opts.has_source():
        from icelint.sources import load_states
        from icelint.sources.table_stats import provider_for

        states = load_states(opts)
        resolved = states.resolve(parsed.referenced_tables, parsed.created_tables)
        initial = {k: v.metadata for k, v in resolved.items()}
        absent = states.absent
        stats = provider_for(states, resolved, opts.stats_budget)
        notes.extend(states.unused)
    initial.update({table_key(k): v for k, v in request.states.items()})
    if request.spark is not None:
        from icelint.sources.spark_session import table_states

        wanted = [t for t in dict.fromkeys(table_key(r) for r in parsed.referenced_tables) if t not in initial]
        initial.update(table_states(request.spark, wanted, missing_ok=True))
    if initial and not request.batch:  # a batch runs after the states were read: none of it is in them
        _apply_prefixes(initial, parsed, plan, cfg, inferred)
    return initial, absent, stats


def _apply_prefixes(initial: dict, parsed, plan, cfg, inferred: list[str]) -> None:
    """Drop from `parsed.steps` the statements each table's state already holds; say so."""
    from icelint.plan.state_prefix import drop_applied, infer

    files = [str(f) for f in plan.files]
    git = plan.git
    candidates = {f for f in files if not (git.knows(f) and f in git.new)}
    # what a state holds when no replay from nothing can tell (the table is created elsewhere): the
    # files git says have run, and the migrations folder's files that are not reported on
    history = {f for f in candidates if f not in plan.pending_names or f in git.applied}
    prefixes = infer(initial, parsed.steps, files, candidates, history, parsed.deployments, cfg.catalog_kind)
    for k, p in sorted(prefixes.items()):
        if p.files and not p.diverges:
            names = [Path(f).name for f in p.files]
            span = names[0] if len(names) == 1 else f"{names[0]}-{names[-1]}"
            inferred.append(f"{span} already in the state of {k}; its statements on {k} are not replayed")
        elif p.diverges:
            inferred.append(f"the state of {k} matches no prefix of the migrations ({p.diverges}); "
                         f"every statement on {k} is checked against the state")
    parsed.steps = drop_applied(parsed.steps, prefixes)


def check(request):
    from icelint import embedded
    from icelint.engine import placeholders
    from icelint.engine import suppress
    from icelint.engine.checker import lint_replay
    from icelint.run.packed_findings import PACK_FROM, PackedFindings
    from icelint.run.parallel import lint_partitioned
    from icelint.plan.pending import moved_reports, only_pending, parse_plan, pending_part, with_moved
    from icelint.engine.pipeline import Run
    from icelint.plan import deployments
    from icelint.replay.engine import Replay
    from icelint.reporters import Report

    prep = _prepare(request, request.pack)
    cfg, plan, maps = prep.cfg, prep.plan, prep.maps
    rules = cfg.rules()
    resume = None
    if _stateless(request, cfg):  # a checkpoint's replay starts from no state: the run goes on from one
        parsed, resume = request.checkpoints.parse(plan, prep.read, cfg, deployments(plan))
    else:
        parsed = parse_plan(plan, read=prep.read, pack=prep.pack)
        parsed.deployments = deployments(plan)
    initial, absent, stats = _states(request, cfg, parsed, plan, prep.notes, prep.inferred)
    pending = pending_part(parsed, plan)
    if request.note is not None:
        for line in [*prep.inferred, *prep.notes]:
            request.note(line)
    long_run = len(parsed.steps) >= PACK_FROM

    def lint_steps(steps, own: bool = False) -> list:
        steps = steps if own else list(steps)
        replayer = Replay(initial or None, catalog_kind=cfg.catalog_kind, deployments=parsed.deployments,
                          iceberg_version=cfg.iceberg_version)
        pack = own and long_run
        if resume is not None:
            replayer = resume.replayer(replayer)
        findings, result = lint_replay(replayer, steps, rules, absent=absent, stats=stats, own_steps=own,
                                       packed=PackedFindings() if pack else None, resume=resume)
        if not own:
            return only_pending(findings, Run(parsed.sources, parsed.files, steps, result), plan)
        moved = moved_reports(findings, Run(parsed.sources, parsed.files, steps, result), plan) if plan.context else []
        del result, replayer
        steps.clear()
        found = findings.read() if pack else findings
        return with_moved([f for f in found if f.path in plan.pending_names], moved)

    statements = pending.statement_count
    findings = lint_partitioned(parsed.steps, lint_steps, allowed=request.parallel, stats=stats) if resume is None else None
    if findings is None:
        steps, parsed.steps, pending.steps = parsed.steps, [], []
        findings = lint_steps(steps, own=True)
    # the rules over files, each at its stage (`rules/kit/files.py`): TEXT (placeholders), PLAN
    # (the files' names and history), SUPPRESSIONS (inside `suppress.apply`), SOURCE (Python files)
    findings = placeholders.adjust(findings, pending.files, maps, rules)
    from icelint.engine.history import check_plan, file_rules

    history = check_plan(plan, rules, order=cfg.order, since=request.since, texts={**request.context_texts, **request.texts})
    findings = sorted([*findings, *history], key=lambda f: f.sort_key)
    outcome = suppress.apply(findings, pending.files, pending.sources, [r.code for r in rules], cfg)
    at_source = embedded.source_findings(maps, rules, plan.pending_names, cfg)
    at_top = file_rules(rules)

    def remap(found: list) -> list:  # into the Python files and notebooks; a file's own findings stay at its top
        files = [f for f in found if f.rule in at_top]
        return [*embedded.remap([f for f in found if f.rule not in at_top], maps), *files] if files else embedded.remap(found, maps)

    outcome = suppress.Outcome(sorted([*remap(outcome.findings), *at_source], key=lambda f: f.sort_key),
                               sorted(remap(outcome.suppressed), key=lambda f: f.sort_key))
    originals = [maps[s.path].original if s.path in maps else s for s in pending.sources]
    from icelint.fixes.apply import adapt

    cells = embedded.cell_texts(maps)  # a notebook's findings name its cells
    found = adapt(outcome.findings, {s.path: s.text for s in originals} | cells,
                  [p for p, m in maps.items() if not embedded.is_map(m)])
    report = Report(found, originals, statements, suppressed=outcome.suppressed,
                    rules=rules, context_files=len(plan.context), docs_url=cfg.docs_url, parts=cells)
    report.inferred = list(prep.inferred)
    report.stats_incomplete = bool(stats is not None and stats.incomplete)
    if request.positions:
        report.statements_by_file = embedded.statement_positions(pending.files, maps)
    return report


def _stateless(request, cfg) -> bool:
    """Whether the request has checkpoints and nothing but its files feeds the replay (no state)."""
    if request.checkpoints is None or request.pack or request.states or request.spark is not None or request.live is not None:
        return False
    from icelint.sources import StateOptions
    from icelint.sources.options import resolve

    flags = request.state or StateOptions()
    return not resolve(flags.metadata, flags, cfg.state() or None).has_source()


def replay_plan(request):
    """The replay of the request's plan, with its states: `icelint schema`."""
    from icelint.plan.pending import parse_plan
    from icelint.engine.pipeline import replay
    from icelint.plan import deployments

    prep = _prepare(request, False)
    parsed = parse_plan(prep.plan, read=prep.read)
    parsed.deployments = deployments(prep.plan)
    initial, _, _ = _states(request, prep.cfg, parsed, prep.plan, prep.notes, prep.inferred)
    if request.note is not None:
        for line in [*prep.inferred, *prep.notes]:
            request.note(line)
    return replay(parsed, initial or None, catalog_kind=prep.cfg.catalog_kind, iceberg_version=prep.cfg.iceberg_version)
