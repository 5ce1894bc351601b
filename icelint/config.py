"""`[tool.icelint]` in `pyproject.toml`: found by walking up from the current directory, validated
strictly (an unknown key, a wrong type or an unknown rule is one line and exit code 2), merged
with the command line (flags win).

```toml
[tool.icelint]
migrations = "migrations"          # the folder of migrations: context for the files under review
order = "flyway"                   # flyway | natural | lexicographic (see icelint.discovery)
select = ["ICE001", "drop-column-with-data"] # codes, names, prefixes (ICE0, ICE01) or ALL; default: every rule
ignore = ["ICE013"]
extend-select = []                 # added to `select` (also to the default), as ruff's
extend-ignore = []                 # the same as `ignore` (ruff's spelling)
fail-on = "error"                  # error | warning | info
catalog-kind = "iceberg"           # iceberg (SparkCatalog) | session (SparkSessionCatalog)
readers = ["spark", "clickhouse"]  # reader profiles the reader rules check; default: all (icelint.readers)
catalog = "prod"                   # state sources, handed to the state loaders
warehouse = "warehouse/"
metadata = { "db.events" = "snapshots/db.events.metadata.json" }  # or a list of unnamed files

docs-url = "https://example.com/icelint/rules/{code}.md"  # rule-doc links (icelint.docs_url)
cache-dir = ".icelint_cache"       # the run cache (icelint.cache); --no-cache turns it off
fix = false                        # as --fix: apply safe fixes (icelint.fixing); --no-fix wins
unsafe-fixes = false               # as --unsafe-fixes: unsafe fixes apply too; --no-unsafe-fixes wins

[tool.icelint.vars]                # values of ${name} placeholders (icelint.placeholders); --var wins
schema = "analytics"

[tool.icelint.severity]            # per-rule severity
ICE011 = "error"

[tool.icelint.per-file-ignores]    # glob (relative to this file, or a bare file name) → rules
"migrations/legacy/*.sql" = ["ICE001"]
"V1__*.sql" = ["drop-column-with-data"]
```

Relative paths in the file are relative to the directory of the `pyproject.toml`.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Sequence

from icelint.discovery import DEFAULT_ORDER, ORDERS
from icelint.source import InputError

SEVERITIES = ("error", "warning", "info")
FILE_NAME = "pyproject.toml"


class ConfigError(InputError):
    """A configuration problem: one line naming the file and the key, exit code 2."""


# key → (expected type description, validator). Adding a key: one line here, one field below.
_STR, _LIST, _TABLE_STR, _TABLE_LIST = "a string", "a list of strings", "a table of strings", "a table of lists of strings"
_FILES = "a table of strings or a list of strings"  # `metadata`: named files, or unnamed ones
_BOOL = "a boolean"
KEYS: dict[str, str] = {
    "migrations": _STR,
    "order": _STR,
    "select": _LIST,
    "ignore": _LIST,
    "extend-select": _LIST,
    "extend-ignore": _LIST,
    "fail-on": _STR,
    "severity": _TABLE_STR,
    "per-file-ignores": _TABLE_LIST,
    "catalog": _STR,
    "warehouse": _STR,
    "metadata": _FILES,
    "table-dirs": _TABLE_STR,
    "table-uuid": _STR,
    "vars": _TABLE_STR,
    "docs-url": _STR,
    "cache-dir": _STR,
    "catalog-kind": _STR,
    "readers": _LIST,
    "fix": _BOOL,
    "unsafe-fixes": _BOOL,
}
CATALOG_KINDS = ("iceberg", "session")  # Iceberg's SparkCatalog, or SparkSessionCatalog
STATE_KEYS = ("catalog", "warehouse", "metadata", "table-dirs", "table-uuid")  # read by icelint.sources.options


@dataclass(frozen=True)
class Config:
    path: Path | None = None  # the pyproject.toml read, if any
    root: Path = field(default_factory=Path.cwd)  # relative paths in the file are relative to this
    migrations: Path | None = None
    order: str = DEFAULT_ORDER
    # rule selection, as ruff resolves it (icelint.selection): one (select, extend-select, ignore) of
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
    cache_dir: str | None = None  # the run cache's folder (icelint.cache); None: .icelint_cache/ at the root
    fix: bool = False  # apply safe fixes (icelint.fixing); the --fix / --no-fix flags win
    unsafe_fixes: bool = False  # unsafe fixes apply too; the --unsafe-fixes / --no-unsafe-fixes flags win

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
    ) -> Config:
        """Flags win: a flag that was given replaces the configured value."""
        out = self
        from icelint.selection import level

        flags = level(select or None, extend_select, ignore, extend_ignore, {
            "select": "--select", "extend-select": "--extend-select", "ignore": "--ignore", "extend-ignore": "--extend-ignore"})
        if flags is not None:
            out = replace(out, selection=(*out.selection, flags))
        if variables:
            from icelint.placeholders import parse_vars

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
        return out

    # ------------------------------------------------------------------ what the check uses
    def rules(self) -> tuple:
        """The enabled rules, in registry order (plus `unused-suppression` unless ignored)."""
        import icelint.rules  # noqa: F401 - first: readers.findings and the reader rules import each other
        from icelint.selection import enabled, registry

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
        }


def _not_enabled(rules: tuple) -> list[str]:
    from icelint.selection import registry

    return [r.code for r in registry() if r not in rules]


# ---------------------------------------------------------------------------- finding the file


def find_config(start: Path) -> Path | None:
    """The nearest `pyproject.toml` with a `[tool.icelint]` table, from `start` up to the root."""
    for d in (start, *start.parents):
        candidate = d / FILE_NAME
        if candidate.is_file():
            data = _read_toml(candidate)
            if isinstance(data.get("tool"), dict) and "icelint" in data["tool"]:
                return candidate
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


# ---------------------------------------------------------------------------- validation


def parse_section(section: Any, path: Path) -> Config:
    where = f"{path}"
    if not isinstance(section, dict):
        raise ConfigError(f"{where}: `tool.icelint` must be a table, not {_type(section)}")
    for key in section:
        if key not in KEYS:
            import difflib

            near = difflib.get_close_matches(key.replace("_", "-"), list(KEYS), n=1)
            hint = f" (did you mean `{near[0]}`?)" if near else f" (known keys: {', '.join(sorted(KEYS))})"
            raise ConfigError(f"{where}: unknown key `tool.icelint.{key}`{hint}")
    for key, value in section.items():
        _check_type(where, key, value, KEYS[key])

    def key(k: str) -> str:
        return f"{where}: `tool.icelint.{k}`"

    kw: dict[str, Any] = {"path": path, "root": path.parent}
    if "migrations" in section:
        kw["migrations"] = Path(_resolve(section["migrations"], path.parent))
    if "order" in section:
        if section["order"] not in ORDERS:
            raise ConfigError(f"{key('order')} must be one of {', '.join(ORDERS)}, not {section['order']!r}")
        kw["order"] = section["order"]
    if "catalog-kind" in section:
        if section["catalog-kind"] not in CATALOG_KINDS:
            raise ConfigError(f"{key('catalog-kind')} must be one of {', '.join(CATALOG_KINDS)}, not {section['catalog-kind']!r}")
        kw["catalog_kind"] = section["catalog-kind"]
    if "fail-on" in section:
        if section["fail-on"] not in SEVERITIES:
            raise ConfigError(f"{key('fail-on')} must be one of {', '.join(SEVERITIES)}, not {section['fail-on']!r}")
        kw["fail_on"] = section["fail-on"]
    from icelint.selection import level

    file_level = level(
        section.get("select"),
        section.get("extend-select", ()),
        section.get("ignore", ()),
        section.get("extend-ignore", ()),
        {k: key(k) for k in ("select", "extend-select", "ignore", "extend-ignore")},
    )
    if file_level is not None:
        kw["selection"] = (file_level,)
    if "severity" in section:
        sev = {}
        for rule, level in section["severity"].items():
            code = _codes([rule], key("severity"))[0]
            if level not in SEVERITIES:
                raise ConfigError(f"{key('severity')}: `{rule}` must be one of {', '.join(SEVERITIES)}, not {level!r}")
            sev[code] = level
        kw["severity"] = tuple(sorted(sev.items()))
    if "per-file-ignores" in section:
        from icelint.selection import expand

        kw["per_file_ignores"] = tuple(
            (glob, tuple(expand(codes, f"{key('per-file-ignores')}: `{glob}`")))
            for glob, codes in section["per-file-ignores"].items()
        )
    if "readers" in section:
        kw["readers"] = _readers(section["readers"], key("readers"))
    for k in ("catalog", "warehouse", "table-uuid"):
        if k in section:
            kw[k.replace("-", "_")] = section[k]
    if "vars" in section:
        from icelint.placeholders import check_value

        for name, value in section["vars"].items():
            check_value(name, value, key("vars"))
        kw["vars"] = tuple(sorted(section["vars"].items()))
    if "docs-url" in section:
        kw["docs_url"] = section["docs-url"]
    for k in ("fix", "unsafe-fixes"):
        if k in section:
            kw[k.replace("-", "_")] = section[k]
    if "cache-dir" in section:
        kw["cache_dir"] = _resolve(section["cache-dir"], path.parent)
    for k in ("metadata", "table-dirs"):
        if k in section:
            value = section[k]
            kw[k.replace("-", "_")] = tuple(("", p) for p in value) if isinstance(value, list) else tuple(sorted(value.items()))
    return Config(**kw)


def _files(pairs: tuple[tuple[str, str], ...], path: Callable[[str], str]) -> dict[str, str] | list[str]:
    """`metadata` as written: a table of named files, or a list of unnamed ones (table "")."""
    if any(not name for name, _ in pairs):
        return [path(p) for _, p in pairs]
    return {name: path(p) for name, p in pairs}


def _type(value: Any) -> str:
    names = {str: "a string", bool: "a boolean", int: "an integer", float: "a number", list: "a list", dict: "a table"}
    return names.get(type(value), type(value).__name__)


def _check_type(where: str, key: str, value: Any, expected: str) -> None:
    ok: bool
    if expected == _STR:
        ok = isinstance(value, str)
    elif expected == _BOOL:
        ok = isinstance(value, bool)
    elif expected == _LIST:
        ok = isinstance(value, list) and all(isinstance(v, str) for v in value)
    elif expected == _TABLE_STR:
        ok = isinstance(value, dict) and all(isinstance(v, str) for v in value.values())
    elif expected == _FILES:
        ok = (isinstance(value, dict) and all(isinstance(v, str) for v in value.values())) or (
            isinstance(value, list) and all(isinstance(v, str) for v in value)
        )
    else:
        ok = isinstance(value, dict) and all(
            isinstance(v, list) and all(isinstance(x, str) for x in v) for v in value.values()
        )
    if not ok:
        raise ConfigError(f"{where}: `tool.icelint.{key}` must be {expected}, not {_describe(value)}")


def _describe(value: Any) -> str:
    if isinstance(value, list):
        bad = next((v for v in value if not isinstance(v, str)), None)
        return f"a list holding {_type(bad)} ({bad!r})" if bad is not None else "a list"
    if isinstance(value, dict):
        return "a table with other values"
    return f"{_type(value)} ({value!r})"


def _codes(selectors: Iterable[str], where: str) -> list[str]:
    """Rule codes for codes/names (comma-separated allowed); an unknown one is an error naming it."""
    from icelint.rules import get
    from icelint.rules.unused_suppression import RULE as UNUSED

    out: list[str] = []
    for raw in selectors:
        for sel in raw.split(","):
            sel = sel.strip()
            if not sel:
                continue
            r = get(sel)
            if r is None and (sel.upper() == UNUSED.code or sel.lower() == UNUSED.name):
                r = UNUSED
            if r is None:
                raise ConfigError(f"{where}: unknown rule {sel!r} (see `icelint rules`)")
            if r.code not in out:
                out.append(r.code)
    return out


# ---------------------------------------------------------------------------- paths and globs


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


def render_toml(d: dict[str, Any]) -> str:
    """The effective configuration as a `[tool.icelint]` table (deterministic)."""
    import json

    def val(v: Any) -> str:
        if isinstance(v, list):
            return "[" + ", ".join(val(x) for x in v) + "]"
        return json.dumps(v, ensure_ascii=False)

    head = [f"# effective icelint configuration (config file: {d['config-file'] or 'none'}; paths relative to the current directory)"]
    lines = ["[tool.icelint]"]
    tables: list[str] = []
    for k, v in d.items():
        if k == "config-file" or v is None or (isinstance(v, dict) and not v):
            continue
        if isinstance(v, dict):
            tables.append("")
            tables.append(f"[tool.icelint.{k}]")
            for kk, vv in v.items():
                tables.append(f"{val(kk)} = {val(vv)}")
        else:
            lines.append(f"{k} = {val(v)}")
    return "\n".join(head + lines + tables) + "\n"
