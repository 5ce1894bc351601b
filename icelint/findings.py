"""Findings: what the rules report, in the form every reporter renders."""

from __future__ import annotations

from dataclasses import dataclass, field
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
        return {"info": 0, "warning": 1, "error": 2}[self.value]


@dataclass(frozen=True)
class Finding:
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
        """Files in migration order (`V2__` before `V10__`), then line, column, rule."""
        return (*_path_key(self.path), self.line, self.column, self.rule, self.message)

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


@lru_cache(maxsize=None)
def _path_key(path: str) -> tuple:
    """A file's place in the sort: its folder, then migration order (a run has few paths, many findings)."""
    from icelint.discovery import sort_key as file_key

    parent, _, name = path.replace("\\", "/").rpartition("/")
    return (parent, file_key(name), path)
