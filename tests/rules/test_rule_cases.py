"""Per-rule case files: lint each with only its folder's rule and compare findings with the markers.

Layout: `fixtures/rules/<CODE>/<case>.sql`, or a folder `fixtures/rules/<CODE>/<case>/` holding several
files read in migration-tool order (`V1__a.sql`, `V2__b.sql`, ...), as `icelint check <folder>` reads them
(without a `-- metadata:` state, each file of a folder is a deployment: tables hold data after it).

Markers, in SQL comments:
- `-- expect: ICE001` at the end of the line where a finding must start (the finding's `line`); several
  on one line are comma-separated; a severity may follow the code: `-- expect: ICE003 warning`, and
  then the finding's severity must match too. Without a severity any severity matches.
- `-- metadata: ../../replay/37_setup_old_partition_spec/before/db.sales.metadata.json` (relative to the
  file; `db.t=path` allowed): the table state before the file, as `--metadata` gives it to the CLI.
- `-- xfail: reason`: a known icelint bug; the case must fail (strict), so a fix shows up as XPASS.
- `-- var: name=value`: a placeholder value, as `--var name=value` gives it to the CLI.
- `-- enable: ICE001, ICE011`: also run these rules (for ICE100, whose findings depend on the others);
  only the folder's rule is compared with the markers.
- `-- iceberg-version: 1.9`: the Iceberg runtime the verdicts are for, as `--iceberg-version 1.9` sets it
  (default 1.10).
- `-- context`: this file (of a folder case) is applied history, not under review: as a file of the
  `migrations` folder that `icelint check` was not asked about (its findings are not compared).
- `-- base: V1__create.base`: git history for `--since`: the file had that file's content (marker lines included) at the
  merge-base (a tag `base` of a throw-away repository); files without it and not `-- context` are new.
  The plan's file-level findings (`icelint.engine.history`) are compared like the others.

Findings are what `icelint check` reports (`icelint.engine.run`, the entry every door calls): rules,
then inline suppressions (`icelint.engine.suppress`), then the files' own history (`icelint.engine.history`).

A marker with no finding and a finding with no marker both fail, with the difference listed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from icelint.plan.discovery import discover
from icelint.rules import ALL_RULES, get
from icelint.sources import StateOptions

ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = ROOT / "fixtures" / "rules"

EXPECT = re.compile(r"--\s*expect:\s*(?P<items>[^-]+?)\s*$")
METADATA = re.compile(r"^\s*--\s*metadata:\s*(?P<spec>\S+)\s*$")
XFAIL = re.compile(r"^\s*--\s*xfail:\s*(?P<reason>.+?)\s*$")
ENABLE = re.compile(r"^\s*--\s*enable:\s*(?P<codes>[A-Za-z0-9_, -]+?)\s*$")
VAR = re.compile(r"^\s*--\s*var:\s*(?P<name>[^=\s]+)=(?P<value>.*?)\s*$")
VERSION = re.compile(r"^\s*--\s*iceberg-version:\s*(?P<version>\S+)\s*$")
CONTEXT = re.compile(r"^\s*--\s*context\s*$")
BASE = re.compile(r"^\s*--\s*base:\s*(?P<file>\S+)")
ITEM = re.compile(r"^(?P<code>ICE\d{3})(?:\s+(?P<severity>error|warning|info))?$")


@dataclass
class Case:
    code: str
    path: Path  # a .sql file or a folder of them
    files: list[Path] = field(default_factory=list)
    metadata: list[str] = field(default_factory=list)
    expected: list[tuple[str, int, str, str | None]] = field(default_factory=list)  # file, line, code, severity
    xfail: str | None = None
    enable: list[str] = field(default_factory=list)
    vars: dict[str, str] = field(default_factory=dict)
    context: list[Path] = field(default_factory=list)  # files that are applied history
    base: dict[Path, Path] = field(default_factory=dict)  # file → its content at the git merge-base
    iceberg_version: str = "1.10"  # `-- iceberg-version:`

    @property
    def id(self) -> str:
        return f"{self.code}/{self.path.name}"


def _metadata_arg(spec: str, base: Path) -> str:
    name, sep, rel = spec.partition("=")
    if sep and "/" not in name:
        return f"{name}={(base / rel).resolve()}"
    return str((base / spec).resolve())


def load_case(code: str, path: Path) -> Case:
    case = Case(code, path)
    case.files = [Path(p) for p in discover([str(path)])] if path.is_dir() else [path]
    for f in case.files:
        for n, text in enumerate(f.read_text(encoding="utf-8").splitlines(), start=1):
            if m := METADATA.match(text):
                case.metadata.append(_metadata_arg(m.group("spec"), f.parent))
            if m := XFAIL.match(text):
                case.xfail = m.group("reason")
            if m := VAR.match(text):
                case.vars[m.group("name")] = m.group("value")
            if CONTEXT.match(text):
                case.context.append(f)
            if m := VERSION.match(text):
                case.iceberg_version = m.group("version")
            if m := BASE.match(text):
                case.base[f] = f.parent / m.group("file")
            if m := ENABLE.match(text):
                case.enable += [c.strip() for c in m.group("codes").split(",") if c.strip()]
            if m := EXPECT.search(text):
                for raw in m.group("items").split(","):
                    item = ITEM.match(raw.strip())
                    assert item, f"{f}:{n}: bad expect marker item {raw.strip()!r}"
                    case.expected.append((f.name, n, item.group("code"), item.group("severity")))
    return case


def all_cases() -> list[Case]:
    out = []
    for rule_dir in sorted(p for p in RULES_DIR.iterdir() if p.is_dir()):
        for p in sorted(rule_dir.iterdir()):
            if p.suffix in (".sql", ".py") or p.is_dir():
                out.append(load_case(rule_dir.name, p))
    return out


CASES = all_cases()


def lint_case(case: Case):
    """The folder rule's findings as `icelint check` reports them: `icelint.engine.run`, the one entry.

    The case is copied into a throw-away folder (so that the repository's own git history says
    nothing about it): a file alone, or a folder checked as a whole, outside git (every file is its
    own deployment); a folder with `-- context` / `-- base:` files in a git repository whose history
    holds them, the other files new (one batch), as the pre-commit hook and `--since base` see them."""
    import subprocess
    import tempfile

    from icelint.config import Config
    from icelint.engine import CheckRequest, run

    rule = get(case.code)
    assert rule is not None, f"fixtures/rules/{case.code}: no such rule"
    extra = [get(c) for c in case.enable]
    assert all(extra), f"{case.id}: unknown rule in `-- enable:` {case.enable}"
    pending = [f for f in case.files if f not in case.context]
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        copies = {f: root / f.name for f in case.files}
        history = bool(case.context or case.base)

        def git(*args: str) -> None:
            subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                           capture_output=True)

        if history:
            git("init", "-q")
            for f, c in copies.items():
                if f in case.base or f in case.context:
                    c.write_text((case.base.get(f) or f).read_text(encoding="utf-8"), encoding="utf-8")
            git("add", "-A")
            git("commit", "-q", "--allow-empty", "-m", "base")
            git("tag", "base")
        for f, c in copies.items():
            c.write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
        if history:
            paths = tuple(str(copies[f]) for f in pending)
        else:
            paths = (str(root),) if case.path.is_dir() else (str(copies[case.path]),)
        cfg = Config(root=root, migrations=root if case.path.is_dir() else None).with_flags(
            select=[case.code, *case.enable], iceberg_version=case.iceberg_version)
        request = CheckRequest(paths=paths, config=cfg, state=StateOptions(metadata=case.metadata),
                               vars=dict(case.vars), since="base" if case.base else None, cwd=root)
        found = run(request).findings
    names = {f.name for f in pending}
    return [f for f in found if f.rule == case.code and Path(f.path).name in names]


def _params():
    for c in CASES:
        marks = [pytest.mark.xfail(strict=True, reason=c.xfail)] if c.xfail else []
        yield pytest.param(c, id=c.id, marks=marks)


def compare(case: Case, findings) -> list[str]:
    """The differences between findings and markers, one line each (empty: they agree)."""
    found = {(Path(f.path).name, f.line, f.rule, f.severity.value): f for f in findings}

    def covers(e, g) -> bool:
        return g[:3] == e[:3] and (e[3] is None or g[3] == e[3])

    out = []
    for e in case.expected:
        if not any(covers(e, g) for g in found):
            out.append(f"  missing     {e[0]}:{e[1]}: {e[2]}{' ' + e[3] if e[3] else ''}")
    for g in sorted(found):
        if not any(covers(e, g) for e in case.expected):
            out.append(f"  unexpected  {g[0]}:{g[1]}: {g[2]} {g[3]}: {found[g].message[:160]}")
    return out


@pytest.mark.parametrize("case", list(_params()))
def test_rule_case(case: Case) -> None:
    diff = compare(case, lint_case(case))
    if diff:
        pytest.fail(f"{case.id}: findings differ from the `-- expect:` markers\n" + "\n".join(diff), pytrace=False)


def test_harness_reports_missing_unexpected_and_severity(tmp_path: Path) -> None:
    sql = tmp_path / "c.sql"
    sql.write_text(
        "CREATE TABLE db.e (id bigint, payload string) USING iceberg;\n"
        "INSERT INTO db.e VALUES (1, 'a');\n"
        "ALTER TABLE db.e DROP COLUMN payload; -- expect: ICE001\n"
        "ALTER TABLE db.e ADD COLUMN payload string; -- expect: ICE001 warning\n"
    )
    case = load_case("ICE001", sql)
    diff = compare(case, lint_case(case))
    assert any("missing     c.sql:3: ICE001" in d for d in diff)
    assert any("missing     c.sql:4: ICE001 warning" in d for d in diff)
    assert any("unexpected  c.sql:4: ICE001 error" in d for d in diff)


def test_every_rule_has_cases() -> None:
    with_cases = {c.code for c in CASES}
    missing = sorted(r.code for r in ALL_RULES if r.code not in with_cases)
    assert not missing, f"rules without case files in fixtures/rules/: {missing}"


def test_every_rule_has_positive_and_negative_cases() -> None:
    """Each rule folder has at least one case that must fire and one that must stay silent."""
    problems = []
    for r in ALL_RULES:
        cases = [c for c in CASES if c.code == r.code and not c.xfail]
        if not any(c.expected for c in cases):
            problems.append(f"{r.code}: no case with an expect marker")
        if not any(not c.expected for c in cases):
            problems.append(f"{r.code}: no negative case (a file without markers)")
    assert not problems, "\n".join(problems)


def test_markers_only_name_the_folder_rule() -> None:
    wrong = [(c.id, e) for c in CASES for e in c.expected if e[2] != c.code]
    assert not wrong, f"markers naming another rule than their folder (only the folder's rule is run): {wrong}"
