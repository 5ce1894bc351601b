"""What the shortcuts of `checker.lint_run` rest on."""

from __future__ import annotations

from icelint.values import changes as ch


def test_write_data_has_no_subclass() -> None:
    """lint_run looks for a row-writing change only when the classes of the step's changes (its trigger
    kinds) include WriteData itself: a subclass of it would be missed there."""
    assert ch.WriteData.__subclasses__() == []
