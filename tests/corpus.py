"""Every SQL script of the repository's fixtures, as runs of files: a corpus for equivalence tests."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def corpus_runs() -> list[list[Path]]:
    runs = []
    for case in sorted((ROOT / "tests" / "differential" / "cases").iterdir()):
        files = [case / n for n in ("setup.sql", "migration.sql") if (case / n).exists()]
        if files:
            runs.append(files)
    for case in sorted((ROOT / "fixtures" / "replay").iterdir()):
        if (case / "migration.sql").exists():
            runs.append([case / "migration.sql"])
    runs += [[p] for p in sorted((ROOT / "fixtures" / "rules").rglob("*.sql"))]
    runs.append(sorted((ROOT / "examples").rglob("*.sql")))
    return runs


def iceberg_version(files: list[Path]) -> str:
    """The run's target runtime: a rule case's `-- iceberg-version: 1.9` line, else the default."""
    import re

    for p in files:
        m = re.search(r"^\s*--\s*iceberg-version:\s*(\S+)\s*$", p.read_text(encoding="utf-8"), re.M)
        if m:
            return m[1]
    return "1.10"


def run_id(files: list[Path]) -> str:
    return "+".join(f"{p.parent.name}/{p.name}" for p in files)


def deployments(files: list[Path]):
    """Each file of a run deployed apart, as `icelint check <folder>` replays a folder without a state."""
    from icelint.replay.deploy import Deployments

    return Deployments({str(p): i for i, p in enumerate(files)})


def lint_files(files: list[Path]):
    """The sources of a run and every rule's findings on it, as `icelint check` gives them (no shortcut
    switched off): computed once per run for the session, since several equivalence tests compare
    their plain computation with the same findings. Callers must not change what they are given."""
    return _linted(tuple(files))


def lint_files_afresh(files: list[Path]):
    """The same, computed now: for a run with a shortcut switched off (monkeypatched)."""
    from icelint.engine.checker import lint_run
    from icelint.engine.pipeline import replay_sources
    from icelint.rules import ALL_RULES
    from icelint.values.source import SourceFile

    sources = [SourceFile.read(p) for p in files]
    return sources, lint_run(replay_sources(sources), ALL_RULES)


_LINTED: dict = {}


def _linted(files: tuple[Path, ...]):
    if files not in _LINTED:
        _LINTED[files] = lint_files_afresh(list(files))
    return _LINTED[files]


def everything_shown(findings) -> list[tuple]:
    """Everything a reporter shows of the findings (equality of findings leaves out fix and impact)."""
    return [(f, f.help, f.fix, f.impact.to_json() if f.impact is not None else None) for f in findings]


PIECES = ["a", "bc", ";", "-- c", " ", "\t", "\n", "\r\n", "\r", "é", "漢", "e\u0301", "x y", ""]


def generated_texts(n: int, seed: int):
    """`n` texts of random pieces: words, statement ends, comments, every line break, wide and
    combining characters."""
    import random

    rng = random.Random(seed)
    for _ in range(n):
        yield "".join(rng.choice(PIECES) for _ in range(rng.randrange(0, 40)))
