"""`icelint check --help` lists its options in sections, as ruff does, and loses none."""

from __future__ import annotations

import re

from click.testing import CliRunner

from icelint.cli.main import main
from icelint.cli.help import OTHER, SECTIONS, section_of


def _help(*args: str) -> str:
    r = CliRunner().invoke(main, [*args, "--help"])
    assert r.exit_code == 0, r.output
    return r.output


def test_check_help_has_the_sections_in_order() -> None:
    text = _help("check")
    titles = [line[:-1] for line in text.splitlines() if line and not line.startswith(" ") and line.endswith(":")]
    expected = [t for t, _ in SECTIONS] + [OTHER]
    assert titles == [t for t in expected if t in titles]
    assert {"Rule selection", "File selection", "State", "Output", "Fixes"} <= set(titles)


def test_every_check_option_is_listed_once_under_its_section() -> None:
    text = _help("check")
    section = None
    placed: dict[str, str] = {}
    for line in text.splitlines():
        if line and not line.startswith(" ") and line.endswith(":"):
            section = line[:-1]
            continue
        m = re.match(r"  (?:-\w, )?(--[\w-]+)", line)
        if m and section is not None:
            assert m.group(1) not in placed, f"{m.group(1)} listed twice"
            placed[m.group(1)] = section
    check = main.commands["check"]
    for param in check.params:
        longs = [o for o in param.opts if o.startswith("--")]
        if not longs:
            continue
        assert longs[0] in placed, f"{longs[0]} missing from --help"
        assert placed[longs[0]] == section_of(param.name)
    assert placed["--select"] == "Rule selection"
    assert placed["--metadata"] == "State"
    assert placed["--fix"] == "Fixes"
    assert placed["--format"] == "Output"
    assert placed["--since"] == "File selection"


def test_a_command_with_few_options_keeps_clicks_layout() -> None:
    text = _help("rules")
    assert "Options:" in text
