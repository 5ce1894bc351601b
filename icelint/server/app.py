"""`icelint server`: the language server (LSP over standard input and output, with pygls).

- Diagnostics: on open, on change (debounced: a check starts once the edits pause for `debounce`
  seconds, 0.04 by default, `initializationOptions.debounce` to change it) and on save, the
  findings `icelint check --stdin-filename PATH` reports for the editor's text (`engine`).
- After a file changes, the other open files of the same migrations folder that come later in
  migration order are checked again: their history changed.
- Files changed on disk (when the client can watch them: `*.sql`, `pyproject.toml`,
  `*.metadata.json`): every open file is checked again.
- Code actions: the findings' fixes (safe ones first and preferred, unsafe ones labelled), and a
  suppression comment for the statement or the file, with a reason to fill in; and
  `source.fixAll.icelint`, the buffer as `icelint check --fix` leaves it (for "fix on save").
- Hover over a finding: the rule's documentation (`icelint explain`).

Checks run one at a time in a worker thread, so the server answers hover and code actions while a
long one runs; diagnostics carry the version of the text they were made from.

A check that fails, whatever the text (parse errors, garbage, binary), never stops the server:
an input error is shown as one diagnostic at the file's start, anything else is logged and shown
as one diagnostic saying the file could not be checked.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path

from icelint.run.checkpoint import Checkpoints
from icelint.version import __version__
from icelint.server import convert
from icelint.server.engine import Checked, check_document, fix_all
from icelint.server.slices import Slicer

DEBOUNCE = 0.04  # seconds without an edit before a changed file is checked
FIX_ALL = "source.fixAll.icelint"  # the code action kind of "apply every fix" (as ruff's `source.fixAll.ruff`)

log = logging.getLogger("icelint.server")


@dataclass
class Result:
    """The last check of one document: its version, the editor's text it read, and what it found."""

    version: int | None
    lines: convert.Lines
    checked: Checked
    path: Path


@dataclass
class State:
    """Everything the server keeps between requests (one instance per server)."""

    debounce: float = DEBOUNCE
    results: dict[str, Result] = field(default_factory=dict)  # uri → its last check
    queue: dict[str, bool] = field(default_factory=dict)  # uri → whether its dependents follow, in order
    timer: object = None  # the loop's handle of the debounced start of the queue
    running: object = None  # the task working through the queue, while it does
    slicer: Slicer = field(default_factory=Slicer)  # used by the worker thread only
    checkpoints: Checkpoints = field(default_factory=Checkpoints)  # the same
    # one thread runs the checks, one at a time: the LSP loop keeps answering (hover, code actions) meanwhile
    worker: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(1, thread_name_prefix="icelint-check"))


def make_server() -> LanguageServer:
    server = LanguageServer("icelint", __version__, text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental)
    state = State()

    def path_of(uri: str) -> Path | None:
        try:
            p = to_fs_path(uri)
        except Exception:  # noqa: BLE001 - a URI that names no file
            return None
        return Path(p) if p and uri.startswith("file:") else None

    def open_texts() -> dict[str, str]:
        out = {}
        for uri, doc in list(server.workspace.text_documents.items()):
            p = path_of(uri)
            if p is not None:
                out[os.path.abspath(p)] = doc.source.removeprefix("\ufeff")  # as a file is read: without the mark
        return out

    def run_check(path: Path, body: str, others: dict[str, str]) -> Checked:
        """The check, in the worker thread; whatever goes wrong, a `Checked` comes back."""
        try:
            return check_document(path, body, others, state.slicer, state.checkpoints)
        except Exception as e:  # noqa: BLE001 - no text may stop the server
            log.error("checking %s failed:\n%s", path, traceback.format_exc())
            return Checked(None, error=f"internal error: {type(e).__name__}: {e} (the server's log has the details)")

    async def check(uri: str) -> Result | None:
        doc = server.workspace.text_documents.get(uri)
        path = path_of(uri)
        if doc is None or path is None:
            return None
        text, version = doc.source, doc.version  # read here, in the loop: the editor's text as it is now
        lines = convert.Lines(text)
        body = text[1:] if lines.bom else text
        others = open_texts()
        others[os.path.abspath(path)] = body
        checked = await asyncio.get_running_loop().run_in_executor(
            state.worker, run_check, Path(os.path.abspath(path)), body, others)
        if uri not in server.workspace.text_documents:
            return None  # closed meanwhile
        result = Result(version, lines, checked, path)
        state.results[uri] = result
        publish(uri, result)
        return result

    def publish(uri: str, result: Result) -> None:
        checked = result.checked
        if checked.report is None:
            diags = [convert.error_diagnostic(checked.error or "the file could not be checked")]
        else:
            report = checked.report
            diags = [convert.diagnostic(f, result.lines, report.docs_url) for f in findings_of(result)]
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=result.version))

    def findings_of(result: Result) -> list:
        report = result.checked.report
        if report is None:
            return []
        mine = os.path.abspath(result.path)
        return [f for f in report.findings if os.path.abspath(f.path) == mine]

    def dependents(uri: str, result: Result) -> list[str]:
        """The open files that come after `uri` in its migrations folder (their history includes it)."""
        from icelint.plan.discovery import sort_key

        folder = result.checked.migrations
        if folder is None:
            return []
        root = os.path.realpath(folder)

        def key(p: Path):
            try:
                rel = Path(os.path.realpath(p)).relative_to(root).as_posix()
            except ValueError:
                return None
            return sort_key(rel, result.checked.order)

        mine = key(result.path)
        out = []
        for other in list(server.workspace.text_documents):
            p = path_of(other)
            if other == uri or p is None:
                continue
            k = key(p)
            if k is not None and (mine is None or k > mine):
                out.append((k, other))
        return [other for _, other in sorted(out)]

    async def drain() -> None:
        """Check the queued files one after the other, until the queue is empty or an edit is
        being debounced (its timer starts the queue again)."""
        try:
            while state.queue and state.timer is None:
                uri = next(iter(state.queue))
                cascade = state.queue.pop(uri)
                result = await check(uri)
                if cascade and result is not None:
                    for other in dependents(uri, result):
                        state.queue.setdefault(other, False)
        finally:
            state.running = None

    def kick() -> None:
        state.timer = None
        if state.running is None and state.queue:
            state.running = asyncio.ensure_future(drain())

    def want(uri: str, delay: float, cascade: bool = False) -> None:
        """Check `uri` first (after `delay`), and with `cascade` the open files after it then."""
        cascade = state.queue.pop(uri, False) or cascade
        state.queue = {uri: cascade, **state.queue}  # the edited file first, the dependents after it
        if state.timer is not None:
            state.timer.cancel()
        state.timer = asyncio.get_running_loop().call_later(delay, kick)

    @server.feature(lsp.INITIALIZE)
    def initialize(ls: LanguageServer, params: lsp.InitializeParams) -> None:
        opts = params.initialization_options
        if isinstance(opts, dict) and isinstance(opts.get("debounce"), (int, float)) and opts["debounce"] >= 0:
            state.debounce = float(opts["debounce"])

    @server.feature(lsp.INITIALIZED)
    def initialized(ls: LanguageServer, params: lsp.InitializedParams) -> None:
        """Ask the client to tell about migrations and configurations changed on disk (a `git
        checkout`, another editor), when it can."""
        state.worker.submit(warm_up)  # while the editor opens its first file
        caps = server.client_capabilities.workspace
        watched = caps.did_change_watched_files if caps is not None else None
        if watched is None or not watched.dynamic_registration:
            return
        globs = [lsp.FileSystemWatcher(glob_pattern=g) for g in ("**/*.sql", "**/pyproject.toml", "**/*.metadata.json")]
        server.client_register_capability(lsp.RegistrationParams([lsp.Registration(
            id="icelint-watched-files", method=lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES,
            register_options=lsp.DidChangeWatchedFilesRegistrationOptions(watchers=globs))]))

    @server.feature(lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def watched_changed(ls: LanguageServer, params: lsp.DidChangeWatchedFilesParams) -> None:
        """Files changed on disk: every open file is checked again (its history or configuration may be among them)."""
        for uri in list(server.workspace.text_documents):
            state.queue.setdefault(uri, False)
        if state.timer is None:
            kick()

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: LanguageServer, params: lsp.DidOpenTextDocumentParams) -> None:
        want(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: LanguageServer, params: lsp.DidChangeTextDocumentParams) -> None:
        want(params.text_document.uri, state.debounce, cascade=True)

    # open and save: the text the other files read (the editor's) is unchanged, so are their findings
    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: LanguageServer, params: lsp.DidSaveTextDocumentParams) -> None:
        want(params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: LanguageServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        result = state.results.pop(uri, None)
        state.queue.pop(uri, None)
        server.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        if result is not None:  # its unsaved text is gone: the files after it read the disk again
            for other in dependents(uri, result):
                state.queue.setdefault(other, False)
            if state.timer is None:
                kick()

    def current(uri: str) -> Result | None:
        """The document's last check, if it read the text the editor has now (else its positions are stale)."""
        result = state.results.get(uri)
        doc = server.workspace.text_documents.get(uri)
        if result is None or doc is None or result.version != doc.version or result.checked.report is None:
            return None
        return result

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]))
    async def code_action(ls: LanguageServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction] | None:
        uri = params.text_document.uri
        result = current(uri)
        if result is None:
            return None
        only = [getattr(k, "value", k) for k in params.context.only or ()]
        actions: list[lsp.CodeAction] = []
        if not only or any(k in ("quickfix", "") for k in only):
            here = convert.at(findings_of(result), result.lines, params.range)
            statements = next((v for k, v in result.checked.statements.items()
                               if os.path.abspath(k) == os.path.abspath(result.path)), [])
            actions += convert.code_actions(uri, here, result.lines, statements, result.checked.report.docs_url)
        # every fix, in passes, costs several checks: only when asked for by kind (fix on save, the
        # "source action" menu), not on every move of the cursor
        if any(k and (FIX_ALL == k or FIX_ALL.startswith(k + ".")) for k in only):
            action = await fix_all_action(uri, result)
            if action is not None:
                actions.append(action)
        return actions or None

    async def fix_all_action(uri: str, result: Result) -> lsp.CodeAction | None:
        """`source.fixAll.icelint`: the whole buffer as `icelint check --fix` leaves it."""
        doc = server.workspace.text_documents.get(uri)
        if doc is None or not any(f.fix is not None for f in findings_of(result)):
            return None
        text = doc.source
        bom = text.startswith("\ufeff")
        body = text[1:] if bom else text
        others = open_texts()
        fixed = await asyncio.get_running_loop().run_in_executor(
            state.worker, fix_all, Path(os.path.abspath(result.path)), body, others)
        if fixed is None:
            return None
        lines = convert.Lines(text)
        whole = lsp.Range(lsp.Position(0, 0), lines.offset_position(len(body)))
        return lsp.CodeAction(title="icelint: apply every fix", kind=FIX_ALL,
                              edit=lsp.WorkspaceEdit(changes={uri: [lsp.TextEdit(whole, ("\ufeff" if bom else "") + fixed)]}))

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: LanguageServer, params: lsp.HoverParams) -> lsp.Hover | None:
        result = current(params.text_document.uri)
        if result is None:
            return None
        return convert.hover(findings_of(result), result.lines, params.position)

    return server


def warm_up() -> None:
    """Import what a check needs (in the worker thread, before the first file is opened)."""
    try:
        import icelint.cli.state_flags
        import icelint.engine.checker
        import icelint.engine.pipeline  # noqa: F401
        from icelint.config import load_config

        load_config(Path.cwd()).rules()
    except Exception:  # noqa: BLE001 - the first check reports whatever is wrong
        log.debug("warm-up: %s", traceback.format_exc())


def serve() -> int:
    """Run the server on standard input and output until the client says `exit`."""
    import gc

    gc.enable()  # a long-lived process: `cli.entry` turns the collector off for one-shot runs
    # no forks from a process with threads (the LSP reader): its requests leave `CheckRequest.parallel` off
    logging.basicConfig(stream=sys.stderr, level=logging.WARNING, format="icelint server: %(levelname)s: %(message)s")
    stdin, stdout = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # whatever prints by mistake must not corrupt the protocol on stdout
    make_server().start_io(stdin, stdout)
    return 0
