"""The state sources of a command (`snapshot`); `icelint check` itself runs through `icelint.engine`."""

from __future__ import annotations

from typing import Sequence


def state_sources(metadata: Sequence[str], sources, cfg=None):
    """The state sources of a command: the flags added to the `[tool.icelint]` keys (a flag wins per table)."""
    from icelint.config import load_config
    from icelint.sources.options import resolve

    return resolve(metadata, sources, (cfg or load_config()).state() or None)
