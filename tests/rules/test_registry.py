"""The registry: stable unique codes and names, every rule module registered, `icelint explain` for each."""

from __future__ import annotations

import importlib
import pkgutil
import re
import subprocess
import sys

import pytest

import icelint.rules as rules_pkg
from icelint.values.findings import Severity
from icelint.rules import ALL_RULES, BY_CODE, BY_NAME, get
from icelint.rules.kit.base import Rule

CODE = re.compile(r"^ICE\d{3}$")
KEBAB = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")


def test_codes_are_ice_plus_three_digits_and_unique() -> None:
    codes = [r.code for r in ALL_RULES]
    assert all(CODE.match(c) for c in codes), codes
    assert len(codes) == len(set(codes))
    assert codes == sorted(codes), "ALL_RULES is in code order"


def test_names_are_kebab_case_and_unique() -> None:
    names = [r.name for r in ALL_RULES]
    assert all(KEBAB.match(n) for n in names), names
    assert len(names) == len(set(names))
    assert not set(names) & {c.lower() for c in BY_CODE}, "a name must not look like a code"


def test_severities_are_valid() -> None:
    assert all(isinstance(r.severity, Severity) for r in ALL_RULES)


RULE_MODULES = sorted(m.name for m in pkgutil.iter_modules(rules_pkg.__path__) if not m.ispkg)  # kit/: the helpers rules share
KNOWN_UNREGISTERED: dict[str, str] = {}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(n, marks=[pytest.mark.xfail(strict=True, reason=KNOWN_UNREGISTERED[n])] if n in KNOWN_UNREGISTERED else [])
        for n in RULE_MODULES
    ],
)
def test_every_rule_module_is_registered(name: str) -> None:
    mod = importlib.import_module(f"icelint.rules.{name}")
    rule = getattr(mod, "RULE", None)
    assert isinstance(rule, Rule), f"icelint/rules/{name}.py defines no RULE"
    assert rule.doc == mod.__doc__, f"{rule.code}: the rule doc is not its module docstring"
    assert any(r is rule for r in ALL_RULES), f"icelint/rules/{name}.py ({rule.code}) is not in ALL_RULES"


def test_every_registered_rule_has_a_module() -> None:
    assert {r.check.__module__.rsplit(".", 1)[-1] for r in ALL_RULES} <= set(RULE_MODULES)


def test_lookup_by_code_and_name() -> None:
    for r in ALL_RULES:
        assert get(r.code) is r and get(r.code.lower()) is r and get(r.name) is r and get(r.name.upper()) is r
        assert BY_CODE[r.code] is r and BY_NAME[r.name] is r
    assert get("ICE999") is None and get("no-such-rule") is None


def icelint(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "icelint", *args], capture_output=True, text=True)


@pytest.mark.parametrize("rule", ALL_RULES, ids=[r.code for r in ALL_RULES])
def test_explain_by_code_and_name(rule: Rule) -> None:
    by_code = icelint("explain", rule.code)
    assert by_code.returncode == 0, by_code.stderr
    assert by_code.stdout.startswith(f"# {rule.code} {rule.name} ({rule.severity.value})")
    for h in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert h in by_code.stdout
    assert "\x1b[" not in by_code.stdout, "no colour when piped"
    by_name = icelint("explain", rule.name)
    assert by_name.returncode == 0 and by_name.stdout == by_code.stdout


def test_explain_unknown_rule_is_a_usage_error() -> None:
    r = icelint("explain", "ICE999")
    assert r.returncode == 2 and "unknown rule" in r.stderr and "Traceback" not in r.stderr


def test_rules_command_lists_every_rule() -> None:
    r = icelint("rules")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert len(lines) == len(ALL_RULES)
    for line, rule in zip(lines, ALL_RULES):
        assert line.split()[:3] == [rule.code, rule.name, rule.severity.value]
        assert line.endswith(rule.summary)


def test_rules_command_json() -> None:
    import json

    r = icelint("rules", "--format", "json")
    data = json.loads(r.stdout)
    assert [d["code"] for d in data] == [x.code for x in ALL_RULES]
    assert all(set(d) == {"code", "name", "severity", "summary"} for d in data)
