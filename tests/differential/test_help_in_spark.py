"""Every help recipe and fix of the differential cases, run in real Spark on tables with rows
(`tests/differential/help_proof.py` says how): accepted, no value lost, no value changed.

Also: the checks themselves can fail (a bare narrowing CAST is caught as `value-changed`, a drop as
`value-lost`), and the narrowing backfill keeps the values that do not fit out of the new column."""

from __future__ import annotations

import pytest

from tests.differential.harness import SetupError, load_cases
from tests.differential.help_proof import Recipe, compare, recipes, run_recipe
from tests.rules.test_help_replay import INPUTS, lint

pytestmark = pytest.mark.spark

_CASES = {c.name: c for c in load_cases()}


def _collect() -> list[tuple[str, Recipe]]:
    out = []
    for inp in INPUTS:
        name = inp.id.split("/", 1)[1]
        if inp.id.startswith("differential/") and name in _CASES:
            out += [(name, r) for r in recipes(inp, lint(inp))]
    return out


RECIPES = _collect()


def test_recipes_are_collected() -> None:
    """Not vacuous: recipes of many rules, help and fixes alike."""
    rules = {r.rule for _, r in RECIPES}
    kinds = {r.kind.split(",")[0] for _, r in RECIPES}
    assert len(RECIPES) >= 60 and len(rules) >= 8 and kinds == {"help", "fix"}, (len(RECIPES), sorted(rules), kinds)


def test_compare_catches_a_wrapped_copy_and_a_lost_value() -> None:
    before = {"db.o": ({1: "id", 2: "quantity"}, [{1: "1", 2: "3000000000"}, {1: "2", 2: "5"}])}
    wrapped = {"db.o": ({1: "id", 2: "quantity", 3: "quantity_v2"},
                        [{1: "1", 2: "3000000000", 3: "-1294967296"}, {1: "2", 2: "5", 3: "5"}])}  # fmt: skip
    guarded = {"db.o": ({1: "id", 2: "quantity", 3: "quantity_v2"},
                        [{1: "1", 2: "3000000000", 3: None}, {1: "2", 2: "5", 3: "5"}])}  # fmt: skip
    dropped = {"db.o": ({1: "id"}, [{1: "1"}, {1: "2"}])}
    assert [p.split("]")[0] for p in compare(before, wrapped, "")] == ["[value-changed"]
    assert compare(before, guarded, "") == []
    assert {p.split("]")[0] for p in compare(before, dropped, "")} == {"[value-lost"}
    assert compare(before, dropped, "ALTER TABLE db.o DROP COLUMN quantity") == []  # what the statement asked


def test_compare_allows_only_what_the_replaced_statement_asked() -> None:
    """A recipe may write the DEFAULT the statement gave into the new column, and drop what a REPLACE
    TABLE ... AS SELECT leaves out; any other value or loss is still a problem."""
    before = {"db.t": ({1: "id", 2: "extra"}, [{1: "1", 2: "9"}])}
    filled = {"db.t": ({1: "id", 2: "extra", 3: "c"}, [{1: "1", 2: "9", 3: "5"}])}
    assert compare(before, filled, "ALTER TABLE db.t ADD COLUMN c int DEFAULT 5") == []
    assert [p.split("]")[0] for p in compare(before, filled, "ALTER TABLE db.t ADD COLUMN c int DEFAULT 6")] == ["[value-changed"]
    gone = {"db.t": ({1: "id"}, [{1: "1"}])}
    assert compare(before, gone, "REPLACE TABLE db.t USING iceberg AS SELECT id FROM db.s") == []
    assert [p.split("]")[0] for p in compare(before, gone, "REPLACE TABLE db.t USING iceberg AS SELECT id, extra FROM db.s")] == ["[value-lost"]


@pytest.fixture(scope="module")
def prepared(tmp_path_factory):
    """The tables before each replaced statement, built once for all its recipes (copied back per recipe)."""
    return {"__dir__": str(tmp_path_factory.mktemp("recipes"))}


@pytest.mark.parametrize("name,recipe", RECIPES, ids=[f"{n}-{i}" for i, (n, _) in enumerate(RECIPES)])
def test_recipe_in_spark(name: str, recipe: Recipe, spark_oracle, prepared) -> None:
    try:
        problems = run_recipe(spark_oracle, _CASES[name], recipe, prepared)
    except SetupError as exc:
        pytest.fail(f"{name}: broken case setup: {exc}", pytrace=False)
    assert not problems, f"{name}: {recipe}\n" + "\n".join(problems)
