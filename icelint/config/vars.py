"""Placeholder values as the configuration holds them: `[tool.icelint.vars]` and `--var NAME=VALUE`
(the substitution itself is `icelint.engine.placeholders`')."""

from __future__ import annotations

import re
from typing import Iterable

from icelint.values.source import InputError


def parse_vars(values: Iterable[str], where: str = "--var") -> dict[str, str]:
    """`name=value` strings → a dict; a malformed one is an error naming it."""
    out: dict[str, str] = {}
    for raw in values:
        name, sep, value = raw.partition("=")
        name = name.strip()
        if not sep or not re.fullmatch(r"[A-Za-z_][\w.:\-]*", name):
            raise InputError(f"{where} {raw!r}: expected NAME=VALUE (NAME: letters, digits, _ . : -)")
        check_value(name, value, where)
        out[name] = value
    return out


def check_value(name: str, value: str, where: str) -> None:
    if "\n" in value or "\r" in value:
        raise InputError(f"{where}: the value of `{name}` spans several lines; placeholder values must be one line")
