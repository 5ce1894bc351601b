"""`icelint check -`: the SQL comes from standard input (editors, pre-commit wrappers).

`--stdin-filename PATH` names it: findings carry PATH, the configuration is the one found from
PATH's folder upwards, `per-file-ignores` match PATH, and when PATH lies in the configured
`migrations` folder the folder's other files are its history (context), with the text from
standard input standing in for the file on disk. Without it the file is called `-`. As with
ruff, `--stdin-filename` alone also reads standard input.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from icelint.values.source import InputError, SourceFile, decode_utf8

NAME = "-"


def wanted(paths: tuple[str, ...], stdin_filename: str | None) -> bool:
    return stdin_filename is not None or NAME in paths


def check_paths(paths: tuple[str, ...], stdin_filename: str | None) -> None:
    if NAME in paths and len(paths) > 1:
        raise InputError("`-` (standard input) cannot be checked together with other paths")
    others = [p for p in paths if p != NAME]
    if stdin_filename is not None and others:
        raise InputError(f"{others[0]}: --stdin-filename reads standard input; give no other paths (or `-`)")


def read(name: str) -> SourceFile:
    stream = sys.stdin
    if stream is None:  # `icelint check - 0<&-`: there is no standard input at all
        raise InputError(f"{name} (standard input): standard input is closed; pipe the SQL in or give a file")
    try:
        data = stream.buffer.read() if hasattr(stream, "buffer") else stream.read().encode("utf-8")
    except (OSError, ValueError) as e:  # write-only (`0>/dev/null`), a directory, closed meanwhile
        import errno

        why = getattr(e, "strerror", None) or str(e)
        if getattr(e, "errno", None) == errno.EBADF:
            why = "it is not open for reading; pipe the SQL in or give a file"
        raise InputError(f"{name} (standard input): cannot read: {why}") from None
    return SourceFile(name, decode_utf8(data, name, " (standard input)"))


def _key(p: Path) -> str:
    return os.path.normcase(os.path.realpath(p))


def plan(name: str, migrations: Path | None, order: str, named: bool):
    """The plan of a stdin run: the migrations folder's other files as context, then (in migration order) the input."""
    from icelint.plan.discovery import sort_key
    from icelint.plan.pending import Plan, _folder

    me = Path(name)
    if not named or migrations is None:
        return Plan([me], [me])
    if not migrations.is_dir():
        raise InputError(f"{migrations}: the migrations folder does not exist (set by `migrations` or --migrations)")
    folder = [f for f in _folder(migrations, order, Path.cwd()) if _key(f) != _key(me)]
    try:
        rel = Path(os.path.realpath(me)).relative_to(os.path.realpath(migrations)).as_posix()
    except ValueError:
        return Plan([*folder, me], [me])  # outside the folder: after its history, as a named file
    mine = sort_key(rel, order)
    root = os.path.realpath(migrations)
    at = next(
        (i for i, f in enumerate(folder) if sort_key(Path(os.path.realpath(f)).relative_to(root).as_posix(), order) > mine),
        len(folder),
    )
    return Plan([*folder[:at], me, *folder[at:]], [me])


def plan_texts(names: list[str], migrations: Path | None, order: str):
    """The plan of in-memory inputs (standard input, editor buffers): each placed among the
    migrations folder's files where its name sorts (`plan`); `-` alone has no folder."""
    from icelint.plan.pending import Plan

    if len(names) == 1:  # `-` and `<string>` (the Python API's SQL text) have no folder
        return plan(names[0], migrations, order, named=names[0] != NAME and not names[0].startswith("<"))
    files: list[Path] = []
    for name in names:
        one = plan(name, migrations, order, named=name != NAME)
        keys = {_key(f) for f in files}
        files += [f for f in one.files if _key(f) not in keys]
    from icelint.plan.pending import order_files_like

    files = order_files_like(files, order)
    return Plan(files, [f for f in files if str(f) in set(names)])
