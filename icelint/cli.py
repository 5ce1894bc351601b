"""The command line: the only module that knows click, exit codes and where output goes."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Sequence

import click

from icelint import __version__
from icelint.reporters import FORMATS
from icelint.source import InputError
from icelint.sources.options import state_options

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2

metadata_option = click.option(
    "--metadata",
    "metadata",
    multiple=True,
    metavar="[db.table=]FILE",
    help="Table state: a metadata.json (local, s3://, gs://, abfs://, file://). Repeatable; name the table with db.table=FILE.",
)


class IcelintGroup(click.Group):
    """Turns every expected failure into one line on stderr and exit code 2, never a traceback."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except InputError as e:
            click.echo(f"icelint: error: {_safe(e)}", err=True)
            ctx.exit(EXIT_ERROR)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except BrokenPipeError:  # `icelint check ... | head`: the reader left; not an error of ours
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            ctx.exit(EXIT_OK)
        except KeyboardInterrupt:
            click.echo("icelint: interrupted", err=True)
            ctx.exit(130)
        except Exception as e:  # noqa: BLE001 - the promise is: no traceback, one line, exit 2
            if os.environ.get("ICELINT_DEBUG"):
                raise
            click.echo(f"icelint: internal error: {type(e).__name__}: {_safe(e)} (set ICELINT_DEBUG=1 for details)", err=True)
            ctx.exit(EXIT_ERROR)


def _safe(e: Exception) -> str:
    """An error's text with the passwords of URIs (`http://user:PASS@host/...`) masked."""
    from icelint.sources.redact import scrub

    return scrub(str(e))


def _write_report(write, output_file: str | None, capture: list | None = None) -> None:
    """`write(stream)` to FILE or stdout; a file or disk that refuses it is one line naming it.
    With `capture`, the text is rendered first and also appended to it (for the run cache)."""
    name = output_file or "standard output"
    if capture is not None:
        import io

        buf = io.StringIO()
        write(buf)
        text = buf.getvalue()
        capture.append(text)
        write = lambda out: out.write(text)  # noqa: E731
    try:
        if output_file:
            with open(output_file, "w", encoding="utf-8", newline="") as out:
                write(out)
        else:
            write(sys.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise InputError(f"{name}: cannot write the report: {e.strerror or e}") from None


@click.group(cls=IcelintGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="icelint")
def main() -> None:
    """Lint Spark SQL migrations of Apache Iceberg tables against the tables' real state."""


def _parse(paths: Sequence[str]):
    from icelint.discovery import discover
    from icelint.pipeline import parse_sources
    from icelint.source import SourceFile

    files = discover(list(paths))
    if not files:
        raise InputError(f"{' '.join(paths)}: no .sql files found")
    return parse_sources(SourceFile.read(f) for f in files)


def _default_format() -> str:
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def _state_sources(metadata: Sequence[str], sources, cfg=None):
    """The state sources of a command: the flags, else the `[tool.icelint]` keys (flags win)."""
    from icelint.config import load_config
    from icelint.sources.options import resolve

    return resolve(metadata, sources, (cfg or load_config()).state() or None)


def conventions_options(f):
    """The options of issue 14 (ruff's conventions), handed to `check` as one `conv` dict."""
    import functools

    options = [
        click.option("--extend-select", multiple=True, metavar="RULES",
                     help="Enable these rules on top of the selection (codes, names, prefixes such as ICE0, or ALL)."),
        click.option("--extend-ignore", multiple=True, metavar="RULES", help="The same as --ignore (ruff's spelling)."),
        click.option("--statistics", is_flag=True, help="Count the findings per rule instead of listing them."),
        click.option("--stdin-filename", metavar="PATH",
                     help="Read the SQL from standard input and report it as PATH (its configuration and per-file ignores apply)."),
        click.option("--color", "color", type=click.Choice(["auto", "always", "never"]), default="auto", show_default=True,
                     help="Colour the text output (auto: on a terminal; NO_COLOR and FORCE_COLOR are honoured)."),
        click.option("--add-suppressions", "add_suppressions", metavar="REASON",
                     help="Write `-- icelint: ignore CODE -- REASON` before every statement with findings, then exit."),
        click.option("--var", "variables", multiple=True, metavar="NAME=VALUE",
                     help="A value for the ${NAME} / ${hivevar:NAME} placeholders in the migrations. Repeatable."),
        click.option("--fix/--no-fix", default=None, help="Apply the safe fixes in place, then report what is left (stdin: print the fixed SQL)."),
        click.option("--unsafe-fixes/--no-unsafe-fixes", default=None, help="Apply (and offer) the unsafe fixes too."),
        click.option("--diff", is_flag=True, help="Print a unified diff of the fixes --fix would apply; change nothing (exit 1 if any)."),
    ]
    names = ("extend_select", "extend_ignore", "statistics", "stdin_filename", "color", "add_suppressions", "variables",
             "fix", "unsafe_fixes", "diff")

    @functools.wraps(f)
    def wrapper(*args, **kwargs):
        kwargs["conv"] = {n: kwargs.pop(n) for n in names}
        return f(*args, **kwargs)

    for option in reversed(options):
        wrapper = option(wrapper)
    return wrapper


@main.command()
@click.argument("paths", nargs=-1)
@metadata_option
@state_options
@conventions_options
@click.option("--format", "fmt", type=click.Choice(FORMATS), default=None,
              help="Output format.  [default: text; github when GITHUB_ACTIONS=true]")
@click.option("-o", "--output-file", metavar="FILE", help="Write the report to FILE instead of stdout.")
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default=None,
              help="The lowest severity that makes the exit code 1.  [default: error]")
@click.option("--exit-zero", is_flag=True, help="Exit 0 even with findings (2 still means a usage or input error).")
@click.option("--select", multiple=True, metavar="RULES", help="Only these rules (codes or names, comma-separated).")
@click.option("--ignore", multiple=True, metavar="RULES", help="Skip these rules (codes or names, comma-separated).")
@click.option("--readers", metavar="READERS",
              help="Check what these readers do with the tables (comma-separated: spark, clickhouse, pyiceberg; default: all).")
@click.option("--since", metavar="REF",
              help="Check only the .sql files changed since the merge-base of REF and HEAD (git), plus untracked ones; "
                   "the rest of the migrations folder is context.")
@click.option("--migrations", metavar="DIR",
              help="The migrations folder: its files that are not being checked are context (history).")
@click.option("--order", type=click.Choice(["flyway", "natural", "lexicographic"]), default=None,
              help="How files in a folder are ordered.  [default: flyway]")
@click.option("--catalog-kind", type=click.Choice(["iceberg", "session"]), default=None,
              help="Spark's catalog: iceberg (SparkCatalog: every table is Iceberg) or session (SparkSessionCatalog: "
                   "USING parquet makes a Spark table).  [default: iceberg]")
@click.option("--config", "config_file", metavar="FILE",
              help="Read [tool.icelint] from FILE instead of the nearest pyproject.toml.")
@click.option("--show-config", is_flag=True, help="Print the effective configuration and exit.")
@click.option("-q", "--quiet", is_flag=True, help="Only the finding lines and the summary.")
@click.option("--no-cache", is_flag=True, help="Do not read or write the run cache (.icelint_cache/).")
def check(paths, metadata, fmt, output_file, fail_on, exit_zero, select, ignore, since, migrations, order,
          catalog_kind, config_file, show_config, quiet, readers=None, sources=None, conv=None, no_cache=False) -> None:
    """Report every statement that would fail or damage data.

    PATHS are the files under review (folders: all their .sql files); without PATHS, the configured
    migrations folder (or, with --since, its changed files).
    """
    from icelint import discovery
    from icelint.config import load_config
    from icelint import stdin as stdin_input

    conv = conv or {}
    verbose = sources is not None and sources.verbose  # files of a folder that are skipped, said on stderr
    discovery.note = (lambda text: click.echo(f"icelint: note: {text}", err=True)) if verbose else None
    from_stdin = stdin_input.wanted(paths, conv.get("stdin_filename"))
    if from_stdin:
        stdin_input.check_paths(paths, conv.get("stdin_filename"))
    config_from = Path(conv["stdin_filename"]).parent.resolve() if conv.get("stdin_filename") and not config_file else None
    cfg = load_config(config_from, explicit=config_file).with_flags(
        select=select, ignore=ignore, fail_on=fail_on, order=order, migrations=migrations,
        extend_select=conv.get("extend_select", ()), extend_ignore=conv.get("extend_ignore", ()),
        variables=conv.get("variables", ()), catalog_kind=catalog_kind,
        readers=[readers] if readers is not None else (),
    )
    fmt = fmt or _default_format()
    if show_config:
        import json

        from icelint.config import render_toml

        d = cfg.as_dict()
        click.echo(json.dumps(d, indent=2) if fmt == "json" else render_toml(d), nl=fmt == "json")
        return
    from icelint import fixing

    mode = fixing.mode(conv, cfg)
    if mode.applying:
        return _fix_run(mode, cfg, paths, metadata, sources, since, conv, fmt, output_file, quiet, exit_zero, from_stdin)
    slot = None
    if not (no_cache or from_stdin or verbose or since is not None or conv.get("add_suppressions") is not None or mode.unsafe):
        slot = _cache_slot(cfg, paths, metadata, sources, conv, fmt, output_file, quiet, exit_zero)
    if slot is not None and (hit := slot.load()) is not None:
        _write_report(lambda out: out.write(hit[0]), output_file)
        sys.exit(hit[1])
    report = check_report(cfg, paths, metadata, sources, since, conv, fmt)
    report.unsafe_fixes = mode.unsafe
    if slot is None:
        _emit(report, cfg, conv, fmt, output_file, quiet, exit_zero)
        return
    captured: list = []
    try:
        _emit(report, cfg, conv, fmt, output_file, quiet, exit_zero, capture=captured)
    except SystemExit as e:
        if len(captured) == 1 and isinstance(e.code, int) and not _stats_incomplete():
            slot.store(captured[0], e.code)
        raise


def _fix_run(mode, cfg, paths, metadata, sources, since, conv, fmt, output_file, quiet, exit_zero, from_stdin) -> None:
    """--diff: print the fixes as a diff, exit 1 if any; --fix: write them (stdin: print the fixed SQL), report the rest."""
    import contextlib

    from icelint import fixing

    if conv.get("add_suppressions") is not None:
        raise InputError("--add-suppressions cannot be combined with --fix or --diff; run them one after the other")
    res = fixing.iterate(lambda texts: check_report(cfg, paths, metadata, sources, since, dict(conv, texts=texts), fmt), mode.unsafe)
    if mode.diff:
        diffs = "".join(fixing.unified_diff(p, res.originals[p], t) for p, t in sorted(res.texts.items()))
        _write_report(lambda out: out.write(diffs), output_file)
        n = res.fixed
        click.echo(f"Would fix {n} finding{'s' if n != 1 else ''}." if n else "No fixes to apply.", err=True)
        sys.exit(EXIT_FINDINGS if res.texts else EXIT_OK)
    report = res.report
    report.fixed, report.unsafe_fixes = res.fixed, mode.unsafe
    if from_stdin:  # as ruff: the fixed SQL on stdout, the report on stderr
        text = next(iter(res.texts.values()), None) or report.sources[0].text
        _write_report(lambda out: out.write(text), None)
        with contextlib.redirect_stdout(sys.stderr):
            _emit(report, cfg, conv, fmt, None, quiet, exit_zero)  # exits: a file named by --stdin-filename is not written
    for path, text in sorted(res.texts.items()):
        fixing.write(path, text)
    _emit(report, cfg, conv, fmt, output_file, quiet, exit_zero)
def _stats_incomplete() -> bool:
    """Some data counts of this run could not be read (unreachable, budget): another run may read them."""
    mod = sys.modules.get("icelint.sources.table_stats")
    return bool(mod is not None and mod.incomplete)


def _cache_slot(cfg, paths, metadata, sources, conv, fmt, output_file, quiet, exit_zero):
    """The run cache's slot for this check (icelint.cache), or None when it is not cached."""
    from icelint import cache
    from icelint.pending import make_plan

    if cache.disabled_by_env():
        return None
    plan = make_plan(list(paths), migrations=cfg.migrations, since=None, order=cfg.order)
    if not plan.pending:
        return None  # check_report says so
    flags = {"paths": list(paths), "format": fmt, "quiet": quiet, "exit_zero": exit_zero,
             "conv": {k: v for k, v in conv.items()}}
    return cache.slot_for(cfg, plan, _state_sources(metadata, sources, cfg), flags, destination_is_file=bool(output_file))


def check_report(cfg, paths, metadata, sources, since, conv: dict, fmt: str):
    """The work of `icelint check`, from its inputs (the effective configuration, the paths, the
    state sources, the issue-14 options in `conv`) to the `Report` every output is rendered from.
    Nothing here writes output: the seam where a cache of reports can sit."""
    from icelint import stdin as stdin_input

    from_stdin = stdin_input.wanted(paths, conv.get("stdin_filename"))
    from icelint import suppress
    from icelint.findings import Severity
    from icelint.checker import lint_run
    from icelint.pending import deployments, make_plan, only_pending, parse_plan, pending_part
    from icelint.parallel import lint_partitioned
    from icelint.pipeline import Parsed, replay
    from icelint.reporters import REPORTERS, Report
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

    if not plan.pending and since is None:
        raise InputError(f"{' '.join(paths) or cfg.migrations}: no .sql files found")
    opts = _state_sources(metadata, sources, cfg)
    absent: dict[str, str] = {}  # tables the catalog/warehouse was asked for and does not have
    stats = None  # the data counts of the states, read when a finding asks (sources/table_stats.py)
    if opts.has_source():
        # the state already holds the context files (applied): only the pending ones are read and replayed
        from icelint.sources import load_states

        pending = parsed = parse_plan(plan, pending_only=True, read=read)
        states = load_states(opts)
        resolved = states.resolve(pending.referenced_tables, pending.created_tables)
        initial = {k: v.metadata for k, v in resolved.items()}
        absent = states.absent
        from icelint.sources.table_stats import provider_for

        stats = provider_for(states, resolved, opts.stats_budget)
    else:
        # no state: the whole history is replayed from its CREATE TABLEs, findings kept for pending files
        parsed = parse_plan(plan, read=read)
        parsed.deployments = deployments(plan)  # applied files and folder boundaries: tables hold data after them
        pending = pending_part(parsed, plan)
        initial = None

    def lint_steps(steps) -> list:
        run = replay(Parsed(parsed.sources, parsed.files, list(steps), parsed.deployments), initial, catalog_kind=cfg.catalog_kind)
        run.result.absent = absent
        run.result.stats = stats
        return only_pending(lint_run(run, rules), run, plan)

    findings = lint_partitioned(parsed.steps, lint_steps)  # tables in parallel processes, when it pays
    if findings is None:
        findings = lint_steps(parsed.steps)
    findings = placeholders.adjust(findings, pending.files, maps, [r.code for r in rules], _rule("ICE060"))
    from icelint.migration_history import check_plan  # the files' own history (ICE022-ICE024)

    findings = sorted([*findings, *check_plan(plan, rules, order=cfg.order, since=since)], key=lambda f: f.sort_key)
    outcome = suppress.apply(findings, pending.files, pending.sources, [r.code for r in rules], cfg)
    outcome = suppress.Outcome(placeholders.remap(outcome.findings, maps), placeholders.remap(outcome.suppressed, maps))
    originals = [maps[s.path].original if s.path in maps else s for s in pending.sources]
    from icelint.fixing import adapt  # fixes as edits of the files as they are (CRLF, a deleted statement's `;`)

    found = adapt(outcome.findings, {s.path: s.text for s in originals}, maps)
    report = Report(found, originals, pending.statement_count, suppressed=outcome.suppressed,
                    rules=rules, context_files=len(plan.context), docs_url=cfg.docs_url)
    if conv.get("add_suppressions") is not None or fmt == "junit":
        report.statements_by_file = placeholders.statement_positions(pending.files, maps)
    return report


def _emit(report, cfg, conv: dict, fmt: str, output_file, quiet: bool, exit_zero: bool, capture: list | None = None) -> None:
    """Write the report (or act on it: --add-suppressions, --statistics) and exit with the check's code."""
    from icelint.findings import Severity
    from icelint.reporters import REPORTERS

    if conv.get("add_suppressions") is not None:
        from icelint import baseline

        per_file = {p: (st, [f for f in report.findings if f.path == p]) for p, st in report.statements_by_file.items()}
        added, changed = baseline.add({p: v for p, v in per_file.items() if v[1]}, conv["add_suppressions"])
        click.echo(f"icelint: added {added} suppression{'s' if added != 1 else ''} to {changed} file{'s' if changed != 1 else ''}", err=True)
        sys.exit(EXIT_OK)
    if conv.get("statistics"):
        from icelint.statistics import render as render_statistics

        _write_report(lambda out: render_statistics(report.findings, out, "json" if fmt == "json" else "text"), output_file, capture)
        threshold = Severity(cfg.fail_on).rank
        failing = any(f.severity.rank >= threshold for f in report.findings)
        sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_OK)
    color = {"always": True, "never": False}.get(conv.get("color", "auto"))
    _write_report(lambda out: REPORTERS[fmt](report, out, quiet=quiet, color=color), output_file, capture)
    threshold = Severity(cfg.fail_on).rank
    failing = any(f.severity.rank >= threshold for f in report.findings)
    sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_OK)


def _rule(code: str):
    from icelint.rules import get

    return get(code)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@metadata_option
@state_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def schema(paths, metadata, fmt, sources) -> None:
    """Show each table's state after replaying the migrations."""
    from icelint.pipeline import replay
    from icelint.schema_view import render_json, render_text
    from icelint.sources import load_states

    parsed = _parse(paths)
    states = load_states(_state_sources(metadata, sources))
    run = replay(parsed, states.assign(parsed.referenced_tables, parsed.created_tables))
    _write_report(lambda out: (render_json if fmt == "json" else render_text)(run, out), None)


@main.command("rules")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def rules_cmd(fmt) -> None:
    """List every rule: code, name, default severity, summary."""
    import json

    from icelint.rules import ALL_RULES

    if fmt == "json":
        click.echo(json.dumps([{"code": r.code, "name": r.name, "severity": r.severity.value, "summary": r.summary} for r in ALL_RULES], indent=2))
        return
    for r in ALL_RULES:
        click.echo(f"{r.code}  {r.name:<26} {r.severity.value:<8} {r.summary}")


@main.command()
@click.argument("rule")
def explain(rule) -> None:
    """Print a rule's documentation (by code or name)."""
    from icelint import rules

    r = rules.get(rule)
    if r is None:
        raise click.BadParameter(f"unknown rule {rule!r} (see `icelint rules`)", param_hint="RULE")
    text = f"# {r.code} {r.name} ({r.severity.value})\n\n" + r.doc.strip() + "\n"
    from icelint.color import use_color

    if use_color(sys.stdout):  # NO_COLOR: the plain Markdown
        from rich.console import Console
        from rich.markdown import Markdown

        Console().print(Markdown(text))
    else:
        click.echo(text, nl=False)


@main.command()
@click.argument("tables", nargs=-1, required=True)
@click.option("--out", default="snapshots", show_default=True, metavar="DIR",
              help="Where to write <db.table>.metadata.json.")
@click.option("--check", "check_only", is_flag=True,
              help="Write nothing; exit 1 when a snapshot in DIR differs from the source.")
@metadata_option
@state_options
def snapshot(tables, out, check_only, metadata, sources) -> None:
    """Save the current metadata of TABLES (db.table ...) from a state source, to lint offline in CI."""
    from icelint.sources.snapshot import run_snapshot

    sys.exit(run_snapshot(tables, out, _state_sources(metadata, sources), check=check_only, echo=click.echo))



def entry() -> None:
    """The `icelint` executable (and `python -m icelint`): `main` in a process of its own.

    A run allocates many small objects that reference counting frees; the cyclic collector's
    passes over the growing heap, and the interpreter's teardown of it at exit, only cost time.
    So the collector stays off, and the process ends with `os._exit` once the output is flushed
    (mypy does both). Tests call `main` in-process and keep the interpreter's defaults.
    """
    gc.disable()
    from icelint import parallel

    parallel.enabled = True
    try:
        main()
        code: int | str | None = 0
    except SystemExit as e:
        code = e.code
    if not isinstance(code, int):  # `sys.exit("message")` semantics
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except BrokenPipeError:  # `icelint check ... | head`: the reader left; not an error of ours
            pass
        except OSError as e:  # a full disk: the output is lost, which must not pass for success
            if stream is sys.stdout:
                os.write(2, f"icelint: error: standard output: cannot write: {e.strerror or e}\n".encode())
                code = EXIT_ERROR
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
