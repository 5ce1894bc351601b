"""What a rule over files sees: the migration files, their placeholders, their suppression comments
and the SQL calls of Python files, rather than one statement's outcome.

A rule over files defines `check_files(ctx: FilesContext) -> Iterable[Finding]` and a `stage`
(`Rule.over_files`). The engine calls every enabled one at its stage, once per run, with the parts
of the context that stage fills; what happens to the findings next depends on the stage:

- `TEXT`, after the statement rules: `maps`, the files under review whose SQL is not their text as
  written (placeholders substituted, or the SQL of a Python file or notebook). A finding points into
  the SQL checked; it is suppressed, and mapped back to the file, as a statement's finding is.
- `PLAN`, after the statement rules: `plan`, the migration files (names, versions, git). A finding
  points at a file's first line (`at_file_top`); it is suppressed as any other, never mapped.
- `SUPPRESSIONS`, once the suppression comments are applied: `directives`, each comment with the
  rules it suppressed. `per-file-ignores` and severities apply to its findings; only an
  `ignore-file` comment that names the rule itself waives them.
- `SOURCE`, last: `maps` again. A finding points into the file as written (a Python file's line, a
  notebook's cell); `per-file-ignores` and severities apply, suppression comments do not.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Mapping, NamedTuple, Sequence

from icelint.util.lazy import cached_property
from icelint.values.findings import Finding

if TYPE_CHECKING:
    from icelint.plan.pending import Plan
    from icelint.rules.kit.base import Rule

TEXT, PLAN, SUPPRESSIONS, SOURCE = "text", "plan", "suppressions", "source"
STAGES = (TEXT, PLAN, SUPPRESSIONS, SOURCE)


class Placeholder(NamedTuple):
    """A `${name}` with no value, in the SQL checked of a file under review."""

    path: str
    name: str  # as written: `db`, `hivevar:db`
    line: int
    column: int
    end_line: int
    end_column: int
    field: str | None  # the f-string field it stands for (`{db}`) in a Python file or notebook; None: written as `${name}`


class UnreadCall(NamedTuple):
    """A SQL call of a Python file or notebook whose SQL is not a string literal, in the file as written."""

    path: str  # the file, or `nb.ipynb:cell N`
    line: int
    column: int
    end_line: int
    end_column: int
    callable: str  # `spark.sql`
    argument: str | None  # its argument's source; None: no SQL argument at all


@dataclass
class FilesContext:
    """What the rules over files see at one stage (the fields the stage fills; see the module)."""

    enabled: frozenset[str] = frozenset()  # the codes of the enabled rules
    rule: Callable[[str], "Rule | None"] = lambda code: None  # any rule by code or name (the registry)
    # TEXT, SOURCE: path of a file under review → its `placeholders.FileMap` or `embedded.EmbeddedMap`
    maps: Mapping[str, object] = field(default_factory=dict)
    # PLAN: the files, the file order (`flyway`: versions), the `--since` REF, and git's answer to
    # "which of these files existed at the merge-base of REF and HEAD and were changed"
    plan: "Plan | None" = None
    order: str = "flyway"
    since: str | None = None
    cwd: Path | None = None
    changed_since: Callable[[str, Path, list[Path]], list[Path]] | None = None
    # SUPPRESSIONS: path → its `suppress.Directive`s (`names`, `codes`, `used`, `file_level`, `target`, `span`)
    directives: Mapping[str, Sequence] = field(default_factory=dict)

    # ------------------------------------------------------------------ PLAN
    @cached_property
    def new_names(self) -> set[str]:
        """The files of the plan that are new: git's new files; outside git, the files under review."""
        from icelint.plan import new_names

        return new_names(self.plan)

    @cached_property
    def new_pending(self) -> dict[str, Path]:
        """The new files under review, by `key`."""
        assert self.plan is not None
        fresh = self.new_names
        return {key(p): p for p in self.plan.pending if str(p) in fresh}

    def modified_since(self) -> list[Path]:
        """The new files under review that existed at the merge-base of `since` and HEAD and were
        changed since (git is asked; an `InputError` when it cannot answer)."""
        assert self.since is not None and self.changed_since is not None
        fresh_files = list(self.new_pending.values())
        start = self.cwd or (fresh_files[0].resolve().parent if fresh_files else Path.cwd())
        return self.changed_since(self.since, start, fresh_files)

    # ------------------------------------------------------------------ TEXT
    def placeholders(self) -> Iterator[Placeholder]:
        """Every placeholder without a value, file by file, in the SQL checked."""
        for path, m in self.maps.items():
            if not m.unresolved:  # type: ignore[attr-defined]
                continue
            index = m._sub_index()  # type: ignore[attr-defined]
            embedded = getattr(m, "embedded", False) is True
            for name, start, end in m.unresolved:  # type: ignore[attr-defined]
                sp = index.span(start, end)
                line, column, end_line, end_column = sp.line, sp.column, sp.end_line, sp.end_column
                yield Placeholder(path, name, line, column, end_line, end_column,
                                  _field(m, line, column, end_line, end_column) if embedded else None)

    # ------------------------------------------------------------------ SOURCE
    def unread_calls(self) -> Iterator[UnreadCall]:
        """Every SQL call of the Python files and notebooks whose SQL is not a literal, file by file."""
        for m in self.maps.values():
            if getattr(m, "embedded", False) is not True:
                continue
            for u in m.ex.unread:  # type: ignore[attr-defined]
                where, line, column, _ = m.locate(u.start)  # type: ignore[attr-defined]
                _, end_line, end_column, _ = m.locate(max(u.end - 1, u.start))  # type: ignore[attr-defined]
                yield UnreadCall(where, line, column, end_line, end_column, u.callable, u.argument)


def _field(m, line: int, column: int, end_line: int, end_column: int) -> str | None:
    """The f-string field (`{db}`) a placeholder of an `EmbeddedMap` came from, None if written as `${...}`."""
    start = m.origin_offset(m.sql_offset(line, column))
    end = m.origin_offset(m.sql_offset(end_line, end_column), True)
    origin = m.origin
    if origin[start : start + 1] == "{" and origin[end : end + 1] == "}":
        return origin[start : end + 1]
    return None


def key(path) -> str:
    """A file's identity however its path is spelt (`V2__x.sql`, `./V2__x.sql`, a symbolic link)."""
    from icelint.plan.pending import _key

    return _key(path)


def at_file_top(rule, path: Path, message: str, help: str) -> Finding:
    """A finding about a file itself: its first line, from column 1 to the end of that line."""
    first = _first_line(path)
    return Finding(
        rule=rule.code,
        name=rule.name,
        severity=rule.severity,
        path=str(path),
        line=1,
        column=1,
        end_line=1,
        end_column=max(first, 1),
        message=message,
        help=help,
        statement_index=-1,
    )


def _first_line(path: Path) -> int:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return len(fh.readline().rstrip("\r\n"))
    except OSError:
        return 1


# ---------------------------------------------------------------------------- Flyway's file names


def version_text(v: tuple[int, ...] | None) -> str:
    """A version as Flyway's file names write it: `2.1`."""
    return ".".join(map(str, v or ()))


def next_version(files: Iterable[Path]) -> str:
    """The next free major version of the folder (Flyway compares versions numerically)."""
    from icelint.plan.discovery import VERSIONED, classify

    versions = [classify(p.name)[1] for p in files if classify(p.name)[0] == VERSIONED]
    return str(max((v[0] for v in versions if v), default=0) + 1)


def suffix(p) -> str:
    """The file's own suffix in a new name suggested for it: `.sql`, or `.py` / `.ipynb` (`icelint.embedded`)."""
    s = Path(p).suffix.lower()
    return s if s in (".py", ".ipynb") else ".sql"


def findings_at(stage: str, rules: Iterable["Rule"], ctx: FilesContext) -> list[Finding]:
    """The findings of the rules over files of `stage` among `rules`, in `rules`' order."""
    out: list[Finding] = []
    for r in rules:
        if r.stage == stage and r.check_files is not None:
            out.extend(r.check_files(ctx))
    return out
