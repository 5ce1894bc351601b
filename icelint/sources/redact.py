"""Turning third-party errors into one safe line: first line only, no secret from the configuration."""

from __future__ import annotations

import base64
import re
from collections.abc import Iterable, Mapping
from typing import Any
from urllib.parse import quote, quote_plus

# Configuration keys whose values are secrets (pyiceberg's s3.secret-access-key, credential, token,
# adls.account-key, gcs.oauth2.token, rest.signing..., a SQL catalog's password...).
_SECRET_KEY = re.compile(r"secret|password|passwd|token|credential|(?<![a-z])key(?![a-z-]*(?:id|name))|signature|sas", re.IGNORECASE)
_URI_PASSWORD = re.compile(r"(?P<head>[a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]*:)(?P<pw>[^@\s/]+)(?=@)")
_MAX = 300


def secrets_of(config: Mapping[str, Any] | None) -> tuple[str, ...]:
    """Every value of `config` (nested) under a secret-looking key, and the passwords inside URIs."""
    out: list[str] = []

    def visit(obj: Any, secret: bool) -> None:
        if isinstance(obj, Mapping):
            for k, v in obj.items():
                visit(v, secret or bool(_SECRET_KEY.search(str(k))))
        elif isinstance(obj, (list, tuple)):
            for v in obj:
                visit(v, secret)
        elif obj is not None:
            text = str(obj)
            if secret and len(text) >= 3:
                out.append(text)
                # `credential: client-id:client-secret` is sent as two form fields
                if ":" in text and len(text.split(":", 1)[1]) >= 3:
                    out.append(text.split(":", 1)[1])
                    out.append(base64.b64encode(text.encode()).decode())  # HTTP Basic authentication
            for m in _URI_PASSWORD.finditer(text):
                out.append(m.group("pw"))

    visit(config or {}, False)
    encoded = [quote_plus(s) for s in out] + [quote(s, safe="") for s in out]  # as echoed in URLs and forms
    return tuple(sorted(set(out + encoded), key=len, reverse=True))


def scrub(text: str, secrets: Iterable[str] = ()) -> str:
    for s in secrets:
        if s:
            text = text.replace(s, "***")
    return _URI_PASSWORD.sub(lambda m: m.group("head") + "***", text)


def one_line(exc: BaseException | str, secrets: Iterable[str] = ()) -> str:
    """The first non-empty line of an error, secrets replaced by ***, at most 300 characters."""
    text = exc if isinstance(exc, str) else str(exc)
    line = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if not line and not isinstance(exc, str):
        line = type(exc).__name__
    line = scrub(line, secrets)
    if len(line) > _MAX:
        line = line[: _MAX - 3] + "..."
    return line
