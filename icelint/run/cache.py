"""The run cache of `icelint check`: a re-run whose inputs are all unchanged costs almost nothing.

A whole run is cached: the bytes it wrote and its exit code, under a key made of everything that can
change them:

- icelint's version and a fingerprint of its own source files (name, size, mtime), so an edited
  checkout never serves a stale report;
- the effective configuration (the `Config`, flags merged), the command's output flags (format,
  quiet, exit-zero, statistics, colour, ...), the current directory and the environment variables
  the reporters read (`NO_COLOR`, `FORCE_COLOR`, `TERM`, `CI`, `GITHUB_*`, `ICELINT_*`);
- every file the run reads, in the order it reads them (pending and context): path and content hash;
- every state source: the content hash of each local `--metadata` file and of its stats sidecar.

What is never cached (the run simply happens as without the cache): standard input, `--fix`, `--diff`
and `--unsafe-fixes` (they edit files or change the report), `--since` (its
set of files depends on git), `--add-suppressions` (it writes files), `--verbose` (it explains on
stderr), a remote or catalog state source (`--catalog`, `--warehouse`, `--table-dir`, URIs: knowing
whether they changed costs the round trip the cache would save), output to a terminal (its colour
and links depend on the terminal), and the `github` format when `GITHUB_STEP_SUMMARY` is set (it
writes the summary file).

The folder is `.icelint_cache/` beside the `pyproject.toml` the configuration came from (else in
the current directory), or `cache-dir` of `[tool.icelint]`. The cache only ever writes into, and
deletes from, a folder it created: one it creates holds a `.gitignore` of `*` with icelint's first
line (`MARKER`; so it is never committed), and that file is how a later run knows the folder is the
cache's. A folder that exists without it (a `cache-dir` pointed at a folder of the user's) is left
alone: the cache goes into its subfolder `icelint-run-cache/` instead (created, marked); when that
name is taken by something else, the run is not cached. Pruning deletes only entries (`<64 hex
digits>.json`) and the temporary files of killed runs (`.tmp-*.part`, a day old), only in the marked
folder. `--no-cache` or `ICELINT_NO_CACHE=1` turn it off. Entries are written to a temporary file and
renamed into place, so concurrent runs never see half an entry. An entry is read only when it is a
regular file (not a link, FIFO or device: opened without following links and without blocking) of
at most `MAX_ENTRY_BYTES`; one that cannot be read or parsed (nested too deep included) is a miss
(recomputed), never an error. Only the newest `MAX_ENTRIES` entries are kept. docs/cache.md says
the same for users.
"""

from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any

try:  # what hashlib.blake2b is, without importing hashlib, which loads OpenSSL (several ms of every run)
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - an interpreter without the builtin module
    from hashlib import blake2b

DIR_NAME = ".icelint_cache"
ENV_OFF = "ICELINT_NO_CACHE"
MAX_ENTRIES = 128
MAX_ENTRY_BYTES = 1 << 30  # a planted or runaway entry is a miss, not a read of any size
SUBDIR = "icelint-run-cache"  # the cache's own folder inside a `cache-dir` that is not the cache's
MARKER = b"# written by icelint: the cache is never committed\n*\n"  # the `.gitignore` of the cache's folder
_ENTRY_NAME = re.compile(r"^[0-9a-f]{64}\.json$")
_TEMP_NAME = re.compile(r"^\.tmp-[A-Za-z0-9_]+\.part$")
_STALE_TEMP_NS = 24 * 3600 * 10**9
_FORMAT = 1  # the layout of an entry; bump when it changes
_ENV_PREFIXES = ("GITHUB_", "ICELINT_")
_ENV_NAMES = ("NO_COLOR", "FORCE_COLOR", "TERM", "CI", "COLUMNS")


def disabled_by_env() -> bool:
    return os.environ.get(ENV_OFF, "").lower() not in ("", "0", "false", "no")


def folder(cfg) -> Path:
    configured = getattr(cfg, "cache_dir", None)
    if configured:
        return Path(configured)
    return (cfg.path.parent if cfg.path is not None else Path.cwd()) / DIR_NAME


def read_regular(path: str | Path, limit: int | None = None) -> bytes | None:
    """The bytes of `path` when it is a regular file (not followed when a link, not waited on when a
    FIFO) of at most `limit` bytes, else None; OSError when it cannot be opened or read."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or (limit is not None and st.st_size > limit):
            return None
        chunks, size = [], 0
        while True:
            chunk = os.read(fd, max(st.st_size + 1 - size, 1 << 16))
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)
            size += len(chunk)
            if limit is not None and size > limit:
                return None
    finally:
        os.close(fd)


def _digest(path: str | Path) -> str:
    """The content hash of a file the run reads (a link is followed: the run reads its target; a FIFO
    or device is not waited on: OSError, and the run is not cached)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path}: not a regular file")
        with os.fdopen(os.dup(fd), "rb") as fh:
            return blake2b(fh.read(), digest_size=20).hexdigest()
    finally:
        os.close(fd)


def _is_ours(directory: Path) -> bool:
    """The folder holds the cache's `.gitignore` (it was created by the cache)."""
    try:
        return read_regular(directory / ".gitignore", limit=len(MARKER)) == MARKER
    except OSError:
        return False


def home(root: Path) -> Path | None:
    """The folder the entries of the cache folder `root` go to (see the module docstring), or None
    when there is none the cache may write to."""
    if not os.path.lexists(root) or _is_ours(root):
        return root
    if not root.is_dir():
        return None
    sub = root / SUBDIR
    if not os.path.lexists(sub) or _is_ours(sub):
        return sub
    return None


def _package_fingerprint() -> list:
    root = Path(__file__).parent
    out = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d != "__pycache__")
        for name in sorted(filenames):
            if name.endswith((".py", ".json")):
                st = os.stat(os.path.join(dirpath, name))
                out.append((os.path.relpath(os.path.join(dirpath, name), root), st.st_size, st.st_mtime_ns))
    return out


def _dependencies() -> list:
    """sqlglot's tokenizer decides what icelint parses: its installed files' identity, found without
    importing it (importing it is what a cache hit saves)."""
    import importlib.util

    out = []
    for name in ("sqlglot",):
        try:
            spec = importlib.util.find_spec(name)
        except (ImportError, ValueError):
            spec = None
        origin = spec.origin if spec is not None else None
        if origin and os.path.exists(origin):
            st = os.stat(origin)
            out.append((name, origin, st.st_size, st.st_mtime_ns))
        else:
            out.append((name, None))
    return out


def _metadata_fingerprint(opts) -> list | None:
    """Content hashes of the local metadata files, or None when a source cannot be fingerprinted cheaply."""
    if opts.catalog is not None or opts.warehouse is not None or opts.table_dirs:
        return None
    out = []
    for spec in opts.metadata:
        name, sep, rest = spec.partition("=")
        path = rest if sep and "/" not in name and "\\" not in name else spec
        if "://" in path or not os.path.isfile(path):
            return None
        from icelint.model.stats import sidecar_path  # the data counts beside it (`icelint snapshot`)

        side = sidecar_path(path)
        try:
            out.append((spec, _digest(path)))
            if side is not None and os.path.isfile(side):
                out.append((side, _digest(side)))
        except OSError:  # unreadable: not cached, and the run itself says what is wrong with it
            return None
    out.append(("stats-budget", opts.stats_budget))
    return out


class Slot:
    """Where the report of one run is (or will be) cached."""

    def __init__(self, directory: Path, key: str) -> None:
        self.directory = directory
        self.key = key

    @property
    def path(self) -> Path:
        return self.directory / f"{self.key}.json"

    def load(self) -> tuple[str, int] | None:
        try:
            data = read_regular(self.path, MAX_ENTRY_BYTES)
            if data is None:
                return None
            entry = json.loads(data.decode("utf-8"))
            if isinstance(entry, dict) and entry.get("format") == _FORMAT and entry.get("key") == self.key \
                    and isinstance(entry.get("output"), str) and type(entry.get("code")) is int:
                return entry["output"], entry["code"]
        except (OSError, ValueError, RecursionError, MemoryError):  # a bad entry is a miss
            pass
        return None

    def writer(self) -> EntryWriter:
        """A stream the run's output is written to as it is rendered (`commit(code)` makes it the
        entry): the output is never held whole a second time, nor escaped and encoded as one
        string (a report of 13 MB cost 60 MB more at its end when it was)."""
        return EntryWriter(self)


class EntryWriter:
    """Writes an entry's JSON to a temporary file piece by piece: `{"format", "key", "output"` as the
    output is written, then `"code"` at `commit`, which renames the file into place. Any OSError
    abandons the entry (the cache is skipped, never an error); so does `abandon()`."""

    _CHUNK = 1 << 16  # characters escaped and written at a time

    def __init__(self, slot: Slot) -> None:
        self._slot = slot
        self._pending: list[str] = []
        self._size = 0
        self.written = 0  # reports written to it (one is cached; more than one, never)
        self._fh = None
        self._tmp: str | None = None
        try:
            import tempfile

            _claim(slot.directory)
            fd, self._tmp = tempfile.mkstemp(dir=slot.directory, prefix=".tmp-", suffix=".part")
            self._fh = os.fdopen(fd, "wb")
            head = json.dumps({"format": _FORMAT, "key": slot.key})[:-1]
            self._fh.write(f'{head}, "output": "'.encode("utf-8"))
        except OSError:
            self.abandon()

    def write(self, text: str) -> None:
        if self._fh is None:
            return
        self._pending.append(text)
        self._size += len(text)
        if self._size >= self._CHUNK:
            self._flush()

    def _flush(self) -> None:
        chunk = "".join(self._pending)
        self._pending, self._size = [], 0
        try:
            self._fh.write(json.dumps(chunk)[1:-1].encode("ascii"))  # type: ignore[union-attr]
        except OSError:
            self.abandon()

    def commit(self, code: int) -> None:
        if self._fh is None:
            return
        self._flush()
        if self._fh is None:
            return
        try:
            self._fh.write(f'", "code": {int(code)}}}'.encode("ascii"))
            self._fh.close()
            self._fh = None
            os.replace(self._tmp, self._slot.path)  # type: ignore[arg-type]
            self._tmp = None
            _prune(self._slot.directory)
        except OSError:
            self.abandon()

    def abandon(self) -> None:
        fh, tmp = self._fh, self._tmp
        self._fh = self._tmp = None
        self._pending = []
        for act in (fh.close if fh is not None else None, (lambda: os.unlink(tmp)) if tmp else None):
            try:
                if act is not None:
                    act()
            except OSError:
                pass


def _atomic_write(directory: Path, target: Path, data: bytes) -> None:
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _claim(directory: Path) -> None:
    """Make sure `directory` is the cache's: create and mark it, or find it marked; OSError if not."""
    if not os.path.lexists(directory):
        directory.parent.mkdir(parents=True, exist_ok=True)
        try:
            directory.mkdir()
        except FileExistsError:
            pass  # a concurrent run made it: it is the cache's if that run marks it
        else:
            _atomic_write(directory, directory / ".gitignore", MARKER)
            return
    if not _is_ours(directory):
        import time

        time.sleep(0.05)  # a concurrent run that just made it is marking it
        if not _is_ours(directory):
            raise OSError(f"{directory}: not a folder of the run cache's")


def _prune(directory: Path) -> None:
    """Keep the newest MAX_ENTRIES entries; only names the cache makes, only in its own folder."""
    if not _is_ours(directory):
        return
    try:
        import time

        entries, now = [], time.time_ns()
        with os.scandir(directory) as it:
            for e in it:
                try:
                    if not e.is_file(follow_symlinks=False):
                        continue
                    if _ENTRY_NAME.match(e.name):
                        entries.append((e.stat(follow_symlinks=False).st_mtime_ns, e.path))
                    elif _TEMP_NAME.match(e.name) and now - e.stat(follow_symlinks=False).st_mtime_ns > _STALE_TEMP_NS:
                        os.unlink(e.path)  # a killed run's half entry
                except OSError:
                    pass
        if len(entries) <= MAX_ENTRIES:
            return
        entries.sort()
        for _, path in entries[: len(entries) - MAX_ENTRIES]:
            try:
                os.unlink(path)
            except OSError:
                pass
    except OSError:
        pass


def _git_fingerprint(plan) -> list[str]:
    from icelint.plan import fingerprint

    return fingerprint(plan.files)


def slot_for(cfg, plan, opts, flags: dict[str, Any], destination_is_file: bool) -> Slot | None:
    """The cache slot of a run, or None when this run is not cached (see the module docstring)."""
    if not destination_is_file:
        try:
            if sys.stdout.isatty():
                return None
        except (AttributeError, ValueError):
            return None
    if flags.get("format") == "github" and os.environ.get("GITHUB_STEP_SUMMARY"):
        return None
    state = _metadata_fingerprint(opts)
    if state is None:
        return None
    try:
        files = [(str(p), _digest(p)) for p in plan.files]
    except OSError:
        return None  # the run itself says what is wrong with the file
    from icelint import __version__

    env = sorted((k, v) for k, v in os.environ.items() if k.startswith(_ENV_PREFIXES) or k in _ENV_NAMES)
    parts = {
        "version": __version__,
        "package": _package_fingerprint(),
        "python": sys.version,
        "dependencies": _dependencies(),
        "cwd": os.getcwd(),
        "config": repr(cfg),
        "flags": flags,
        "env": env,
        "files": files,
        "pending": [str(p) for p in plan.pending],
        "whole-folder": sorted(plan.whole_folder),
        "git": _git_fingerprint(plan),
        "state": state,
        "table-uuid": opts.table_uuid,
    }
    key = blake2b(json.dumps(parts, sort_keys=True, default=repr).encode("utf-8"), digest_size=32).hexdigest()
    directory = home(folder(cfg))
    return Slot(directory, key) if directory is not None else None
