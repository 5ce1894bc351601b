"""The command line: the only module that knows click, exit codes and where output goes."""

from __future__ import annotations

import gc
import os
import sys
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
            click.echo(f"icelint: error: {e}", err=True)
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
            click.echo(f"icelint: internal error: {type(e).__name__}: {e} (set ICELINT_DEBUG=1 for details)", err=True)
            ctx.exit(EXIT_ERROR)


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


@main.command()
@click.argument("paths", nargs=-1)
@metadata_option
@state_options
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
@click.option("--config", "config_file", metavar="FILE",
              help="Read [tool.icelint] from FILE instead of the nearest pyproject.toml.")
@click.option("--show-config", is_flag=True, help="Print the effective configuration and exit.")
@click.option("-q", "--quiet", is_flag=True, help="Only the finding lines and the summary.")
def check(paths, metadata, fmt, output_file, fail_on, exit_zero, select, ignore, since, migrations, order,
          config_file, show_config, quiet, readers=None, sources=None) -> None:
    """Report every statement that would fail or damage data.

    PATHS are the files under review (folders: all their .sql files); without PATHS, the configured
    migrations folder (or, with --since, its changed files).
    """
    from icelint.config import load_config

    cfg = load_config(explicit=config_file).with_flags(
        select=select, ignore=ignore, fail_on=fail_on, order=order, migrations=migrations,
        readers=[readers] if readers is not None else (),
    )
    fmt = fmt or _default_format()
    if show_config:
        import json

        from icelint.config import render_toml

        d = cfg.as_dict()
        click.echo(json.dumps(d, indent=2) if fmt == "json" else render_toml(d), nl=fmt == "json")
        return

    from icelint import suppress
    from icelint.findings import Severity
    from icelint.checker import lint_run
    from icelint.pending import make_plan, only_pending, parse_plan, pending_part
    from icelint.parallel import lint_partitioned
    from icelint.pipeline import Parsed, replay
    from icelint.reporters import REPORTERS, Report

    rules = cfg.rules()
    plan = make_plan(list(paths), migrations=cfg.migrations, since=since, order=cfg.order)
    if not plan.pending and since is None:
        raise InputError(f"{' '.join(paths) or cfg.migrations}: no .sql files found")
    opts = _state_sources(metadata, sources, cfg)
    if opts.has_source():
        # the state already holds the context files (applied): only the pending ones are read and replayed
        from icelint.sources import load_states

        pending = parsed = parse_plan(plan, pending_only=True)
        initial = load_states(opts).assign(pending.referenced_tables, pending.created_tables)
    else:
        # no state: the whole history is replayed from its CREATE TABLEs, findings kept for pending files
        parsed = parse_plan(plan)
        pending = pending_part(parsed, plan)
        initial = None

    def lint_steps(steps) -> list:
        run = replay(Parsed(parsed.sources, parsed.files, list(steps)), initial)
        return only_pending(lint_run(run, rules), run, plan)

    findings = lint_partitioned(parsed.steps, lint_steps)  # tables in parallel processes, when it pays
    if findings is None:
        findings = lint_steps(parsed.steps)
    outcome = suppress.apply(findings, pending.files, pending.sources, [r.code for r in rules], cfg)
    report = Report(outcome.findings, pending.sources, pending.statement_count, suppressed=outcome.suppressed,
                    rules=rules, context_files=len(plan.context))
    if output_file:
        with open(output_file, "w", encoding="utf-8", newline="") as out:
            REPORTERS[fmt](report, out, quiet=quiet)
    else:
        REPORTERS[fmt](report, sys.stdout, quiet=quiet)
    threshold = Severity(cfg.fail_on).rank
    failing = any(f.severity.rank >= threshold for f in outcome.findings)
    sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_OK)


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
    if fmt == "json":
        render_json(run, sys.stdout)
    else:
        render_text(run, sys.stdout)


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
    if sys.stdout.isatty():
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
        except OSError:  # `icelint check ... | head`: the reader left; not an error of ours
            pass
    os._exit(code)


if __name__ == "__main__":  # pragma: no cover
    entry()
