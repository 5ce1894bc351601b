"""Reader profiles: what each engine that reads a table does after each kind of change.

One module per reader (`spark`, `clickhouse`, `pyiceberg`), each a table in code over the shared
model (`icelint.readers.model`); every entry cites the reader differential case that measured it
(`tests/readers/`, run against the real engine). `readers = [...]` in `[tool.icelint]` and
`--readers` choose the profiles the reader rules (ICE040–ICE059) check; default: all of them.
"""

from __future__ import annotations

from icelint.readers import clickhouse, pyiceberg, spark
from icelint.readers.model import Behaviour, Does, Profile

PROFILES: dict[str, Profile] = {p.name: p for p in (spark.PROFILE, clickhouse.PROFILE, pyiceberg.PROFILE)}
ALL: tuple[str, ...] = tuple(PROFILES)

__all__ = ["ALL", "PROFILES", "Behaviour", "Does", "Profile", "parse_readers"]


def parse_readers(values, where: str) -> tuple[str, ...]:
    """Reader names (comma-separated items allowed; `all`: every profile) → profile names; an unknown
    one raises ValueError."""
    out: list[str] = []
    for raw in values:
        for name in str(raw).split(","):
            name = name.strip().lower()
            if not name:
                continue
            if name == "all":  # as the help's "default: all" and ruff's `--select ALL` say
                out.extend(n for n in ALL if n not in out)
                continue
            if name not in PROFILES:
                raise ValueError(f"{where}: unknown reader {name!r} (known readers: {', '.join(ALL)})")
            if name not in out:
                out.append(name)
    return tuple(out)
