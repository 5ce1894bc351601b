"""text → statements → changes → replay: the one-way flow every command runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from icelint.changes import Step
from icelint.lower import lower_files
from icelint.model.table import TableMetadata
from icelint.replay.engine import Replay, ReplayResult
from icelint.source import SourceFile
from icelint.syntax.ast import ParsedFile
from icelint.syntax.parser import parse_file


@dataclass
class Run:
    sources: list[SourceFile]
    parsed: list[ParsedFile]
    steps: list[Step]
    result: ReplayResult


def replay_sources(
    sources: Iterable[SourceFile], initial: dict[str, TableMetadata] | None = None, case_sensitive: bool = False
) -> Run:
    sources = list(sources)
    parsed = [parse_file(s) for s in sources]
    steps = lower_files(parsed)
    result = Replay(initial, case_sensitive=case_sensitive).run(steps)
    return Run(sources, parsed, steps, result)


def replay_text(sql: str, initial: dict[str, TableMetadata] | None = None, path: str = "<string>") -> Run:
    return replay_sources([SourceFile(path, sql)], initial)


def replay_paths(paths: Iterable[str | Path], initial: dict[str, TableMetadata] | None = None) -> Run:
    return replay_sources([SourceFile.read(p) for p in paths], initial)
