"""Where table state comes from. `StateOptions` gathers the user's choices; `load_states` reads them.

Heavy libraries (pyiceberg, pyarrow) are imported only by the sources that need them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from icelint.model.metadata import parse_metadata_bytes
from icelint.model.table import TableMetadata
from icelint.source import InputError

_NAMED_FILE = re.compile(r"^(?P<name>[^/\\]+?)\.metadata\.json(\.gz)?$")


@dataclass
class StateOptions:
    metadata: list[str] = field(default_factory=list)  # "FILE" or "db.table=FILE"


@dataclass
class States:
    named: dict[str, TableMetadata]
    anonymous: list[tuple[str, TableMetadata]]  # --metadata FILE without a table name

    def assign(self, referenced: list[str], created: set[str]) -> dict[str, TableMetadata]:
        """Give anonymous states a table: the name in `db.t.metadata.json`, else the one table the scripts alter."""
        out = dict(self.named)
        for origin, meta in self.anonymous:
            m = _NAMED_FILE.match(Path(origin).name)
            if m and "." in m.group("name") and not re.match(r"^v?\d+(-|$)", m.group("name")):
                out[m.group("name")] = meta
                continue
            candidates = [t for t in dict.fromkeys(referenced) if t not in created and t not in out]
            if len(candidates) != 1:
                which = ", ".join(candidates) if candidates else "none"
                raise InputError(
                    f"{origin}: cannot tell which table this metadata is for (tables altered by the scripts: {which}); "
                    "name it: --metadata db.table=" + origin
                )
            out[candidates[0]] = meta
        return out


def read_metadata_file(path: str) -> TableMetadata:
    if "://" in path and not path.startswith("file://"):
        from icelint.sources.remote import read_remote  # pyiceberg's FileIO, imported only here

        return parse_metadata_bytes(read_remote(path), path)
    local = path[len("file://"):] if path.startswith("file://") else path
    p = Path(local)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{path}: no such metadata file") from None
    except IsADirectoryError:
        raise InputError(f"{path}: is a directory; use --table-dir for a table directory") from None
    except OSError as e:
        raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
    return parse_metadata_bytes(data, path)


def load_states(opts: StateOptions) -> States:
    named: dict[str, TableMetadata] = {}
    anonymous: list[tuple[str, TableMetadata]] = []
    for arg in opts.metadata:
        name, sep, path = arg.partition("=")
        if sep and name and "/" not in name and "://" not in arg.split("=")[0]:
            named[name] = read_metadata_file(path)
        else:
            anonymous.append((arg, read_metadata_file(arg)))
    return States(named, anonymous)
