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


def _rule_modules() -> list[str]:
    """Every rule module: the modules of `icelint/rules/` and of its family packages (a package
    with an `analysis.py` that its rules share), but not `kit/` (the helpers every rule may use)
    nor a family's `analysis`."""
    out = []
    for m in pkgutil.walk_packages(rules_pkg.__path__, prefix="icelint.rules."):
        parts = m.name.removeprefix("icelint.rules.").split(".")
        if m.ispkg or parts[0] == "kit" or parts[-1] == "analysis":
            continue
        out.append(".".join(parts))
    return sorted(out)


RULE_MODULES = _rule_modules()
FAMILIES = sorted(m.name for m in pkgutil.iter_modules(rules_pkg.__path__) if m.ispkg and m.name != "kit")
KNOWN_UNREGISTERED: dict[str, str] = {}


def test_rule_modules_are_found_in_the_family_packages_too() -> None:
    assert "drop_column" in RULE_MODULES and "dropped_names.drop_then_add" in RULE_MODULES
    assert not any(n.startswith("kit.") or n.endswith("analysis") for n in RULE_MODULES)
    assert len(RULE_MODULES) == len(ALL_RULES)


@pytest.mark.parametrize("family", FAMILIES)
def test_a_family_is_one_analysis_and_its_rules(family: str) -> None:
    """A family package holds `analysis.py` and one module per rule; a member imports the analysis
    and the kit, never another member (its `RULE` or its helpers)."""
    import ast
    from pathlib import Path

    folder = Path(rules_pkg.__path__[0]) / family
    assert (folder / "analysis.py").is_file(), f"rules/{family}/ has no analysis.py"
    members = sorted(p.stem for p in folder.glob("*.py") if p.stem not in ("__init__", "analysis"))
    assert len(members) >= 2, f"rules/{family}/ is a family of one: make it a module"
    for name in members:
        tree = ast.parse((folder / f"{name}.py").read_text(encoding="utf-8"))
        imported = {n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        imported |= {f"{n.module}.{a.name}" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module for a in n.names}
        imported |= {a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        others = {f"icelint.rules.{family}.{m}" for m in members if m != name}
        assert not imported & others, f"rules/{family}/{name}.py imports another member: {sorted(imported & others)}"
        flat = {f"icelint.rules.{m}" for m in RULE_MODULES}
        assert not imported & flat, f"rules/{family}/{name}.py imports a rule module: {sorted(imported & flat)}"
    analysis = ast.parse((folder / "analysis.py").read_text(encoding="utf-8"))
    assert not any(isinstance(n, ast.Assign) and any(getattr(t, "id", None) == "RULE" for t in n.targets)
                   for n in analysis.body), f"rules/{family}/analysis.py defines a RULE: a rule is a module of its own"


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
    where = f"icelint/rules/{name.replace('.', '/')}.py"
    assert isinstance(rule, Rule), f"{where} defines no RULE"
    assert rule.doc == mod.__doc__, f"{rule.code}: the rule doc is not its module docstring"
    assert any(r is rule for r in ALL_RULES), f"{where} ({rule.code}) is not in ALL_RULES"


def test_every_registered_rule_has_a_module() -> None:
    assert {(r.check or r.check_files).__module__.removeprefix("icelint.rules.") for r in ALL_RULES} <= set(RULE_MODULES)


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


# ---------------------------------------------------------------------------- no stub rule


def _stub_bodies(source: str) -> list[str]:
    """The functions of a module whose body (docstring aside) does nothing: `pass`, `...`, or returns
    or yields an empty or no value (`return iter(())`, `return []`, `yield from ()`)."""
    import ast

    def empty(node) -> bool:
        if node is None:
            return True
        if isinstance(node, ast.Constant) and node.value in (None, Ellipsis):
            return True
        if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and not node.elts:
            return True
        if isinstance(node, ast.Dict) and not node.keys:
            return True
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("iter", "list", "tuple", "set", "frozenset", "dict"):
            return not node.args or (len(node.args) == 1 and empty(node.args[0]))
        return False

    out = []
    for fn in ast.walk(ast.parse(source)):
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        body = fn.body[1:] if fn.body and isinstance(fn.body[0], ast.Expr) and isinstance(fn.body[0].value, ast.Constant) and isinstance(fn.body[0].value.value, str) else fn.body
        if not body:
            out.append(fn.name)  # a docstring alone
            continue
        if len(body) != 1:
            continue
        st = body[0]
        if isinstance(st, ast.Pass) or (isinstance(st, ast.Expr) and isinstance(st.value, ast.Constant) and st.value.value is Ellipsis):
            out.append(fn.name)
        elif isinstance(st, ast.Return) and empty(st.value):
            out.append(fn.name)
        elif isinstance(st, ast.Expr) and isinstance(st.value, (ast.YieldFrom, ast.Yield)) and empty(st.value.value):
            out.append(fn.name)
    return out


def test_the_stub_finder_finds_stubs() -> None:
    stubs = """
def a(ctx):
    \"\"\"Nothing per statement.\"\"\"
    return iter(())
def b(ctx):
    return []
def c(ctx):
    yield from ()
def d(ctx):
    pass
def e(ctx):
    \"\"\"Only a docstring.\"\"\"
def f(ctx):
    return (x for x in ctx)
def g(ctx):
    if ctx:
        return ()
    return [1]
"""
    assert _stub_bodies(stubs) == ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize("name", RULE_MODULES)
def test_no_stub_rule(name: str) -> None:
    """Every rule has a check (over statements or over files) with logic of its own: no function of a
    rule module is a stub that leaves the work to the engine."""
    from pathlib import Path

    mod = importlib.import_module(f"icelint.rules.{name}")
    rule = mod.RULE
    assert (rule.check is None) != (rule.check_files is None), f"{rule.code}: one check, over statements or over files"
    if rule.check_files is not None:
        assert rule.stage is not None and rule.triggers == frozenset(), f"{rule.code}: a rule over files has a stage"
    assert _stub_bodies(Path(mod.__file__).read_text(encoding="utf-8")) == [], f"{rule.code}: a stub function"


def test_every_message_is_one_sentence() -> None:
    """A finding's message is one sentence for a data engineer (the remedy goes in `help`): no
    sentence break in icelint's own words, over every finding of the rule corpus. Spark's and
    Iceberg's own messages, quoted after `Spark:`, `Iceberg:`, an error class or a reader's error
    code, may hold several."""
    from tests.corpus import corpus_runs, lint_files

    quoted = re.compile(r"(\[[A-Z_]+\].*|(Spark|Iceberg)( rejects this \w+)?: .*|Code: \d+.*|\w+Error: .*|'[^']*'|\"[^\"]*\")")
    sentence_break = re.compile(r"[a-z0-9`)\]]\. +[A-Z]")
    seen = 0
    for files in corpus_runs():
        for f in lint_files(files)[1]:
            seen += 1
            own = quoted.sub("…", f.message)
            assert "\n" not in f.message and not sentence_break.search(own), (f.rule, f.message)
    assert seen > 1000
