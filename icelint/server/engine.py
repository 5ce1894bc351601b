"""The language server's one call into the engine: the report `icelint check` gives for one file.

`check_document` is the only function of the server that runs the check, through `engine_report`,
the one call into the engine (`icelint.engine.run`, as `icelint check --stdin-filename PATH` calls
it: the configuration found from PATH's folder, the configured `migrations` folder as history, the
configured state), with the editor's unsaved texts standing in for the files on disk.

Around that call sits the server's speed (`slices.Slicer`): the migrations folder's files that
cannot change this file's verdicts (they touch only other tables) are handed to the engine as
empty texts, so that a keystroke does not re-parse and re-replay the whole folder. The engine
itself is not changed; `tests/equivalence/test_slices.py` proves that both give the same findings.
And the engine goes on from the state it reached after the files before this one in an earlier
check (`run.checkpoint`, one `Checkpoints` per server; `tests/equivalence/test_checkpoint.py`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from icelint.values.source import InputError



@dataclass
class Checked:
    """What a check of one document gave: the report (None: an input error, in `error`)."""

    report: object | None
    error: str | None = None
    sliced: bool = False  # whether files of the folder were left out (`slices`)
    migrations: Path | None = None  # the migrations folder in force for the file (its history)
    order: str = "flyway"
    statements: dict = field(default_factory=dict)  # path → [(line, column, end_line, end_column)] of its statements


def config_for(path: Path):
    """The configuration in force for `path`: the nearest `[tool.icelint]` from its folder up (as
    `icelint check --stdin-filename PATH` finds it)."""
    from icelint.config import load_config

    return load_config(path.parent.resolve())


def check_document(path: Path, text: str, open_texts: dict[str, str], slicer=None, checkpoints=None) -> Checked:
    """The findings `icelint check --stdin-filename PATH` reports for `text` (the buffer of `path`),
    with `open_texts` (absolute path → unsaved text) standing in for the other files on disk.
    `checkpoints` (`run.checkpoint.Checkpoints`, one per server): the check goes on from the
    state an earlier one reached after the same files.
    An input error (a broken configuration, a missing migrations folder) comes back as one line."""
    try:
        cfg = config_for(path)
        texts = _own(open_texts)
        blank = slicer.blank_files(path, text, cfg, open_texts) if slicer is not None else []
        if blank:
            sliced = dict(texts)
            for p in blank:
                for key in _spellings(p):
                    sliced[key] = ""
            report = engine_report(cfg, path, text, sliced, checkpoints)
            if not slicer.needs_whole_folder(report):
                return _checked(report, cfg, sliced=True)
        report = engine_report(cfg, path, text, texts, checkpoints)
    except InputError as e:
        return Checked(None, error=str(e))
    return _checked(report, cfg)


def fix_all(path: Path, text: str, open_texts: dict[str, str]) -> str | None:
    """`text` with the fixes `icelint check --fix --stdin-filename PATH` applies (the safe ones, and
    the unsafe ones too when `unsafe-fixes = true` is configured), pass after pass until none
    applies; None when nothing changes, or on an input error."""
    from icelint.fixes import apply as fixing

    try:
        cfg = config_for(path)
        own = _own(open_texts)
        res = fixing.iterate(lambda texts: engine_report(cfg, path, text, {**own, **(texts or {})}), fixing.mode({}, cfg).unsafe)
    except InputError:
        return None
    fixed = res.texts.get(display_name(path))
    return fixed if fixed is not None and fixed != text else None


def _checked(report, cfg, sliced: bool = False) -> Checked:
    return Checked(report, sliced=sliced, migrations=cfg.migrations, order=cfg.order,
                   statements=getattr(report, "statements_by_file", None) or {})


def _own(open_texts: dict[str, str]) -> dict[str, str]:
    out: dict[str, str] = {}
    for p, t in open_texts.items():
        for key in _spellings(Path(p)):
            out[key] = t
    return out


def display_name(path: Path) -> str:
    """How findings name the file: relative to the working directory (the editor's workspace) when
    under it, as `icelint check` run there names its files; else the absolute path."""
    rel = _spellings(path)[-1]
    return rel if not rel.startswith("..") and not os.path.isabs(rel) else str(path)


def engine_report(cfg, path: Path, text: str, texts: dict[str, str], checkpoints=None):
    """The one call into the engine: `icelint.engine.run` with the buffer as the input under the name
    findings give it, and `texts` (path as the plan spells it → text: the other unsaved buffers)
    standing in for those files without being reported on. Each statement's position is recorded
    (where a suppression comment goes)."""
    from icelint.engine import CheckRequest, run

    return run(CheckRequest(texts={display_name(path): text}, context_texts=texts, config=cfg, positions=True,
                            checkpoints=checkpoints))


def _spellings(p: Path) -> list[str]:
    """The ways a plan may spell a file: absolute, and relative to the working directory (a
    configured folder's files are shown relative to it)."""
    out = [str(p)]
    try:
        rel = os.path.relpath(p, Path.cwd())
    except ValueError:  # pragma: no cover - another drive on Windows
        return out
    if rel not in out:
        out.append(rel)
    return out
