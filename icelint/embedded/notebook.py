"""The SQL of a Jupyter notebook (nbformat 4 JSON): every `%%sql` cell (and Databricks' `%sql`
first line), and the `spark.sql(...)` literals of its Python cells, in cell order.

Cells are numbered from 1 among all the notebook's cells (markdown ones included), as Jupyter
shows them and as ruff reports them (`nb.ipynb:cell 3:2:5`). IPython line magics (`%pip`, `!ls`)
are read as comments; a cell with another cell magic (`%%bash`) is skipped.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Iterable

from icelint.embedded.python_sql import Extracted, PythonSyntaxError, extract_python

_SQL_MAGIC = re.compile(r"[ \t]*%%?sql\b[^\n]*(?:\n|$)")
_CELL_MAGIC = re.compile(r"[ \t]*%%")
_LINE_MAGIC = re.compile(r"^([ \t]*)[%!?]", re.MULTILINE)


class NotebookError(ValueError):
    """Not a notebook this reader understands; the message says why (one line)."""


@dataclass
class Cells:
    """The notebook's code cells as one origin text: cell k's text starts at `starts[k]`."""

    starts: list[int] = field(default_factory=list)
    numbers: list[int] = field(default_factory=list)  # 1-based, among all cells
    texts: list[str] = field(default_factory=list)

    def add(self, number: int, text: str) -> int:
        base = self.starts[-1] + len(self.texts[-1]) if self.texts else 0
        self.starts.append(base)
        self.numbers.append(number)
        self.texts.append(text)
        return base

    @property
    def text(self) -> str:
        return "".join(self.texts)


def cells_of(text: str) -> list[tuple[str, str]]:
    """(cell type, source) of each cell of an nbformat 4 notebook."""
    try:
        nb = json.loads(text)
    except ValueError as e:
        raise NotebookError(f"not a Jupyter notebook (invalid JSON: {e})") from None
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError("not a Jupyter notebook (no `cells` list; nbformat 4 expected)")
    out = []
    for cell in nb["cells"]:
        if not isinstance(cell, dict):
            raise NotebookError("not a Jupyter notebook (a cell is not an object)")
        source = cell.get("source", "")
        if isinstance(source, list) and all(isinstance(s, str) for s in source):
            source = "".join(source)
        if not isinstance(source, str):
            raise NotebookError("not a Jupyter notebook (a cell's `source` is not text)")
        out.append((str(cell.get("cell_type", "")), source))
    return out


def extract_notebook(text: str, callables: Iterable[str]) -> tuple[Extracted, Cells]:
    """The notebook's SQL, its characters mapped to offsets in `Cells.text`."""
    callables = tuple(callables)
    ex, cells = Extracted(), Cells()
    for number, (kind, source) in enumerate(cells_of(text), start=1):
        if kind != "code" or not source.strip():
            continue
        base = cells.add(number, source)
        magic = _SQL_MAGIC.match(source)
        if magic:
            ex.add_run(source[magic.end() :], base + magic.end())
            ex.end_statement(base + max(len(source) - 1, 0))
            continue
        if _CELL_MAGIC.match(source):
            continue
        python = _LINE_MAGIC.sub(lambda m: m.group(1) + "#", source)
        try:
            extract_python(python, callables, ex, base)
        except PythonSyntaxError as e:
            raise NotebookError(f"cell {number}:{e.line}:{e.column}: Python syntax error: {e.message}") from None
    return ex, cells
