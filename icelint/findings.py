"""Findings: what the rules report, in the form every reporter renders."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from enum import Enum
from functools import lru_cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from icelint.fix import Fix
    from icelint.model.stats import Impact


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANKS[self._value_]  # asked once per finding by the exit code: no dict built per call


_RANKS = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True)
class Finding:
    """One problem found: the rule, where (1-based line and column, end exclusive), the message, the help and the fix."""

    rule: str  # ICE001
    name: str  # drop-then-add
    severity: Severity
    path: str
    line: int
    column: int
    end_line: int
    end_column: int  # of the last character (inclusive, like Span); the JSON and SARIF outputs are exclusive
    message: str
    help: str | None = None
    table: str | None = None
    column_path: str | None = None
    field_id: int | None = None
    statement_index: int = 0
    suppressed_reason: str | None = field(default=None, compare=False)
    fix: Fix | None = field(default=None, compare=False)  # the safe alternative as edits (icelint/fix.py)
    impact: Impact | None = field(default=None, compare=False)  # the data at stake (model/stats.py)

    @property
    def sort_key(self) -> tuple:
        """Files in migration order (`V2__` before `V10__`), then line, column, rule.

        Computed once per finding (kept in the instance's dict, outside the compared fields): a run
        sorts its findings several times (checker, suppressions, placeholders, the CLI)."""
        d = self.__dict__
        key = d.get("_sort_key")
        if key is None:
            key = d["_sort_key"] = (*_path_key(self.path), self.line, self.column, self.rule, self.message)
        return key

    def __hash__(self) -> int:
        # Equal findings have equal positions and rules: hashing those few fields (not the message and
        # help texts of every finding, as the generated hash would) keeps `set(findings)` cheap.
        return hash((self.rule, self.path, self.line, self.column, self.end_line, self.end_column, self.statement_index))

    def to_json(self) -> dict:
        return {
            "rule": self.rule,
            "name": self.name,
            "severity": self.severity.value,
            "path": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column + 1,  # exclusive, as in SARIF (JSON contract version 2)
            "table": self.table,
            "column_path": self.column_path,
            "field_id": self.field_id,
            "message": self.message,
            "help": self.help,
            "fix": self.fix.to_json() if self.fix is not None else None,
            "impact": self.impact.to_json() if self.impact is not None else None,
        }


def _direct_init(cls):
    """Give the frozen dataclass `cls` an `__init__` that fills the instance dict directly.

    The generated `__init__` of a frozen dataclass sets each field through `object.__setattr__`
    (~4 us for a finding's 16 fields); a run can make tens of thousands of findings (one per unused
    suppression, per re-added column). This one takes the same parameters, in the same order with
    the same defaults, and stores the same values (`tests/test_speed2k_equivalence.py` compares the
    two). Only for dataclasses whose fields all have plain defaults and no `__post_init__`."""
    plain = cls.__init__
    params, store, defaults = [], [], {}
    for f in fields(cls):
        assert f.init and f.default_factory is MISSING and not hasattr(cls, "__post_init__")
        if f.default is MISSING:
            params.append(f.name)
        else:
            defaults[f"_default_{f.name}"] = f.default
            params.append(f"{f.name}=_default_{f.name}")
        store.append(f"    d[{f.name!r}] = {f.name}")
    source = f"def __init__(self, {', '.join(params)}):\n    d = self.__dict__\n" + "\n".join(store) + "\n"
    namespace: dict = {}
    exec(source, defaults, namespace)  # noqa: S102 - as dataclasses itself makes __init__
    init = namespace["__init__"]
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    cls.__init__ = init
    cls._plain_init = plain  # the dataclass's own, for the equivalence test
    return cls


_direct_init(Finding)


@lru_cache(maxsize=None)
def _path_key(path: str) -> tuple:
    """A file's place in the sort: its folder, then migration order (a run has few paths, many findings)."""
    from icelint.discovery import sort_key as file_key

    parent, _, name = path.replace("\\", "/").rpartition("/")
    return (parent, file_key(name), path)
