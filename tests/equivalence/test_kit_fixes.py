"""A fix taken from the statements its help recipe recorded (`_fixes.from_proposed`) is the fix parsed
back out of the help's text (`_fixes.from_help`), edit for edit, over every input of
`test_help_replay.py` (rule cases, replay fixtures, story, differential cases) and over generated
drop/re-add runs: ICE001, ICE007, ICE011, ICE015 and ICE016 build their fixes the first way (the
parse of the help was 7 % of 12,500 drop/re-add pairs), and must not drift from what the help says.
"""

from __future__ import annotations

import random

import pytest

from icelint.engine.checker import lint_run
from icelint.engine.pipeline import replay_text
from icelint.rules import ALL_RULES
from icelint.rules.kit import fixes as _fixes
from tests.rules.test_fix_replay import lint_run as lint_input
from tests.rules.test_help_replay import INPUTS


@pytest.fixture
def compared(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, bool, bool]]:
    """Every `from_proposed` call, checked against `from_help` on the same text: (rule, elsewhere, a fix made)."""
    seen: list[tuple[str, bool, bool]] = []
    real = _fixes.from_proposed

    def both(ctx, proposed, applicability, message, elsewhere=False):
        fix = real(ctx, proposed, applicability, message, elsewhere=elsewhere)
        assert fix == _fixes.from_help(ctx, proposed.text, applicability, message, elsewhere=elsewhere), proposed.text
        seen.append((message.split(" ", 1)[0], elsewhere, fix is not None))
        return fix

    monkeypatch.setattr(_fixes, "from_proposed", both)
    return seen


def test_every_input_gets_the_fix_its_help_text_gives(compared: list) -> None:
    for inp in INPUTS:
        lint_input(inp, inp.files)
    made = [c for c in compared if c[2]]
    assert len(compared) >= 100 and len(made) >= 50  # the corpus has many re-adds and drops with data
    assert any(c[1] for c in made) and any(not c[1] for c in made)  # a drop renamed aside, and the statement itself
    assert {"Drop", "Rename", "Add"} <= {c[0] for c in made}  # ICE007's, ICE011's / ICE001's, ICE001's fixes


@pytest.mark.parametrize("seed", range(8))
def test_generated_drops_and_readds(compared: list, seed: int) -> None:
    rng = random.Random(seed)
    cols = ["a", "b", "c", "`x y`", "d"]
    lines = ["CREATE TABLE db.t (id bigint, a string, b int, c string, `x y` string, d struct<p: int>) USING iceberg;",
             "INSERT INTO db.t VALUES (1, 'a', 1, 'c', 'x', named_struct('p', 1));"]  # fmt: skip
    present = set(cols)
    for _ in range(12):
        name = rng.choice(cols)
        if name in present:
            many = [c for c in present if c != name and rng.random() < 0.3][:1]
            lines.append(f"ALTER TABLE db.t DROP COLUMN{'S' if many else ''} {', '.join([name, *many])};")
            present -= {name, *many}
        elif rng.random() < 0.3 and present - {"d"}:
            src = rng.choice(sorted(present - {"d"}))
            lines.append(f"ALTER TABLE db.t RENAME COLUMN {src} TO {name};")
            present = (present - {src}) | {name}
        else:
            lines.append(f"ALTER TABLE db.t ADD COLUMN {name} {rng.choice(['string', 'int', 'bigint'])};")
            present.add(name)
        if rng.random() < 0.2:
            lines.append("INSERT INTO db.t (id) VALUES (2);")
    lint_run(replay_text("\n".join(lines) + "\n", path="V1__x.sql"), ALL_RULES)
    assert compared  # every seed drops a column of a table with data (ICE011)
