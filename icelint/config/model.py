"""The effective configuration (`Config`): the file's keys merged with the flags (flags win), and
what the check asks of it (the rules, severities, per-file ignores, state sources, --show-config)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from icelint.plan.discovery import DEFAULT_ORDER
from icelint.values.source import InputError


class ConfigError(InputError):
    """A configuration problem: one line naming the file and the key, exit code 2."""


@dataclass(frozen=True)
class Config:
    """The effective configuration of a run: `[tool.icelint]` with the command line applied over it."""

    path: Path | None = None  # the pyproject.toml read, if any
    root: Path = field(default_factory=Path.cwd)  # relative paths in the file are relative to this
    migrations: Path | None = None
    order: str = DEFAULT_ORDER
    # rule selection, as ruff resolves it (icelint.config.selection): one (select, extend-select, ignore) of
    # selectors per level, the file's first, then the flags'; select None: keep the level below
    selection: tuple[tuple[tuple[str, ...] | None, tuple[str, ...], tuple[str, ...]], ...] = ()
    fail_on: str = "error"
    severity: tuple[tuple[str, str], ...] = ()  # (code, severity), sorted by code
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (glob, codes), in file order
    catalog: str | None = None
    warehouse: str | None = None
    metadata: tuple[tuple[str, str], ...] = ()  # (table, path or URI), sorted by table; table "": unnamed
    table_dirs: tuple[tuple[str, str], ...] = ()  # (table, directory), sorted by table
    table_uuid: str | None = None
    vars: tuple[tuple[str, str], ...] = ()  # placeholder values, sorted by name
    docs_url: str | None = None
    catalog_kind: str = "iceberg"
    readers: tuple[str, ...] | None = None  # reader profiles the reader rules check; None: every one
    cache_dir: str | None = None  # the run cache's folder (icelint.run.cache); None: .icelint_cache/ at the root
    fix: bool = False  # apply safe fixes (icelint.fixes.apply); the --fix / --no-fix flags win
    unsafe_fixes: bool = False  # unsafe fixes apply too; the --unsafe-fixes / --no-unsafe-fixes flags win
    sql_callables: tuple[str, ...] = ()  # Python callables whose string argument is SQL, beyond `spark.sql` (icelint.embedded)
    iceberg_version: str = "1.10"  # the Iceberg runtime the verdicts are for (icelint.config.target); --iceberg-version wins

    # ------------------------------------------------------------------ merging the flags
    def with_flags(
        self,
        *,
        select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        extend_select: Sequence[str] = (),
        extend_ignore: Sequence[str] = (),
        variables: Sequence[str] = (),
        fail_on: str | None = None,
        order: str | None = None,
        migrations: str | None = None,
        catalog_kind: str | None = None,
        readers: Sequence[str] = (),
        iceberg_version: str | None = None,
    ) -> Config:
        """Flags win: a flag that was given replaces the configured value."""
        out = self
        from icelint.config.selection import level

        flags = level(select or None, extend_select, ignore, extend_ignore, {
            "select": "--select", "extend-select": "--extend-select", "ignore": "--ignore", "extend-ignore": "--extend-ignore"})
        if flags is not None:
            out = replace(out, selection=(*out.selection, flags))
        if variables:
            from icelint.config.vars import parse_vars

            out = replace(out, vars=tuple(sorted((dict(out.vars) | parse_vars(variables)).items())))
        if fail_on:
            out = replace(out, fail_on=fail_on)
        if order:
            out = replace(out, order=order)
        if migrations:
            out = replace(out, migrations=Path(migrations))
        if catalog_kind:
            out = replace(out, catalog_kind=catalog_kind)
        if readers:
            out = replace(out, readers=_readers(readers, "--readers"))
        if iceberg_version is not None:
            from icelint.config.target import check_iceberg_version

            out = replace(out, iceberg_version=check_iceberg_version(iceberg_version, "--iceberg-version", ConfigError))
        return out

    # ------------------------------------------------------------------ what the check uses
    def rules(self) -> tuple:
        """The enabled rules, in registry order (plus `unused-suppression` unless ignored)."""
        import icelint.rules  # noqa: F401 - first: readers.findings and the reader rules import each other
        from icelint.config.selection import enabled, registry

        from icelint.readers.findings import bind_readers

        chosen = enabled(self.selection)
        return bind_readers((r for r in registry() if r.code in chosen), self.readers)

    def severity_of(self, code: str) -> str | None:
        return dict(self.severity).get(code)

    def ignored_for(self, path: str) -> frozenset[str]:
        """Rule codes that `per-file-ignores` switches off for the file at `path`."""
        if not self.per_file_ignores:
            return frozenset()
        rel = _relative(Path(path), self.root)
        base = rel.rsplit("/", 1)[-1]
        out: set[str] = set()
        for pattern, codes in self.per_file_ignores:
            pat = pattern[2:] if pattern.startswith("./") else pattern
            if _glob(pat).fullmatch(rel if "/" in pat else base):
                out.update(codes)
        return frozenset(out)

    def state(self) -> dict[str, Any]:
        """The state-source keys, paths resolved against the config's folder, for the state loaders."""
        out: dict[str, Any] = {}
        if self.catalog is not None:
            out["catalog"] = self.catalog
        if self.warehouse is not None:
            out["warehouse"] = _resolve(self.warehouse, self.root)
        if self.metadata:
            out["metadata"] = _files(self.metadata, lambda p: _resolve(p, self.root))
        if self.table_dirs:
            out["table-dirs"] = {name: _resolve(p, self.root) for name, p in self.table_dirs}
        if self.table_uuid is not None:
            out["table-uuid"] = self.table_uuid
        return out

    def as_dict(self, cwd: Path | None = None) -> dict[str, Any]:
        """The effective configuration, as `--show-config` prints it (paths relative to `cwd`)."""
        cwd = cwd or Path.cwd()
        return {
            "config-file": _display(self.path, cwd) if self.path else None,
            "migrations": _display(self.migrations, cwd) if self.migrations else None,
            "order": self.order,
            "select": [r.code for r in self.rules()],
            "ignore": _not_enabled(self.rules()),
            "fail-on": self.fail_on,
            "severity": dict(self.severity),
            "per-file-ignores": {g: list(c) for g, c in self.per_file_ignores},
            "catalog": self.catalog,
            "warehouse": self.warehouse,
            "metadata": _files(self.metadata, str),
            "table-dirs": dict(self.table_dirs),
            "table-uuid": self.table_uuid,
            "vars": dict(self.vars),
            "docs-url": self.docs_url,
            "catalog-kind": self.catalog_kind,
            "readers": list(self.readers) if self.readers is not None else _all_readers(),
            "fix": self.fix,
            "unsafe-fixes": self.unsafe_fixes,
            "sql-callables": list(_callables(self.sql_callables)),
            "iceberg-version": self.iceberg_version,
        }


# the callables whose string argument is SQL in a Python migration or notebook (`icelint.embedded`)
DEFAULT_CALLABLES = ("spark.sql", "session.sql", "self.spark.sql", "self.session.sql")


def callables_of(configured: Iterable[str] = ()) -> tuple[str, ...]:
    """The defaults and `sql-callables`, each once, in that order."""
    return tuple(dict.fromkeys((*DEFAULT_CALLABLES, *configured)))


def _callables(configured: tuple[str, ...]) -> tuple[str, ...]:
    return callables_of(configured)


def _not_enabled(rules: tuple) -> list[str]:
    from icelint.config.selection import registry

    return [r.code for r in registry() if r not in rules]


def _files(pairs: tuple[tuple[str, str], ...], path: Callable[[str], str]) -> dict[str, str] | list[str]:
    """`metadata` as written: a table of named files, or a list of unnamed ones (table "")."""
    if any(not name for name, _ in pairs):
        return [path(p) for _, p in pairs]
    return {name: path(p) for name, p in pairs}


def _all_readers() -> list[str]:
    from icelint.readers import ALL

    return list(ALL)


def _readers(names: Iterable[str], where: str) -> tuple[str, ...]:
    from icelint.readers import parse_readers

    try:
        return parse_readers(names, where)
    except ValueError as e:
        raise ConfigError(str(e)) from None


def _resolve(value: str, root: Path) -> str:
    """A path from the file, made absolute against its folder; URIs untouched."""
    if "://" in value:
        return value
    p = Path(os.path.expanduser(value))
    return str(p if p.is_absolute() else root / p)


def _relative(path: Path, root: Path) -> str:
    p = path if path.is_absolute() else Path.cwd() / path
    try:
        return Path(os.path.normpath(p)).relative_to(Path(os.path.normpath(root.resolve()))).as_posix()
    except ValueError:
        try:
            return Path(os.path.normpath(p.resolve())).relative_to(root.resolve()).as_posix()
        except ValueError:
            return p.as_posix()


def _display(path: Path, cwd: Path) -> str:
    try:
        return Path(os.path.relpath(path, cwd)).as_posix()
    except ValueError:  # pragma: no cover - another drive on Windows
        return path.as_posix()


_GLOB_CACHE: dict[str, re.Pattern[str]] = {}


def _glob(pattern: str) -> re.Pattern[str]:
    """A gitignore-style glob: `*` within a folder, `**` across folders, `?` one character."""
    rx = _GLOB_CACHE.get(pattern)
    if rx is not None:
        return rx
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
            continue
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif c == "[":
            j = pattern.find("]", i + 1)
            if j > i + 1:
                body = pattern[i + 1 : j]
                out.append("[" + ("^" + body[1:] if body.startswith("!") else body) + "]")
                i = j + 1
                continue
            out.append(re.escape(c))
        else:
            out.append(re.escape(c))
        i += 1
    rx = re.compile("".join(out))
    _GLOB_CACHE[pattern] = rx
    return rx
