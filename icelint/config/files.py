"""Finding and reading the configuration file: the nearest `pyproject.toml` or `icelint.toml` with
a `[tool.icelint]` table, walking up from the input's folder as ruff does (or the file given with
`--config`)."""

from __future__ import annotations

from pathlib import Path

from icelint.config.keys import parse_section
from icelint.config.model import Config, ConfigError

FILE_NAME = "pyproject.toml"
FILE_NAMES = ("icelint.toml", FILE_NAME)  # in one folder, icelint.toml first


def find_config(start: Path) -> Path | None:
    """The nearest `icelint.toml` / `pyproject.toml` with a `[tool.icelint]` table, from `start` up to the root
    (a `pyproject.toml` without one is another tool's, and skipped; an `icelint.toml` without one is an error)."""
    for d in (start, *start.parents):
        for name in FILE_NAMES:
            candidate = d / name
            try:
                found = candidate.is_file()
            except OSError:  # a folder name the file system refuses (too long): no configuration there
                found = False
            if found:
                data = _read_toml(candidate)
                if isinstance(data.get("tool"), dict) and "icelint" in data["tool"]:
                    return candidate
                if name != FILE_NAME:  # icelint's own file: its keys are never silently left unread
                    raise ConfigError(f"{candidate}: no [tool.icelint] table (an icelint.toml holds its keys under [tool.icelint])")
    return None


def load_config(cwd: Path | None = None, explicit: str | None = None) -> Config:
    """The configuration in force for a run from `cwd` (or the file given with `--config`)."""
    cwd = cwd or Path.cwd()
    if explicit is not None:
        path = Path(explicit)
        if path.is_dir():
            raise ConfigError(f"{explicit}: is a directory, not a configuration file")
        if not path.is_file():
            raise ConfigError(f"{explicit}: no such configuration file")
        data = _read_toml(path)
        section = data.get("tool", {}).get("icelint") if isinstance(data.get("tool"), dict) else None
        if section is None:
            raise ConfigError(f"{explicit}: no [tool.icelint] table")
    else:
        found = find_config(cwd.resolve())
        if found is None:
            return Config(root=cwd)
        path = found
        section = _read_toml(path)["tool"]["icelint"]
    return parse_section(section, path)


def _read_toml(path: Path) -> dict:
    try:
        import tomllib
    except ModuleNotFoundError:  # pragma: no cover - Python 3.10
        import tomli as tomllib  # type: ignore[no-redef]
    try:
        with open(path, "rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: invalid TOML: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
