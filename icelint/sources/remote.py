"""Reading metadata files behind URIs (s3://, gs://, abfs://, file://...) through pyiceberg's FileIO.

Imported only when a remote URI is read, so that `icelint check --metadata local.json` never pays
pyiceberg's import time. Credentials are the ones pyiceberg already understands: the FileIO
properties of a configured catalog (`s3.access-key-id`, `gcs.token`, `adls.account-key`...) and the
provider chains of the underlying libraries (AWS_* environment variables, ~/.aws, ...).
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import warnings
from collections.abc import Mapping

from icelint.values.source import InputError
from icelint.sources.redact import one_line

_FSSPEC_IO = "pyiceberg.io.fsspec.FsspecFileIO"
_HINTS = {
    "s3": "pip install 'pyiceberg[s3fs]' or 'pyiceberg[pyarrow]'",
    "s3a": "pip install 'pyiceberg[s3fs]' or 'pyiceberg[pyarrow]'",
    "s3n": "pip install 'pyiceberg[s3fs]' or 'pyiceberg[pyarrow]'",
    "gs": "pip install 'pyiceberg[pyarrow]' or 'pyiceberg[gcsfs]'",
    "abfs": "pip install 'pyiceberg[adlfs]'",
    "abfss": "pip install 'pyiceberg[adlfs]'",
    "wasb": "pip install 'pyiceberg[adlfs]'",
    "wasbs": "pip install 'pyiceberg[adlfs]'",
    "hdfs": "pip install 'pyiceberg[pyarrow]'",
}


def scheme_of(uri: str) -> str:
    return uri.split("://", 1)[0].lower() if "://" in uri else "file"


def _file_io(uri: str, properties: Mapping[str, str]):
    from pyiceberg.io import PY_IO_IMPL, load_file_io

    props = {k: str(v) for k, v in properties.items()}
    scheme = scheme_of(uri)
    if PY_IO_IMPL not in props and importlib.util.find_spec("pyarrow") is None and scheme in (
        "file", "s3", "s3a", "s3n", "gs", "abfs", "abfss", "wasb", "wasbs",
    ):  # fmt: skip
        # Without pyarrow, pyiceberg would first try (and log a warning about) PyArrowFileIO.
        props[PY_IO_IMPL] = _FSSPEC_IO
    return load_file_io(props, uri)


@contextlib.contextmanager
def _quiet():
    """pyiceberg logs and warns while it looks for a FileIO; icelint reports one line instead."""
    logger = logging.getLogger("pyiceberg.io")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        logger.setLevel(level)


def read_remote(uri: str, properties: Mapping[str, str] | None = None, secrets: tuple[str, ...] = ()) -> bytes:
    """The bytes of the file at `uri`; every failure becomes an `InputError` naming the URI."""
    scheme = scheme_of(uri)
    try:
        with _quiet():
            io = _file_io(uri, properties or {})
            with io.new_input(uri).open() as f:
                return f.read()
    except FileNotFoundError:
        raise InputError(f"{uri}: no such metadata file") from None
    except PermissionError as e:
        raise InputError(f"{uri}: access denied: {one_line(e, secrets)}") from None
    except (ModuleNotFoundError, ImportError) as e:
        hint = _HINTS.get(scheme, "see pyiceberg's FileIO documentation")
        raise InputError(f"{uri}: cannot read {scheme}:// URIs here ({one_line(e, secrets)}); {hint}") from None
    except InputError:
        raise
    except Exception as e:  # noqa: BLE001 - botocore, gcsfs, adlfs and pyarrow all raise their own types
        text = one_line(e, secrets)
        low = text.lower()
        if "no registered filesystem" in low or "protocol not known" in low or "unrecognized" in low and "scheme" in low:
            hint = _HINTS.get(scheme, "see pyiceberg's FileIO documentation")
            raise InputError(f"{uri}: cannot read {scheme}:// URIs here ({text}); {hint}") from None
        if any(w in low for w in ("access denied", "forbidden", "403", "invalidaccesskeyid", "signaturedoesnotmatch",
                                  "expiredtoken", "unauthorized", "401", "credentials")):
            raise InputError(f"{uri}: access denied: {text}") from None
        if "nosuchkey" in low or "not found" in low or "404" in low or "does not exist" in low:
            raise InputError(f"{uri}: no such metadata file ({text})") from None
        raise InputError(f"{uri}: cannot read: {text}") from None
