"""Replay and lint independent tables in parallel processes.

A table's replay reads only that table's state: the statements of `db.events` and of `db.orders`
can be replayed and linted apart, and their findings merged. On a machine with several CPUs and a
large run, `lint_partitioned` forks one worker per group of tables (the parent takes the first
group), and each worker sends back only its findings.

A run is split only when that cannot change a result:
- every statement names its table with a namespace (an unqualified name is resolved against all
  the tables known at that point; after `USE db` lowering has already made `t` into `db.t`), no
  statement renames a table (a rename moves a state from one name to another), no
  `CREATE TABLE ... AS SELECT` reads other tables' schemas, and no three-part name with a ref's
  suffix is left for the replay to read as a table's or a ref's (`lower._place_refs`);
- statements on no table (`SET`, unparsable statements, ...) go to every group, and a finding
  they give in several groups is kept once.

Any failure of a worker (an exception, a crash, a result that does not unpickle) makes the parent
redo that group itself, so a broken worker never loses findings; bad input then fails in the
parent with its usual message. A run is split from `AUTO_MIN_STEPS` statements on, or from
`MIN_STEPS` when `ICELINT_JOBS` asks for processes. `ICELINT_JOBS=1` turns all of this off; only the `icelint`
process itself (`cli.entry`) asks for it (`CheckRequest.parallel`), never a library call inside someone else's process.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Callable, Sequence

if TYPE_CHECKING:  # imported where used: a cached run needs no replay
    from icelint.values import changes as ch
    from icelint.values.findings import Finding

MIN_STEPS = 400  # below this, a fork costs more than it saves, whatever ICELINT_JOBS says
# Without ICELINT_JOBS, a run is split only from this many statements on. Measured on a 2-CPU machine
# (bench/make_inputs.py migrations, whole processes, `ICELINT_JOBS=1` vs `2`, CPU / wall): 2,000
# statements 0.66 / 0.70 s vs 0.87 / 0.75 s (the fork costs 30 % more CPU and saves no time); 3,000:
# 1.54 / 1.55 s vs 1.42 / 1.08 s; 5,000: 2.36 / 2.37 s vs 2.52 / 1.77 s; 10,000: 8.2 / 8.5 s vs 7.5 / 5.3 s.
AUTO_MIN_STEPS = 2500
MAX_JOBS = 8


def jobs() -> int:
    """How many processes may work at once: `ICELINT_JOBS`, else the CPUs this process may use."""
    raw = os.environ.get("ICELINT_JOBS", "").strip()
    if raw:
        try:
            return max(1, min(int(raw), MAX_JOBS))
        except ValueError:
            return 1
    try:
        cpus = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    return max(1, min(cpus, MAX_JOBS))


def partition(steps: Sequence[ch.Step], groups: int) -> list[list[ch.Step]] | None:
    """The steps split into up to `groups` lists by table (each in the original order), or None
    when the run must not be split (see the module's docstring)."""
    from icelint.values import changes as ch
    from icelint.replay.engine import table_key

    if groups < 2 or len(steps) < MIN_STEPS:
        return None
    counts: dict[str, int] = {}
    for s in steps:
        if isinstance(s, ch.Commit):
            key = table_key(s.table)
            if "." not in key or any(isinstance(c, ch.RenameTable) or (isinstance(c, ch.CreateTable) and c.as_select) for c in s.changes):
                return None
            if s.ref_unplaced:  # a ref or a table: the replay decides (`Replay._ref_key`)
                return None
            counts[key] = counts.get(key, 0) + 1
    if len(counts) < 2:
        return None
    # the largest tables first, each to the group with the fewest statements so far
    loads = [0] * min(groups, len(counts))
    group_of: dict[str, int] = {}
    for key, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        g = loads.index(min(loads))
        group_of[key] = g
        loads[g] += n
    out: list[list[ch.Step]] = [[] for _ in loads]
    for s in steps:
        if isinstance(s, ch.Commit):
            out[group_of[table_key(s.table)]].append(s)
        else:
            for part in out:
                part.append(s)
    return out


def lint_partitioned(
    steps: Sequence[ch.Step], work: Callable[[list[ch.Step]], list[Finding]], *, allowed: bool, stats=None
) -> list[Finding] | None:
    """`work` (replay + lint of some steps) run on each group of tables, the groups in parallel;
    the merged findings, or None when the run is not split (the caller then runs `work` once).

    `allowed`: whether this process may fork (`CheckRequest.parallel`: icelint's own process, not a
    library call in someone else's, nor a process with threads). `stats`: the run's data counts
    (`sources.table_stats.StatsProvider`, or None), marked incomplete when a worker's were."""
    if not allowed or not hasattr(os, "fork"):
        return None
    if len(steps) < AUTO_MIN_STEPS and not os.environ.get("ICELINT_JOBS", "").strip():
        return None  # the default: a fork pays only on larger runs (see AUTO_MIN_STEPS)
    parts = partition(steps, jobs())
    if parts is None:
        return None
    _import_sqlglot_if_needed(steps)
    children = [_spawn(part, work, stats) for part in parts[1:]]
    findings = list(work(parts[0]))
    for (pid, fd), part in zip(children, parts[1:]):
        findings.extend(_collect(pid, fd, part, work, stats))
    from icelint.values.findings import in_report_order

    return in_report_order(findings)


def _import_sqlglot_if_needed(steps: Sequence[ch.Step]) -> None:
    """The replay of DML and CTAS statements (the changes that carry their `sql`) parses them with
    sqlglot, which the parser does not import whole (`icelint.syntax.tokenizer`): import it once
    here, before the fork, rather than once in every worker."""
    from icelint.values import changes as ch
    from icelint.replay.dml import fast as dml_fast

    def needs(c) -> bool:  # plain DML is checked from icelint's own tokens (replay/dml_fast.py)
        sql = getattr(c, "sql", None)
        return bool(sql) and not (isinstance(c, ch.WriteData) and dml_fast.shape(sql) is not None)

    if any(needs(c) for s in steps if isinstance(s, ch.Commit) for c in s.changes):
        import sqlglot

        sqlglot.Dialect.get_or_raise("spark")


def _spawn(part: list[ch.Step], work: Callable[[list[ch.Step]], list[Finding]], stats) -> tuple[int, int]:
    import pickle

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the worker: compute, send, and leave without running any of the parent's cleanup
        os.close(read_fd)
        try:
            try:
                result = ("ok", work(part), bool(stats is not None and stats.incomplete))
            except BaseException:  # noqa: BLE001 - the parent redoes the group and reports the error itself
                result = ("failed", None, False)
            # pickled straight into the pipe, not into one bytes object first (a copy of every finding
            # at the worker's peak); one that fails halfway leaves a stream the parent cannot load,
            # and the parent then redoes the group, as for a worker that died
            with os.fdopen(write_fd, "wb") as out:
                pickle.dump(result, out, protocol=pickle.HIGHEST_PROTOCOL)
        finally:
            os._exit(0)
    os.close(write_fd)
    return pid, read_fd


def _collect(pid: int, fd: int, part: list[ch.Step], work: Callable[[list[ch.Step]], list[Finding]], stats) -> list[Finding]:
    import pickle

    with os.fdopen(fd, "rb") as inp:
        try:
            status, findings, incomplete = pickle.load(inp)  # as it arrives: no copy of the whole stream
        except Exception:  # noqa: BLE001 - a worker that died mid-write: redo its group
            status, findings, incomplete = "failed", None, False
    os.waitpid(pid, 0)
    if status != "ok":
        return list(work(part))
    if incomplete and stats is not None:  # a worker's data counts were unknown: the report must not be cached either
        stats.incomplete = True
    return findings
