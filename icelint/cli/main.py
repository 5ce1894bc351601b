"""The command line: the only module that knows click. Options and arguments become calls:
`check` builds an `icelint.engine.CheckRequest` and runs it through icelint.cli.check (cache,
fixes, report, exit code), which calls `icelint.engine.run`."""

from __future__ import annotations

import gc
import os
import sys
from pathlib import Path

import click

from icelint.version import __version__
from icelint.cli.check import EXIT_ERROR, EXIT_FINDINGS, EXIT_OK, run, write_report  # noqa: F401 - the exit codes, named here too
from icelint.cli.state_flags import state_sources
from icelint.cli.help import SectionedCommand
from icelint.reporters import FORMATS
from icelint.values.source import InputError
from icelint.sources.options import state_options


iceberg_version_option = click.option(
    "--iceberg-version", "iceberg_version", metavar="VERSION", default=None,
    help='The Iceberg runtime the verdicts are for: "1.9" or "1.10" (see docs/iceberg-versions.md).  [default: 1.10]',
)
metadata_option = click.option(
    "--metadata",
    "metadata",
    multiple=True,
    metavar="[db.table=]FILE",
    help="Table state: a metadata.json (local, s3://, gs://, abfs://, file://). Repeatable; name the table with db.table=FILE.",
)


class IcelintGroup(click.Group):
    """Turns every expected failure into one line on stderr and exit code 2, never a traceback.
    Its commands list their options in sections (`icelint.cli.help`)."""

    command_class = SectionedCommand

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
            click.echo(f"icelint: error: {_relative(_safe(e))}", err=True)
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
            if _from_interrupt(e):  # Ctrl-C inside an import: Python wraps it (`__set_name__` of a dataclass)
                click.echo("icelint: interrupted", err=True)
                ctx.exit(130)
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


    def main(self, *args, **kwargs):  # type: ignore[override]
        """click's usage errors (a bad option, value, command or argument) as one line, exit code 2,
        instead of its three-line usage block; everything else as click does it."""
        if not kwargs.get("standalone_mode", True):
            return super().main(*args, **kwargs)
        kwargs["standalone_mode"] = False
        try:
            rv = super().main(*args, **kwargs)
        except click.exceptions.NoArgsIsHelpError as e:  # `icelint` alone: the help, as before
            e.show()
            sys.exit(e.exit_code)
        except click.ClickException as e:
            hint = f" (see `{_command(e.ctx)} --help`)" if isinstance(e, click.UsageError) and e.ctx else ""
            click.echo(f"icelint: error: {' '.join(e.format_message().split()).rstrip('.')}{hint}", err=True)
            sys.exit(e.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _command(ctx: click.Context) -> str:
    """`icelint check`, however the program was started (`python -m icelint`, the console script)."""
    names = []
    while ctx.parent is not None:
        names.append(ctx.info_name or "")
        ctx = ctx.parent
    return " ".join(["icelint", *reversed(names)])


def _from_interrupt(e: BaseException) -> bool:
    """Whether `e` stands for a Ctrl-C: a KeyboardInterrupt among its causes and contexts."""
    seen = 0
    while e is not None and seen < 20:
        if isinstance(e, KeyboardInterrupt):
            return True
        e = e.__cause__ or e.__context__
        seen += 1
    return False


def _relative(text: str) -> str:
    """Absolute paths under the working directory in an error's text made relative to it, as findings
    show paths (a configuration file and the paths in it are resolved to absolute ones)."""
    import re

    cwd = os.getcwd()
    for here in dict.fromkeys((cwd, os.path.realpath(cwd))):
        d = here.rstrip(os.sep)
        for up in range(3):  # the folder, and a configuration file found one or two folders above it
            if not d or os.path.dirname(d) == d:  # the root
                break
            # under the folder: any path; above it, only the configuration file itself (`../pyproject.toml`),
            # never other paths beside the working directory (a temporary folder stays absolute)
            tail = "" if up == 0 else r"(?=(?:pyproject|icelint)\.toml\b)"
            text = re.sub(r"(?<![\w:/\\.~-])" + re.escape(d + os.sep) + tail, (os.pardir + os.sep) * up, text)
            d = os.path.dirname(d)
    return text


def _safe(e: Exception) -> str:
    """An error's text with the passwords of URIs (`http://user:PASS@host/...`) masked."""
    from icelint.sources.redact import scrub

    return scrub(str(e))


@click.group(cls=IcelintGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="icelint")
def main() -> None:
    """Lint Spark SQL migrations of Apache Iceberg tables against the tables' real state."""


def _default_format() -> str:
    return "github" if os.environ.get("GITHUB_ACTIONS") == "true" else "text"


def conventions_options(f):
    """The options that follow ruff's conventions; `check` receives them as keyword arguments."""
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
    for option in reversed(options):
        f = option(f)
    return f


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
@iceberg_version_option
def check(paths, metadata, fmt, output_file, fail_on, exit_zero, select, ignore, since, migrations, order,
          catalog_kind, config_file, show_config, quiet, readers=None, sources=None, no_cache=False,
          extend_select=(), extend_ignore=(), statistics=False, stdin_filename=None, color="auto",
          add_suppressions=None, variables=(), fix=None, unsafe_fixes=None, diff=False, iceberg_version=None) -> None:
    """Report every statement that would fail or damage data.

    PATHS are the files under review (folders: all their .sql files, and their V<n>__*.py / .ipynb
    files, whose spark.sql(...) strings and %%sql cells are read); without PATHS, the configured
    migrations folder (or, with --since, its changed files).
    """
    from dataclasses import replace

    from icelint.fixes import apply as fixing
    from icelint.engine import stdin as stdin_input
    from icelint.cli.check import Output
    from icelint.config import load_config
    from icelint.engine import CheckRequest, config_groups, config_start

    verbose = sources is not None and sources.verbose  # files of a folder that are skipped, said on stderr
    from_stdin = stdin_input.wanted(paths, stdin_filename)
    texts: dict[str, str] = {}
    if from_stdin:
        stdin_input.check_paths(paths, stdin_filename)
        if add_suppressions is not None:
            raise InputError("--add-suppressions writes to files; it cannot be used with standard input")
        name = stdin_filename or stdin_input.NAME
        texts[name] = stdin_input.read(name).text
        paths = ()
    # the nearest [tool.icelint] from the first input's folder, as ruff finds it (stdin without a name: the CWD)
    config_from = None if config_file else config_start(tuple(paths), texts, Path.cwd())

    def with_flags(found):
        return found.with_flags(
            select=select, ignore=ignore, fail_on=fail_on, order=order, migrations=migrations,
            extend_select=extend_select, extend_ignore=extend_ignore,
            variables=variables, catalog_kind=catalog_kind,
            readers=[readers] if readers is not None else (), iceberg_version=iceberg_version,
        )

    cfg = with_flags(load_config(config_from, explicit=config_file))
    fmt = fmt or _default_format()
    if show_config:
        import json

        from icelint.config import render_toml

        d = cfg.as_dict()
        click.echo(json.dumps(d, indent=2) if fmt == "json" else render_toml(d), nl=fmt == "json")
        return
    state = replace(sources, metadata=list(metadata)) if sources is not None else None
    request = CheckRequest(paths=tuple(paths), texts=texts, config=cfg, state=state, since=since,
                           positions=add_suppressions is not None or fmt == "junit", pack=True,
                           note=_note if verbose else None, parallel=_own_process())
    if not config_file and not migrations and config_groups(replace(request, config=None)):
        # files under several configurations (a monorepo): each checked with its own, reported together
        request = replace(request, config=None, configure=with_flags)
    out = Output(fmt=fmt, output_file=output_file, quiet=quiet, exit_zero=exit_zero, color=color,
                 statistics=statistics, add_suppressions=add_suppressions, stdin=from_stdin)
    run(request, cfg, out, fixing.mode(cfg, fix, unsafe_fixes, diff), verbose=verbose, no_cache=no_cache, say=_say)


def _own_process() -> bool:
    """Whether this command runs in icelint's own process (`entry` says so through click's context
    object): only then may a large run fork workers (`CheckRequest.parallel`); `main` called inside
    someone else's process (the tests, a library) never forks."""
    obj = click.get_current_context().obj
    return bool(obj is not None and obj.get(OWN_PROCESS))


OWN_PROCESS = "own-process"


def _note(text: str) -> None:
    click.echo(f"icelint: note: {text}", err=True)


def _say(text: str) -> None:
    click.echo(text, err=True)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@metadata_option
@state_options
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@iceberg_version_option
def schema(paths, metadata, fmt, sources, iceberg_version=None) -> None:
    """Show each table's state after replaying the migrations (the same plan and states as `check`)."""
    from dataclasses import replace

    from icelint.engine import CheckRequest, plan_run
    from icelint.cli.schema_view import render_json, render_text

    verbose = sources is not None and sources.verbose
    state = replace(sources, metadata=list(metadata)) if sources is not None else None
    run = plan_run(CheckRequest(paths=tuple(paths), state=state, note=_note if verbose else None,
                                configure=lambda cfg: cfg.with_flags(iceberg_version=iceberg_version)))
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
        raise InputError(f"unknown rule {rule!r} (see `icelint rules`)")
    text = f"# {r.code} {r.name} ({r.severity.value})\n\n" + r.doc.strip() + "\n"
    from icelint.cli.color import use_color

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



@main.command()
def server() -> None:
    """Run the language server (LSP over standard input and output) for editors."""
    from icelint.server import main as serve

    sys.exit(serve())


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
    try:
        main(obj={OWN_PROCESS: True})
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
