"""What `icelint check` does around the check itself: the run cache, the fixes (--fix, --diff),
writing the report (or acting on it: --add-suppressions, --statistics) and the exit code."""

from __future__ import annotations

import sys
from dataclasses import dataclass, replace
from typing import Callable

from icelint.values.source import InputError

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2


@dataclass(frozen=True)
class Output:
    """How `icelint check` writes its report and decides its exit code (the engine does not know)."""

    fmt: str = "text"
    output_file: str | None = None
    quiet: bool = False
    exit_zero: bool = False
    color: str = "auto"
    statistics: bool = False
    add_suppressions: str | None = None  # REASON: write suppressions instead of a report
    stdin: bool = False  # the input came on standard input (named or not): --fix prints it, never writes a file


def run(request, cfg, out: Output, mode, *, verbose: bool, no_cache: bool, say: Callable[[str], None]) -> None:
    """`icelint check` once its request is known: apply the fixes (--fix, --diff), or check
    (through the run cache) and write the report; exits with the check's code. `say` writes a
    line on standard error."""
    from icelint import engine

    if mode.applying:
        return fix_run(request, cfg, out, mode, say)
    slot = None
    if not (no_cache or request.config is None or request.from_stdin or out.stdin or verbose or request.since is not None or out.add_suppressions is not None
            or mode.unsafe):
        slot = cache_slot(request, cfg, out)
    if slot is not None and (hit := slot.load()) is not None:
        write_report(lambda stream: stream.write(hit[0]), out.output_file)
        sys.exit(hit[1])
    report = engine.run(request)
    report.unsafe_fixes = mode.unsafe
    if slot is None:
        emit(report, cfg, out, say)
        return
    entry = slot.writer()  # the output goes to it as it is written
    try:
        emit(report, cfg, out, say, capture=entry)
    except SystemExit as e:
        if entry.written == 1 and isinstance(e.code, int) and not report.stats_incomplete:
            entry.commit(e.code)
        raise
    finally:
        entry.abandon()  # not committed: an exception, or no exit code


def fix_run(request, cfg, out: Output, mode, say: Callable[[str], None]) -> None:
    """--diff: print the fixes as a diff, exit 1 if any; --fix: write them (stdin: print the fixed SQL), report the rest."""
    import contextlib

    from icelint.fixes import apply as fixing

    if out.add_suppressions is not None:
        raise InputError("--add-suppressions cannot be combined with --fix or --diff; run them one after the other")
    from icelint import engine

    request = replace(request, pack=False)
    res = fixing.iterate(lambda texts: engine.run(request if texts is None else request.with_texts(texts)), mode.unsafe)
    if mode.diff:
        diffs = "".join(fixing.unified_diff(p, res.originals[p], t) for p, t in sorted(res.texts.items()))
        write_report(lambda stream: stream.write(diffs), out.output_file)
        n = res.fixed
        say(f"Would fix {n} finding{'s' if n != 1 else ''}." if n else "No fixes to apply.")
        sys.exit(EXIT_FINDINGS if res.texts else EXIT_OK)
    report = res.report
    report.fixed, report.unsafe_fixes = res.fixed, mode.unsafe
    if out.stdin or request.from_stdin:  # as ruff: the fixed SQL on stdout, the report on stderr
        text = next(iter(res.texts.values()), None) or report.sources[0].text
        write_report(lambda stream: stream.write(text), None)
        with contextlib.redirect_stdout(sys.stderr):
            emit(report, cfg, replace(out, output_file=None), say)  # exits: a file named by --stdin-filename is not written
    for path, text in sorted(res.texts.items()):
        fixing.write(path, text)
    emit(report, cfg, out, say)



def cache_slot(request, cfg, out: Output):
    """The run cache's slot for this check (icelint.run.cache), or None when it is not cached: the cache
    wraps `icelint.engine.run`, keyed by everything the request reads."""
    from icelint.run import cache
    from icelint.plan.pending import make_plan
    from icelint.sources import StateOptions
    from icelint.sources.options import resolve

    if cache.disabled_by_env():
        return None
    plan = make_plan(list(request.paths), migrations=cfg.migrations, since=None, order=cfg.order, note=request.note)
    if not plan.pending:
        return None  # the engine says so
    flags = {"paths": list(request.paths), "format": out.fmt, "quiet": out.quiet, "exit_zero": out.exit_zero,
             "color": out.color, "statistics": out.statistics}
    state = request.state or StateOptions()
    return cache.slot_for(cfg, plan, resolve(state.metadata, state, cfg.state() or None), flags,
                          destination_is_file=bool(out.output_file))


def emit(report, cfg, out: Output, say: Callable[[str], None], capture: list | None = None) -> None:
    """Write the report (or act on it: --add-suppressions, --statistics) and exit with the check's code."""
    from icelint.values.findings import Severity
    from icelint.reporters import REPORTERS

    fmt, output_file, exit_zero = out.fmt, out.output_file, out.exit_zero
    if out.add_suppressions is not None:
        from icelint.fixes import add_suppressions as baseline

        from icelint import embedded

        embedded.refuse_embedded_suppressions(report.findings)  # SQL comments: not written into Python code
        kept = [f for f in report.findings if baseline.fails_at_deploy(f)]
        accepted = [f for f in report.findings if not baseline.fails_at_deploy(f)]
        per_file = {p: (st, [f for f in accepted if f.path == p]) for p, st in report.statements_by_file.items()}
        added, changed = baseline.add({p: v for p, v in per_file.items() if v[1]}, out.add_suppressions)
        say(f"icelint: added {added} suppression{'s' if added != 1 else ''} to {changed} file{'s' if changed != 1 else ''}")
        if kept:
            say(f"icelint: left {len(kept)} finding{'s' if len(kept) != 1 else ''} unsuppressed: their statements fail when "
                "deployed (Spark or Iceberg rejects them), so they are not legacy to accept; fix them")
        sys.exit(EXIT_FINDINGS if kept and not out.exit_zero else EXIT_OK)
    if out.statistics:
        from icelint.reporters.statistics import render as render_statistics

        write_report(lambda stream: render_statistics(report.findings, stream, "json" if fmt == "json" else "text"), output_file, capture)
        threshold = Severity(cfg.fail_on).rank
        failing = any(f.severity.rank >= threshold for f in report.findings)
        sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_OK)
    color = {"always": True, "never": False}.get(out.color)
    write_report(lambda stream: REPORTERS[fmt](report, stream, quiet=out.quiet, color=color), output_file, capture)
    threshold = Severity(cfg.fail_on).rank
    failing = any(f.severity.rank >= threshold for f in report.findings)
    sys.exit(EXIT_FINDINGS if failing and not exit_zero else EXIT_OK)


def write_report(write, output_file: str | None, capture=None) -> None:
    """`write(stream)` to FILE or stdout; a file or disk that refuses it is one line naming it.
    With `capture` (the run cache's `EntryWriter`), everything written also goes to it."""
    name = output_file or "standard output"
    if capture is not None:
        capture.written += 1
        inner = write
        write = lambda out: inner(_Tee(out, capture))  # noqa: E731
    try:
        if output_file:
            with open(output_file, "w", encoding="utf-8", newline="") as out:
                write(out)
        else:
            write(sys.stdout)
            sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as e:
        raise InputError(f"{name}: cannot write the report: {e.strerror or e}") from None


class _Tee:
    """A text stream that writes to `out` and to the run cache's entry. Seen by the reporters as a
    StringIO was (not a terminal, no file descriptor): the output is the same bytes either way."""

    def __init__(self, out, entry) -> None:
        self._out, self._entry = out, entry

    def write(self, text: str) -> int:
        n = self._out.write(text)
        self._entry.write(text)
        return n

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return False

    def writable(self) -> bool:
        return True
