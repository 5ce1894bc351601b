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
