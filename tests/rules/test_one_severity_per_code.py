"""One code, one severity: every finding over every fixture, rule case and differential case is
reported at its rule's default severity (the registry's), so that `icelint rules`,
`[tool.icelint.severity]` and `--select` say what a code means.

Every rule is run on every input (not only the folder's rule), without any configuration; the file
level findings (`icelint.engine.history`) are included for folder cases. Nothing is excluded.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path


from icelint.engine import suppress
from icelint.values.findings import Severity
from icelint.engine.history import check_plan
from icelint.model.metadata import parse_metadata_bytes
from icelint.plan.pending import Plan
from icelint.engine.pipeline import parse_sources, replay
from icelint.rules import ALL_RULES, BY_CODE
from icelint.values.source import SourceFile
from icelint.sources import StateOptions, load_states
from tests.rules.test_rule_cases import CASES

ROOT = Path(__file__).resolve().parents[2]


def _lint(files: list[Path], initial=None, metadata=(), iceberg_version: str = "1.10") -> list:
    parsed = parse_sources(SourceFile.read(f) for f in files)
    if initial is None:
        initial = load_states(StateOptions(metadata=list(metadata))).assign(parsed.referenced_tables, parsed.created_tables)
    return suppress.lint(replay(parsed, initial, iceberg_version=iceberg_version), list(ALL_RULES)).findings


def _inputs():
    for case in CASES:
        yield f"rules/{case.id}", lambda case=case: _lint(case.files, metadata=case.metadata, iceberg_version=case.iceberg_version) + check_plan(
            Plan(case.files, [f for f in case.files if f not in case.context]), ALL_RULES
        )
    for case in sorted(p for p in (ROOT / "fixtures" / "replay").iterdir() if (p / "migration.sql").is_file()):
        def run(case=case):
            before = {
                p.name.removesuffix(".metadata.json"): parse_metadata_bytes(p.read_bytes(), str(p))
                for p in sorted((case / "before").glob("*.metadata.json"))
            }
            return _lint([case / "migration.sql"], initial=before)

        yield f"replay/{case.name}", run
    cases = ROOT / "tests" / "differential" / "cases"
    for case, version in ((p, v) for p in sorted(cases.iterdir()) if (p / "setup.sql").is_file() for v in ("1.10", "1.9")):
        def run(case=case, version=version):
            # the setup replayed from its CREATE TABLEs stands for the metadata Spark wrote (the replay
            # reproduces it exactly: tests/replay/test_replay_fixtures.py and the differential suite check that)
            migrations = ([case / "migration.sql"] if (case / "migration.sql").is_file() else []) + sorted(
                (case / "migrations").glob("*.sql")
            )
            return _lint([case / "setup.sql", *migrations], iceberg_version=version)

        yield f"differential/{case.name} (Iceberg {version})", run
    for folder in sorted(p for p in (ROOT / "fixtures" / "story").iterdir() if p.is_dir()):
        yield f"story/{folder.name}", lambda folder=folder: _lint(sorted(folder.rglob("*.sql")))


def off_default(findings_by_input) -> dict[tuple[str, Severity], list[str]]:
    """(code, severity) → where, for findings not at their rule's default severity."""
    seen: dict[tuple[str, Severity], list[str]] = defaultdict(list)
    for name, found in findings_by_input:
        for f in found:
            if BY_CODE[f.rule].severity is not f.severity:
                seen[(f.rule, f.severity)].append(f"{name}: {Path(f.path).name}:{f.line}")
    return seen


def test_every_code_is_reported_at_its_default_severity() -> None:
    codes: set[str] = set()

    def runs():
        for name, run in _inputs():
            found = run()
            codes.update(f.rule for f in found)
            yield name, found

    wrong = off_default(runs())
    lines = [
        f"{code} is `{BY_CODE[code].severity.value}` by default but reported as `{sev.value}` in {len(where)} place(s), "
        f"e.g. {', '.join(where[:3])}"
        for (code, sev), where in sorted(wrong.items(), key=lambda kv: (kv[0][0], kv[0][1].value))
    ]
    assert not wrong, "\n".join(lines)
    assert len(codes) >= 20, f"too few codes seen ({sorted(codes)}): the inputs were not linted"


def test_a_finding_off_its_default_severity_is_caught() -> None:
    from dataclasses import replace

    sql = "CREATE TABLE db.s (id bigint, region string) USING iceberg PARTITIONED BY (region);\n"
    sql += "ALTER TABLE db.s RENAME COLUMN region TO area;\n"
    from icelint.engine.pipeline import replay_text

    found = suppress.lint(replay_text(sql, path="x.sql"), list(ALL_RULES)).findings
    assert found and not off_default([("x", found)])
    demoted = [replace(f, severity=Severity.INFO) for f in found]
    assert set(off_default([("x", demoted)])) == {(f.rule, Severity.INFO) for f in found}
