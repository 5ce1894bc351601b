"""The guard inside a Spark job: lint migrations against the live catalog before Spark runs them.

    import icelint.spark

    guard = icelint.spark.guard(spark)           # [tool.icelint] from the current directory applies
    guard.check("migrations/V42__payload.sql")   # raises icelint.MigrationError, runs nothing
    guard.run("migrations/V42__payload.sql")     # check all of it, then run it statement by statement

    with icelint.spark.guard(spark):             # every spark.sql(...) inside is checked first
        spark.sql("ALTER TABLE db.events DROP COLUMN payload")
        spark.sql("ALTER TABLE db.events ADD COLUMN payload binary")   # raises: the drop is history

Each table's state is asked of the SparkSession (`icelint.spark.load_state`: its current metadata
file, whatever the catalog) when a check first names the table. Inside the `with` block, the
statements already run through `spark.sql` are the history of the next one, replayed over the states
the tables had before the block first touched them: a re-add after a drop that already ran is
stopped at the re-add, with the dropped column's field id.

Findings at or above `fail_on` raise `MigrationError` before Spark runs anything; the others are
logged (`logging.getLogger("icelint")` unless another logger is given): a warning as WARNING, an
info as INFO. Only statements whose first keyword can change a table (`CHECKED`) are linted;
writes, `USE` and `SET` (`RECORDED`) are kept as history unlinted; everything else (queries,
`SHOW`, `DESCRIBE`, `WITH`...) goes straight to Spark after a look at its first characters.

`spark.sql` is replaced on the session object by one dispatcher while at least one guard is active
on it, and restored when the last one exits (also on an exception). The dispatcher asks a context
variable (one per session, not per module) which guards are active in the calling thread or task:
nested guards all check; a guard entered in one thread does not see another thread's statements.
"""

from __future__ import annotations

import contextvars
import logging
import os
import re
import string
import sys
import threading
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from icelint.values.findings import Finding, Severity
from icelint.spark.errors import MigrationError, render
from icelint.values.source import InputError, SourceFile

__all__ = ["CHECKED", "RECORDED", "Guard", "first_keyword", "lint_sources"]

# Statements that can change a table's schema, partitioning, properties or existence: linted.
CHECKED = frozenset({"ALTER", "CREATE", "REPLACE", "DROP", "CALL"})
# Statements kept as the history of later checks, unlinted: writes (the table holds data), the
# current namespace (`USE`), session settings (`SET spark.sql.caseSensitive=true`).
RECORDED = frozenset({"INSERT", "MERGE", "UPDATE", "DELETE", "TRUNCATE", "USE", "SET", "RESET"})
# The first keyword, after blanks, comments and opening parentheses.
_KEYWORD = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/|\()*([A-Za-z]+)", re.DOTALL)
# The first four characters, upper-cased, of a statement that may start with one of those keywords:
# any other statement starting with a letter passes without the regular expression (a third of its cost).
_PREFIXES = frozenset({w[:4] for w in CHECKED | RECORDED if len(w) > 3} | {w + c for w in ("USE", "SET") for c in " \t\r\n`("})
_LOCK = "_icelint_guard_lock"  # per session: installing and removing the dispatcher
MISSING = "the Spark session's catalog"  # where a table that Spark does not know was asked for


def first_keyword(sql: object) -> str:
    """The statement's first keyword in upper case ("" when there is none)."""
    m = _KEYWORD.match(sql) if isinstance(sql, str) else None
    return m.group(1).upper() if m is not None else ""


# ---------------------------------------------------------------------------- the engine entry


StatesOf = Callable[[Sequence[str]], "tuple[dict[str, Any], dict[str, str]]"]


def lint_sources(sources: Sequence[SourceFile], cfg: Any, states_of: StatesOf,
                 history: Sequence[SourceFile] = ()) -> list[Finding]:
    """What `icelint check` reports for `sources` (in order, one migration), after the statements of
    `history` (already run, not reported on), all replayed over the states that `states_of(table
    names the SQL references)` gives: `({key: sources.LoadedState}, {key: where it was asked and is
    absent})`. The configuration's rules, severities, per-file ignores and `vars` apply, inline
    suppressions too; the data counts of each state are read when a finding asks.

    The guard's one call into the linter: `icelint.engine.run`, with the statements as one batch
    (`CheckRequest.batch`) and the session's states (`CheckRequest.live`)."""
    from icelint.engine import CheckRequest, run

    report = run(CheckRequest(texts={s.path: s.text for s in sources}, context_texts={s.path: s.text for s in history},
                              config=cfg, batch=True, live=states_of))
    return report.findings


# ---------------------------------------------------------------------------- the guard


class Guard:
    """Lints migrations against the live state of a SparkSession's tables before Spark runs them.

    Made by `icelint.spark.guard(spark, ...)`; see the module docstring and docs/spark-guard.md."""

    def __init__(
        self,
        spark: Any,
        load_state: Callable[[Any, str], Any],
        *,
        fail_on: str | None = None,
        config: Any = None,
        select: Sequence[str] = (),
        ignore: Sequence[str] = (),
        variables: dict[str, str] | None = None,
        logger: logging.Logger | str | None = None,
    ) -> None:
        from icelint.config import Config, load_config

        if isinstance(config, Config):
            cfg = config
        elif config is not None and Path(config).is_dir():
            cfg = load_config(Path(config))
        else:
            cfg = load_config(explicit=str(config)) if config is not None else load_config()
        if fail_on is not None and fail_on not in ("error", "warning", "info"):
            raise InputError(f"fail_on={fail_on!r}: must be 'error', 'warning' or 'info'")
        self.config = cfg.with_flags(select=select, ignore=ignore, fail_on=fail_on,
                                     variables=[f"{k}={v}" for k, v in (variables or {}).items()])
        self.fail_on = self.config.fail_on
        self.logger = logger if isinstance(logger, logging.Logger) else logging.getLogger(logger or "icelint")
        self.spark = spark
        self._load_state = load_state
        self._lock = threading.Lock()  # this guard's history and states, if several threads share it
        self._history: list[tuple[str, str]] = []  # (label, text) of the statements run through spark.sql in the block
        self._states: dict[str, Any] = {}  # table key → its LoadedState before the block first touched it
        self._absent: dict[str, str] = {}
        self._entered: list[tuple[_Dispatch, contextvars.Token]] = []

    # ------------------------------------------------------------------ whole migrations
    def check(self, migration: str | Path | Iterable[str | Path]) -> list[Finding]:
        """Lint `migration` (SQL text, a `.sql` file, a folder of them, or a list of paths: every
        statement, in migration order) against the tables' live state. Raises `MigrationError` when
        a finding is at or above `fail_on` (nothing has run); logs the others and returns them."""
        sources = self._sources(migration)
        return self._judge(lint_sources(sources, self.config, self._live_states), None)

    def run(self, migration: str | Path | Iterable[str | Path]) -> list[Any]:
        """`check(migration)`, then each statement through `spark.sql`, in order; their DataFrames."""
        sources = self._sources(migration)
        self._judge(lint_sources(sources, self.config, self._live_states), None)
        return [self.spark.sql(text) for text in self._statements(sources)]

    # ------------------------------------------------------------------ statement by statement
    def __enter__(self) -> Guard:
        dispatch = _Dispatch.install(self.spark)
        token = dispatch.active.set((*dispatch.active.get(), self))
        self._entered.append((dispatch, token))
        return self

    def __exit__(self, *exc: object) -> None:
        dispatch, token = self._entered.pop()
        try:
            dispatch.active.reset(token)
        except (ValueError, RuntimeError):  # left in another context than it was entered in: take it out there
            dispatch.active.set(tuple(g for g in dispatch.active.get() if g is not self))
        dispatch.release(self.spark)

    def check_statement(self, statement: str, caller: str = "") -> list[Finding]:
        """Lint one statement with the statements already run inside the block as its history;
        raises `MigrationError` as `check` does. The `with` block calls it for each `spark.sql`
        (`caller`: the `file:line` of the call, named in the report)."""
        with self._lock:
            where = _label(len(self._history) + 1, caller)
            history = [SourceFile(w, text) for w, text in self._history]
            found = lint_sources([SourceFile(where, statement)], self.config, self._block_states, history)
        return self._judge(found, statement)

    def record(self, statement: str, caller: str = "") -> None:
        """Add a statement Spark ran to the history of the later checks."""
        with self._lock:
            self._history.append((_label(len(self._history) + 1, caller), statement))

    @property
    def history(self) -> list[str]:
        """The statements run through `spark.sql` inside the block so far (checked ones and writes)."""
        return [text for _, text in self._history]

    # ------------------------------------------------------------------ internals
    def _judge(self, findings: list[Finding], statement: str | None) -> list[Finding]:
        floor = Severity(self.fail_on).rank
        if any(f.severity.rank >= floor for f in findings):
            raise MigrationError(findings, self.fail_on, statement)
        for f in findings:
            level = logging.WARNING if f.severity is Severity.WARNING else logging.INFO
            self.logger.log(level, "%s", render(f))
        return findings

    def _fetch(self, table: str, into: dict[str, Any], absent: dict[str, str]) -> None:
        try:
            into[table] = self._load_state(self.spark, table)
        except InputError as e:
            if "no such table" not in str(e):
                raise
            absent[table] = MISSING

    def _live_states(self, tables: Sequence[str]) -> tuple[dict[str, Any], dict[str, str]]:
        from icelint.replay.engine import table_key

        states: dict[str, Any] = {}
        absent: dict[str, str] = {}
        for t in dict.fromkeys(table_key(t) for t in tables):
            self._fetch(t, states, absent)
        return states, absent

    def _block_states(self, tables: Sequence[str]) -> tuple[dict[str, Any], dict[str, str]]:
        from icelint.replay.engine import table_key

        keys = list(dict.fromkeys(table_key(t) for t in tables))
        for t in keys:
            if t not in self._states and t not in self._absent:
                self._fetch(t, self._states, self._absent)
        return ({t: self._states[t] for t in keys if t in self._states},
                {t: self._absent[t] for t in keys if t in self._absent})

    def _sources(self, migration: Any) -> list[SourceFile]:
        from icelint.plan.discovery import discover

        if isinstance(migration, str) and not _names_a_path(migration):
            return [SourceFile("<migration>", migration)]
        items = [migration] if isinstance(migration, (str, Path)) else list(migration)
        if not items:
            raise InputError("no migration given: pass SQL text, a .sql file, a folder or a list of paths")
        for p in items:
            if not os.path.exists(p):
                raise InputError(f"{p}: no such file or directory")
        files = discover([str(p) for p in items], self.config.order)
        if not files:
            raise InputError(f"{' '.join(str(p) for p in items)}: no .sql files found")
        return [SourceFile.read(f) for f in files]

    def _statements(self, sources: list[SourceFile]) -> list[str]:
        """The statements of `sources` as Spark runs them: `vars` substituted, comments between them left out."""
        from icelint.engine import placeholders
        from icelint.syntax.parser import parse_file

        out = []
        for src in placeholders.prepare(sources, dict(self.config.vars))[0]:
            out += [src.text[st.span.start:st.span.end] for st in parse_file(src).statements]
        return out


def _names_a_path(text: str) -> bool:
    """Whether a string handed to `check`/`run` is a path rather than SQL (as `icelint.lint` reads it)."""
    if os.path.exists(text):
        return True
    return "\n" not in text and ";" not in text and " " not in text.strip() and (
        text.endswith(".sql") or "/" in text or os.sep in text)


# ---------------------------------------------------------------------------- spark.sql, guarded


class _Dispatch:
    """What stands in for `spark.sql` while guards are active on the session: the guards of the
    calling context check and record; without any, it is `spark.sql` plus one context-variable read."""

    def __init__(self, original: Callable[..., Any], previous: Any) -> None:
        self.original = original  # what spark.sql was: the session's method, or what another wrapper set
        self.previous = previous  # the instance attribute to put back (None: there was none)
        self.active: contextvars.ContextVar[tuple[Guard, ...]] = contextvars.ContextVar("icelint_guards", default=())
        self.users = 0
        self.sql = self._make()

    @classmethod
    def install(cls, spark: Any) -> _Dispatch:
        lock = vars(spark).setdefault(_LOCK, threading.Lock())  # one per session (setdefault is atomic)
        with lock:
            current = vars(spark).get("sql")
            dispatch = getattr(current, "icelint_dispatch", None)
            if dispatch is None:
                dispatch = cls(current if current is not None else spark.sql, current)
                spark.sql = dispatch.sql
            dispatch.users += 1
        return dispatch

    def release(self, spark: Any) -> None:
        with vars(spark)[_LOCK]:
            self.users -= 1
            if self.users == 0 and vars(spark).get("sql") is self.sql:  # not if something wrapped it since
                if self.previous is None:
                    del spark.sql
                else:
                    spark.sql = self.previous

    def _make(self) -> Callable[..., Any]:
        active, original, match, prefixes = self.active, self.original, _KEYWORD.match, _PREFIXES
        checked, recorded, guarded = CHECKED, RECORDED, self._guarded

        def sql(sqlQuery: str, args: Any = None, **kwargs: Any) -> Any:
            guards = active.get()
            if guards and sqlQuery.__class__ is str:
                head = sqlQuery[:4].upper()
                m = match(sqlQuery) if head in prefixes or not "A" <= head[:1] <= "Z" else None
                if m is not None:
                    word = m.group(1).upper()
                    if word in checked or word in recorded:
                        return guarded(guards, word in checked, sqlQuery, args, kwargs, sys._getframe(1))
            if args is None:
                return original(sqlQuery, **kwargs)
            return original(sqlQuery, args, **kwargs)

        sql.icelint_dispatch = self  # type: ignore[attr-defined]
        sql.__doc__ = getattr(original, "__doc__", None)
        return sql

    def _guarded(self, guards: tuple[Guard, ...], check: bool, text: str, args: Any, kwargs: dict, frame: Any) -> Any:
        statement = _formatted(text, kwargs) if kwargs else text
        caller = f"{_short(frame.f_code.co_filename)}:{frame.f_lineno}"
        if check:
            for g in guards:
                g.check_statement(statement, caller)
        result = self.original(text, **kwargs) if args is None else self.original(text, args, **kwargs)
        for g in guards:  # run: the history of the next checks
            g.record(statement, caller)
        return result


def _label(n: int, caller: str) -> str:
    """The path a statement of the block is reported under: `<spark.sql #3 at jobs/migrate.py:42>`."""
    return f"<spark.sql #{n} at {caller}>" if caller else f"<spark.sql #{n}>"


def _short(path: str) -> str:
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return path
    return path if rel.startswith("..") else rel


class _SqlFormatter(string.Formatter):
    """`spark.sql(text, **kwargs)` formats `text` as pyspark does (pyspark.sql.sql_formatter): a string
    becomes a SQL string literal, a DataFrame a temporary view, a column its name."""

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Any) -> Any:
        obj, first = super().get_field(field_name, args, kwargs)
        if isinstance(obj, str):
            return "'" + obj.replace("\\", "\\\\").replace("'", "\\'") + "'", first
        if obj is None or isinstance(obj, (bool, int, float)):
            return obj, first
        return f"_pyspark_{field_name.split('.')[0].split('[')[0]}", first


def _formatted(text: str, kwargs: dict) -> str:
    try:
        return _SqlFormatter().format(text, **kwargs)
    except (KeyError, IndexError, ValueError):
        return text  # Spark will say what is wrong with it
