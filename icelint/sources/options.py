"""The state-source options of the command line and of `[tool.icelint]`, and how they combine.

Command line (besides `--metadata`, defined in cli.py): `--table-dir [db.t=]DIR` (repeatable),
`--warehouse DIR`, `--catalog NAME`, `--table-uuid UUID`, `-v/--verbose`.

`[tool.icelint]` keys read here (paths already resolved by `icelint.config`, or against `base_dir`):

    catalog = "prod"                                   # a pyiceberg catalog name
    warehouse = "warehouse/"                           # Hadoop layout: db.t → warehouse/db/t
    metadata = { "db.events" = "snapshots/db.events.metadata.json" }  # or ["a.metadata.json", ...]: unnamed
    table-dirs = { "db.events" = "warehouse/db/events" }   # optional
    table-uuid = "..."                                 # optional

The flags add to the file's sources; a flag wins per table (`--metadata db.t=NEW` replaces the
configured state of `db.t`, the other configured tables keep theirs), and `--warehouse` /
`--catalog` replace the configured warehouse / catalog.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from icelint.values.source import InputError
from icelint.sources import StateOptions

STATE_CONFIG_KEYS = ("catalog", "warehouse", "metadata", "table-dirs", "table-uuid")

_OPTIONS = (
    click.option(
        "--table-dir", "table_dirs", multiple=True, metavar="[db.table=]DIR",
        help="Table state: an Iceberg table directory (Hadoop layout: DIR/metadata/...). Repeatable; "
             "name the table with db.table=DIR.",
    ),
    click.option(
        "--warehouse", metavar="DIR",
        help="Table state: a Hadoop-layout warehouse; table db.t is read from DIR/db/t.",
    ),
    click.option(
        "--catalog", metavar="NAME",
        help="Table state: the pyiceberg catalog NAME (~/.pyiceberg.yaml, PYICEBERG_CATALOG__NAME__* variables). Read-only.",
    ),
    click.option(
        "--table-uuid", metavar="UUID",
        help="With --table-dir/--warehouse: only metadata files whose table-uuid is UUID.",
    ),
    click.option(
        "--stats-budget", "stats_budget", type=click.FloatRange(min=0), default=10.0, show_default=True, metavar="SECONDS",
        help="Time a run may spend reading manifests for the data counts of its findings; past it they are unknown.",
    ),
    click.option(
        "-v", "--verbose", is_flag=True,
        help="Say which metadata file was chosen for each table, and why, and which files of folders were skipped (on stderr).",
    ),
)  # fmt: skip


def state_options(f: Callable) -> Callable:
    """Adds the state-source options; the command receives them as one `sources: StateOptions` argument."""

    @functools.wraps(f)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        kwargs["sources"] = StateOptions(
            table_dirs=list(kwargs.pop("table_dirs", ()) or ()),
            warehouse=kwargs.pop("warehouse", None),
            catalog=kwargs.pop("catalog", None),
            table_uuid=kwargs.pop("table_uuid", None),
            verbose=bool(kwargs.pop("verbose", False)),
            stats_budget=float(kwargs.pop("stats_budget", 10.0)),
        )
        return f(*args, **kwargs)

    for option in reversed(_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


def _path(value: str, base_dir: Path | None) -> str:
    if "://" in value or base_dir is None:
        return value
    p = Path(os.path.expanduser(value))
    return str(p if p.is_absolute() else base_dir / p)


def states_from_config(config: Mapping[str, Any] | None, base_dir: str | Path | None = None) -> StateOptions:
    """The state sources of a `[tool.icelint]` table (only the keys in STATE_CONFIG_KEYS are read)."""
    config = config or {}
    base = Path(base_dir) if base_dir is not None else None
    opts = StateOptions()

    def text(key: str) -> str | None:
        value = config.get(key)
        if value is None:
            return None
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"[tool.icelint] `{key}` must be a non-empty string")
        return value

    def table(key: str) -> list[str]:
        value = config.get(key)
        if value is None:
            return []
        if not isinstance(value, Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
            also = " or a list of paths" if key == "metadata" else ""
            raise InputError(f'[tool.icelint] `{key}` must be a table of "db.table" = "path"{also}')
        return [f"{name}={_path(p, base)}" for name, p in value.items()]

    if (catalog := text("catalog")) is not None:
        opts.catalog = catalog
    if (warehouse := text("warehouse")) is not None:
        opts.warehouse = _path(warehouse, base)
    if (uuid := text("table-uuid")) is not None:
        opts.table_uuid = uuid
    files = config.get("metadata")
    if isinstance(files, list) and all(isinstance(f, str) and f.strip() for f in files):
        opts.metadata = [_path(f, base) for f in files]  # unnamed: matched as `--metadata FILE` is
    else:
        opts.metadata = table("metadata")
    opts.table_dirs = table("table-dirs")
    return opts


def _table_of(arg: str) -> str | None:
    from icelint.sources import _hint_from_file, _key, split_named

    name, path = split_named(arg)
    if name:
        return _key(name)
    return _hint_from_file(path) or None


def _added(flags: list[str], config: list[str]) -> list[str]:
    """The configured entries whose table no flag names, then the flags (a flag wins per table)."""
    taken = {t for t in (_table_of(a) for a in flags) if t is not None}
    return [a for a in config if _table_of(a) not in taken or _table_of(a) is None] + list(flags)


def merge_state_options(flags: StateOptions, config: StateOptions | None) -> StateOptions:
    """The flags added to the configuration's sources; a flag wins per table (see the module docstring)."""
    if config is None:
        return flags
    return replace(
        config,
        metadata=_added(flags.metadata, config.metadata),
        table_dirs=_added(flags.table_dirs, config.table_dirs),
        warehouse=flags.warehouse or config.warehouse,
        catalog=flags.catalog or config.catalog,
        table_uuid=flags.table_uuid or config.table_uuid,
        verbose=flags.verbose or config.verbose,
        stats_budget=flags.stats_budget,
        log=flags.log or config.log,
    )


def resolve(metadata: Sequence[str], sources: StateOptions | None,
            config: Mapping[str, Any] | StateOptions | None = None) -> StateOptions:
    """The StateOptions of a command: its `--metadata` values, its `state_options`, the configuration."""
    flags = replace(sources or StateOptions(), metadata=list(metadata))
    file_opts = config if isinstance(config, StateOptions) or config is None else states_from_config(config)
    return merge_state_options(flags, file_opts)
