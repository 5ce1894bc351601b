"""Which SQL files to read, and in which order (migration-tool order for folders)."""

from __future__ import annotations

import re
from pathlib import Path

from icelint.source import InputError

_NUM = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple:
    return tuple(int(t) if t.isdigit() else t.lower() for t in _NUM.split(name))


def discover(paths: list[str]) -> list[Path]:
    """Files as given; folders expanded to their `.sql` files, ordered as migration tools order them."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if p.is_dir():
            files = [f for f in p.rglob("*.sql") if f.is_file()]
            out.extend(sorted(files, key=lambda f: natural_key(str(f.relative_to(p)))))
        elif p.exists():
            out.append(p)
        else:
            raise InputError(f"{raw}: no such file or directory")
    return list(dict.fromkeys(out))
