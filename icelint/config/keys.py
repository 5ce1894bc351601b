"""The keys of `[tool.icelint]`: their types, checked strictly (an unknown key, a wrong type or an
unknown rule is one line naming the file and the key), and the section made into a `Config`."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable

from icelint.config.model import Config, ConfigError, _readers, _resolve
from icelint.plan.discovery import ORDERS

SEVERITIES = ("error", "warning", "info")
# key → (expected type description, validator). Adding a key: one line here, one field of `Config` (config/model.py).
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
    "sql-callables": _LIST,
    "iceberg-version": _STR,
}
CATALOG_KINDS = ("iceberg", "session")  # Iceberg's SparkCatalog, or SparkSessionCatalog
STATE_KEYS = ("catalog", "warehouse", "metadata", "table-dirs", "table-uuid")  # read by icelint.sources.options


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

    def one_of(k: str, choices: Iterable[str]) -> str:
        if section[k] not in choices:
            raise ConfigError(f"{key(k)} must be one of {', '.join(choices)}, not {section[k]!r}")
        return section[k]

    kw: dict[str, Any] = {"path": path, "root": path.parent}
    if "migrations" in section:
        kw["migrations"] = Path(_resolve(section["migrations"], path.parent))
    if "order" in section:
        kw["order"] = one_of("order", ORDERS)
    if "catalog-kind" in section:
        kw["catalog_kind"] = one_of("catalog-kind", CATALOG_KINDS)
    if "fail-on" in section:
        kw["fail_on"] = one_of("fail-on", SEVERITIES)
    from icelint.config.selection import level

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
        from icelint.config.selection import expand

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
        from icelint.config.vars import check_value

        for name, value in section["vars"].items():
            check_value(name, value, key("vars"))
        kw["vars"] = tuple(sorted(section["vars"].items()))
    if "sql-callables" in section:
        import re

        for name in section["sql-callables"]:
            if not re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", name):
                raise ConfigError(f"{key('sql-callables')}: {name!r} is not a dotted Python name (e.g. \"jobs.run_sql\")")
        kw["sql_callables"] = tuple(section["sql-callables"])
    if "docs-url" in section:
        kw["docs_url"] = section["docs-url"]
    for k in ("fix", "unsafe-fixes"):
        if k in section:
            kw[k.replace("-", "_")] = section[k]
    if "iceberg-version" in section:
        from icelint.config.target import check_iceberg_version

        kw["iceberg_version"] = check_iceberg_version(section["iceberg-version"], key("iceberg-version"), ConfigError)
    if "cache-dir" in section:
        kw["cache_dir"] = _resolve(section["cache-dir"], path.parent)
    for k in ("metadata", "table-dirs"):
        if k in section:
            value = section[k]
            kw[k.replace("-", "_")] = tuple(("", p) for p in value) if isinstance(value, list) else tuple(sorted(value.items()))
    return Config(**kw)


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

    from icelint.config.selection import split

    out: list[str] = []
    for sel in split(selectors):
        r = get(sel)
        if r is None and (sel.upper() == UNUSED.code or sel.lower() == UNUSED.name):
            r = UNUSED
        if r is None:
            raise ConfigError(f"{where}: unknown rule {sel!r} (see `icelint rules`)")
        if r.code not in out:
            out.append(r.code)
    return out
