"""`icelint snapshot`: save the current metadata of tables, so that CI can lint offline against them.

`snapshots/db.events.metadata.json` holds the source's metadata.json content as read (same keys, same
order, same values), pretty-printed with two-space indentation: the same source gives the same bytes.
`--metadata snapshots/db.events.metadata.json` (or a shell glob over the folder) then names the table
by itself. `--check` writes nothing and exits 1 when a committed snapshot differs from the source:
compared as JSON values, so key order and formatting do not count. Files are written as
icelint.util.writing writes them: whole or not at all, with a temporary name of this run's own (several
runs into one folder do not collide), never left behind by Ctrl-C or a full disk.

Next to each metadata file, `snapshots/db.events.stats.json` (the sidecar, `model/stats.py`) keeps
the data counts of the current snapshot, read from its manifests, so that `check --metadata` can say
how much data a finding puts at stake without reaching the table's files. When the manifests cannot
be read, the sidecar is not written and the reason is printed (not an error); `--check` compares the
metadata files only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from icelint.model.jsontext import MAX_JSON_DEPTH, decode, deep_enough, dumps
from icelint.values.source import InputError
from icelint.sources.redact import scrub  # the password of a URI given on the command line
from icelint.sources import LoadedState, StateOptions, load_states
from icelint.util.writing import write_file  # a unique temporary name per run, removed on any failure

EXIT_OK, EXIT_DIFFERS = 0, 1


def snapshot_name(key: str) -> str:
    return f"{key}.metadata.json"


def render(state: LoadedState) -> str:
    """The snapshot text of a state: its JSON, as stored, pretty-printed (deterministic)."""
    try:
        obj = decode(state.data.decode("utf-8"))
    except ValueError as e:  # the parser accepted it, so this should not happen
        raise InputError(f"{state.origin}: not valid JSON ({e})") from None
    return dumps(obj, indent=2, ensure_ascii=False) + "\n"  # deep older schemas too


def _differences(committed: Any, current: Any) -> list[str]:
    if not isinstance(committed, dict) or not isinstance(current, dict):
        return ["the whole document"]
    keys = sorted(set(committed) | set(current))
    return [k for k in keys if committed.get(k, _MISSING) != current.get(k, _MISSING)]


_MISSING = object()


@dataclass
class SnapshotResult:
    """What `icelint snapshot` did for one table (written, unchanged, differs, missing) and the file."""

    key: str
    path: Path
    status: str  # "written", "unchanged", "same", "differs", "missing"
    detail: str = ""


def run_snapshot(
    tables: Sequence[str],
    out: str | Path,
    opts: StateOptions,
    check: bool = False,
    echo: Callable[[str], None] = print,
) -> int:
    """Write (or with `check`, compare) the snapshots of `tables`; the exit code."""
    from icelint.replay.engine import table_key

    if not opts.has_source():
        raise InputError(
            "no table state source: give --metadata, --table-dir, --warehouse or --catalog "
            "(or set catalog/warehouse/metadata in [tool.icelint])"
        )
    keys = list(dict.fromkeys(table_key(t) for t in tables))
    states = load_states(opts)
    resolved = states.resolve(keys, [])
    missing = [k for k in keys if k not in resolved]
    if missing:
        raise InputError(f"{', '.join(missing)}: no such table in the given state sources")
    out_dir = Path(out)
    results: list[SnapshotResult] = []
    notes: dict[str, str | None] = {}  # key → what became of its stats sidecar
    for key in keys:
        state = resolved[key]
        path = out_dir / snapshot_name(key)
        text = render(state)
        if check:
            results.append(_compare(key, path, state, text))
            continue
        try:
            old = path.read_text(encoding="utf-8") if path.is_file() else None
            if old == text:
                results.append(SnapshotResult(key, path, "unchanged", state.origin))
                notes[key] = _write_sidecar(states, key, state, out_dir)
                continue
            out_dir.mkdir(parents=True, exist_ok=True)
            write_file(path, text.encode("utf-8"))
        except OSError as e:
            raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
        results.append(SnapshotResult(key, path, "written", state.origin))
        notes[key] = _write_sidecar(states, key, state, out_dir)
    failing = False
    for r in results:
        if r.status == "written":
            echo(scrub(f"{r.path}: written from {r.detail}"))
        elif r.status == "unchanged":
            echo(scrub(f"{r.path}: up to date ({r.detail})"))
        elif r.status == "same":
            echo(scrub(f"{r.path}: matches {r.detail}"))
        else:
            failing = True
            echo(scrub(f"{r.path}: {r.detail}"))
        if notes.get(r.key):
            echo(scrub(notes[r.key]))
    if check and failing:
        echo("snapshots are out of date: run `icelint snapshot` without --check to update them")
    return EXIT_DIFFERS if failing else EXIT_OK


def _write_sidecar(states, key: str, state: LoadedState, out_dir: Path) -> str | None:
    """`<key>.stats.json`: the counts of the state's current snapshot (unbounded: no budget here)."""
    from icelint.model.stats import dumps_sidecar, sidecar_path
    from icelint.sources.table_stats import provider_for

    path = Path(sidecar_path(str(out_dir / snapshot_name(key))) or "")
    got = provider_for(states, {key: state}, float("inf")).stats(key)
    if isinstance(got, str):
        return f"{path}: not written: the data counts are unknown ({got})"
    text = dumps_sidecar(got, key)
    try:
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            return None
        write_file(path, text.encode("utf-8"))
    except OSError as e:
        raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
    return f"{path}: written ({got.records} records in {got.data_files} data files, snapshot {got.snapshot_id})"


def _compare(key: str, path: Path, state: LoadedState, text: str) -> SnapshotResult:
    if not path.is_file():
        return SnapshotResult(key, path, "missing", f"missing (the source is {state.origin})")
    try:
        committed = decode(path.read_bytes().decode("utf-8"))
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    except (ValueError, RecursionError) as e:
        return SnapshotResult(key, path, "differs", f"not valid JSON ({e}); the source is {state.origin}")
    with deep_enough(3 * MAX_JSON_DEPTH):  # comparing deep values recurses too
        current = decode(text)
        if committed == current:
            return SnapshotResult(key, path, "same", state.origin)
        keys = _differences(committed, current)
    shown = ", ".join(keys[:8]) + (f" and {len(keys) - 8} more" if len(keys) > 8 else "")
    return SnapshotResult(key, path, "differs", f"differs from {state.origin} ({shown})")
