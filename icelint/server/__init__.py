"""`icelint server`: a language server (LSP over standard input and output) for editors.

It needs the `lsp` extra (pygls and lsprotocol): `pip install 'icelint[lsp]'`. The modules:
`app` (the LSP features), `engine` (the one call into the check), `slices` (which files of the
folder a check may leave out, for speed) and `convert` (findings as diagnostics, code actions and
hover text).
"""

from __future__ import annotations

from icelint.values.source import InputError

EXTRA_HINT = "`icelint server` needs the lsp extra (pygls, lsprotocol): pip install 'icelint[lsp]'"


def main() -> int:
    """Start the server; without the extra, one line and exit code 2 (an `InputError`)."""
    try:
        import lsprotocol  # noqa: F401
        import pygls  # noqa: F401
        from pygls.lsp.server import LanguageServer  # noqa: F401 - pygls 2's layout
    except ImportError:
        raise InputError(EXTRA_HINT) from None
    from icelint.server.app import serve

    return serve()
