"""Which SQL files to read, and in which order: the order migration tools apply them.

Orders (`order` in `[tool.icelint]`, `--order` on the command line):

- `flyway` (the default):
  1. versioned files, by version compared segment by segment as numbers: Flyway's
     `V<version>__<description>.sql` (`V2` < `V10`, `V1.2.9` < `V1.2.10`, `V1_1` = `V1.1`,
     `V1.0` = `V1`) and plain numeric or timestamp prefixes (`001_init.sql`, `20240105_x.sql`);
  2. every other `.sql` file, by natural sort of its path in the folder;
  3. Flyway's repeatable `R__<description>.sql` files, by description (Flyway runs them after
     the versioned ones).
  Python migration files and notebooks count when versioned (`V<version>__<description>.py` /
  `.ipynb`, icelint.embedded), in the same order as the `.sql` ones.
  Flyway's undo files `U<version>__<description>.sql` are not migrations and are skipped. Two
  `V` files with the same version are kept (ordered by path) and reported by `icelint check`
  (ICE024, `icelint/rules/duplicate_migration_version.py`), since Flyway refuses them.
- `natural`: natural sort of the path in the folder (`a2` < `a10`), nothing skipped.
- `lexicographic`: plain string order of the path in the folder, nothing skipped.

Files named on the command line keep their order, unless every one of them is versioned: then
they are sorted by version too (pre-commit passes changed files in `git ls-files` order).
"""

from __future__ import annotations

import errno
import os
import re
import stat
from pathlib import Path
from typing import Callable, Iterable

from icelint.values.source import InputError

ORDERS = ("flyway", "natural", "lexicographic")
SQL_SUFFIX = ".sql"
# Python migration files and notebooks (icelint.embedded): in a folder, only the versioned ones (`V2__x.py`)
EMBEDDED_SUFFIXES = (".py", ".ipynb")
# The suffixes of the migration files icelint reads (compared case-insensitively): a file named on the
# command line must have one; a folder's files are chosen by `is_migration_name`.
INPUT_SUFFIXES = MIGRATION_SUFFIXES = (SQL_SUFFIX, *EMBEDDED_SUFFIXES)
DEFAULT_ORDER = "flyway"

_NUM = re.compile(r"(\d+)")
_VERSIONED = re.compile(r"^[Vv](?P<version>\d+(?:[._]\d+)*)__(?P<desc>.*)\.(?:sql|py|ipynb)$", re.IGNORECASE)
_UNDO = re.compile(r"^[Uu]\d+(?:[._]\d+)*__.*\.sql$", re.IGNORECASE)
_REPEATABLE = re.compile(r"^[Rr]__(?P<desc>.*)\.sql$", re.IGNORECASE)
_NUMERIC = re.compile(r"^(?P<version>\d+)(?=[_\-.\s]|$)")

VERSIONED, OTHER, REPEATABLE, UNDO = 0, 1, 2, 3
Note = Callable[[str], None] | None  # called with a line about each file of a folder that is skipped

def natural_key(name: str) -> tuple:
    """`a2` < `a10`; case-insensitive, with the exact text as the last tie-break."""
    parts = tuple((0, int(t), "") if t.isdigit() else (1, 0, t.lower()) for t in _NUM.split(name))
    return parts + ((2, 0, name),)


def _version(text: str) -> tuple[int, ...]:
    parts = [int(p) for p in re.split(r"[._]", text)]
    while len(parts) > 1 and parts[-1] == 0:  # Flyway: 1.0 == 1
        parts.pop()
    return tuple(parts)


def classify(name: str) -> tuple[int, tuple[int, ...] | None, str]:
    """(kind, version, description) of a file name under the `flyway` order."""
    if _UNDO.match(name):
        return UNDO, None, name
    m = _VERSIONED.match(name)
    if m:
        return VERSIONED, _version(m.group("version")), m.group("desc")
    m = _REPEATABLE.match(name)
    if m:
        return REPEATABLE, None, m.group("desc")
    m = _NUMERIC.match(name)
    if m:
        return VERSIONED, _version(m.group("version")), name
    return OTHER, None, name


def sort_key(rel: str, order: str = DEFAULT_ORDER) -> tuple:
    """The sort key of a file whose path inside its folder is `rel` (posix separators)."""
    if order == "lexicographic":
        return (rel,)
    if order == "natural":
        return natural_key(rel)
    kind, version, desc = classify(rel.rsplit("/", 1)[-1])
    if kind == VERSIONED:
        assert version is not None
        return (kind, version, natural_key(rel))
    if kind == REPEATABLE:
        return (kind, (), natural_key(desc) + natural_key(rel))
    return (kind, (), natural_key(rel))


def order_folder(folder: Path, order: str = DEFAULT_ORDER, note: Note = None) -> list[Path]:
    """The `.sql` files under `folder` (recursively) in migration order (`note`: see `sql_files`)."""
    files = sql_files(folder, note)
    rels = {f: f.relative_to(folder).as_posix() for f in files}
    if order == "flyway":
        files = [f for f in files if classify(f.name)[0] != UNDO]
    return sorted(files, key=lambda f: sort_key(rels[f], order))


def is_migration_name(name: str) -> bool:
    """A file a folder's migrations include: every `.sql` file; `.py` and `.ipynb` ones named `V<n>__*`."""
    suffix = name[name.rfind(".") :].lower() if "." in name else ""
    return suffix == SQL_SUFFIX or (suffix in EMBEDDED_SUFFIXES and _VERSIONED.match(name) is not None)


def sql_files(folder: Path, note: Note = None) -> list[Path]:
    """Every regular `.sql` file under `folder` (symbolic links to files followed, to folders not).

    A folder that cannot be listed, a broken symbolic link or a loop of them named `*.sql` is an
    error naming it (a migration that seems to be there but is not must not pass unnoticed); a
    FIFO, socket or device is skipped, since reading one would block, and `note` is called with a
    line about it (the run's `CheckRequest.note`: the CLI prints them under `-v`).
    """
    out: list[Path] = []
    todo = [folder]
    while todo:
        d = todo.pop()
        try:
            with os.scandir(d) as it:
                entries = list(it)
        except PermissionError:
            raise InputError(f"{d}: permission denied (cannot list this folder)") from None
        except OSError as e:
            raise InputError(f"{d}: cannot list this folder: {e.strerror or e}") from None
        for entry in entries:
            p = Path(entry.path)
            try:
                if entry.is_dir(follow_symlinks=False):
                    todo.append(p)
                    continue
            except OSError:
                pass
            if not is_migration_name(p.name):
                continue
            try:
                mode = os.stat(p).st_mode
            except OSError as e:
                if entry.is_symlink() and p.name.startswith(".#"):  # an editor's lock file (Emacs)
                    if note is not None:
                        note(f"{p}: skipped (an editor's lock file)")
                    continue
                if e.errno == errno.ELOOP:
                    raise InputError(f"{p}: symbolic link loop") from None
                if e.errno == errno.ENOENT and entry.is_symlink():
                    raise InputError(f"{p}: broken symbolic link (its target {os.readlink(p)} does not exist)") from None
                raise InputError(f"{p}: cannot read: {e.strerror or e}") from None
            if stat.S_ISREG(mode):
                out.append(p)
            elif note is not None:
                note(f"{p}: skipped ({'a folder behind a symbolic link' if stat.S_ISDIR(mode) else 'not a regular file'})")
    return out


def not_a_migration(raw: str) -> InputError:
    """A file named on the command line that icelint does not read as a migration."""
    name = Path(raw).name.lower()
    hint = "; a table state: pass it with --metadata" if name.endswith(("metadata.json", "metadata.json.gz")) else ""
    suffixes = ", ".join(f"`{s}`" for s in MIGRATION_SUFFIXES)
    return InputError(f"{raw}: not a migration file (icelint checks {suffixes} files){hint}")


def duplicate_versions(files: Iterable[Path]) -> list[tuple[Path, Path]]:
    """(file, earlier file with the same version) for every Flyway `V` file whose version is taken."""
    seen: dict[tuple[int, ...], Path] = {}
    out: list[tuple[Path, Path]] = []
    for f in sorted(files, key=lambda p: p.as_posix()):
        m = _VERSIONED.match(f.name)
        if not m:
            continue
        v = _version(m.group("version"))
        if v in seen:
            out.append((f, seen[v]))
        else:
            seen[v] = f
    return out


def order_files(files: list[Path], order: str = DEFAULT_ORDER) -> list[Path]:
    """Files named one by one: kept in the given order unless all of them carry a version."""
    if order == "flyway" and files and all(classify(f.name)[0] == VERSIONED for f in files):
        return sorted(files, key=lambda f: sort_key(f.name, order) + (f.as_posix(),))
    return files


def _short(raw: str, keep: int = 120) -> str:
    """A path as an error line shows it: a name of thousands of characters is cut in the middle."""
    return raw if len(raw) <= keep else f"{raw[: keep // 2]}...{raw[-keep // 2 :]}"


def discover(paths: list[str], order: str = DEFAULT_ORDER, note: Note = None) -> list[Path]:
    """Files as given; folders expanded to their `.sql` files, in migration order (`note`: called
    with a line about each file of a folder that is skipped, see `sql_files`)."""
    if order not in ORDERS:
        raise InputError(f"unknown order {order!r} (one of: {', '.join(ORDERS)})")
    out: list[Path] = []
    singles: list[Path] = []

    def flush() -> None:
        out.extend(order_files(singles, order))
        singles.clear()

    for raw in paths:
        p = Path(raw)
        try:
            os.stat(p)
        except OSError as e:  # a name longer than the file system allows, a folder that cannot be searched
            if e.errno not in (errno.ENOENT, errno.ELOOP, errno.ENOTDIR):
                raise InputError(f"{_short(raw)}: cannot open: {e.strerror or e}") from None
        if p.is_dir():
            flush()
            out.extend(order_folder(p, order, note))
        elif p.is_file():
            if not p.name.lower().endswith(MIGRATION_SUFFIXES):
                raise not_a_migration(raw)
            singles.append(p)
        elif p.exists():  # a FIFO, socket or device: reading it could block forever
            raise InputError(f"{raw}: not a regular file")
        elif p.is_symlink():
            raise InputError(f"{raw}: broken symbolic link or symbolic link loop")
        else:
            raise InputError(f"{raw}: no such file or directory")
    flush()
    return list(dict.fromkeys(out))
