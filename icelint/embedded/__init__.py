"""SQL inside Python: `.py` migration files and `.ipynb` notebooks checked as `.sql` files are.

A file's SQL is every string literal passed to `spark.sql(...)` (and the other SQL callables:
`DEFAULT_CALLABLES` plus `sql-callables` of `[tool.icelint]`) and every `%%sql` cell of a notebook,
read with Python's `ast` (nothing is run), one statement per call, in source (and cell) order.
f-string fields become `${...}` placeholders (`icelint.engine.placeholders`: `--var`, else ICE060).

The API the engine uses (one place to re-point):

- `SUFFIXES`, `wanted(path)`: the inputs this module reads;
- `read(source, values, callables) -> EmbeddedMap`: the SQL to check (`.substituted`) and the map
  back to the file; it stands where `placeholders.FileMap` stands (`.original`, `.substituted`,
  `.unresolved`, `.position`), so the engine checks it exactly as a `.sql` file;
- `remap(findings, maps)`: findings (and their fixes) at the file's positions: a `.py` file's
  line and column; a notebook's `nb.ipynb:cell N` with the line and column in the cell (ruff's
  way); a fix stays applicable when its edit stays inside one plain literal and needs no escaping,
  else it is display-only;
- `source_findings(maps, rules, pending, config)`: the findings of the rules over files that point
  into the files as written (ICE063: each call whose SQL is not a literal);
- `extract(path, text, callables) -> (sql_text, EmbeddedMap)`: the same, without placeholders.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Iterable, Mapping, Sequence

from icelint.values.source import InputError, SourceFile

if TYPE_CHECKING:
    from icelint.embedded.posmap import EmbeddedMap
    from icelint.values.findings import Finding

SUFFIXES = (".py", ".ipynb")  # as discovery.EMBEDDED_SUFFIXES
from icelint.config.model import DEFAULT_CALLABLES, callables_of  # noqa: E402 - `sql-callables` is configuration
NOTEBOOK = ".ipynb"

__all__ = ["SUFFIXES", "DEFAULT_CALLABLES", "EmbeddedMap", "wanted", "read", "read_file", "extract", "remap",
           "source_findings", "cell_texts", "is_map"]  # fmt: skip


def __getattr__(name: str):
    if name == "EmbeddedMap":  # imported on first use: a run of `.sql` files never needs it
        from icelint.embedded.posmap import EmbeddedMap

        return EmbeddedMap
    raise AttributeError(name)


def wanted(path) -> bool:
    return str(path).lower().endswith(SUFFIXES)


def extract(path: str, text: str, callables: Iterable[str] = ()) -> tuple[str, EmbeddedMap]:
    """A `.py` file's or notebook's SQL and its map back to the file (no placeholders substituted).
    Bad input (not Python, not a notebook) is an `InputError` naming the file."""
    from icelint.embedded.posmap import EmbeddedMap
    from icelint.embedded.python_sql import PythonSyntaxError, extract_python

    source = SourceFile(str(path), text)
    names = callables_of(callables)
    if str(path).lower().endswith(NOTEBOOK):
        from icelint.embedded.notebook import NotebookError, extract_notebook

        try:
            ex, cells = extract_notebook(text, names)
        except NotebookError as e:
            raise InputError(f"{path}:{e}" if str(e).startswith("cell ") else f"{path}: {e}") from None
        m = EmbeddedMap(source, ex, cells)
    else:
        try:
            m = EmbeddedMap(source, extract_python(text, names))
        except PythonSyntaxError as e:
            raise InputError(f"{path}:{e.line}:{e.column}: Python syntax error: {e.message}") from None
    return m.sql.text, m


def read(source: SourceFile, values: Mapping[str, str], callables: Iterable[str] = ()) -> EmbeddedMap:
    """The file's SQL, placeholders substituted (`EmbeddedMap.substituted` is what the engine parses)."""
    return extract(source.path, source.text, callables)[1].substitute(values)


def read_file(path) -> SourceFile:
    """A `.py` file or notebook as text: like `SourceFile.read`, but an empty file is no error (no SQL)."""
    from icelint.values.source import read_bytes

    data = read_bytes(path, missing="no such file", directory="is a directory, not a Python file")
    try:
        return SourceFile(str(path), data.decode("utf-8-sig"))
    except UnicodeDecodeError as e:
        raise InputError(f"{path}: not UTF-8 text (invalid byte at offset {e.start})") from None


def is_map(m) -> bool:
    """Whether a map of `check_run`'s `maps` is one of this module's (not a `placeholders.FileMap`)."""
    return getattr(m, "embedded", False) is True


def remap(findings: Iterable[Finding], maps: Mapping) -> list[Finding]:
    """`placeholders.remap`, and the findings of Python files and notebooks at their places there."""
    from icelint.engine.placeholders import remap as remap_placeholders

    plain = {p: m for p, m in maps.items() if not is_map(m)}
    ours = {p: m for p, m in maps.items() if is_map(m)}
    if not ours:
        return remap_placeholders(findings, plain)
    import re

    cited = re.compile(r"(?<![\w/.\\])(" + "|".join(re.escape(p) for p in sorted(ours, key=len, reverse=True)) + r"):(\d+)(?::(\d+))?(?![\d:])")

    def place(hit: re.Match) -> str:  # `V2__x.py:3` in a message: a place in the checked SQL
        m = ours[hit.group(1)]
        line, column = int(hit.group(2)), int(hit.group(3) or 1)
        if line > len(m._sub_index()._starts):
            return hit.group(0)
        path, line, column, _ = m.locate(m.origin_offset(m.sql_offset(line, column)))
        return f"{path}:{line}:{column}" if hit.group(3) else f"{path}:{line}"

    def texts(f: Finding) -> Finding:
        message, help = cited.sub(place, f.message), cited.sub(place, f.help) if f.help else f.help
        return f if (message, help) == (f.message, f.help) else replace(f, message=message, help=help)

    out = []
    for f in remap_placeholders(findings, plain):
        m = ours.get(f.path)
        out.append(texts(m.finding(f) if m is not None else f))
    return out


def cell_texts(maps: Mapping) -> dict[str, str]:
    """`nb.ipynb:cell N` → the cell's text, for the notebooks among `maps` (what their fixes edit)."""
    out = {}
    for m in maps.values():
        if is_map(m) and m.cells is not None:
            for n, text in zip(m.cells.numbers, m.cells.texts):
                out[f"{m.original.path}:cell {n}"] = text
    return out


def source_findings(maps: Mapping, rules: Sequence, pending: Sequence[str] | None = None, config=None) -> list[Finding]:
    """The findings of the enabled `rules` of the `SOURCE` stage (ICE063: each SQL call whose
    argument is not a string literal) for the Python files and notebooks among `maps` (those of
    `pending` only, when given), at their places in the files; `per-file-ignores` and `severity` of
    `config` applied."""
    from icelint.rules.kit.files import SOURCE, FilesContext, findings_at
    from icelint.values.findings import Severity

    ours = {p: m for p, m in maps.items() if is_map(m) and (pending is None or p in pending)}
    if not ours:
        return []
    found = findings_at(SOURCE, rules, FilesContext(enabled=frozenset(r.code for r in rules), maps=ours))
    if config is None:
        return found
    out = []
    for f in found:
        path = f.path.split(":cell ", 1)[0] if f.path not in ours else f.path  # a notebook's cell: the notebook
        if f.rule in config.ignored_for(path):
            continue
        level = config.severity_of(f.rule)
        out.append(replace(f, severity=Severity(level)) if level and level != f.severity.value else f)
    return out


def lint(run, rules, maps: Mapping, config=None):
    """`placeholders.lint` for runs that hold Python files or notebooks: rules, placeholders,
    suppressions, then positions (and places cited in messages) mapped back to the files."""
    from icelint.engine import suppress
    from icelint.engine.checker import lint_run
    from icelint.engine.placeholders import adjust

    findings = adjust(lint_run(run, rules), run.parsed, maps, rules)
    outcome = suppress.apply(findings, run.parsed, run.sources, [r.code for r in rules], config)
    return suppress.Outcome(remap(outcome.findings, maps), remap(outcome.suppressed, maps))


def refuse_embedded_suppressions(findings: Iterable[Finding]) -> None:
    """`--add-suppressions` writes SQL comments: an `InputError` when one would go into a Python file
    or a notebook (where a comment line can break the string it lands in)."""
    for f in findings:
        path = f.path.split(":cell ", 1)[0]
        if wanted(path):
            raise InputError(
                f"{path}: --add-suppressions cannot write into a Python file or notebook; put "
                f"`-- icelint: ignore {f.rule} -- REASON` inside the SQL string before the statement"
            )


def statement_positions(files, maps: Mapping) -> dict:
    """`placeholders.statement_positions`, a notebook's statements under the cells they are in."""
    from icelint.engine.placeholders import statement_positions as positions

    out = positions([pf for pf in files if not is_map(maps.get(pf.path))], maps)
    for pf in files:
        m = maps.get(pf.path)
        if not is_map(m):
            continue
        for st in pf.statements:
            sp = st.span
            path, line, column, _ = m.locate(m.origin_offset(m.sql_offset(sp.line, sp.column)))
            _, end_line, end_column, _ = m.locate(m.origin_offset(m.sql_offset(sp.end_line, sp.end_column), True))
            out.setdefault(path, []).append((line, column, end_line, end_column))
    return out
