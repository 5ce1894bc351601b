"""Table state from a pyiceberg catalog (REST, SQL, Hive, Glue...), read-only.

The catalog is configured the way pyiceberg users already do it: `~/.pyiceberg.yaml` (or
`$PYICEBERG_HOME/.pyiceberg.yaml`, or the current directory) and `PYICEBERG_CATALOG__<NAME>__<KEY>`
environment variables. pyiceberg is imported only here.

icelint never writes to a catalog: `ReadOnlyCatalog` only ever calls `load_table`, and a SQL catalog
is opened with `init_catalog_tables=false` (pyiceberg would otherwise create its tables in an empty
database) and refused when its SQLite file does not exist (SQLite would create it).
"""

from __future__ import annotations

import gzip
import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from icelint.model.metadata import parse_metadata_bytes
from icelint.model.table import TableMetadata
from icelint.values.source import InputError
from icelint.sources.redact import one_line, secrets_of

_AUTH = ("UnauthorizedError", "ForbiddenError", "OAuthError", "AuthorizationExpiredError")
_MISSING = ("NoSuchTableError", "NoSuchIcebergTableError", "NoSuchNamespaceError", "NoSuchIdentifierError")


@dataclass(frozen=True)
class CatalogTable:
    """A table's state as a pyiceberg catalog gave it: the metadata, its JSON as stored and its location."""

    metadata: TableMetadata
    data: bytes  # the metadata.json as stored (decompressed)
    origin: str  # the metadata file location


def catalog_config(name: str) -> dict[str, Any] | None:
    """The configuration of catalog `name` from .pyiceberg.yaml and PYICEBERG_CATALOG__ variables, read now."""
    from pyiceberg.utils.config import Config

    conf = Config().get_catalog_config(name)
    return dict(conf) if conf is not None else None


def _config_error(name: str, e: Exception) -> str:
    """One line for a .pyiceberg.yaml that pyiceberg could not read: the file, line, column and problem."""
    import os

    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    problem = getattr(e, "problem", None) or getattr(e, "context", None)
    # the file pyiceberg read: the first of $PYICEBERG_HOME, ~ and the working folder that has one
    path = next(
        (os.path.join(d, ".pyiceberg.yaml") for d in (os.environ.get("PYICEBERG_HOME"), os.path.expanduser("~"), os.getcwd())
         if d and os.path.isfile(os.path.join(d, ".pyiceberg.yaml"))),
        ".pyiceberg.yaml",
    )
    if mark is not None and problem:
        context = getattr(e, "context", None) if getattr(e, "problem", None) else None
        where = getattr(e, "context_mark", None)
        extra = f" ({context} at line {where.line + 1}, column {where.column + 1})" if context and where is not None else ""
        return f"{path}:{mark.line + 1}:{mark.column + 1}: invalid YAML: {one_line(str(problem))}{extra}"
    return f"{path}: cannot read the pyiceberg configuration of catalog {name!r}: {one_line(e)}"


def _sqlite_file(uri: str) -> str | None:
    """The file of a `sqlite:///path` URI (None for in-memory databases)."""
    if not uri.startswith("sqlite"):
        return None
    rest = uri.split("://", 1)[1] if "://" in uri else ""
    rest = rest.split("?", 1)[0]
    if not rest.startswith("/"):
        return None  # `sqlite://` (memory) or a host form SQLite does not have
    path = rest[1:]
    if path in ("", ":memory:") or path.startswith("file:"):
        return None
    return path


def _describe(name: str, exc: BaseException, secrets: tuple[str, ...], action: str) -> InputError:
    kind = type(exc).__name__
    text = one_line(exc, secrets)
    low = text.lower()
    if kind in _AUTH or any(w in low for w in ("401", "403", "unauthorized", "forbidden", "invalid_client", "not authorized")):
        return InputError(f"catalog {name!r} refused the credentials ({action}): {text}")
    if kind in ("ConnectionError", "ConnectTimeout", "ReadTimeout", "Timeout", "MaxRetryError", "NewConnectionError") or any(
        w in low for w in ("connection refused", "failed to establish", "name or service not known", "unable to open database",
                           "timed out", "max retries exceeded", "could not connect", "nodename nor servname")
    ):
        return InputError(f"catalog {name!r} is unreachable ({action}): {text}")
    if kind in ("NotInstalledError", "ModuleNotFoundError", "ImportError"):
        return InputError(f"catalog {name!r} needs a package that is not installed: {text}")
    return InputError(f"catalog {name!r}: cannot {action}: {kind}: {text}")


class ReadOnlyCatalog:
    """A pyiceberg catalog through which icelint can only read: `load(table)`; connects on first use."""

    def __init__(self, name: str, log: Callable[[str], None] | None = None) -> None:
        self.name = name
        self._log = log
        self._catalog: Any = None
        self._config: dict[str, Any] | None = None
        self.secrets: tuple[str, ...] = ()

    @property
    def config(self) -> dict[str, Any]:
        if self._config is None:
            try:
                conf = catalog_config(self.name)
            except Exception as e:  # noqa: BLE001 - a malformed .pyiceberg.yaml
                raise InputError(_config_error(self.name, e)) from None
            if not conf:
                raise InputError(
                    f"catalog {self.name!r} is not configured: add it under `catalog:` in ~/.pyiceberg.yaml "
                    f"(or $PYICEBERG_HOME/.pyiceberg.yaml) or set PYICEBERG_CATALOG__{self.name.upper()}__URI"
                )
            self._config = conf
            self.secrets = secrets_of(conf)
        return self._config

    def file_io_properties(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.config.items() if not isinstance(v, dict)}

    def _open(self) -> Any:
        if self._catalog is not None:
            return self._catalog
        conf = dict(self.config)
        uri = str(conf.get("uri", ""))
        is_sql = str(conf.get("type", "")).lower() == "sql" or (not conf.get("type") and uri.startswith(("sqlite", "postgresql")))
        if is_sql:
            conf["init_catalog_tables"] = "false"  # never create pyiceberg's tables in someone's database
            conf["schema_version"] = "v0"  # never migrate a v0 catalog (v1 catalogs are detected as v1)
            db = _sqlite_file(uri)
            if db is not None and not Path(db).is_file():
                raise InputError(f"catalog {self.name!r} is unreachable: SQLite database {db} does not exist")
        if "py-io-impl" not in conf and importlib.util.find_spec("pyarrow") is None:
            conf["py-io-impl"] = "pyiceberg.io.fsspec.FsspecFileIO"  # else pyiceberg logs a warning per table
        try:
            from pyiceberg.catalog import load_catalog

            self._catalog = load_catalog(self.name, **conf)
        except InputError:
            raise
        except ValueError as e:
            text = one_line(e, self.secrets)
            if "uri missing" in text.lower():
                raise InputError(
                    f"catalog {self.name!r} is not configured: its `uri` is missing (set it in .pyiceberg.yaml "
                    f"or PYICEBERG_CATALOG__{self.name.upper()}__URI)"
                ) from None
            raise InputError(f"catalog {self.name!r} is misconfigured: {text}") from None
        except Exception as e:  # noqa: BLE001 - every catalog implementation raises its own types
            raise _describe(self.name, e, self.secrets, "connect") from None
        if self._log:
            self._log(f"catalog {self.name!r}: connected ({type(self._catalog).__name__})")
        return self._catalog

    def load(self, key: str) -> CatalogTable | None:
        """The table's current metadata; None when the catalog has no such table (or namespace)."""
        catalog = self._open()
        ident = key if "." in key else f"default.{key}"
        try:
            table = catalog.load_table(ident)
        except Exception as e:  # noqa: BLE001
            if type(e).__name__ in _MISSING or (isinstance(e, ValueError) and "namespace" in str(e).lower()):
                if self._log:
                    self._log(f"catalog {self.name!r}: no table {ident}")
                return None
            raise _describe(self.name, e, self.secrets, f"load {ident}") from None
        location = str(table.metadata_location)
        try:
            with table.io.new_input(location).open() as f:
                data = f.read()
            if data[:2] == b"\x1f\x8b":
                data = gzip.decompress(data)
            how = "read the metadata file"
        except Exception as e:  # noqa: BLE001 - e.g. a REST catalog whose storage credentials are not vended
            data = table.metadata.model_dump_json().encode()
            how = f"metadata file unreadable ({one_line(e, self.secrets)}); used the catalog's copy"
        if self._log:
            self._log(f"catalog {self.name!r}: {ident} → {location} ({how})")
        return CatalogTable(parse_metadata_bytes(data, location), data, location)
