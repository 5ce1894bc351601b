"""Where table state comes from. `StateOptions` gathers the user's choices; `load_states` reads them.

Sources, in the order they are asked for a table:

1. `--metadata db.t=FILE` (local path or URI) and `--table-dir db.t=DIR`: named explicitly;
2. `--metadata FILE` / `--table-dir DIR` without a name: the table named by the file
   (`db.t.metadata.json`) or the directory (`.../db/t`), else by the table's `location`, else the
   one table the scripts alter (`icelint/sources/naming.py`);
3. `--catalog NAME` (pyiceberg), then `--warehouse DIR` (Hadoop layout `DIR/db/t`): asked for every
   table the scripts touch that has no state yet. A table they do not have is left out: the replay
   reports it (ICE005) unless the scripts create it.

Heavy libraries (pyiceberg, pyarrow) are imported only by the sources that need them: a local
`--metadata` file or table directory never imports pyiceberg.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from icelint.model.table import TableMetadata
from icelint.values.source import InputError, read_bytes

_NAMED_FILE = re.compile(r"^(?P<name>[^/\\]+?)(\.gz)?\.metadata\.json(\.gz)?$")
_NUMBERED = re.compile(r"^v?\d+(-|$)")


def _stderr(message: str) -> None:
    from icelint.sources.redact import scrub  # a URI's password, given on the command line

    print(f"icelint: {scrub(message)}", file=sys.stderr)


@dataclass
class StateOptions:
    """Where table state comes from: the state-source options of the command line and the configuration."""

    metadata: list[str] = field(default_factory=list)  # "FILE" or "db.table=FILE"
    table_dirs: list[str] = field(default_factory=list)  # "DIR" or "db.table=DIR"
    warehouse: str | None = None  # Hadoop layout: table db.t → DIR/db/t
    catalog: str | None = None  # a pyiceberg catalog name
    table_uuid: str | None = None  # only metadata files of this table-uuid (table dirs, warehouse)
    verbose: bool = False  # say which file was chosen for each table, and why (stderr)
    stats_budget: float = 10.0  # seconds a run may spend reading manifests (--stats-budget)
    log: Callable[[str], None] | None = field(default=None, compare=False, repr=False)

    def has_source(self) -> bool:
        return bool(self.metadata or self.table_dirs or self.warehouse or self.catalog)

    def logger(self) -> Callable[[str], None] | None:
        if not self.verbose:
            return None
        return self.log or _stderr


@dataclass(frozen=True)
class LoadedState:
    """One table's state and where it came from: the metadata.json content exactly as stored."""

    metadata: TableMetadata
    data: bytes  # the JSON bytes (decompressed)
    origin: str  # the file or URI read
    source: str  # "--metadata", "--table-dir", "--warehouse", "--catalog NAME"


def split_named(arg: str) -> tuple[str | None, str]:
    """`db.t=PATH` → ("db.t", PATH); `PATH` → (None, PATH). A `=` inside a path or URI is not a name."""
    name, sep, rest = arg.partition("=")
    if sep and name and rest and "/" not in name and "\\" not in name and ":" not in name and " " not in name:
        return name, rest
    return None, arg


def _key(name: str) -> str:
    from icelint.replay.engine import table_key

    return table_key(name)


def read_metadata_bytes(path: str, properties: dict[str, str] | None = None, secrets: tuple[str, ...] = ()) -> bytes:
    """The bytes of a metadata file: a local path, `file://` URI, or a remote URI (through pyiceberg)."""
    if "://" in path and not path.lower().startswith("file:"):
        from icelint.sources.remote import (
            read_remote,  # pyiceberg's FileIO, imported only here
        )

        return read_remote(path, properties, secrets)
    return read_bytes(
        _local_path(path),
        missing="no such metadata file",
        directory="is a directory; use --table-dir for a table directory",
        label=path,
    )


def _local_path(path: str) -> str:
    """`file:///x`, `file:/x` (Hadoop's form) and plain paths → a local path."""
    if path.lower().startswith("file://"):
        return path[len("file://"):]
    if path.lower().startswith("file:"):
        return path[len("file:"):]
    return path


def _decompressed(data: bytes, origin: str) -> bytes:
    if data[:2] == b"\x1f\x8b":
        try:
            import gzip
            import zlib

            return gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise InputError(f"{origin}: corrupt gzip metadata file ({e})") from None
    return data


def read_metadata_state(path: str, source: str = "--metadata", properties: dict[str, str] | None = None,
                        secrets: tuple[str, ...] = ()) -> LoadedState:
    data = read_metadata_bytes(path, properties, secrets)
    from icelint.model.metadata import parse_metadata_bytes  # json and the loaders: only when a file is read

    meta = parse_metadata_bytes(data, path)
    return LoadedState(meta, _decompressed(data, path), path, source)


def read_metadata_file(path: str) -> TableMetadata:
    return read_metadata_state(path).metadata


def _read_table_dir(directory: str, table_uuid: str | None, log, source: str) -> LoadedState:
    from icelint.sources.hadoop import load_table_dir

    if "://" in directory and not directory.lower().startswith("file:"):
        raise InputError(
            f"{directory}: remote table directories cannot be listed; give the metadata file (--metadata URI) or a catalog (--catalog)"
        )
    choice, data, meta = load_table_dir(Path(_local_path(directory)), table_uuid, log)
    return LoadedState(meta, _decompressed(data, str(choice.path)), str(choice.path), source)


class States:
    """The states given explicitly, plus the sources asked on demand (catalog, warehouse)."""

    def __init__(self, opts: StateOptions, named: dict[str, LoadedState],
                 anonymous: list[tuple[str, LoadedState, str | None]]) -> None:
        self.opts = opts
        self.loaded = named  # table key → state
        self.anonymous_states = anonymous  # (argument, state, name hint from the path)
        self._catalog = None
        self._log = opts.logger()
        self.absent: dict[str, str] = {}  # table key → the source asked that does not have it ("catalog `prod`")
        self.unused: list[str] = []  # notes on the states no statement uses (said under -v)

    # The two views older callers used.
    @property
    def named(self) -> dict[str, TableMetadata]:
        return {k: v.metadata for k, v in self.loaded.items()}

    @property
    def anonymous(self) -> list[tuple[str, TableMetadata]]:
        return [(arg, s.metadata) for arg, s, _ in self.anonymous_states]

    def catalog(self):
        if self._catalog is None and self.opts.catalog:
            from icelint.sources.catalog import ReadOnlyCatalog

            self._catalog = ReadOnlyCatalog(self.opts.catalog, self._log)
        return self._catalog

    def assign(self, referenced: Iterable[str], created: Iterable[str]) -> dict[str, TableMetadata]:
        """The state of every table: given ones, then the sources asked for each table the scripts touch."""
        return {k: v.metadata for k, v in self.resolve(referenced, created).items()}

    def resolve(self, referenced: Iterable[str], created: Iterable[str]) -> dict[str, LoadedState]:
        touched = list(dict.fromkeys(_key(t) for t in referenced))
        created_keys = {_key(t) for t in created}
        out = dict(self.loaded)
        for arg, state, hint in self.anonymous_states:
            name = self._name_anonymous(arg, state, hint, touched, created_keys, out)
            if name is None:
                self.unused.append(f"{arg}: not used: no statement is on a table it could be the state of "
                                   f"(tables touched: {', '.join(touched) or 'none'})")
                continue
            if name not in touched:
                self.unused.append(f"{arg}: the state of {name}, which no statement touches: not used")
            if name in out:
                raise InputError(f"{arg}: a state for {name} was already given ({out[name].origin})")
            out[name] = state
        for key, state in self.loaded.items():
            if key not in touched:
                self.unused.append(f"{state.origin}: the state of {key}, which no statement touches: not used")
        for key in touched:
            if key in out:
                continue
            state = self._lookup(key, optional=key in created_keys)
            if state is not None:
                out[key] = state
        return out

    def _name_anonymous(self, arg: str, state: LoadedState, hint: str | None, touched: list[str], created: set[str],
                        out: dict[str, LoadedState]) -> str | None:
        # The rules and their order: icelint/sources/naming.py.
        if hint is not None and (state.source == "--metadata" or hint in touched):
            return hint
        from icelint.sources.naming import name_by_location

        candidates = [t for t in touched if t not in created and t not in out]
        example = candidates[0] if len(candidates) == 1 and "." in candidates[0] else "db.table"
        by_location = name_by_location(arg, f"{state.source} {example}={arg}", state.metadata.location, touched,
                                       untouched_ok=True)
        if by_location is not None:
            return by_location
        if len(candidates) != 1:
            return None  # unused: said under -v; a statement on a table nothing gives is ICE005 there
        return candidates[0]

    def _lookup(self, key: str, optional: bool = False) -> LoadedState | None:
        """The state of `key` from the catalog, else the warehouse; None when neither has the table.

        `optional`: the scripts create the table, so a warehouse directory without metadata is no error.
        """
        catalog = self.catalog()
        if catalog is not None:
            got = catalog.load(key)
            if got is not None:
                return LoadedState(got.metadata, got.data, got.origin, f"--catalog {catalog.name}")
            self.absent.setdefault(key, f"catalog `{catalog.name}`")
        if self.opts.warehouse:
            from icelint.sources.hadoop import warehouse_table_dir

            warehouse = Path(_local_path(self.opts.warehouse))
            directory = warehouse_table_dir(warehouse, key if "." in key else f"default.{key}")
            if directory is None or (optional and not _has_metadata(directory)):
                if self._log:
                    self._log(f"{key}: no table in {warehouse / Path(*key.split('.'))}")
                self.absent.setdefault(key, f"warehouse `{self.opts.warehouse}`")
                return None
            return _read_table_dir(str(directory), self.opts.table_uuid, self._log, "--warehouse")
        return None


def _has_metadata(directory: Path) -> bool:
    from icelint.sources.hadoop import metadata_dir, parse_name

    meta = metadata_dir(directory)
    try:
        return meta.is_dir() and any(parse_name(p.name) is not None for p in meta.iterdir())
    except OSError:
        return False


def _hint_from_file(path: str) -> str | None:
    m = _NAMED_FILE.match(Path(_local_path(path)).name)
    if m and "." in m.group("name") and not _NUMBERED.match(m.group("name")):
        return _key(m.group("name"))
    return None


def _hint_from_dir(directory: str) -> str | None:
    p = Path(_local_path(directory).rstrip("/\\"))
    if p.name and p.parent.name:
        return _key(f"{p.parent.name}.{p.name}")
    return None


def expand_globs(args: Sequence[str]) -> list[str]:
    """`--metadata` values with a glob (`snapshots/*.metadata.json`, quoted so that icelint expands it,
    as in configuration) replaced by the files it matches, in name order. A local path that exists
    as written is taken as it is; a pattern that matches nothing, or a named one (`db.t=...`) that
    matches several files, is an error."""
    import glob

    out: list[str] = []
    for arg in args:
        name, path = split_named(arg)
        if "://" in path or not glob.has_magic(path) or os.path.exists(path):
            out.append(arg)
            continue
        found = sorted(glob.glob(os.path.expanduser(path)))
        if not found:
            raise InputError(f"{shown_path(path)}: no file matches this pattern (--metadata)")
        if name and len(found) > 1:
            raise InputError(f"{arg}: the pattern matches {len(found)} files; a named state needs one file")
        out += [f"{name}={f}" if name else f for f in found]
    return out


def shown_path(path: str) -> str:
    """A local path as findings show it: relative to the working directory when it is under it."""
    if "://" in path:
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive (Windows)
        return path
    return rel if not rel.startswith(os.pardir) else path


def load_states(opts: StateOptions) -> States:
    """Read the explicitly given states now (so a bad path fails before any replay); the rest on demand."""
    log = opts.logger()
    if opts.warehouse:
        w = opts.warehouse
        if "://" in w and not w.lower().startswith("file:"):
            raise InputError(f"{w}: remote warehouses cannot be listed; use a catalog (--catalog) or --metadata URI")
        if not Path(_local_path(w)).is_dir():
            raise InputError(f"{w}: no such warehouse directory")
    props: dict[str, str] | None = None
    secrets: tuple[str, ...] = ()
    named: dict[str, LoadedState] = {}
    anonymous: list[tuple[str, LoadedState, str | None]] = []

    def put(name: str, state: LoadedState, arg: str) -> None:
        from icelint.sources.naming import other_table

        key = _key(name)
        other = other_table(name, state.origin, state.metadata.location)
        if other is not None:
            raise InputError(f"{arg}: given as the state of {key}, but its location {state.metadata.location} is "
                             f"table {other}; give each table its own state ({state.source} {other}={split_named(arg)[1]})")
        if key in named:
            raise InputError(f"{arg}: a state for {key} was already given ({named[key].origin})")
        named[key] = state

    for arg in expand_globs(opts.metadata):
        name, path = split_named(arg)
        if path.endswith(".stats.json"):  # the data counts `icelint snapshot` writes beside a metadata file
            if log:
                log(f"{path}: skipped (a stats sidecar, read with its metadata file)")
            continue
        if "://" in path and not path.lower().startswith("file:") and opts.catalog and props is None:
            # remote files are read with the FileIO properties (credentials) of the configured catalog
            from icelint.sources.catalog import ReadOnlyCatalog

            cat = ReadOnlyCatalog(opts.catalog)
            props, secrets = cat.file_io_properties(), cat.secrets
        state = read_metadata_state(path, "--metadata", props, secrets)
        if log:
            log(f"{name or path}: using {path} (--metadata)")
        if name:
            put(name, state, arg)
        else:
            anonymous.append((arg, state, _hint_from_file(path)))
    for arg in opts.table_dirs:
        name, directory = split_named(arg)
        state = _read_table_dir(directory, opts.table_uuid, log, "--table-dir")
        if name:
            put(name, state, arg)
        else:
            anonymous.append((arg, state, _hint_from_dir(directory)))
    return States(opts, named, anonymous)


__all__ = ["LoadedState", "StateOptions", "States", "load_states", "read_metadata_file", "read_metadata_state", "split_named"]
