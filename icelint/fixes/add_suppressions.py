"""`icelint check --add-suppressions REASON`: adopt icelint on an old migrations folder (ruff's `--add-noqa`).

Before every statement that has findings, a line `-- icelint: ignore CODE[, CODE...] -- REASON`
is written, indented like the statement, so the next run reports nothing for it (and ICE100 keeps
watching that each suppression still suppresses something). The rest of the file is kept byte for
byte: its encoding (a UTF-8 byte-order mark included), its line endings (CRLF files get CRLF), its
comments. A statement that shares its line with the end of the one before it is moved to a line
of its own, below the new comment. Running it again changes nothing: the findings are suppressed by then.
Files are written as icelint.util.writing says (whole or not at all, through symbolic links, hard links,
owner and mode kept), and only files that change are touched. Findings that belong to no statement
(an unused `ignore-file`) are left alone, and so are the findings of statements that fail when
deployed (`fails_at_deploy`): a statement Spark or Iceberg rejects is no legacy to accept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Iterable, Sequence

from icelint.values.findings import Finding
from icelint.values.source import InputError, containing

BOM = "\ufeff"


# rules whose error findings mean "Spark or Iceberg rejects this statement" (ICE003 and ICE005 also
# report accepted statements: told apart by their wording below)
_REJECTING = frozenset({"ICE002", "ICE003", "ICE004", "ICE005", "ICE006"})


def fails_at_deploy(f: Finding) -> bool:
    """Whether the finding says its statement fails when the migration is deployed."""
    if f.rule not in _REJECTING or f.severity.value != "error":
        return False
    if f.rule == "ICE003":
        return "fails and the table is unchanged" in f.message
    if f.rule == "ICE005":
        return "is not known here" not in f.message  # a table no input creates may exist: not a rejection
    return True


def comment(codes: Iterable[str], reason: str) -> str:
    text = "-- icelint: ignore " + ", ".join(codes)
    return text + (f" -- {reason}" if reason else "")


def edit(text: str, statements: Sequence[tuple[int, int, int, int]], findings: Sequence[Finding], reason: str) -> tuple[str, int]:
    """`text` with a suppression before each statement that has findings (statements: 1-based
    (line, column, end_line, end_column) in `text`), and how many suppressions it added."""
    wanted: dict[int, list[str]] = {}
    # the statement holding each finding (a file's statements are in order and do not overlap)
    starts = [(line, col) for line, col, _, _ in statements]
    ends = [(end_line, end_col) for _, _, end_line, end_col in statements]
    for f in findings:
        k = containing(starts, ends, (f.line, f.column))
        if k is not None and f.rule not in wanted.setdefault(k, []):
            wanted[k].append(f.rule)
    if not wanted:
        return text, 0
    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    on_line: dict[int, list[int]] = {}  # 0-based line → the statements with findings starting on it
    for k in wanted:
        on_line.setdefault(statements[k][0] - 1, []).append(k)
    replaced: dict[int, list[str]] = {}  # 0-based line → the lines it becomes (one pass joins them: no insert per statement)
    for i, ks in on_line.items():
        current, above, below = lines[i], [], []
        for k in sorted(ks, reverse=True):  # from the right, so that earlier columns stay valid
            col = statements[k][1]
            codes = sorted(wanted[k])
            before = current[: col - 1]
            indent = before[: len(before) - len(before.lstrip(" \t"))]
            if k > 0 and statements[k - 1][2] == i + 1 and before.strip():
                # the statement before ends on this line: start this one on a line of its own
                below[0:0] = [indent + comment(codes, reason) + newline, indent + current[col - 1 :]]
                current = before.rstrip(" \t") + newline
            else:
                above.insert(0, indent + comment(codes, reason) + newline)
        replaced[i] = [*above, current, *below]
    return "".join(piece for i, line in enumerate(lines) for piece in replaced.get(i, (line,))), len(wanted)


def write_atomic(path: Path, data: bytes) -> None:
    """Replace the file's content (icelint.util.writing: through symbolic links, hard links, owner and mode kept)."""
    from icelint.util.writing import write_file

    write_file(path, data)


def add(files: dict[str, tuple[Sequence[tuple[int, int, int, int]], list[Finding]]], reason: str) -> tuple[int, int]:
    """Rewrite each file with its suppressions; (suppressions added, files changed)."""
    if "\n" in reason or "\r" in reason:
        raise InputError("--add-suppressions: the reason must be one line")
    added = changed = 0
    for path, (statements, findings) in files.items():
        p = Path(path)
        try:
            raw = p.read_bytes()
        except OSError as e:
            raise InputError(f"{path}: cannot read: {e.strerror or e}") from None
        text = raw.decode("utf-8")
        bom = text.startswith(BOM)
        body = text[1:] if bom else text
        new, n = edit(body, statements, findings, reason)
        if new == body:
            continue
        added += n
        try:
            write_atomic(p, ((BOM if bom else "") + new).encode("utf-8"))
        except OSError as e:
            raise InputError(f"{path}: cannot write: {e.strerror or e}") from None
        changed += 1
    return added, changed
