"""The work of `icelint check`: from the effective configuration and the inputs (paths, state
sources, the issue-14 options) to the `Report` every output is rendered from. Nothing here writes
output (icelint.check_output does)."""

from __future__ import annotations

from typing import Sequence

from icelint.source import InputError


def state_sources(metadata: Sequence[str], sources, cfg=None):
    """The state sources of a command: the flags, else the `[tool.icelint]` keys (flags win)."""
    from icelint.config import load_config
    from icelint.sources.options import resolve

    return resolve(metadata, sources, (cfg or load_config()).state() or None)


def check_report(cfg, paths, metadata, sources, since, conv: dict, fmt: str, pack: bool = False):
    """The work of `icelint check`, from its inputs (the effective configuration, the paths, the
    state sources, the issue-14 options in `conv`) to the `Report` every output is rendered from.
    Nothing here writes output: the seam where a cache of reports can sit. With `pack`, a long
    file's text is kept compressed once parsed (`packed_text`; not when fixes are applied: they
    rewrite the texts)."""
    from icelint import stdin as stdin_input

    from_stdin = stdin_input.wanted(paths, conv.get("stdin_filename"))
    from icelint import suppress
    from icelint.checker import lint_replay
    from icelint.findings import packing_texts
    from icelint.packed_findings import PACK_FROM
    from icelint.pending import deployments, make_plan, moved_reports, only_pending, parse_plan, pending_part, with_moved
    from icelint.parallel import lint_partitioned
    from icelint.pipeline import Run
    from icelint.replay.engine import Replay
    from icelint.reporters import Report
    from icelint.source import SourceFile

    rules = cfg.rules()
    from icelint import placeholders

    values = dict(cfg.vars)  # [tool.icelint.vars], then --var
    maps: dict = {}  # path → placeholders.FileMap, for the files that have placeholders
    stdin_source = None
    if from_stdin:
        if conv.get("add_suppressions") is not None:
            raise InputError("--add-suppressions writes to files; it cannot be used with standard input")
        name = conv.get("stdin_filename") or stdin_input.NAME
        plan = stdin_input.plan(name, cfg.migrations, cfg.order, named=conv.get("stdin_filename") is not None)
        stdin_source = stdin_input.read(name)
    else:
        plan = make_plan(list(paths), migrations=cfg.migrations, since=since, order=cfg.order)

    texts = conv.get("texts") or {}  # path → text standing in for the file (icelint.fixing: the fixed text)

    def read(path):
        if str(path) in texts:
            src = SourceFile(str(path), texts[str(path)])
        else:
            src = stdin_source if stdin_source is not None and str(path) == stdin_source.path else SourceFile.read(path)
        m = placeholders.substitute(src, values)
        if m is None:
            return src
        maps[src.path] = m
        return m.substituted

    def packing(src) -> bool:  # placeholders: the substituted text is mapped back to the file's own
        return pack and src.path not in maps

    if not plan.pending and since is None:
        raise InputError(f"{' '.join(paths) or cfg.migrations}: no .sql files found")
    opts = state_sources(metadata, sources, cfg)
    absent: dict[str, str] = {}  # tables the catalog/warehouse was asked for and does not have
    stats = None  # the data counts of the states, read when a finding asks (sources/table_stats.py)
    if opts.has_source():
        # the state already holds the context files (applied): only the pending ones are read and replayed
        from icelint.sources import load_states

        pending = parsed = parse_plan(plan, pending_only=True, read=read, pack=packing)
        states = load_states(opts)
        resolved = states.resolve(pending.referenced_tables, pending.created_tables)
        initial = {k: v.metadata for k, v in resolved.items()}
        absent = states.absent
        from icelint.sources.table_stats import provider_for

        stats = provider_for(states, resolved, opts.stats_budget)
    else:
        # no state: the whole history is replayed from its CREATE TABLEs, findings kept for pending files
        parsed = parse_plan(plan, read=read, pack=packing)
        parsed.deployments = deployments(plan)  # applied files and folder boundaries: tables hold data after them
        pending = pending_part(parsed, plan)
        initial = None

    # a long run keeps its findings compressed: their texts (`findings.packing_texts`) and, in one
    # process, the findings themselves until the replay is let go (`packed_findings`)
    long_run = len(parsed.steps) >= PACK_FROM

    def lint_steps(steps, own: bool = False) -> list:
        steps = steps if own else list(steps)
        # replayed and linted statement by statement: the states of a long run are not all held at once
        replayer = Replay(initial, catalog_kind=cfg.catalog_kind, deployments=parsed.deployments, iceberg_version=cfg.iceberg_version)
        pack = own and long_run  # one process: `steps` is the whole run
        findings, result = lint_replay(replayer, steps, rules, absent=absent, stats=stats, own_steps=own, pack_findings=pack)
        if not own:
            return only_pending(findings, Run(parsed.sources, parsed.files, steps, result), plan)
        # one process: the findings, kept packed, are read back once the states and steps are let go
        # (a context file's ICE005s move to a pending one: read once more only if there are context files)
        moved = moved_reports(findings, Run(parsed.sources, parsed.files, steps, result), plan) if plan.context else []
        del result, replayer
        steps.clear()
        found = findings.read() if pack else findings
        return with_moved([f for f in found if f.path in plan.pending_names], moved)

    with packing_texts(long_run):
        statements = pending.statement_count
        findings = lint_partitioned(parsed.steps, lint_steps)  # tables in parallel processes, when it pays
        if findings is None:  # here: the checker takes the steps over (what it keeps of each once linted: `changes.linted`)
            steps, parsed.steps, pending.steps = parsed.steps, [], []
            findings = lint_steps(steps, own=True)
        findings = placeholders.adjust(findings, pending.files, maps, [r.code for r in rules], _rule("ICE060"))
        from icelint.migration_history import check_plan  # the files' own history (ICE022-ICE024)

        findings = sorted([*findings, *check_plan(plan, rules, order=cfg.order, since=since)], key=lambda f: f.sort_key)
        outcome = suppress.apply(findings, pending.files, pending.sources, [r.code for r in rules], cfg)
        outcome = suppress.Outcome(placeholders.remap(outcome.findings, maps), placeholders.remap(outcome.suppressed, maps))
        originals = [maps[s.path].original if s.path in maps else s for s in pending.sources]
        from icelint.fixing import adapt  # fixes as edits of the files as they are (CRLF, a deleted statement's `;`)

        found = adapt(outcome.findings, {s.path: s.text for s in originals}, maps)
        report = Report(found, originals, statements, suppressed=outcome.suppressed,
                        rules=rules, context_files=len(plan.context), docs_url=cfg.docs_url)
        if conv.get("add_suppressions") is not None or fmt == "junit":
            report.statements_by_file = placeholders.statement_positions(pending.files, maps)
    return report


def _rule(code: str):
    from icelint.rules import get

    return get(code)
