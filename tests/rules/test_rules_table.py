"""README's rules table is generated from the registry (scripts/gen_rules_table.py) and must be fresh."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

from icelint.rules import ALL_RULES

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_rules_table.py"
README = ROOT / "README.md"


def gen():
    spec = importlib.util.spec_from_file_location("gen_rules_table", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_table_lists_every_rule_in_order() -> None:
    rows = gen().table().splitlines()
    assert rows[0] == "| Code | Name | Severity | Summary |"
    body = rows[2:]
    assert len(body) == len(ALL_RULES)
    for row, rule in zip(body, ALL_RULES):
        cells = [c.strip() for c in row.strip("|").split(" | ")]
        assert cells[:3] == [rule.code, f"`{rule.name}`", rule.severity.value]
        assert cells[3].replace("\\|", "|") == rule.summary


def test_readme_block_is_fresh() -> None:
    mod = gen()
    if not README.exists() or mod.START not in README.read_text(encoding="utf-8"):
        pytest.skip("README.md has no <!-- rules-table:start --> block yet")
    text = README.read_text(encoding="utf-8")
    block = text.split(mod.START, 1)[1].split(mod.END, 1)[0]
    if not block.strip():
        pytest.skip("README.md's rules-table block is still empty: run python scripts/gen_rules_table.py --write")
    assert mod.render(text) == text, "README's rules table is stale: run python scripts/gen_rules_table.py --write"


def test_write_and_check(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n<!-- rules-table:start -->\nPLACEHOLDER-ROW\n<!-- rules-table:end -->\n\nafter\n")
    run = lambda *a: subprocess.run([sys.executable, str(SCRIPT), *a, "--readme", str(readme)], capture_output=True, text=True)  # noqa: E731
    assert run("--check").returncode == 1
    assert run("--write").returncode == 0
    text = readme.read_text()
    assert "PLACEHOLDER-ROW" not in text and text.endswith("<!-- rules-table:end -->\n\nafter\n")
    assert "| ICE001 | `drop-then-add` | error |" in text
    assert run("--check").returncode == 0
    before = readme.read_text()
    assert run("--write").returncode == 0 and readme.read_text() == before, "idempotent"


def test_missing_markers_is_an_error(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# no block\n")
    r = subprocess.run([sys.executable, str(SCRIPT), "--check", "--readme", str(readme)], capture_output=True, text=True)
    assert r.returncode == 2 and "no <!-- rules-table:start -->" in r.stderr
