"""Finding a table's current metadata file in a Hadoop-layout directory, without a catalog.

The order is the one of Iceberg's `HadoopTableOperations` and of ClickHouse's metadata resolution:

1. `metadata/version-hint.text` names a version N → `v<N>.metadata.json` (or its compressed forms);
   like Java, newer `v<N+1>`, `v<N+2>`... files written after the hint are followed.
2. Else (no hint, unreadable hint, hint naming a missing file, or a `--table-uuid` the hinted file
   does not match) the highest version among `v<N>[-<uuid>].metadata.json` and
   `<N>-<uuid>.metadata.json` (also `.gz.metadata.json` and `.metadata.json.gz`), keeping only files
   of the expected `table-uuid` when one is given.
3. Several files of that version (an orphan left by a failed metastore commit): the largest
   `last-updated-ms` wins.

Every choice comes with a one-line reason, printed by `-v`.
"""

from __future__ import annotations

import gzip
import json
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from icelint.model.metadata import parse_metadata_bytes
from icelint.values.source import InputError

_NAME = re.compile(
    r"^(?:v(?P<hv>\d+)(?:-[^.]+)?|(?P<mv>\d+)-[^.]+)"  # v3, v3-<uuid>, 00003-<uuid>
    r"(?P<gz1>\.gz)?\.metadata\.json(?P<gz2>\.gz)?$"
)
HINT = "version-hint.text"


@dataclass(frozen=True)
class Candidate:
    """A metadata file found in a table directory, with its version number."""

    path: Path
    version: int


@dataclass(frozen=True)
class Choice:
    """The metadata file chosen for a table directory, and why."""

    path: Path
    reason: str


def parse_name(name: str) -> int | None:
    """The version in a metadata file name, None when the name is not a metadata file name."""
    m = _NAME.match(name)
    if not m or (m.group("gz1") and m.group("gz2")):
        return None
    return int(m.group("hv") if m.group("hv") is not None else m.group("mv"))


def _read_json_header(path: Path) -> dict | None:
    """The JSON object of a metadata file (None when unreadable or not JSON)."""
    try:
        data = path.read_bytes()
        if data[:2] == b"\x1f\x8b":
            data = gzip.decompress(data)
        obj = json.loads(data)
    except (OSError, EOFError, ValueError, zlib.error, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _version_files(meta_dir: Path, version: int) -> list[Path]:
    names = (f"v{version}.metadata.json", f"v{version}.gz.metadata.json", f"v{version}.metadata.json.gz")
    return [meta_dir / n for n in names if (meta_dir / n).is_file()]


def metadata_dir(table_dir: Path) -> Path:
    return table_dir / "metadata"


def find_current(table_dir: Path, table_uuid: str | None = None) -> Choice:
    """The current metadata file of the table at `table_dir` (raises `InputError` when there is none)."""
    if not table_dir.exists():
        raise InputError(f"{table_dir}: no such table directory")
    if not table_dir.is_dir():
        raise InputError(f"{table_dir}: not a directory (give a metadata file with --metadata)")
    meta = metadata_dir(table_dir)
    if not meta.is_dir():
        raise InputError(f"{table_dir}: no Iceberg metadata (no metadata/ directory)")
    try:
        names = sorted(p.name for p in meta.iterdir())
    except OSError as e:
        raise InputError(f"{meta}: cannot list: {e.strerror or e}") from None
    # regular files only: a FIFO named like a metadata file would block the read forever
    candidates = [Candidate(meta / n, v) for n in names if (v := parse_name(n)) is not None and (meta / n).is_file()]
    if not candidates:
        raise InputError(
            f"{table_dir}: no Iceberg metadata (no version-hint.text and no v<N>.metadata.json or <N>-<uuid>.metadata.json in metadata/)"
        )
    why_not_hint = ""
    hinted = _from_hint(meta)
    if isinstance(hinted, str):
        why_not_hint = hinted
    else:
        path, version, hint_text = hinted
        if table_uuid is not None:
            uuid = (_read_json_header(path) or {}).get("table-uuid")
            if str(uuid).lower() != table_uuid.lower():
                why_not_hint = f"{HINT} names {path.name}, whose table-uuid {uuid} is not {table_uuid}"
        if not why_not_hint:
            reason = f"{HINT} says {hint_text}"
            if version is not None:
                followed = version
                while nxt := _version_files(meta, followed + 1):
                    followed += 1
                    path = nxt[0]
                if followed != version:
                    reason += f"; followed newer files written after the hint up to version {followed}"
            newest = max(c.version for c in candidates)
            chosen_version = parse_name(path.name)
            if chosen_version is not None and newest > chosen_version:
                reason += f" (note: a file with the higher version {newest} exists; the hint wins, as in Iceberg's Hadoop tables)"
            return Choice(path, reason)
    return _from_listing(table_dir, candidates, table_uuid, why_not_hint)


def _from_hint(meta: Path) -> tuple[Path, int | None, str] | str:
    """(file, version, hint text) from version-hint.text, or why it cannot be used."""
    hint = meta / HINT
    if not hint.is_file():
        return f"no {HINT}"
    try:
        text = hint.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as e:
        return f"{HINT} unreadable ({e})"
    if not text:
        return f"{HINT} is empty"
    if text.isdigit():
        version = int(text)
        files = _version_files(meta, version)
        if not files:
            return f"{HINT} says {text} but v{text}.metadata.json is missing"
        return files[0], version, text
    # pyiceberg's StaticTable convention: a file name, or a name without the .metadata.json suffix
    name = Path(text).name
    if not name.endswith(".metadata.json"):
        name += ".metadata.json"
    path = meta / name
    if not path.is_file():
        return f"{HINT} says {text!r} but {name} is missing"
    return path, None, repr(text)


def _from_listing(table_dir: Path, candidates: list[Candidate], table_uuid: str | None, why_not_hint: str) -> Choice:
    by_version: dict[int, list[Path]] = {}
    for c in candidates:
        by_version.setdefault(c.version, []).append(c.path)
    prefix = f"{why_not_hint}; " if why_not_hint else ""
    skipped_other_uuid = 0
    for version in sorted(by_version, reverse=True):
        group: list[tuple[Path, dict | None]] = [(p, None) for p in by_version[version]]
        if table_uuid is None and len(group) == 1:
            return Choice(group[0][0], f"{prefix}highest version {version} among {len(candidates)} metadata file(s)")
        group = [(p, _read_json_header(p)) for p, _ in group]
        if table_uuid is not None:
            kept = [(p, h) for p, h in group if h is not None and str(h.get("table-uuid", "")).lower() == table_uuid.lower()]
            skipped_other_uuid += len(group) - len(kept)
            group = kept
            if not group:
                continue
        readable = [(p, h) for p, h in group if h is not None]
        if not readable:  # every file of the newest version is corrupt: let the parser name the problem
            return Choice(group[0][0], f"{prefix}highest version {version}")
        uuid_note = f" with table-uuid {table_uuid}" if table_uuid is not None else ""
        skipped = f" (skipped {skipped_other_uuid} file(s) of another table-uuid)" if skipped_other_uuid else ""
        if len(readable) == 1:
            return Choice(readable[0][0], f"{prefix}highest version {version}{uuid_note}{skipped}")
        best = max(readable, key=lambda ph: (_updated_ms(ph[1]), ph[0].name))
        others = ", ".join(p.name for p, _ in readable if p != best[0])
        return Choice(
            best[0],
            f"{prefix}{len(readable)} files share the highest version {version}{uuid_note}{skipped} (orphans of failed "
            f"commits?): chose the largest last-updated-ms ({_updated_ms(best[1])}) over {others}",
        )
    raise InputError(f"{table_dir}: no metadata file with table-uuid {table_uuid} (among {len(candidates)} metadata file(s))")


def _updated_ms(header: dict | None) -> int:
    try:
        return int((header or {}).get("last-updated-ms", -1))
    except (TypeError, ValueError):
        return -1


def load_table_dir(table_dir: Path, table_uuid: str | None = None, log: Callable[[str], None] | None = None):
    """(Choice, the JSON bytes (decompressed), TableMetadata) of the table at `table_dir`."""
    choice = find_current(table_dir, table_uuid)
    if log:
        log(f"{table_dir}: using {choice.path.name}: {choice.reason}")
    try:
        data = choice.path.read_bytes()
    except OSError as e:
        raise InputError(f"{choice.path}: cannot read: {e.strerror or e}") from None
    meta = parse_metadata_bytes(data, str(choice.path))  # names the file when corrupt
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    if table_uuid is not None and (meta.table_uuid or "").lower() != table_uuid.lower():
        raise InputError(f"{choice.path}: table-uuid is {meta.table_uuid}, not {table_uuid}")
    return choice, data, meta


def warehouse_table_dir(warehouse: Path, key: str) -> Path | None:
    """`<warehouse>/<db>/<table>` for the table key `db.table` (case-insensitive), None when absent."""
    parts = key.split(".")
    current = warehouse
    for part in parts:
        exact = current / part
        if exact.is_dir():
            current = exact
            continue
        try:
            match = [p for p in current.iterdir() if p.is_dir() and p.name.lower() == part.lower()]
        except OSError:
            return None
        if len(match) != 1:
            return None
        current = match[0]
    return current
