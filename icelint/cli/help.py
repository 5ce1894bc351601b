"""`--help` in sections, as ruff groups its options: rule selection, file selection, state,
output, fixes, miscellaneous. Only the help text changes; the options stay where they are declared.

An option is placed by its parameter name in `SECTIONS`; an option no section names falls under
"Miscellaneous", so a new option is never lost from the help."""

from __future__ import annotations

import click

SECTIONS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Rule selection", ("select", "ignore", "extend_select", "extend_ignore", "readers", "iceberg_version")),
    ("File selection", ("migrations", "since", "order", "stdin_filename", "config_file")),
    ("State", ("metadata", "table_dirs", "warehouse", "catalog", "table_uuid", "catalog_kind", "stats_budget")),
    ("Output", ("fmt", "output_file", "fail_on", "exit_zero", "statistics", "color", "quiet", "verbose")),
    ("Fixes", ("fix", "unsafe_fixes", "diff", "add_suppressions")),
)
OTHER = "Miscellaneous"


def section_of(name: str | None) -> str:
    for title, names in SECTIONS:
        if name in names:
            return title
    return OTHER


class SectionedCommand(click.Command):
    """A command whose `--help` lists its options under section headings."""

    def format_options(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        groups: dict[str, list[tuple[str, str]]] = {}
        records = []
        for param in self.get_params(ctx):
            record = param.get_help_record(ctx)
            if record is not None:
                records.append(record)
                groups.setdefault(section_of(param.name), []).append(record)
        order = [title for title, _ in SECTIONS] + [OTHER]
        if len(groups) <= 2:  # a command with few options (`rules`, `explain`): click's own layout
            with formatter.section("Options"):
                formatter.write_dl(records)
            return
        for title in order:
            if title in groups:
                with formatter.section(title):
                    formatter.write_dl(groups[title])
