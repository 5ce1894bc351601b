"""`[tool.icelint]`: discovery from the current directory upwards, every key, flags winning, bad files."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from tests.ci.conftest import CLEAN, CREATE, DROP, NARROW, READD, codes, icelint, write

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


@pytest.fixture
def project(tmp_path: Path) -> Path:
    write(tmp_path, "migrations/V1__create.sql", CREATE)
    write(tmp_path, "migrations/V2__drop.sql", DROP)  # ICE011 warning
    write(tmp_path, "migrations/V3__readd.sql", READD + NARROW)  # ICE001 + ICE002 errors
    return tmp_path


def config(base: Path, body: str, name: str = "pyproject.toml") -> None:
    write(base, name, '[project]\nname = "demo"\n\n[tool.icelint]\n' + body)


def run(base: Path, *args: str, cwd: Path | None = None):
    return icelint("check", *args, "--format", "json", cwd=cwd or base)


def test_found_by_walking_up_and_migrations_is_the_default_path(project: Path) -> None:
    config(project, 'migrations = "migrations"\nselect = ["ICE002"]\n')
    deep = project / "migrations" / "deeper"
    deep.mkdir()
    write(deep.parent.parent, "sub/pyproject.toml", '[project]\nname = "no-icelint-table"\n')  # skipped: no [tool.icelint]
    for cwd in (project, deep, project / "sub"):
        r = icelint("check", "--format", "json", cwd=cwd)
        assert r.code == 1, r.err
        assert codes(r) == [("ICE002", "V3__readd.sql", 2)]
        assert r.json()["summary"]["files"] == 3


def test_no_config_every_rule(project: Path) -> None:
    r = run(project, "migrations")
    assert sorted(c[0] for c in codes(r)) == ["ICE001", "ICE002", "ICE011"]


def test_ignore_severity_per_file_ignores_fail_on(project: Path) -> None:
    config(project, 'ignore = ["illegal-type-change"]\n')
    assert sorted(c[0] for c in codes(run(project, "migrations"))) == ["ICE001", "ICE011"]

    config(project, 'select = ["ICE011"]\n[tool.icelint.severity]\nICE011 = "error"\n')
    r = run(project, "migrations")
    assert r.code == 1 and [f["severity"] for f in r.json()["findings"]] == ["error"]

    config(project, 'select = ["ICE011"]\n')
    assert run(project, "migrations").code == 0  # a warning does not fail by default
    config(project, 'select = ["ICE011"]\nfail-on = "warning"\n')
    assert run(project, "migrations").code == 1

    config(project, '[tool.icelint.per-file-ignores]\n"migrations/V3__*.sql" = ["ICE001"]\n"V2__drop.sql" = ["drop-column-with-data"]\n')
    assert codes(run(project, "migrations")) == [("ICE002", "V3__readd.sql", 2)]
    config(project, '[tool.icelint.per-file-ignores]\n"**/V3*" = ["ICE001", "ICE002"]\n')
    assert codes(run(project, "migrations")) == [("ICE011", "V2__drop.sql", 1)]


def test_flags_win(project: Path) -> None:
    config(project, 'select = ["ICE002"]\nfail-on = "warning"\nmigrations = "nowhere"\n')
    r = run(project, "migrations", "--select", "ICE011", "--migrations", "migrations")
    assert codes(r) == [("ICE011", "V2__drop.sql", 1)] and r.code == 1
    r = run(project, "migrations", "--select", "ICE011", "--fail-on", "error", "--migrations", "migrations")
    assert r.code == 0


def test_explicit_config_file(project: Path) -> None:
    config(project, 'select = ["ICE001"]\n', name="ci/icelint.toml")
    r = run(project, "migrations", "--config", "ci/icelint.toml")
    assert codes(r) == [("ICE001", "V3__readd.sql", 1)]


def test_an_icelint_toml_without_its_table_is_an_error_naming_it(project: Path) -> None:
    write(project, "migrations/icelint.toml", 'select = ["ICE001"]\n')  # keys at the top level: never silently unread
    r = run(project, "migrations")
    assert r.code == 2 and "Traceback" not in r.err
    assert r.err.strip().splitlines() == [r.err.strip()] and "icelint.toml: no [tool.icelint] table" in r.err


def test_show_config_prints_the_effective_configuration(project: Path) -> None:
    config(project, 'migrations = "migrations"\nselect = ["drop-then-add", "ICE011"]\nfail-on = "warning"\n'
                    'catalog = "prod"\nmetadata = { "db.events" = "snap/e.json" }\n'
                    '[tool.icelint.severity]\ndrop-column-with-data = "error"\n[tool.icelint.per-file-ignores]\n"V1__*" = ["ICE001"]\n')
    r = icelint("check", "--show-config", "--fail-on", "info", cwd=project / "migrations")
    assert r.code == 0, r.err
    shown = tomllib.loads(r.out)["tool"]["icelint"]
    assert shown["migrations"] == "."  # relative to the current directory
    assert shown["select"] == ["ICE001", "ICE011"]
    assert shown["fail-on"] == "info"  # the flag won
    assert shown["severity"] == {"ICE011": "error"}
    assert shown["per-file-ignores"] == {"V1__*": ["ICE001"]}
    assert shown["catalog"] == "prod" and shown["metadata"] == {"db.events": "snap/e.json"}
    assert "pyproject.toml" in r.out.splitlines()[0]
    j = icelint("check", "--show-config", "--format", "json", cwd=project)
    assert json.loads(j.out)["select"] == ["ICE001", "ICE011"]
    assert icelint("check", "--show-config", cwd=project).out == icelint("check", "--show-config", cwd=project).out


@pytest.mark.parametrize(
    "body, message",
    [
        ('colour = "always"\n', "unknown key `tool.icelint.colour`"),
        ('fail_on = "warning"\n', "unknown key `tool.icelint.fail_on` (did you mean `fail-on`?)"),
        ('select = "ICE001"\n', "`tool.icelint.select` must be a list of strings, not a string ('ICE001')"),
        ("select = [1]\n", "`tool.icelint.select` must be a list of strings, not a list holding an integer (1)"),
        ("fail-on = 1\n", "`tool.icelint.fail-on` must be a string, not an integer (1)"),
        ('fail-on = "fatal"\n', "`tool.icelint.fail-on` must be one of error, warning, info, not 'fatal'"),
        ('order = "random"\n', "`tool.icelint.order` must be one of flyway, natural, lexicographic"),
        ('select = ["ICE001", "ICE999"]\n', "`tool.icelint.select`: unknown rule 'ICE999'"),
        ('ignore = ["no-such-rule"]\n', "`tool.icelint.ignore`: unknown rule 'no-such-rule'"),
        ('[tool.icelint.severity]\nICE011 = "fatal"\n', "`tool.icelint.severity`: `ICE011` must be one of error, warning, info"),
        ('[tool.icelint.severity]\nICE999 = "error"\n', "`tool.icelint.severity`: unknown rule 'ICE999'"),
        ('[tool.icelint.per-file-ignores]\n"*.sql" = "ICE001"\n', "`tool.icelint.per-file-ignores` must be a table of lists of strings"),
        ("metadata = 3\n", "`tool.icelint.metadata` must be a table of strings or a list of strings, not an integer (3)"),
        ("metadata = [1]\n", "`tool.icelint.metadata` must be a table of strings or a list of strings, not a list holding an integer (1)"),
        ('select = ["ICE001"\n', "invalid TOML"),
    ],
)
def test_bad_configuration_is_one_line_and_exit_2(project: Path, body: str, message: str) -> None:
    config(project, body)
    for args in (("migrations",), ("--show-config",)):
        r = icelint("check", *args, cwd=project / "migrations")
        assert r.code == 2, (r.out, r.err)
        assert r.out == ""
        lines = r.err.strip().splitlines()
        assert len(lines) == 1, r.err
        # the file named relative to the working directory (the migrations folder), as findings name files
        assert lines[0].startswith("icelint: error: ../pyproject.toml: ") and str(project) not in lines[0]
        assert message in lines[0], lines[0]


def test_unknown_rule_in_flags_is_exit_2(project: Path) -> None:
    r = icelint("check", "migrations", "--select", "ICE001,ICE999", cwd=project)
    assert r.code == 2 and r.err.strip() == "icelint: error: --select: unknown rule 'ICE999' (see `icelint rules`)"


def test_migrations_folder_missing_is_exit_2(project: Path) -> None:
    config(project, 'migrations = "nope"\n')
    r = icelint("check", cwd=project)
    assert r.code == 2 and len(r.err.strip().splitlines()) == 1 and "nope" in r.err


def test_no_paths_and_no_migrations_is_exit_2(tmp_path: Path) -> None:
    r = icelint("check", cwd=tmp_path)
    assert r.code == 2 and "no paths given" in r.err


def test_clean_folder_exit_0(tmp_path: Path) -> None:
    write(tmp_path, "m/V1__c.sql", CREATE + CLEAN)
    config(tmp_path, 'migrations = "m"\n')
    r = icelint("check", cwd=tmp_path)
    assert r.code == 0 and "Checked 1 file, 3 statements: 0 errors, 0 warnings." in r.out
