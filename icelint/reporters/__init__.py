"""Reporters render a `Report`; they decide nothing. `REPORTERS` maps --format names to render functions."""

from __future__ import annotations

from typing import IO, Callable

from icelint.reporters.report import Report  # noqa: F401 - the value every reporter renders


def _text(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.text import render

    render(report, out, **kw)


def _json(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.json import render

    render(report, out, **kw)


def _sarif(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.sarif import render

    render(report, out, **kw)


def _github(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.github import render

    render(report, out, **kw)


def _gitlab(report: Report, out: IO[str], **kw) -> None:
    from icelint.reporters.gitlab import render

    render(report, out, **kw)


def _lazy(module: str) -> Callable[..., None]:
    """A reporter whose module is imported only when its format is used."""

    def render(report: Report, out: IO[str], **kw) -> None:
        import importlib

        importlib.import_module(f"icelint.reporters.{module}").render(report, out, **kw)

    return render


REPORTERS: dict[str, Callable[..., None]] = {
    "text": _text,
    "json": _json,
    "sarif": _sarif,
    "github": _github,
    "gitlab": _gitlab,
    "junit": _lazy("junit"),
    "json-lines": _lazy("json_lines"),
}
FORMATS = tuple(REPORTERS)
