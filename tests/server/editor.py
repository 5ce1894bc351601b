"""A real LSP client (pytest-lsp's) driving `icelint server` in its own process, as an editor does."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import make_test_lsp_client

ROOT = Path(__file__).resolve().parents[2]
TIMEOUT = 60.0


def uri_of(path: Path) -> str:
    return path.resolve().as_uri()


class Editor:
    """Open, edit, save and close documents; wait for the diagnostics of one version of one document."""

    def __init__(self, cwd: Path, debounce: float = 0.0, capabilities: lsp.ClientCapabilities | None = None) -> None:
        self.cwd, self.debounce = cwd, debounce
        self.capabilities = capabilities or lsp.ClientCapabilities()
        self.client = make_test_lsp_client()
        self.published: list[lsp.PublishDiagnosticsParams] = []
        self.arrived = asyncio.Event()
        self.versions: dict[str, int] = {}
        self.texts: dict[str, str] = {}
        features = self.client.protocol.fm.features
        default = features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def on_publish(params: lsp.PublishDiagnosticsParams) -> None:
            default(params)
            self.published.append(params)
            self.arrived.set()

        features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
        self.registrations: list[lsp.Registration] = []  # what the server asked the client to register
        self.client.feature(lsp.CLIENT_REGISTER_CAPABILITY)(lambda params: self.registrations.extend(params.registrations))

    async def __aenter__(self) -> Editor:
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        await self.client.start_io(sys.executable, "-m", "icelint", "server", cwd=str(self.cwd), env=env)
        await self.client.initialize_session(lsp.InitializeParams(
            capabilities=self.capabilities, root_uri=uri_of(self.cwd),
            initialization_options={"debounce": self.debounce}))
        return self

    async def __aexit__(self, *exc) -> None:
        await asyncio.wait_for(self.client.shutdown_session(), TIMEOUT)
        await self.client.stop()

    async def diagnostics(self, uri: str, version: int | None = None) -> list[lsp.Diagnostic]:
        """The diagnostics published for `uri` (for `version`, when given), waiting for them."""
        seen = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + TIMEOUT
        while True:
            for p in self.published[seen:]:
                if p.uri == uri and (version is None or p.version == version):
                    self.published.remove(p)
                    return list(p.diagnostics)
            seen = len(self.published)
            self.arrived.clear()
            left = deadline - loop.time()
            if left <= 0:
                raise TimeoutError(f"no diagnostics for {uri} version {version}")
            await asyncio.wait_for(self.arrived.wait(), left)

    async def open(self, path: Path, text: str | None = None) -> list[lsp.Diagnostic]:
        uri = uri_of(path)
        text = path.read_text(encoding="utf-8") if text is None else text
        self.versions[uri], self.texts[uri] = 1, text
        self.client.text_document_did_open(lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(uri=uri, language_id="sql", version=1, text=text)))
        return await self.diagnostics(uri, 1)

    def send_change(self, path: Path, text: str) -> tuple[str, int]:
        uri = uri_of(path)
        self.versions[uri] += 1
        self.texts[uri] = text
        self.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
            [lsp.TextDocumentContentChangeWholeDocument(text=text)]))
        return uri, self.versions[uri]

    async def change(self, path: Path, text: str) -> list[lsp.Diagnostic]:
        return await self.diagnostics(*self.send_change(path, text))

    async def save(self, path: Path) -> list[lsp.Diagnostic]:
        uri = uri_of(path)
        path.write_text(self.texts[uri], encoding="utf-8")
        self.client.text_document_did_save(lsp.DidSaveTextDocumentParams(lsp.TextDocumentIdentifier(uri)))
        return await self.diagnostics(uri, self.versions[uri])

    def close(self, path: Path) -> None:
        self.client.text_document_did_close(lsp.DidCloseTextDocumentParams(lsp.TextDocumentIdentifier(uri_of(path))))

    async def code_actions(self, path: Path, where: lsp.Range) -> list[lsp.CodeAction]:
        got = await asyncio.wait_for(self.client.text_document_code_action_async(lsp.CodeActionParams(
            lsp.TextDocumentIdentifier(uri_of(path)), where, lsp.CodeActionContext(diagnostics=[]))), TIMEOUT)
        return list(got or [])

    async def hover(self, path: Path, at: lsp.Position) -> lsp.Hover | None:
        return await asyncio.wait_for(self.client.text_document_hover_async(
            lsp.HoverParams(lsp.TextDocumentIdentifier(uri_of(path)), at)), TIMEOUT)


def apply_edits(text: str, edits: list[lsp.TextEdit]) -> str:
    """`text` with LSP edits applied (UTF-16 positions), the last first, as an editor applies them."""
    lines = text.split("\n")

    def offset(p: lsp.Position) -> int:
        start = sum(len(row) + 1 for row in lines[: p.line])
        row = lines[p.line] if p.line < len(lines) else ""
        units = 0
        for i, ch in enumerate(row):
            if units >= p.character:
                return start + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return start + len(row)

    for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(e.range.start)] + e.new_text + text[offset(e.range.end):]
    return text


def project(root: Path, files: dict[str, str], config: str = 'migrations = "migrations"\n') -> Path:
    """A project folder: `pyproject.toml` with `[tool.icelint]` and the files (paths relative to it)."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text("[tool.icelint]\n" + config, encoding="utf-8")
    for rel, text in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return root


def run(coro):
    return asyncio.run(coro)
