"""The one entry of every check: `run(CheckRequest) -> Report`.

The command line (`icelint check` in every mode: paths, standard input, the `--fix` passes,
`--add-suppressions`; the run cache wraps it), `icelint schema` (`plan_run`), the Python API
(`icelint.lint`) and the tests' rule-case harness all build a `CheckRequest` and call `run`;
editors (a language server), notebooks and other front ends do the same. Nothing else assembles
the pipeline.

    from icelint.engine import CheckRequest, run

    report = run(CheckRequest(paths=("migrations",)))
    report = run(CheckRequest(texts={"migrations/V12__x.sql": buffer}))   # an editor buffer
    for f in report.findings:
        print(f.path, f.line, f.rule, f.severity.value, f.message)

The deployment model (which files have run, which tables hold data, which state per table) is
computed once per run by `icelint.plan`, the same for every door.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence

if TYPE_CHECKING:
    from icelint.config import Config
    from icelint.model.table import TableMetadata
    from icelint.reporters import Report
    from icelint.sources import StateOptions

from icelint.engine.inputs import STDIN, config_groups, config_start

__all__ = ["CheckRequest", "run", "plan_run", "config_groups", "config_start", "STDIN"]



@dataclass(frozen=True)
class CheckRequest:
    """What to check, against what, and how. Every field has a default: `CheckRequest()` checks the
    configured migrations folder of the nearest `[tool.icelint]` from the current directory.

    Inputs (what is reported on):
      `paths`: files and folders (folders: all their `.sql` files), as on the command line. Empty:
        the keys of `texts` when there are any, else the configured `migrations` folder (with
        `since`: its files changed since REF).
      `texts`: path → text, in-memory inputs standing in for the file of that path (an editor
        buffer, standard input, the text a `--fix` pass produced). A path of `texts` that `paths`
        does not name is reported on too, and placed among the migrations folder's files where its
        name sorts (its folder's other files are its history). `STDIN` ("-") is a text with no file.
      `context_texts`: path → text standing in for a file that is read but not reported on (the
        other unsaved buffers of an editor, when it checks one of them).
    Configuration:
      `config`: the effective `icelint.config.Config` (flags already applied). None: per input, the
        nearest `[tool.icelint]` (pyproject.toml / icelint.toml) walking up from its folder, as
        ruff finds it (the current directory for `STDIN`); inputs under different configurations
        are checked apart, each with its own, and reported together.
      `configure`: with `config` None, applied to each configuration found (a command's flags).
    State (which state each table starts from; see `icelint.plan`):
      `state`: `icelint.sources.StateOptions` (metadata files, table dirs, warehouse, catalog), the
        command's flags; they add to the configuration's sources (a flag wins per table).
      `states`: table → `TableMetadata` given in memory (the Python API, a SparkSession); they win
        over both.
      `spark`: a SparkSession asked for the state of every table the SQL touches that no other
        source gives (`icelint.spark`).
      `live`: the states of a live catalog, in place of the state sources and flags (the Spark
        guard's session): called with the table names the SQL references, it returns ({table:
        `sources.LoadedState`}, {table: where it was asked and is absent}); the data counts of a
        state are read when a finding asks.
    Options:
      `since`: a git REF: the reported files are those changed since its merge-base with HEAD
        (among `paths`, default the migrations folder); files unchanged since then are applied.
      `select`, `ignore`: rule selectors (codes, names, prefixes) applied over the configuration's.
      `vars`: placeholder values (`${name}`) over the configuration's `[tool.icelint.vars]`.
      `positions`: record every statement's position per file (`Report.statements_by_file`, for
        `--add-suppressions` and the JUnit report).
      `pack`: keep long texts compressed once parsed (a speed option of long runs; not with `texts`).
      `cwd`: the directory the configuration is searched from when no input names a folder
        (default: the current directory).
      `note`: called with each note of the run (what was inferred from a state, a state no table
        uses); the command line prints them under `-v`.
      `texts_are_inputs`: whether the paths of `texts` that `paths` does not name are inputs (True);
        `with_texts` (a `--fix` pass over files on disk) keeps the inputs of the request instead.
      `parallel`: whether tables may be replayed and linted in forked processes when the run is large
        (`icelint.run.parallel`); the `icelint` executable asks for it, a library call in someone
        else's process (or a process with threads: the language server) does not.
      `batch`: the inputs are statements a job runs together (the Spark guard's): `context_texts`
        (the statements already run, not reported on) then `texts`, in the order given, one
        deployment; no migrations folder, no git, and no state holds any of them.
      `checkpoints`: an `icelint.run.checkpoint.Checkpoints` kept from one check to the next (a
        language server's): the check goes on from the state an earlier one reached after the same
        files, and keeps its own; the findings are the same.
    """

    paths: tuple[str, ...] = ()
    texts: Mapping[str, str] = field(default_factory=dict)
    context_texts: Mapping[str, str] = field(default_factory=dict)
    config: "Config | None" = None
    state: "StateOptions | None" = None
    states: Mapping[str, "TableMetadata"] = field(default_factory=dict)
    spark: Any = None
    since: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    vars: Mapping[str, str] = field(default_factory=dict)
    positions: bool = False
    pack: bool = False
    cwd: Path | None = None
    note: Callable[[str], None] | None = field(default=None, compare=False)
    texts_are_inputs: bool = True
    parallel: bool = False
    configure: "Callable[[Config], Config] | None" = field(default=None, compare=False)
    checkpoints: Any = field(default=None, compare=False)
    batch: bool = False
    live: "Callable[[Sequence[str]], tuple[dict, dict]] | None" = field(default=None, compare=False)

    def with_texts(self, texts: Mapping[str, str]) -> "CheckRequest":
        """The same inputs with `texts` standing in for those files too (a `--fix` pass)."""
        return replace(self, texts={**self.texts, **texts}, texts_are_inputs=bool(self.texts) and self.texts_are_inputs)

    @property
    def from_stdin(self) -> bool:
        return not self.paths and STDIN in self.texts


def run(request: CheckRequest) -> "Report":
    """Check the request's inputs; the `Report` every output is rendered from. Raises
    `icelint.values.source.InputError` (one line naming the file and the problem) for bad input."""
    from icelint.engine.check import check, merged

    groups = config_groups(request)
    if len(groups) > 1:
        return merged([check(replace(request, paths=paths, config=cfg)) for cfg, paths in groups])
    return check(request)


def plan_run(request: CheckRequest):
    """The replay of the request's plan (`icelint schema`): the same files, deployments and states
    as `run`; a `pipeline.Run` of every table's state."""
    from icelint.engine.check import replay_plan

    return replay_plan(request)
