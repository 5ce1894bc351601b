"""text → statements → changes → replay: the one-way flow every command runs."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

from icelint.values import changes as ch
from icelint.engine.lower import lower_files
from icelint.model.table import TableMetadata
from icelint.replay.deploy import Deployments
from icelint.replay.engine import Replay, ReplayResult, table_key
from icelint.values.source import LineIndex, SourceFile
from icelint.syntax.ast import ParsedFile, PlacedSpans
from icelint.syntax.parser import parse_file


@dataclass
class Parsed:
    """Parsed and lowered files: their sources, syntax trees and the steps the replay applies."""

    sources: list[SourceFile]
    files: list[ParsedFile]
    steps: list[ch.Step]
    deployments: Deployments | None = None  # where data appears between files (replay/deploy.py)

    @property
    def referenced_tables(self) -> list[str]:
        """The tables the steps name, for the state sources; a name the replay may read as a ref
        (`db.t.branch_x`, `lower._place_refs`) names its table too."""
        out = []
        for s in self.steps:
            if isinstance(s, ch.Commit):
                out.append(s.table)
                if s.ref_unplaced:
                    out.append(s.ref.parent)
        return out

    @property
    def created_tables(self) -> set[str]:
        return {
            s.table
            for s in self.steps
            if isinstance(s, ch.Commit) and s.changes and isinstance(s.changes[0], ch.CreateTable)
        }

    @property
    def statement_count(self) -> int:
        return len(self.steps)


@dataclass
class Run:
    """A replayed run: the parsed files, their steps, and what the replay made of each."""

    sources: list[SourceFile]
    parsed: list[ParsedFile]
    steps: list[ch.Step]
    result: ReplayResult


def parse_sources(
    sources: Iterable[SourceFile],
    on_file: Callable[[], None] | None = None,
    trees: bool = True,
    pack: Callable[[SourceFile], bool] | None = None,
) -> Parsed:
    """Parse and lower files; `on_file` is called after each file (a progress bar's tick).

    `trees=False` keeps of each statement only its span (`ast.PlacedSpans`) once it is lowered: what the
    commands read after lowering, at a fraction of the memory of the syntax trees. A file for which
    `pack(source)` is true keeps its text compressed once it is parsed, when it is long
    (`packed_text.pack`): its `SourceFile`, the spans' line index and its DML read the packed text."""
    sources = list(sources)
    files = []
    for i, s in enumerate(sources):
        files.append(parse_file(s))
        if pack is not None and pack(s):
            sources[i] = _packed(s)
        if on_file is not None:
            on_file()
    steps = lower_files(files, {s.path: s.text for s in sources})
    if not trees:
        files = [f._replace(statements=PlacedSpans([st.span for st in f.statements])) for f in files]
    return Parsed(sources, files, steps)


def _packed(source: SourceFile) -> SourceFile:
    from icelint.run.packed_text import pack

    packed = pack(source.text)
    if packed is source.text:
        return source
    LineIndex.repack(source.path, source.text, packed)  # the index the parser gave the spans reads it too
    return SourceFile(source.path, packed)  # type: ignore[arg-type]


def replay(
    parsed: Parsed, initial: dict[str, TableMetadata] | None = None, case_sensitive: bool = False, catalog_kind: str = "iceberg",
    iceberg_version: str = "1.10",
) -> Run:
    result = Replay(initial, case_sensitive=case_sensitive, catalog_kind=catalog_kind, deployments=parsed.deployments,
                    iceberg_version=iceberg_version).run(parsed.steps)
    return Run(parsed.sources, parsed.files, parsed.steps, result)


def replay_sources(
    sources: Iterable[SourceFile], initial: dict[str, TableMetadata] | None = None, case_sensitive: bool = False
) -> Run:
    return replay(parse_sources(sources), initial, case_sensitive)


def replay_text(sql: str, initial: dict[str, TableMetadata] | None = None, path: str = "<string>") -> Run:
    return replay_sources([SourceFile(path, sql)], initial)


def replay_paths(paths: Iterable[str | Path], initial: dict[str, TableMetadata] | None = None) -> Run:
    return replay_sources([SourceFile.read(p) for p in paths], initial)


__all__ = ["Parsed", "Run", "parse_sources", "replay", "replay_paths", "replay_sources", "replay_text", "table_key"]
