"""A newcomer follows one rule end to end in at most five files (CONTRIBUTING.md, "Following a rule").

The rule's reading list is what its reader opens beyond the documented interface every rule speaks
(`icelint/rules/kit/`: what a rule sees and the helpers rules share; `icelint/values/`: changes,
findings, fixes; `icelint/model/`: Iceberg's types, schemas and table metadata, not its storage in
`model/storage/`): the rule's own code (its module, and its family's `analysis.py`) and every other
icelint module that code imports (at module level or inside a function). At most three, so that
with the rule's fixtures (`fixtures/rules/<CODE>/`) and its test (`tests/rules/test_rule_cases.py`)
a rule is five files. A rule never imports another rule, nor the registry.
"""

from __future__ import annotations

import pytest

from tests.rules.test_registry import RULE_MODULES
from tests.test_architecture import import_graph

MAX_FILES = 3  # the rule's own code and what it imports from outside the kit, values and model
GRAPH = import_graph()


def interface(module: str) -> bool:
    """Whether `module` is part of what every rule speaks (read once, not per rule)."""
    if module.startswith("icelint.model.storage"):
        return False
    return module.startswith(("icelint.rules.kit", "icelint.values", "icelint.model"))


def reading_list(rule_module: str, graph: dict[str, set[str]]) -> list[str]:
    """The files a reader opens to follow the rule in `icelint.rules.<rule_module>`."""
    own = [f"icelint.rules.{rule_module}"]
    if "." in rule_module:  # a family's member: the family's analysis is its code too
        own.append(f"icelint.rules.{rule_module.rsplit('.', 1)[0]}.analysis")
    imported = {d for m in own for d in graph[m] if d not in own and not interface(d)}
    return own + sorted(imported)


def test_the_reading_list_counts_the_analysis_and_what_lies_outside_the_interface() -> None:
    graph = {
        "icelint.rules.fam.a": {"icelint.rules.fam.analysis", "icelint.rules.kit.base", "icelint.values.findings"},
        "icelint.rules.fam.analysis": {"icelint.model.types", "icelint.model.storage.chain", "icelint.replay.errors"},
    }
    assert reading_list("fam.a", graph) == [
        "icelint.rules.fam.a", "icelint.rules.fam.analysis", "icelint.model.storage.chain", "icelint.replay.errors",
    ]  # fmt: skip


@pytest.mark.parametrize("name", RULE_MODULES)
def test_a_rule_is_at_most_five_files(name: str) -> None:
    files = reading_list(name, GRAPH)
    assert len(files) <= MAX_FILES, (
        f"icelint/rules/{name.replace('.', '/')}.py: following it means opening {files} besides the kit; move what "
        f"rules share into icelint/rules/kit/ (documented there) or keep it in the rule"
    )


@pytest.mark.parametrize("name", RULE_MODULES)
def test_a_rule_imports_no_other_rule(name: str) -> None:
    own = {f"icelint.rules.{name}"}
    if "." in name:
        own.add(f"icelint.rules.{name.rsplit('.', 1)[0]}.analysis")
    rules = {f"icelint.rules.{m}" for m in RULE_MODULES} | {"icelint.rules"}
    family_analyses = {d for d in (d for m in own for d in GRAPH[m]) if d.endswith(".analysis") and d not in own}
    imported = {d for m in own for d in GRAPH[m]}
    assert not imported & (rules - own), f"{name} imports another rule: {sorted(imported & (rules - own))}"
    assert not family_analyses, f"{name} imports another family's analysis: {sorted(family_analyses)}"
