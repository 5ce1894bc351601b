"""Whether to colour the output, as ruff decides it.

- `--color always` / `--color never` win over everything.
- `--color auto` (the default): no colour when `NO_COLOR` is set to anything but the empty string
  (https://no-color.org: no colour and no bold either, so the output is plain text); else colour
  when `FORCE_COLOR` is set to anything but the empty string; else colour only on a terminal
  (`TERM=dumb` is not one).

Hyperlinks (OSC 8) on rule codes are written only to a terminal, whatever the colour.
"""

from __future__ import annotations

import os
from typing import IO

MODES = ("auto", "always", "never")


def _isatty(stream: IO[str]) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def use_color(stream: IO[str], mode: str | None = "auto") -> bool:
    if mode == "always":
        return True
    if mode == "never":
        return False
    if os.environ.get("NO_COLOR", ""):
        return False
    if os.environ.get("FORCE_COLOR", ""):
        return True
    return _isatty(stream) and os.environ.get("TERM") != "dumb"


def use_links(stream: IO[str]) -> bool:
    """OSC 8 hyperlinks: only on a terminal that is not `dumb`."""
    return _isatty(stream) and os.environ.get("TERM") != "dumb"


def console(stream: IO[str]):
    """A rich console that writes colour to `stream` even when it is not a terminal (the caller decided)."""
    from rich.console import Console

    return Console(
        file=stream,
        highlight=False,
        soft_wrap=True,
        force_terminal=True,
        no_color=False,
        color_system="auto" if _isatty(stream) and os.environ.get("TERM") not in (None, "dumb", "unknown") else "standard",
    )


def osc8(url: str, text: str) -> str:
    """`text` as a terminal hyperlink to `url`."""
    return f"\x1b]8;;{url}\x1b\\{text}\x1b]8;;\x1b\\"
