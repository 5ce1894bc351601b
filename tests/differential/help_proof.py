"""Help and fixes run in real Spark on tables with rows: accepted, and no value lost or changed.

For a differential case (``cases/<name>/``: ``setup.sql`` writes rows with a non-null value in every
column), every *recipe* icelint offers on the case's migration is collected: each SQL a finding's
``help`` proposes (``icelint.rules.kit.help.proposals``: the statement it replaces, or the earlier one it
names) and each fix's edit, whatever its applicability (display-only ones too). Each recipe then runs
in Spark on its own:

1. the namespace is emptied and ``setup.sql`` runs;
2. the migration's statements before the one the recipe replaces run (a rejected one is skipped, as a
   failed statement changes nothing);
3. every value of every table is read (``SELECT *``: each row as field id → value, nested values as
   a whole);
4. the recipe's statements run one by one (``recipe-rejected`` when Spark rejects one);
5. every value is read again and compared (:func:`compare`):

   - ``value-lost``: a non-null value a row held before is held by no column of that row after (under
     any name), unless the replaced statement itself drops that column (``DROP COLUMN``) or removes
     rows (``DROP PARTITION``, ``DELETE``, ``TRUNCATE``): then the recipe does what was asked;
   - ``value-changed``: a column the recipe added (a field id that was not there) holds a value that
     no column of the same row held before and that does not convert back (``CAST`` to the source's
     type, ``from_json`` for JSON text) to the value of the column its backfill reads, in every row
     (:func:`converted`): a wrapped, truncated or rounded copy;
   - ``rows-removed``: fewer rows than before (same exception).

   Rows are matched by the values of the field ids present before and after (a recipe that rewrites
   an existing column then matches no row: its values count as lost). Values are compared by their
   text (``5`` and ``'5'``, ``9.99`` and ``9.990``, ``5`` and ``5.0`` are the same value).

A recipe that cannot be proven this way says what it leaves to the user in its help (the narrowing
backfill's rows that do not fit, counted by a ``SELECT``): those values stay in the old column, which is
what the check asks. Statements that only read (``SELECT``) or call procedures are not recipes.
"""

from __future__ import annotations

import datetime
import decimal
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from icelint.rules.kit.help import proposals
from tests.differential.harness import NAMESPACE, Case, SetupError, current_schema, quote, spark_error
from tests.oracle.spark import split_statements


@dataclass(frozen=True)
class Recipe:
    rule: str
    where: str  # FILE:LINE of the finding
    path: str  # the file of the statement it replaces
    start: int  # that statement's span (character offsets)
    end: int
    sql: str
    kind: str  # help | fix (applicability)

    def __str__(self) -> str:
        return f"{self.rule} at {self.where} ({self.kind}): `{' '.join(self.sql.split())[:160]}`"


def recipes(inp: Any, findings: list[Any]) -> list[Recipe]:
    """Every distinct recipe of `findings` (help proposals and fix edits) on the input's files."""
    from tests.rules.test_help_replay import _statement_at

    texts = dict(inp.files)
    seen: set[tuple[str, int, str]] = set()
    out: list[Recipe] = []

    def add(f: Any, path: str, span: Any, sql: str, kind: str) -> None:
        if span is None or not sql.strip():
            return
        key = (path, span.start, " ".join(sql.replace(";", " ; ").split()).lower().rstrip(" ;"))
        if key in seen:
            return
        seen.add(key)
        out.append(Recipe(f.rule, f"{Path(f.path).name}:{f.line}", path, span.start, span.end, sql, kind))

    for f in findings:
        for target, sql in proposals(f.help or ""):
            path, line, column = (f.path, f.line, f.column) if target is None else (target[0], target[1], None)
            if path in texts:
                add(f, path, _statement_at(path, texts[path], line, column), sql, "help")
        if f.fix is not None and f.path in texts:
            text = texts[f.path]
            for e in f.fix.edits:  # each edit: the statement it falls in, as the edit leaves it
                span = _statement_at(f.path, text, e.row, e.column)
                if span is not None and span.start <= e.start <= e.end <= span.end:
                    new = text[span.start : e.start] + e.content + text[e.end : span.end]
                    add(f, f.path, span, new, f"fix, {f.fix.applicability.value}")
    return out


# ------------------------------------------------------------------------------------ values
def canon(v: Any) -> Any:
    """A value as text, so that a copy into another type compares equal to its source."""
    if v is None:
        return None
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, decimal.Decimal):
        return format(v.normalize(), "f")
    if isinstance(v, float):
        return str(int(v)) if v.is_integer() and abs(v) < 2**63 else repr(v)
    if isinstance(v, (bytes, bytearray)):
        return bytes(v).hex()
    if isinstance(v, (datetime.datetime, datetime.date)):
        return v.isoformat(sep=" ") if isinstance(v, datetime.datetime) else v.isoformat()
    if isinstance(v, dict):
        return tuple(sorted((canon(k), canon(x)) for k, x in v.items()))
    if hasattr(v, "asDict"):  # a struct (a tuple too): its non-null values (a field added as NULL changes nothing)
        return tuple(canon(x) for x in v if x is not None)
    if isinstance(v, (list, tuple)):
        return tuple(canon(x) for x in v)
    return str(v)


def read_values(oracle: Any) -> dict[str, tuple[dict[int, str], list[dict[int, Any]]]]:
    """table → (field id → column path, rows as field id → canonical value); the fields of a struct
    are values of their own (a struct that gains a field keeps its other values), lists and maps whole."""
    out = {}
    for table in oracle.table_dirs():
        fields = current_schema(oracle.metadata(table))["fields"]
        names: dict[int, str] = {}
        leaves: list[tuple[int, tuple[str, ...]]] = []

        def walk(f: dict, path: tuple[str, ...]) -> None:
            t = f["type"]
            if isinstance(t, dict) and t.get("type") == "struct" and t["fields"]:
                for child in t["fields"]:
                    walk(child, path + (child["name"],))
            else:
                names[f["id"]] = ".".join(path)
                leaves.append((f["id"], path))

        for f in fields:
            walk(f, (f["name"],))
        cols = ", ".join(quote(f["name"]) for f in fields)
        rows = oracle.sql(f"SELECT {cols} FROM {table}") if cols else []
        out[table] = (names, [{fid: canon(_get(r, path)) for fid, path in leaves} for r in rows])
    return out


def _get(row: Any, path: tuple[str, ...]) -> Any:
    v = row
    for p in path:
        if v is None:
            return None
        v = v[p]
    return v


# statements whose meaning is to remove rows, or to change values (a Hive partition rename moves rows)
_REMOVES_ROWS = re.compile(
    r"\b(DROP\s+(IF\s+EXISTS\s+)?PARTITION|DELETE|TRUNCATE|DROP\s+TABLE|RENAME\s+TO\s+PARTITION)\b", re.IGNORECASE
)
_DROPS = re.compile(r"\bDROP\s+COLUMNS?\s+(?:IF\s+EXISTS\s+)?\(?([^;)]*)", re.IGNORECASE)


def dropped_names(original: str, columns: Any = ()) -> set[str]:
    """Lower-case top-level names the replaced statement drops, of the table's `columns` (REPLACE COLUMNS
    drops the ones it does not list)."""
    out: set[str] = set()
    for m in _DROPS.finditer(original):
        out.update(p.strip().strip("`").split(".")[0].lower() for p in m[1].split(","))
    m = re.search(r"\bREPLACE\s+COLUMNS\s*\((.*)\)", original, re.IGNORECASE | re.DOTALL) or re.search(
        r"\bREPLACE\s+TABLE\s+[\w.`]+\s*\((.*?)\)\s*USING\b", original, re.IGNORECASE | re.DOTALL
    )
    replaced = re.search(r"\b(?:CREATE\s+OR\s+)?REPLACE\s+TABLE\s+[\w.`]+\b(?:(?!\bAS\s+SELECT\b).)*?\bAS\s+SELECT\b(.*)",
                         original, re.IGNORECASE | re.DOTALL)
    if replaced:  # REPLACE TABLE ... AS SELECT: the table keeps only what the query names
        words = {w.lower() for w in re.findall(r"\w+", replaced[1])}
        out.update(c.lower() for c in columns if c.lower() not in words)
    if m:
        listed, depth, start = set(), 0, 0
        body = re.sub(r"--[^\n]*", "", m[1]) + ","
        for i, ch in enumerate(body):
            depth += ch in "<(" and 1 or (ch in ">)" and -1 or 0)
            if ch == "," and depth == 0:
                words = body[start:i].split()
                if words:
                    listed.add(words[0].strip("`").lower())
                start = i + 1
        out.update(c.lower() for c in columns if c.lower() not in listed)
    return out


def default_values(original: str) -> set[str]:
    """The literal values of the `DEFAULT` clauses of the replaced statement (numbers and strings, also
    inside `named_struct(...)`): a recipe that writes them into the new column does what it asked."""
    out: set[str] = set()
    for m in re.finditer(r"\bDEFAULT\s+", original, re.IGNORECASE):
        depth, end, rest = 0, None, original[m.end():]
        for i, ch in enumerate(rest):
            depth += ch == "(" and 1 or (ch == ")" and -1 or 0)
            if depth < 0 or (depth == 0 and ch in ",;"):
                end = i
                break
        expr = rest[:end]
        out.update(s.replace("''", "'") for s in re.findall(r"'((?:[^']|'')*)'", expr))
        out.update(re.findall(r"(?<![\w'])-?\d+(?:\.\d+)?(?![\w'])", re.sub(r"'(?:[^']|'')*'", "", expr)))
    return out


def compare(before: dict, after: dict, original: str, changed: dict | None = None) -> list[str]:
    """`value-lost`, `value-changed` and `rows-removed` problems of a recipe (see the module docstring);
    the new columns with values no column held go to `changed` (table → names), for `converted`."""
    problems: list[str] = []
    changed = {} if changed is None else changed
    removes_rows = bool(_REMOVES_ROWS.search(original))
    defaults = default_values(original)
    for table, (names, rows) in before.items():
        dropped = dropped_names(original, {n.split(".")[0] for n in names.values()})
        if table not in after:
            if not removes_rows:
                problems.append(f"[rows-removed] {table}: the table is gone")
            continue
        names_after, rows_after = after[table]
        if removes_rows:
            continue
        common = sorted(set(names) & set(names_after))
        new = [i for i in names_after if i not in names]
        if len(rows_after) < len(rows):
            problems.append(f"[rows-removed] {table}: {len(rows)} rows before, {len(rows_after)} after")
        pool: dict[tuple, list[dict]] = {}
        for r in rows_after:
            pool.setdefault(tuple(r[i] for i in common), []).append(r)
        for r in rows:
            key = tuple(r[i] for i in common)
            matched = pool.get(key)
            if not matched:
                lost = [f"`{names[i]}`={r[i]!r}" for i in names if r[i] is not None and i in common]
                if lost:
                    problems.append(f"[value-lost] {table}: a row's values changed or vanished: {', '.join(lost[:4])}")
                continue
            a = matched.pop()
            held = {v for v in a.values() if v is not None}
            for i, v in r.items():
                if v is not None and i not in common and v not in held and names[i].split(".")[0].lower() not in dropped:
                    problems.append(f"[value-lost] {table}: `{names[i]}` (field id {i}) = {v!r} is in no column any more")
            was = {v for v in r.values() if v is not None} | defaults
            for i in new:
                if a[i] is not None and a[i] not in was:
                    source = ", ".join(f"`{names[k]}`={r[k]!r}" for k in names if r[k] is not None)[:200]
                    problems.append(f"[value-changed] {table}: new column `{names_after[i]}` = {a[i]!r}, a value the row did not hold ({source})")
                    changed.setdefault(table, set()).add(names_after[i])
    return list(dict.fromkeys(problems))


# ------------------------------------------------------------------------------------ Spark
def run_recipe(oracle: Any, case: Case, recipe: Recipe, prepared: dict | None = None) -> list[str]:
    """Run `recipe` in Spark on the case's tables with rows; its problems (one line each). With
    `prepared` (a dict the caller keeps), the tables as they are before the replaced statement are
    built once per statement and copied back for each of its recipes."""
    try:
        original = _prepare(oracle, case, recipe, prepared)
        before = read_values(oracle)
        for _, stmt in split_statements(recipe.sql):
            try:
                oracle.sql(stmt)
            except Exception as exc:  # noqa: BLE001
                return [f"[recipe-rejected] `{' '.join(stmt.split())[:160]}`: {spark_error(exc)}"]
        changed: dict[str, set[str]] = {}
        problems = compare(before, read_values(oracle), original, changed)
        proven = {(t, c) for t, cols in changed.items() for c in cols if converted(oracle, t, c, recipe.sql)}
        return [p for p in problems if not any(p.startswith(f"[value-changed] {t}: new column `{c}` ") for t, c in proven)]
    finally:  # session settings a migration made (SET, USE) do not leak into the next recipe
        for path in case.migration_files:
            for key in re.findall(r"(?im)^\s*SET\s+`?([\w.-]+)", path.read_text()):
                oracle.spark.conf.unset(key)
        oracle.sql("USE spark_catalog")
        oracle.sql("USE local")


def converted(oracle: Any, table: str, column: str, sql: str) -> bool:
    """Whether every value of the new `column` is a faithful conversion of its source: converted back to
    the type of a column the recipe's backfill reads (`UPDATE ... SET column = f(source)`), it gives
    that column's value in every row (`CAST` back, or `from_json` for a JSON text of a struct, list or
    map). A value that wrapped, was rounded or truncated does not convert back."""
    m = re.search(rf"\bSET\s+`?{re.escape(column)}`?\s*=\s*(.*?)(?:\bWHERE\b|;|$)", sql, re.IGNORECASE | re.DOTALL)
    if not m:
        return False
    fields = current_schema(oracle.metadata(table))["fields"]
    sources = [f["name"] for f in fields if f["name"] != column and re.search(rf"\b{re.escape(f['name'])}\b", m[1])]
    for src in sources:
        rows = oracle.sql(f"SELECT typeof({quote(src)}) FROM {table} LIMIT 1")
        if not rows:
            continue
        t = rows[0][0]
        back = f"from_json({quote(column)}, '{t}')" if t.startswith(("struct", "array", "map")) else f"CAST({quote(column)} AS {t})"
        try:
            (bad,) = oracle.sql(f"SELECT count(*) FROM {table} WHERE {quote(column)} IS NOT NULL AND NOT ({back} <=> {quote(src)})")[0]
        except Exception:  # noqa: BLE001 - no way back from this type: not proven
            continue
        if bad == 0:
            return True
    return False


def _prepare(oracle: Any, case: Case, recipe: Recipe, prepared: dict | None) -> str:
    """The tables as they are before the replaced statement (its text returned)."""
    import shutil
    import tempfile

    ns = oracle.warehouse / NAMESPACE
    key = (case.name, recipe.path, recipe.start)
    original = ""
    for path in case.migration_files:
        if str(path) == recipe.path:
            original = path.read_text()[recipe.start : recipe.end]
    if prepared is not None and key in prepared:
        shutil.rmtree(ns, ignore_errors=True)
        shutil.copytree(prepared[key], ns)
        _session_statements(oracle, case, recipe)
        return original
    oracle.reset()
    for line, text in split_statements(case.setup.read_text()):
        try:
            oracle.sql(text)
        except Exception as exc:  # noqa: BLE001
            raise SetupError(f"setup.sql:{line}: {spark_error(exc)}") from None
    for path in case.migration_files:
        text = path.read_text()
        if str(path) == recipe.path:
            _run_quietly(oracle, text[: recipe.start])
            break
        _run_quietly(oracle, text)
    if prepared is not None:
        keep = Path(tempfile.mkdtemp(prefix="recipe-", dir=prepared.get("__dir__"))) / NAMESPACE
        shutil.copytree(ns, keep)
        prepared[key] = keep
    return original


def _session_statements(oracle: Any, case: Case, recipe: Recipe) -> None:
    """The SET and USE statements before the replaced statement (the copied tables do not hold them)."""
    for path in case.migration_files:
        text = path.read_text()
        part = text[: recipe.start] if str(path) == recipe.path else text
        for _, stmt in split_statements(part):
            if re.match(r"\s*(SET\s+(?!TBLPROPERTIES)[\w`.-]+\s*=|USE\b)", stmt, re.IGNORECASE):
                _run_quietly(oracle, stmt)
        if str(path) == recipe.path:
            return


def _run_quietly(oracle: Any, text: str) -> None:
    for _, stmt in split_statements(text):
        try:
            oracle.sql(stmt)
        except Exception:  # noqa: BLE001 - a statement Spark rejects changes nothing: the next one runs
            pass


