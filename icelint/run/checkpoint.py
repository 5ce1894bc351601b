"""Checkpoints: a check goes on from where an earlier check was after the same files.

An editor checks one file of a migrations folder again at every pause in typing (`icelint server`);
the files before it have not changed since the last check. A `Checkpoints` object, held by the
caller from one check to the next and handed to `icelint.engine.run` as `CheckRequest.checkpoints`,
keeps what a check had made of the folder when it reached its first reported file: the steps of the
files before it, the replay's state (every table's state, the tables unknown or missing, the
session's settings) and the rules' walk (each table's history, the findings so far, the checks
waiting for the end of the run). A later check whose files start with the same files (same paths,
texts and deployments, under the same configuration) reads them, but parses, replays and lints only
the files after them. Each file parsed and lowered is kept too (by path, text and the session's
namespace before it: a later file whose earlier file changed is not parsed again), and git's facts
about the files (`plan.git_facts`, three `git` processes) while HEAD, the index and the files on
disk stay as they were.

The findings are those of a check from nothing: `tests/equivalence/test_checkpoint.py` compares
both over edit sequences. A check goes on from a checkpoint (and leaves one) only when nothing but
its files feeds the replay: no table state (no state source, no states given, no SparkSession), no
packed texts, fewer than `packed_findings.PACK_FROM` statements, and no table name that may have a
ref's suffix (`lower._place_refs` reads those against the whole run's names).

What a checkpoint holds is copied when it is taken and again when a check goes on from it (the
containers: tables by name, histories, outcomes, findings); the table states, schemas, steps and
outcomes in them are values no later step changes, shared. One object per caller, used by one
thread at a time (the language server's worker).
"""

from __future__ import annotations

import copy
import os
import re
from dataclasses import dataclass
from typing import Any

MAX_KEPT = 4  # checkpoints kept, the most recently used first
MAX_FILES = 1_000  # files kept parsed and lowered; beyond, the least recently used half is forgotten


@dataclass
class _Checkpoint:
    """A run's state after its first files (those before its first reported file)."""

    config: Any  # the configuration of the run (its rules, values, catalog kind, Iceberg version)
    files: tuple  # (path, text) of each file, in replay order
    marks: tuple  # (deployment number, applied) of each file (`replay/deploy.py`)
    parsed_files: list  # their `ParsedFile`s (statement spans)
    steps: list  # their steps, as the lint leaves them (`changes.linted`)
    namespace: str | None  # the session's namespace after them (`USE`)
    replay: Any  # the `Replay` after them
    outcomes: list  # its outcomes, as the lint keeps them
    linter: Any  # the rules' walk after them (`checker._Linter`)
    last: dict  # the states shared between outcomes (`Outcome.slimmed`)


class Resume:
    """One check's use of the checkpoints (`checker.lint_replay` reads it): the checkpoint it goes on
    from (None: from nothing), and after how many steps it takes its own (`boundaries`, ascending:
    before its first reported file, and before its last file, a later file the caller may check next)."""

    def __init__(self, owner: Checkpoints, start: _Checkpoint | None, keys: dict[int, tuple]) -> None:
        self.owner, self.start, self._keys = owner, start, keys
        self.boundaries = sorted(keys)

    def replayer(self, fresh):
        """The replay to run: a copy of the checkpoint's (with `fresh`'s deployments), else `fresh`."""
        if self.start is None:
            return fresh
        replay = _copy_replay(self.start.replay)
        replay.deployments = fresh.deployments
        return replay

    def outcomes(self) -> list | None:
        return None if self.start is None else list(self.start.outcomes)

    def linter(self, result):
        assert self.start is not None
        return self.start.linter.resumed(result)

    def last(self) -> dict:
        assert self.start is not None
        return dict(self.start.last)

    def save(self, replay, result, linter, last: dict, steps) -> None:
        """Keep the run's state now, after one of `boundaries` steps."""
        n = len(result.outcomes)
        config, files, marks, parsed_files, namespace = self._keys[n]
        self.owner._keep(_Checkpoint(config, files, marks, parsed_files, list(steps[:n]), namespace, _copy_replay(replay),
                                     list(result.outcomes), linter.resumed(None), dict(last)))


def _copy_replay(replay):
    """A replay in the same state whose containers (tables by name, unknown and missing tables,
    names as written) are its own."""
    out = copy.copy(replay)
    for k, v in list(vars(out).items()):
        if v.__class__ in (dict, set, list):
            setattr(out, k, v.copy())
    return out


class Checkpoints:
    """The checkpoints of one caller (a language server), handed to each check it runs
    (`CheckRequest.checkpoints`)."""

    def __init__(self, kept: int = MAX_KEPT) -> None:
        self._max = kept
        self._kept: list[_Checkpoint] = []
        self._git: tuple | None = None  # (what git's answers depend on, the answers: `plan.git_facts`)
        self._files: dict[tuple, tuple] = {}  # (path, text, namespace) → the file parsed and lowered (`_lowered`)
        self.resumed = 0  # checks that went on from a checkpoint
        self.skipped = 0  # files the last check took from a checkpoint

    def clear(self) -> None:
        self._kept.clear()
        self._files.clear()
        self._git = None

    def _keep(self, cp: _Checkpoint) -> None:
        self._kept.insert(0, cp)
        del self._kept[self._max:]

    def _best(self, config, files: tuple, marks: tuple, first: int) -> _Checkpoint | None:
        """The checkpoint of the longest run of the same files before the `first`-th file."""
        best = None
        for cp in self._kept:
            n = len(cp.files)
            if (n <= first and (best is None or n > len(best.files)) and cp.config == config
                    and cp.marks == marks[:n] and cp.files == files[:n]):
                best = cp
        if best is not None:  # the most recently used first
            self._kept.remove(best)
            self._kept.insert(0, best)
        return best

    def parse(self, plan, read, config, deployments):
        """`pending.parse_plan(plan, read=read)` with `deployments` set, from the best checkpoint on;
        and the `Resume` of the run (None: it runs from nothing and leaves no checkpoint)."""
        from icelint.engine.lower import namespace_after
        from icelint.engine.pipeline import Parsed, parse_sources
        from icelint.run.packed_findings import PACK_FROM

        sources = [read(f) for f in plan.files]
        names = plan.pending_names
        first = next((i for i, f in enumerate(plan.files) if str(f) in names), len(plan.files))
        files = tuple((s.path, s.text) for s in sources)
        marks = tuple((deployments.epochs.get(str(f)), str(f) in deployments.applied) for f in plan.files)
        start = self._best(config, files, marks, first)
        k = len(start.files) if start is not None else 0
        before = start.steps if start is not None else []
        namespace = start.namespace if start is not None else None
        parsed_files, steps = list(start.parsed_files if start is not None else ()), []
        for src in sources[k:]:
            spans, own, namespace = self._lowered(src, len(before) + len(steps), namespace)
            parsed_files.append(spans)
            steps += own
        self.skipped = 0
        if len(before) + len(steps) >= PACK_FROM or any(map(_ref_like, steps)):
            # a name that may be a ref's is placed from the whole run's names: all from nothing
            parsed = parse_sources(sources, trees=False)
            parsed.deployments = deployments
            return parsed, None
        parsed = Parsed(sources, parsed_files, [*before, *steps], deployments)
        self.skipped = k
        self.resumed += start is not None
        keys: dict[int, tuple] = {}
        for at in sorted({first, len(files) - 1}, reverse=True):  # before the first reported file, and the last file
            if at <= k:
                continue
            paths = {p for p, _ in files[k:at]}
            mine = [s for s in steps if s.span.path in paths]  # the new steps before that file
            keys[len(before) + len(mine)] = (config, files[:at], marks[:at], parsed.files[:at],
                                             namespace_after(mine, start.namespace if start is not None else None))
        keys.pop(0, None)
        return parsed, Resume(self, start, keys)

    def _lowered(self, src, start: int, namespace: str | None) -> tuple:
        """One file parsed and lowered after `start` steps, with the session in `namespace`: its
        `ParsedFile` (statement spans), its steps, and the namespace after it. Kept by path, text and
        namespace (a later file of a folder whose earlier file changed: only its indexes move)."""
        from icelint.engine.lower import lower_files, namespace_after
        from icelint.syntax.ast import PlacedSpans
        from icelint.syntax.parser import parse_file

        key = (src.path, src.text, namespace)
        got = self._files.pop(key, None)
        if got is None:
            tree = parse_file(src)
            own = lower_files([tree], {src.path: src.text}, start=start, namespace=namespace)
            got = (tree._replace(statements=PlacedSpans([st.span for st in tree.statements])), own,
                   namespace_after(own, namespace))
            if len(self._files) >= MAX_FILES:
                for old in list(self._files)[: MAX_FILES // 2]:
                    del self._files[old]
        self._files[key] = got  # the most recently used last
        spans, own, after = got
        if own and own[0].index != start:
            own = [st._replace(index=start + i) for i, st in enumerate(own)]
        return spans, own, after

    def git_facts(self, files, since: str | None, texts: dict[str, str]):
        """`plan.git_facts(files, since, texts)`, with git asked again only when HEAD, the index or
        the files on disk (their size and times, a `.gitignore` beside them) changed; with
        `--since`, always (REF may have moved)."""
        from icelint.plan import fingerprint, git_facts

        if since is not None:
            return git_facts(files, since, texts)
        names = tuple(str(f) for f in files)
        folders = dict.fromkeys(os.path.dirname(n) for n in names)
        key = (os.getcwd(), names, tuple(fingerprint(files)), tuple(_stat(n) for n in names),
               tuple(_stat(os.path.join(d, ".gitignore")) for d in folders))
        if self._git is None or self._git[0] != key:
            self._git = (key, {})
        return git_facts(files, since, texts, memo=self._git[1])


# the suffix of a name that may select a ref (`changes.name_ref`), whether lowering left it a ref or
# made it a table's name because the run names such a table (`lower._place_refs`)
_REF_LIKE = re.compile(r"\.(?:branch|tag|snapshot_id|at_timestamp)_", re.IGNORECASE)


def _ref_like(step) -> bool:
    """Whether the step names a table by a name that may be a ref's: what it names depends on the
    names of the whole run, so no checkpoint holds it, or follows it."""
    ref = getattr(step, "ref", False)
    return ref is not False and (ref is not None or _REF_LIKE.search(step.table) is not None)


def _stat(path: str) -> tuple | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_ctime_ns, st.st_size, st.st_ino)
