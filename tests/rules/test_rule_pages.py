"""`docs/rules/<CODE>.md` is generated from the registry (scripts/gen_rule_docs.py) and must be fresh."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

from icelint.config.selection import registry

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gen_rule_docs.py"


def gen():
    spec = importlib.util.spec_from_file_location("gen_rule_docs", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(mod)
    return mod


def test_pages_are_fresh() -> None:
    found = gen().problems()
    assert not found, "rule pages out of date (run python scripts/gen_rule_docs.py --write):\n" + "\n".join(found)


def test_every_rule_has_a_page_with_its_doc() -> None:
    mod = gen()
    pages = mod.pages()
    for r in registry():
        text = pages[f"{r.code}.md"]
        assert text.splitlines()[2] == f"# {r.code} `{r.name}`"
        assert "## What it does" in text and r.summary in text
        assert f"[{r.code}]({r.code}.md)" in pages["README.md"]


def test_check_detects_missing_stale_and_extra(tmp_path: Path) -> None:
    mod = gen()
    assert mod.main(["--write", "--dir", str(tmp_path)]) == 0
    assert mod.problems(tmp_path) == []
    first = sorted(tmp_path.glob("ICE*.md"))[0]
    first.unlink()
    (tmp_path / "ICE002.md").write_text("old\n")
    (tmp_path / "ICE999.md").write_text("gone\n")
    found = mod.problems(tmp_path)
    assert any(first.name in p and "missing" in p for p in found)
    assert any("ICE002.md: stale" in p for p in found)
    assert any("ICE999.md: no such rule" in p for p in found)
    r = subprocess.run([sys.executable, str(SCRIPT), "--check", "--dir", str(tmp_path)], capture_output=True, text=True)
    assert r.returncode == 1 and "--write" in r.stderr
    mod.main(["--write", "--dir", str(tmp_path)])
    assert mod.problems(tmp_path) == [] and not (tmp_path / "ICE999.md").exists()
