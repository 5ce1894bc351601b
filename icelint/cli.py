"""The command line: the only module that knows click, exit codes and where output goes."""

from __future__ import annotations

import os
import sys
from typing import Sequence

import click

from icelint import __version__
from icelint.source import InputError

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


def _states(metadata: Sequence[str], parsed) -> dict:
    from icelint.sources import StateOptions, load_states

    states = load_states(StateOptions(metadata=list(metadata)))
    return states.assign(parsed.referenced_tables, parsed.created_tables)


def _parse(paths: Sequence[str]):
    from icelint.discovery import discover
    from icelint.pipeline import parse_sources
    from icelint.source import SourceFile

    files = discover(list(paths))
    if not files:
        raise InputError(f"{' '.join(paths)}: no .sql files found")
    return parse_sources(SourceFile.read(f) for f in files)


def _select_rules(select: Sequence[str], ignore: Sequence[str]):
    from icelint import rules

    def pick(names: Sequence[str], flag: str) -> set[str]:
        out = set()
        for raw in names:
            for sel in raw.split(","):
                sel = sel.strip()
                if not sel:
                    continue
                r = rules.get(sel)
                if r is None:
                    raise click.BadParameter(f"unknown rule {sel!r} (see `icelint rules`)", param_hint=flag)
                out.add(r.code)
        return out

    chosen = pick(select, "--select") or {r.code for r in rules.ALL_RULES}
    dropped = pick(ignore, "--ignore")
    return tuple(r for r in rules.ALL_RULES if r.code in chosen and r.code not in dropped)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@metadata_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@click.option("--fail-on", type=click.Choice(["error", "warning", "info"]), default="error", show_default=True,
              help="The lowest severity that makes the exit code 1.")
@click.option("--select", multiple=True, metavar="RULES", help="Only these rules (codes or names, comma-separated).")
@click.option("--ignore", multiple=True, metavar="RULES", help="Skip these rules (codes or names, comma-separated).")
@click.option("-q", "--quiet", is_flag=True, help="Only the finding lines and the summary.")
def check(paths, metadata, fmt, fail_on, select, ignore, quiet) -> None:
    """Report every statement that would fail or damage data."""
    from icelint.findings import Severity
    from icelint.lint import lint_run
    from icelint.pipeline import replay
    from icelint.reporters import REPORTERS, Report

    rules = _select_rules(select, ignore)
    parsed = _parse(paths)
    run = replay(parsed, _states(metadata, parsed))
    findings = lint_run(run, rules)
    report = Report(findings, parsed.sources, parsed.statement_count, rules=rules)
    REPORTERS[fmt](report, sys.stdout, quiet=quiet)
    threshold = Severity(fail_on).rank
    failing = any(f.severity.rank >= threshold for f in findings)
    sys.exit(EXIT_FINDINGS if failing else EXIT_OK)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@metadata_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
def schema(paths, metadata, fmt) -> None:
    """Show each table's state after replaying the migrations."""
    from icelint.pipeline import replay
    from icelint.schema_view import render_json, render_text

    parsed = _parse(paths)
    run = replay(parsed, _states(metadata, parsed))
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


if __name__ == "__main__":  # pragma: no cover
    main()
