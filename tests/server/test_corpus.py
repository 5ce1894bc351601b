"""The language server reports what `icelint check --format json FILE` reports, over the rule corpus.

Every case of `fixtures/rules/` becomes a project (its files in `migrations/`, a `[tool.icelint]`
with that folder, the case's `-- metadata:` states and `-- var:` values), and every file of it is
opened in one running `icelint server` and checked by the CLI from the project's folder. Rule,
severity, range (converted to LSP's 0-based UTF-16 positions here, independently of the server)
and message with help must be the same, finding for finding.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from icelint.cli.main import main
from tests.rules.test_rule_cases import CASES
from tests.server.editor import Editor, run


def _toml(value: str) -> str:
    return json.dumps(value)  # a JSON string is a TOML basic string


def make_project(case, root: Path) -> list[Path]:
    mig = root / "migrations"
    mig.mkdir(parents=True)
    out = []
    for f in case.files:
        target = mig / (f.relative_to(case.path) if case.path.is_dir() else f.name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(f.read_bytes())
        out.append(target)
    lines = ['[tool.icelint]', 'migrations = "migrations"']
    named = [m.partition("=") for m in case.metadata]
    if named and all(sep and "/" not in name for name, sep, _ in named):
        lines.append("metadata = { " + ", ".join(f"{_toml(n)} = {_toml(p)}" for n, _, p in named) + " }")
    elif named:
        lines.append("metadata = [" + ", ".join(_toml(p if sep and "/" not in n else n + s + p) for n, s, p in named
                                               for sep in [s]) + "]")
    if case.vars:
        lines.append("[tool.icelint.vars]")
        lines += [f"{k} = {_toml(v)}" for k, v in case.vars.items()]
    (root / "pyproject.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return out


def _units(row: str, chars: int) -> int:
    return len(row[:chars].encode("utf-16-le")) // 2


def expected(path: Path, root: Path) -> list[tuple]:
    """`icelint check --format json migrations/FILE`, run from the project's folder, as LSP tuples."""
    cwd = os.getcwd()
    os.chdir(root)
    try:
        res = CliRunner().invoke(main, ["check", "--no-cache", "--format", "json", str(path.relative_to(root))])
    finally:
        os.chdir(cwd)
    assert res.exit_code in (0, 1), f"{path}: {res.output}"
    rows = path.read_text(encoding="utf-8").split("\n")
    out = []
    for f in json.loads(res.stdout)["findings"]:
        start_row, end_row = rows[f["line"] - 1], rows[min(f["end_line"], len(rows)) - 1]
        message = f["message"] + (f"\n\n{f['help']}" if f["help"] else "")
        out.append((f["rule"], f["severity"], f["line"] - 1, _units(start_row, f["column"] - 1),
                    f["end_line"] - 1, _units(end_row, f["end_column"] - 1), message))
    return sorted(out)


SEVERITY = {1: "error", 2: "warning", 3: "info"}


def test_server_diagnostics_equal_the_cli_over_the_rule_corpus(tmp_path: Path) -> None:
    projects = []
    for n, case in enumerate(CASES):
        root = tmp_path / f"p{n}"
        projects.append((case, root, make_project(case, root)))

    async def go():
        found = {}
        async with Editor(tmp_path) as ed:
            for _, _, files in projects:
                for f in files:
                    diags = await ed.open(f)
                    # the server runs in the parent folder: its paths start with the project's folder
                    prefix = f.relative_to(tmp_path).parts[0] + "/"
                    found[f] = sorted((d.code, SEVERITY[d.severity], d.range.start.line, d.range.start.character,
                                       d.range.end.line, d.range.end.character, d.message.replace(prefix, ""))
                                      for d in diags)
                    ed.close(f)
        return found

    found = run(go())
    differ, total = [], 0
    for case, root, files in projects:
        for f in files:
            want = expected(f, root)
            total += len(want)
            if found[f] != want:
                differ.append(f"{case.id}/{f.name}:\n  cli:    {want}\n  server: {found[f]}")
    assert total > 200  # the corpus has findings to compare
    assert not differ, f"{len(differ)} files differ:\n" + "\n".join(differ[:10])
