"""Rule selection as ruff does it (codes, names, prefixes, ALL, extend-select/extend-ignore, levels)
and `--statistics`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from icelint.config import load_config
from icelint.config.selection import enabled, level, registry
from icelint.values.source import InputError
from tests.cli.test_commands import ERROR, put, run

ALL_CODES = [r.code for r in registry()]


def lvl(select=None, extend=(), ignore=(), extend_ignore=()):
    return level(select, extend, ignore, extend_ignore, {k: k for k in ("select", "extend-select", "ignore", "extend-ignore")})


def pick(*levels) -> list[str]:
    chosen = enabled([x for x in levels if x is not None])
    return [c for c in ALL_CODES if c in chosen]


def test_prefixes_all_and_specificity() -> None:
    assert pick() == ALL_CODES
    assert pick(lvl(["ICE01"])) == [c for c in ALL_CODES if c.startswith("ICE01")]
    assert pick(lvl(["ICE0"], ignore=["ICE01"])) == [c for c in ALL_CODES if c.startswith("ICE0") and not c.startswith("ICE01")]
    # the more specific selector wins, whichever list it is in
    assert pick(lvl(["ICE011"], ignore=["ICE01"])) == ["ICE011"]
    assert pick(lvl(["ALL"], ignore=["ICE0"])) == [c for c in ALL_CODES if not c.startswith("ICE0")]
    assert pick(lvl(ignore=["ALL"], extend=["drop-then-add"])) == ["ICE001"]
    # same specificity: ignore wins
    assert pick(lvl(["ICE001"], ignore=["drop-then-add"])) == []
    assert pick(lvl(["all"])) == ALL_CODES  # case-insensitive, as codes are


def test_levels_select_resets_and_extend_adds() -> None:
    file_level = lvl(["ICE001", "ICE002"], ignore=["ICE002"])
    assert pick(file_level) == ["ICE001"]
    assert pick(file_level, lvl(["ICE011"])) == ["ICE011"]  # --select replaces the file's selection
    assert pick(file_level, lvl(extend=["ICE011"])) == ["ICE001", "ICE011"]
    assert pick(file_level, lvl(ignore=["ICE001"])) == []
    assert pick(lvl(extend=["ICE001"], ignore=["ICE0"])) == ["ICE001", "ICE100"]
    assert pick(lvl(extend_ignore=["ICE1"])) == [c for c in ALL_CODES if c != "ICE100"]


@pytest.mark.parametrize("bad", ["ICE999", "ICE9", "ICEX", "nope", "ICE0012"])
def test_unknown_selector_is_an_error_naming_it(bad: str) -> None:
    with pytest.raises(InputError, match=f"select: unknown rule '{bad}'"):
        lvl([bad])


def test_config_keys(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nselect = ["ICE0"]\nextend-select = ["ICE100"]\n'
                                             'ignore = ["ICE01"]\nextend-ignore = ["ICE002"]\n')
    rules = [r.code for r in load_config(tmp_path).rules()]
    assert rules == [c for c in ALL_CODES if (c.startswith("ICE0") and not c.startswith("ICE01") and c != "ICE002") or c == "ICE100"]
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nextend-select = ["ICE7"]\n')
    with pytest.raises(InputError, match=r"`tool.icelint.extend-select`: unknown rule 'ICE7'"):
        load_config(tmp_path)


def codes(r) -> list[str]:
    assert r.returncode in (0, 1), r.stderr
    return [f["rule"] for f in json.loads(r.stdout)["findings"]]


@pytest.mark.parametrize(
    "args, expected",
    [
        (("--select", "ICE0"), ["ICE011", "ICE001"]),
        (("--select", "ICE00"), ["ICE001"]),
        (("--select", "ALL", "--ignore", "ICE01"), ["ICE001"]),
        (("--ignore", "ALL", "--extend-select", "ICE011"), ["ICE011"]),
        (("--extend-ignore", "drop-then-add"), ["ICE011"]),
        (("--select", "ICE011", "--ignore", "ICE0"), ["ICE011"]),
    ],
)
def test_cli_selectors(tmp_path: Path, args: tuple, expected: list[str]) -> None:
    put(tmp_path, "m.sql", ERROR)
    assert codes(run("check", "m.sql", "--format", "json", *args, cwd=tmp_path)) == expected


@pytest.mark.parametrize("flag", ["--select", "--extend-select", "--ignore", "--extend-ignore"])
def test_cli_unknown_selector_is_one_line_exit_2(tmp_path: Path, flag: str) -> None:
    put(tmp_path, "m.sql", ERROR)
    r = run("check", "m.sql", flag, "ICE01,ICE9", cwd=tmp_path)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr == f"icelint: error: {flag}: unknown rule 'ICE9' (see `icelint rules`)\n"


def test_config_select_overridden_by_flags(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", ERROR)
    (tmp_path / "pyproject.toml").write_text('[tool.icelint]\nselect = ["ICE01"]\n')
    assert codes(run("check", "m.sql", "--format", "json", cwd=tmp_path)) == ["ICE011"]
    assert codes(run("check", "m.sql", "--format", "json", "--extend-select", "ICE001", cwd=tmp_path)) == ["ICE011", "ICE001"]
    assert codes(run("check", "m.sql", "--format", "json", "--select", "ICE001", cwd=tmp_path)) == ["ICE001"]


# --------------------------------------------------------------------------- --statistics

STATS = ERROR + "ALTER TABLE db.events DROP COLUMN payload;\nALTER TABLE db.events ADD COLUMN payload string;\n"


def test_statistics_most_frequent_first(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", STATS + "CREATE TABLE db.u (id bigint, a string) USING iceberg;\nALTER TABLE db.u RENAME COLUMN a TO b;\n")
    r = run("check", "m.sql", "--statistics", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    rows = [line.split("\t") for line in r.stdout.splitlines()]
    assert [(n.strip(), c, name.strip(), sev) for n, c, name, sev in rows] == [
        ("2", "ICE001", "drop-then-add", "error"),
        ("2", "ICE011", "drop-column-with-data", "warning"),
        ("1", "ICE012", "rename-column", "warning"),
    ]
    j = run("check", "m.sql", "--statistics", "--format", "json", cwd=tmp_path)
    assert json.loads(j.stdout)[0] == {"code": "ICE001", "name": "drop-then-add", "severity": "error", "count": 2}


def test_statistics_honours_exit_codes_and_selection(tmp_path: Path) -> None:
    put(tmp_path, "m.sql", STATS)
    r = run("check", "m.sql", "--statistics", "--select", "ICE011", cwd=tmp_path)
    assert r.returncode == 0 and r.stdout.split("\t")[0] == "2" and "ICE001" not in r.stdout
    r = run("check", "m.sql", "--statistics", "--exit-zero", cwd=tmp_path)
    assert r.returncode == 0
