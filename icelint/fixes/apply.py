"""Applying fixes (`icelint check --fix / --unsafe-fixes / --diff`), with ruff's semantics.

Along the flow: the rules attach a `Fix` to a finding (icelint/values/fix.py); `adapt` makes its edits
edits of the file as it is on disk (CRLF files get CRLF in inserted text; a statement that a fix
deletes takes its `;` and, when it stands alone, its line); `iterate` applies every applicable fix
(safe ones, plus unsafe ones with `--unsafe-fixes`; display-only ones never), checks the fixed text
again and repeats, up to `MAX_PASSES` times, so that fixes that overlapped an applied one are
reached, as ruff does; `write` replaces a changed file's text as icelint.util.writing does (whole or not at
all, through symbolic links, hard links, owner, mode and a UTF-8 byte-order mark kept); `unified_diff` renders
what `--diff` prints. Only the files under review carry findings, so context (applied-history)
files are never rewritten. Files whose text icelint substituted placeholders in get no fix: the
offsets would point into the substituted text, not the file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Iterable

from icelint.values.findings import Finding
from icelint.values.fix import Applicability, Edit, Fix, apply_fixes
from icelint.values.source import InputError, line_starts

MAX_PASSES = 100  # as ruff; a pass is a whole check and takes one fix per table, so a chain of n fixes on one table needs n passes
BOM = "\ufeff"


@dataclass(frozen=True)
class Mode:
    """What the run does with fixes: apply them, include the unsafe ones, or only show the diff."""

    fix: bool = False  # --fix / `fix = true`: write the fixed files (stdin: print the fixed SQL)
    unsafe: bool = False  # --unsafe-fixes / `unsafe-fixes = true`: unsafe fixes apply too
    diff: bool = False  # --diff: print what --fix would change, write nothing

    @property
    def applying(self) -> bool:
        return self.fix or self.diff


def mode(cfg, fix: bool | None = None, unsafe_fixes: bool | None = None, diff: bool = False) -> Mode:
    """The flags (None: not given) over the configuration's `fix` / `unsafe-fixes`."""

    def pick(v: bool | None, key: str) -> bool:
        return bool(getattr(cfg, key, False)) if v is None else bool(v)

    return Mode(fix=pick(fix, "fix"), unsafe=pick(unsafe_fixes, "unsafe_fixes"), diff=bool(diff))


# --------------------------------------------------------------------------- the fixes of a report


def adapt(findings: list[Finding], texts: dict[str, str], skip: Iterable[str] = ()) -> list[Finding]:
    """The findings with their fixes made edits of `texts[path]` (see the module docstring); a
    finding of a file in `skip` (placeholders substituted) or of no known text loses its fix."""
    skip = set(skip)
    out = []
    crlf: dict[str, bool] = {}  # path → whether its text has CRLF line ends (one scan per file)
    starts: dict[str, LineStarts] = {}  # path → its line starts, made on the first edit that needs them
    for f in findings:
        if f.fix is not None:
            text = texts.get(f.path)
            if text is not None and f.path not in crlf:
                crlf[f.path] = "\r\n" in text
                starts[f.path] = LineStarts(text)
            fix = None if text is None or f.path in skip else _adapt_fix(f.fix, text, crlf[f.path], starts[f.path])
            if fix is not f.fix:  # most fixes need no adapting: the finding is kept as it is
                f = replace(f, fix=fix)
        out.append(f)
    return out


class LineStarts:
    """`source.line_starts(text)`, computed on first use: the rows and columns of many edits of one
    long text without a scan of the text per edit (N deleted statements were quadratic)."""

    __slots__ = ("text", "_starts")

    def __init__(self, text: str) -> None:
        self.text, self._starts = text, None

    def get(self):
        if self._starts is None:
            self._starts = line_starts(self.text)
        return self._starts


def _adapt_fix(fix: Fix, text: str, crlf: bool | None = None, starts: LineStarts | None = None) -> Fix:
    if crlf is None:
        crlf = "\r\n" in text
    edits = []
    for e in fix.edits:
        start, end, content = e.start, e.end, e.content
        if crlf and "\n" in content:
            content = re.sub(r"(?<!\r)\n", "\r\n", content)
        if content == "" and end > start:
            start, end = _whole_statement(text, start, end)
        if (start, end, content) != (e.start, e.end, e.content):
            e = Edit.at(text, start, end, content, starts.get() if starts is not None else None)
        edits.append(e)
    if all(a is b for a, b in zip(edits, fix.edits)):
        return fix  # nothing to adapt (the same edits, so an equal fix)
    return replace(fix, edits=tuple(edits))


_AFTER = re.compile(r"[ \t]*(?:;[ \t]*)?(?:\r?\n|\Z)")
_TERMINATOR = re.compile(r"[ \t]*(?:;[ \t]*|\Z)")


def _whole_statement(text: str, start: int, end: int) -> tuple[int, int]:
    """A deleted statement takes its `;`, and its whole line when nothing else is on it. The range
    is a statement when a `;` (or the end of the text) follows it and, before it, only blanks and
    comment lines separate it from the previous `;` (or the start): a deletion inside a statement
    (` NOT NULL`) is left as it is."""
    t = _match_end(_TERMINATOR, text, end)
    if t is None or not _statement_starts_at(text, start):
        return start, end
    line_start = text.rfind("\n", 0, start) + 1
    m = _match_end(_AFTER, text, end)
    if m is not None and not text[line_start:start].strip():
        return line_start, m
    return start, t


def _match_end(pattern: re.Pattern, text: str, pos: int) -> int | None:
    """Where `pattern.match(text, pos)` ends (None: no match). The patterns here never read past the
    line at `pos`, so a long file's packed text (`packed_text.PackedText`, which `re` cannot read)
    is matched on that line alone, `\\Z` included: the line's end is the text's only when it has no `\\n`."""
    if isinstance(text, str):
        m = pattern.match(text, pos)
        return None if m is None else m.end()
    nl = text.find("\n", pos)
    m = pattern.match(text[pos : nl + 1 if nl >= 0 else len(text)])
    return None if m is None else pos + m.end()


def _lines_before(text: str, end: int):
    """`reversed(text[:end].splitlines())`, read back one line at a time (not a split of the whole
    text before the statement once per fix: quadratic in a file of many fixes)."""
    while end > 0:
        start = text.rfind("\n", 0, end - 1) + 1
        yield from reversed(text[start:end].splitlines())
        end = start


def _statement_starts_at(text: str, start: int) -> bool:
    line_start = text.rfind("\n", 0, start) + 1
    before = text[line_start:start].strip()
    if before:
        return before.endswith(";")
    for line in _lines_before(text, line_start):
        line = line.strip()
        if line and not line.startswith("--"):
            return line.endswith(";") or (" --" in line and line.split(" --", 1)[0].rstrip().endswith(";"))
    return True


def applicable(findings: Iterable[Finding], unsafe: bool, paths: set[str]) -> dict[str, list[Fix]]:
    """path → the fixes `--fix` applies there in this pass: the first applicable one of each table.

    A fix is computed against the replay of the unfixed files; most make a rejected statement run, which
    can make a later fix on the same table stale (a second `RENAME id TO event_id`). So each pass takes
    one fix per table (findings come in migration order) and the next pass sees the fixed replay."""
    out: dict[str, list[Fix]] = {}
    tables: set[str] = set()
    for f in findings:
        if f.fix is not None and f.fix.edits and f.path in paths and f.fix.applies(unsafe):
            table = (f.table or f.path).lower()
            if table in tables:
                continue
            tables.add(table)
            out.setdefault(f.path, []).append(f.fix)
    return out


def counts(findings: Iterable[Finding], unsafe: bool) -> tuple[int, int]:
    """(findings `--fix` would fix, unsafe fixes hidden without `--unsafe-fixes`)."""
    fixable = hidden = 0
    for f in findings:
        if f.fix is None or not f.fix.edits:
            continue
        if f.fix.applies(unsafe):
            fixable += 1
        elif f.fix.applicability is Applicability.UNSAFE:
            hidden += 1
    return fixable, hidden


@dataclass
class Result:
    """What applying fixes did: the report of the fixed text and the texts before and after."""

    report: object  # the Report of the fixed text: what is left
    originals: dict[str, str] = field(default_factory=dict)  # path → text before any fix (changed files only)
    texts: dict[str, str] = field(default_factory=dict)  # path → the fixed text (changed files only)
    fixed: int = 0  # fixes applied
    converged: bool = True


def iterate(check, unsafe: bool) -> Result:
    """Check, apply, check the fixed text again, ... until nothing applies (or `MAX_PASSES`).
    `check(texts)` is one pass: the report of the check with `texts` (path → fixed text; None on the
    first pass) standing in for those files (the command line passes `icelint.engine.run` of its
    request with those texts: `icelint.cli.check.fix_run`)."""
    report = check(None)
    res = Result(report)
    for _ in range(MAX_PASSES):
        current = {s.path: s.text for s in report.sources}
        todo = applicable(report.findings, unsafe, set(current))
        changed = False
        for path, fixes in todo.items():
            new, taken = apply_fixes(current[path], fixes)
            if new != current[path]:
                res.originals.setdefault(path, current[path])
                res.texts[path] = new
                res.fixed += len(taken)
                changed = True
        if not changed:
            break
        report = check(dict(res.texts))
    else:
        res.converged = not applicable(report.findings, unsafe, {s.path for s in report.sources})
    for path in [p for p, t in res.texts.items() if t == res.originals[p]]:  # fixed back to the start
        del res.texts[path], res.originals[path]
    res.report = report
    return res


# --------------------------------------------------------------------------- output


def unified_diff(path: str, old: str, new: str) -> str:
    import difflib

    lines = difflib.unified_diff(old.splitlines(keepends=True), new.splitlines(keepends=True), f"a/{path}", f"b/{path}")
    out = []
    for line in lines:
        out.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(out)


def preview(fix: Fix, text: str, lines: LineCounter | None = None) -> list[tuple[str, str]]:
    """The lines a fix changes, as (`-` or `+`, the line shown: `-` lines numbered like the file).
    `lines`: the report's `LineCounter` (a report previews every fix of a file, in order)."""
    first = min(e.start for e in fix.edits)
    last = max(e.end for e in fix.edits)
    rs = text.rfind("\n", 0, first) + 1
    nl = text.find("\n", last)
    re_ = len(text) if nl < 0 else nl
    old_region = text[rs:re_]
    if len(fix.edits) == 1:  # what apply_fixes makes of one edit
        e = fix.edits[0]
        new_region = old_region[: e.start - rs] + e.content + old_region[e.end - rs :]
    else:
        shifted = [replace(e, start=e.start - rs, end=e.end - rs) for e in fix.edits]
        new_region, _ = apply_fixes(old_region, [replace(fix, edits=tuple(shifted))])
    if "\r" in old_region or "\r" in new_region:
        old_lines = [ln.rstrip("\r") for ln in old_region.split("\n")]
        new_lines = [ln.rstrip("\r") for ln in new_region.split("\n")]
    else:  # nothing to strip (the usual case)
        old_lines, new_lines = old_region.split("\n"), new_region.split("\n")
    row = (lines or LineCounter()).line_of(text, rs)
    width = len(str(row + len(old_lines)))
    if len(old_lines) == 1 and len(new_lines) == 1 and old_lines[0] != new_lines[0]:
        # one line replaced by one other: the general case below, without the set and the loops
        return [("-", f"{row:>{width}} - {old_lines[0]}"), ("+", f"{'':>{width}} + {new_lines[0]}")]
    if set(old_lines).isdisjoint(new_lines):
        # no line in common: difflib's only opcode replaces them all (the usual case, a statement
        # rewritten); tests/equivalence/test_fixes_apply.py compares this with difflib
        return [("-", f"{row + i:>{width}} - {old_lines[i]}") for i in range(len(old_lines))] + [
            ("+", f"{'':>{width}} + {line}") for line in new_lines
        ]
    import difflib

    out = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        out += [("-", f"{row + i:>{width}} - {old_lines[i]}") for i in range(i1, i2)]
        out += [("+", f"{'':>{width}} + {new_lines[j]}") for j in range(j1, j2)]
    return out


class LineCounter:
    """`text.count("\n", 0, offset) + 1` for the offsets one report asks (one per fix it previews):
    each text's newline offsets found once, and an ask just after the previous one counted on from
    it (a report previews a file's fixes in order). One per report, made by its reporter."""

    __slots__ = ("_newlines", "_last")

    def __init__(self) -> None:
        self._newlines: tuple = (None, [])  # (the text, the offsets of its newlines)
        self._last: tuple = (None, 0, 1)  # (the text, the offset last asked, its line)

    def line_of(self, text: str, offset: int) -> int:
        last = self._last
        if last[0] is text and last[1] <= offset <= last[1] + 4096:
            # just after the previous ask: count the rest
            line = last[2] + text.count("\n", last[1], offset)
            self._last = (text, offset, line)
            return line
        if self._newlines[0] is not text:
            found, i = [], text.find("\n")
            while i >= 0:
                found.append(i)
                i = text.find("\n", i + 1)
            self._newlines = (text, found)
        from bisect import bisect_left

        line = bisect_left(self._newlines[1], offset) + 1
        self._last = (text, offset, line)
        return line


def label(fix: Fix, unsafe: bool) -> str:
    """How the text report announces a fix, in ruff's words."""
    if fix.applicability is Applicability.SAFE:
        return "fix available"
    if fix.applicability is Applicability.UNSAFE:
        return "fix available (unsafe)" if unsafe else "fix available (unsafe, use --unsafe-fixes)"
    return "fix suggestion (display-only, never applied)"


def summary(findings: Iterable[Finding], unsafe: bool, fixed: int | None) -> str | None:
    """The text report's line about fixes, as ruff words it, or None when there is nothing to say."""
    fixable, hidden = counts(findings, unsafe)
    parts = []
    if fixable and fixed is None:
        parts.append(f"[*] {fixable} fixable with the `--fix` option")
    elif fixable:
        parts.append(f"[*] {fixable} more fixable")  # reached only when --fix did not converge
    if hidden:
        hint = f"{hidden} hidden fix{'es' if hidden != 1 else ''} can be enabled with the `--unsafe-fixes` option"
        parts.append(f"({hint})" if parts else f"No fixes available ({hint})")
    return (" ".join(parts) + ".") if parts else None


# --------------------------------------------------------------------------- files


def write(path: str, text: str) -> None:
    """Replace the file's text with `text` (icelint.util.writing), keeping its byte-order mark."""
    from icelint.util.writing import write_file

    p = Path(path)
    try:
        with open(p, "rb") as fh:
            bom = fh.read(3) == BOM.encode("utf-8")
        write_file(p, ((BOM if bom else "") + text).encode("utf-8"))
    except OSError as e:
        raise InputError(f"{path}: cannot write the fixed file: {e.strerror or e}") from None
