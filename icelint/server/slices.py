"""Which files of the migrations folder cannot change the verdicts on one file: the server's speed.

A keystroke in `V41__add_discount.sql` of a folder of 4,000 statements over ten tables should not
re-parse and re-replay the nine tables the file never names. The replay of a table reads only that
table's state (`icelint.run.parallel` splits runs by table on the same grounds), so the files that touch
none of the file's tables, nor any table that shares a file with them, are handed to the engine as
empty texts: they stay in the plan (their names, their order and their deployment boundaries are
unchanged), but nothing of theirs is parsed or replayed.

The cut is made only when it cannot change a result, as `parallel.partition` decides:
- no configured state (with one, the engine reads only the file under review anyway);
- every statement of every file names its table with a namespace, no statement renames a table,
  no `CREATE TABLE ... AS SELECT` reads other tables, no table name carries a ref's suffix, and no
  file has `${placeholders}` (their values may name tables);
- a statement that writes rows from a query (`INSERT ... SELECT ... FROM db.src`, `MERGE ... USING`)
  names the tables it reads too (their schemas type the query), with a namespace;
- the file under review has only statements on tables (a `SET` there is judged by every later
  statement of the run); files of the folder with other statements (`SET`, `USE`, statements icelint
  cannot read) are always kept;
- and afterwards (`needs_whole_folder`): no finding names a table that is "not known here", whose
  help suggests the tables of the whole run.

What each file names is read once per text (keyed by its path and the hash of its text, or its
size and modification time on disk) and kept by the `Slicer`, one per server.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

MAX_ENTRIES = 20_000  # files remembered; beyond, the oldest half is forgotten
# the tables a DML statement reads (`INSERT ... SELECT ... FROM db.src`, `MERGE ... USING db.src`): the
# replay types its query from their schemas, so they belong to the file's tables
_READS = re.compile(r"\b(?:FROM|JOIN|USING|TABLE)\s+(`[^`]*`(?:\.`[^`]*`)*|[\w.`]+)", re.IGNORECASE)


@dataclass(frozen=True)
class FileTables:
    """What one file's statements name: its tables (keys such as `db.events`), whether it has
    statements on no table (kept in every cut), and whether it forbids any cut."""

    tables: frozenset[str]
    has_other: bool
    forbids: bool


FORBIDS = FileTables(frozenset(), True, True)


def file_tables(path: str, text: str) -> FileTables:
    """Parse and lower one file on its own and read which tables it names."""
    from icelint.values import changes as ch
    from icelint.engine.pipeline import parse_sources
    from icelint.values.source import SourceFile

    if "${" in text:
        return FORBIDS
    try:
        steps = parse_sources([SourceFile(path, text)]).steps
    except Exception:  # noqa: BLE001 - whatever the engine makes of it, it makes with the whole folder
        return FORBIDS
    tables: set[str] = set()
    other = False
    for s in steps:
        if not isinstance(s, ch.Commit):
            other = True
            continue
        if s.ref is not None:
            return FORBIDS
        key = ch.table_key(s.table)
        if "." not in key:
            return FORBIDS
        if any(isinstance(c, ch.RenameTable) or (isinstance(c, ch.CreateTable) and c.as_select) for c in s.changes):
            return FORBIDS
        tables.add(key)
        for c in s.changes:
            sql = c.sql if isinstance(c, ch.WriteData) else None
            for name in _READS.findall(sql or ""):
                read = ch.table_key(name.replace("`", ""))
                if "." not in read:  # a CTE's name, or a table the session's namespace resolves: no cut
                    return FORBIDS
                tables.add(read)
    return FileTables(frozenset(tables), other, False)


class Slicer:
    """The per-server memory of what each file names, and the cut for one check."""

    def __init__(self) -> None:
        self._known: dict[tuple, FileTables] = {}

    def _info(self, key: tuple, path: str, text: str) -> FileTables:
        got = self._known.get(key)
        if got is None:
            if len(self._known) >= MAX_ENTRIES:
                for k in list(self._known)[: MAX_ENTRIES // 2]:
                    del self._known[k]
            got = self._known[key] = file_tables(path, text)
        return got

    def _of_text(self, path: str, text: str) -> FileTables:
        digest = hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).digest()
        return self._info(("text", path, digest), path, text)

    def _of_disk(self, path: Path) -> FileTables:
        try:
            st = os.stat(path)
            key = ("disk", str(path), st.st_mtime_ns, st.st_size, st.st_ino)
            if key in self._known:
                return self._known[key]
            text = path.read_bytes().decode("utf-8-sig")
        except (OSError, UnicodeDecodeError):
            return FORBIDS  # the engine reports it, with the whole folder
        return self._info(key, str(path), text)

    def blank_files(self, path: Path, text: str, cfg, open_texts: dict[str, str]) -> list[Path]:
        """The files of `path`'s migrations folder that can be checked as empty, or [] when no cut is safe."""
        from icelint.plan.discovery import order_folder

        folder = cfg.migrations
        if folder is None or cfg.state() or not folder.is_dir():
            return []
        mine = self._of_text(str(path), text)
        if mine.forbids or mine.has_other:
            return []
        me = os.path.realpath(path)
        infos: list[tuple[Path, FileTables]] = []
        for f in order_folder(folder, cfg.order):
            full = Path(os.path.abspath(f))
            if full.name == path.name and os.path.realpath(full) == me:  # (the plan leaves out a link to it under another name)
                continue
            buffer = open_texts.get(str(full))
            info = self._of_text(str(full), buffer) if buffer is not None else self._of_disk(full)
            if info.forbids:
                return []
            infos.append((full, info))
        wanted = set(mine.tables)
        grown = True
        while grown:  # the tables that share a file with a wanted one are wanted too
            grown = False
            for _, info in infos:
                if info.tables & wanted and not info.tables <= wanted:
                    wanted |= info.tables
                    grown = True
        return [f for f, info in infos if not info.has_other and not (info.tables & wanted)]

    @staticmethod
    def needs_whole_folder(report) -> bool:
        """Whether a cut run's findings may differ from the whole folder's: a table "not known here"
        is given the names of every table of the run as suggestions."""
        from icelint.rules.kit.base import RUNTIME_RULE

        return any(f.rule == RUNTIME_RULE and "not known here" in f.message for f in [*report.findings, *report.suppressed])
