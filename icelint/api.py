"""The Python API: lint migrations from a job, before it runs them.

    import icelint
    from icelint.spark import table_state

    findings = icelint.lint(
        "ALTER TABLE db.events DROP COLUMN payload",
        state={"db.events": table_state(spark, "db.events")},
    )
    if any(f.severity.value == "error" for f in findings):
        raise SystemExit("\\n".join(f"{f.path}:{f.line}: {f.rule} {f.message}" for f in findings))

`icelint.lint` is this function, imported lazily by `icelint/__init__.py`.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, Union

from icelint.values.findings import Finding
from icelint.model.table import TableMetadata
from icelint.values.source import InputError

StateArg = Union[TableMetadata, str, Path, Mapping[str, TableMetadata | str | Path], None]

__all__ = ["lint"]


STRING = "<string>"  # the name of SQL text given to `lint` (its findings carry it as their path)


def _inputs(sql_or_paths: Any) -> tuple[tuple[str, ...], dict[str, str]]:
    """(paths, texts) of a `CheckRequest`: SQL text is a text of its own, paths are paths."""
    if isinstance(sql_or_paths, Path):
        items: list[str | Path] = [sql_or_paths]
    elif isinstance(sql_or_paths, str):
        text = sql_or_paths
        looks_like_path = "\n" not in text and ";" not in text and (
            text.endswith(".sql") or os.sep in text or "/" in text
        ) and " " not in text.strip()
        if not os.path.exists(text) and not looks_like_path:
            return (), {STRING: text}
        items = [text]
    elif isinstance(sql_or_paths, Iterable):
        items = list(sql_or_paths)
        if not items:
            raise InputError("no SQL given: pass SQL text, a path, or a list of paths")
    else:
        raise TypeError(f"lint() takes SQL text, a path or a list of paths, not {type(sql_or_paths).__name__}")
    for p in items:
        if not os.path.exists(p):
            raise InputError(f"{p}: no such file or directory")
    return tuple(str(p) for p in items), {}


def _state(value: TableMetadata | str | Path) -> TableMetadata:
    if isinstance(value, TableMetadata):
        return value
    if isinstance(value, (str, Path)):
        from icelint.sources import read_metadata_file

        return read_metadata_file(str(value))
    raise TypeError(f"a table state must be a TableMetadata or a metadata.json path, not {type(value).__name__}")


def _initial(state: StateArg, paths: tuple[str, ...], texts: dict[str, str]) -> dict[str, TableMetadata]:
    from icelint.replay.engine import table_key

    if state is None:
        return {}
    if isinstance(state, Mapping):
        return {table_key(str(k)): _state(v) for k, v in state.items()}
    meta = _state(state)  # one table: the one its location names, else the one the scripts alter
    from icelint.plan.discovery import discover
    from icelint.engine.pipeline import parse_sources
    from icelint.values.source import SourceFile
    from icelint.sources.naming import name_by_location

    parsed = parse_sources([SourceFile(p, t) for p, t in texts.items()] + [SourceFile.read(f) for f in discover(list(paths))],
                           trees=False)
    touched = list(dict.fromkeys(table_key(r) for r in parsed.referenced_tables))
    by_location = name_by_location("state", "state={'db.table': ...}", meta.location, touched)
    if by_location is not None:
        return {by_location: meta}
    created = {table_key(t) for t in parsed.created_tables}
    candidates = list(dict.fromkeys(t for t in touched if t not in created))
    if len(candidates) != 1:
        which = ", ".join(candidates) if candidates else "none"
        raise InputError(f"cannot tell which table the state is for (tables altered by the SQL: {which}); pass state={{'db.table': ...}}")
    return {candidates[0]: meta}


def lint(
    sql_or_paths: str | Path | Sequence[str | Path],
    state: StateArg = None,
    *,
    select: Sequence[str] | None = None,
    ignore: Sequence[str] = (),
    spark: Any = None,
    iceberg_version: str | None = None,
) -> list[Finding]:
    """Lint Spark SQL migrations against the tables' state; the findings, sorted: what `icelint
    check` reports on the same files (the same engine, `icelint.engine.run`, the same deployment
    model and the nearest `[tool.icelint]` of the files).

    `sql_or_paths`: SQL text, a path to a `.sql` file or a folder of them, or a list of paths.
    `state`: `{"db.table": TableMetadata or metadata.json path}`, or one `TableMetadata` (or path) for
    the one table the SQL alters. `spark`: a SparkSession to ask for the state of every table the SQL
    touches that `state` does not give (see `icelint.spark`). `select`/`ignore`: rule codes or names.
    `iceberg_version`: the Iceberg runtime the verdicts are for, "1.9" or "1.10" (docs/iceberg-versions.md);
    None: the configuration's `iceberg-version` (default 1.10).
    Raises `icelint.values.source.InputError` for unreadable input (and an unknown `iceberg_version`).
    """
    from icelint.config.target import check_iceberg_version

    if iceberg_version is not None:
        iceberg_version = check_iceberg_version(iceberg_version, "iceberg_version")
    from icelint import rules as registry
    from icelint.engine import CheckRequest, run

    paths, texts = _inputs(sql_or_paths)
    for sel in [*(select or ()), *ignore]:
        if registry.get(sel) is None:
            raise InputError(f"unknown rule {sel!r} (see `icelint rules`)")
    configure = None if iceberg_version is None else (lambda cfg: cfg.with_flags(iceberg_version=iceberg_version))
    request = CheckRequest(paths=paths, texts=texts, states=_initial(state, paths, texts), spark=spark,
                           select=tuple(select or ()), ignore=tuple(ignore), configure=configure)
    return run(request).findings
