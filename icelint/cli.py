"""The command line: the only module that knows click. Options and arguments become calls:
`check` runs through icelint.check_output (cache, fixes, report, exit code) and icelint.check_run
(the check itself)."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path
from typing import Sequence

import click

from icelint import __version__
from icelint.check_output import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, run, write_report  # noqa: F401 - the exit codes, named here too
from icelint.check_run import state_sources
from icelint.reporters import FORMATS
from icelint.source import InputError
from icelint.sources.options import state_options


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
        import signal

        start = sys.modules.get("icelint._start")  # loaded by the executable only: see icelint._start
        interrupted = getattr(start, "interrupted", None)
        quiet = interrupted is not None and signal.getsignal(signal.SIGINT) is interrupted
        if quiet:
            signal.signal(signal.SIGINT, signal.default_int_handler)
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
            if isinstance(e, OSError) and e.filename:  # a file the system refuses: one line naming it
                name = str(e.filename)
                name = name if len(name) <= 120 else f"{name[:60]}...{name[-60:]}"
                click.echo(f"icelint: error: {_safe(OSError(f'{name}: {e.strerror or e}'))}", err=True)
            else:
                click.echo(f"icelint: internal error: {type(e).__name__}: {_safe(e)} (set ICELINT_DEBUG=1 for details)", err=True)
            ctx.exit(EXIT_ERROR)
        finally:
            if quiet:
                signal.signal(signal.SIGINT, interrupted)


def _safe(e: Exception) -> str:
    """An error's text with the passwords of URIs (`http://user:PASS@host/...`) masked."""
    from icelint.sources.redact import scrub

    return scrub(str(e))


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
    run(cfg, paths, metadata, sources, since, conv, fmt, output_file, quiet, exit_zero,
        from_stdin=from_stdin, verbose=verbose, no_cache=no_cache, say=_say)


def _say(text: str) -> None:
    click.echo(text, err=True)


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
    states = load_states(state_sources(metadata, sources))
    run = replay(parsed, states.assign(parsed.referenced_tables, parsed.created_tables))
    write_report(lambda out: (render_json if fmt == "json" else render_text)(run, out), None)


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

    sys.exit(run_snapshot(tables, out, state_sources(metadata, sources), check=check_only, echo=click.echo))



def entry() -> None:
    """The `icelint` executable (and `python -m icelint`): `main` in a process of its own.

    A run allocates many small objects that reference counting frees; the cyclic collector's
    passes over the growing heap, and the interpreter's teardown of it at exit, only cost time.
    So the collector stays off, and the process ends with `os._exit` once the output is flushed
    (mypy does both). Tests call `main` in-process and keep the interpreter's defaults. The
    executable's first module, `icelint._start`, turns the collector off before this module and
    its imports are loaded.
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
