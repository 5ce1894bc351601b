"""Findings: what the rules report, in the form every reporter renders."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from operator import attrgetter
from typing import TYPE_CHECKING, Iterable

from icelint.util.fast_init import fills_dict

if TYPE_CHECKING:
    from icelint.values.fix import Fix
    from icelint.model.stats import Impact


class Severity(str, Enum):
    INFO = "info"
    WARNING = "warning"
    ERROR = "error"

    @property
    def rank(self) -> int:
        return _RANKS[self._value_]  # asked once per finding by the exit code: no dict built per call


_RANKS = {"info": 0, "warning": 1, "error": 2}


@fills_dict  # its `__init__` fills the instance dict: a run can make tens of thousands (util/fast_init.py)
@dataclass(frozen=True)
class Finding:
    """One problem found: the rule, where (1-based line and column, end exclusive), the message, the help and the fix.

    A plain value: a long run keeps its list of findings compressed around it (`run/packed_findings.py`)."""

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
    fix: Fix | None = field(default=None, compare=False)  # the safe alternative as edits (icelint/values/fix.py)
    impact: Impact | None = field(default=None, compare=False)  # the data at stake (model/stats.py)

    @property
    def sort_key(self) -> tuple:
        """Files in migration order (`V2__` before `V10__`), then line, column, rule, message.

        Derived once per finding and kept in the instance's dict (outside the compared fields), as
        `functools.cached_property` would, without its lock (~3 us a finding): a run sorts its
        findings several times (checker, suppressions, placeholders, the CLI)."""
        d = self.__dict__
        key = d.get("_sort_key")
        if key is None:
            key = d["_sort_key"] = (*_path_key(self.path), self.line, self.column, self.rule, self.message)
        return key

    def __hash__(self) -> int:
        # Equal findings have equal positions, rules and fields: hashing those few (not the message and
        # help texts of every finding, as the generated hash would) keeps `set(findings)` cheap; the
        # field, because one statement may report thousands of fields at one place (a struct's fields):
        # equal hashes there made `set` compare every pair of texts
        return hash((self.rule, self.path, self.line, self.column, self.end_line, self.end_column, self.statement_index,
                     self.field_id, self.column_path))  # fmt: skip

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


def in_report_order(findings: Iterable[Finding]) -> list[Finding]:
    """`findings` without duplicates, in the order every report lists them (`Finding.sort_key`)."""
    return sorted(set(findings), key=_SORT_KEY)


_SORT_KEY = attrgetter("sort_key")


@lru_cache(maxsize=1024)
def _path_key(path: str) -> tuple:
    """A file's place in the sort: its folder, then migration order (a run has few paths, many findings)."""
    from icelint.plan.discovery import sort_key as file_key

    parent, _, name = path.replace("\\", "/").rpartition("/")
    name, _, cell = name.partition(":cell ")  # a notebook's cell (icelint.embedded): in the notebook's place
    return (parent, file_key(name), int(cell) if cell.isdigit() else 0, path)
