"""Running the CLI in-process, from a clean directory."""

from __future__ import annotations

from dataclasses import dataclass

from click.testing import CliRunner

from icelint.cli.main import main


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str


def icelint(*args: str) -> Result:
    r = CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)
    return Result(r.exit_code, r.stdout, r.stderr)


def one_error_line(r: Result) -> str:
    """The single stderr line of a failed run (asserts it is exactly one line and exit code 2)."""
    lines = [ln for ln in r.stderr.splitlines() if ln.strip()]
    assert r.code == 2, (r.code, r.stdout, r.stderr)
    assert len(lines) == 1, r.stderr
    assert lines[0].startswith("icelint: error: "), lines[0]
    assert "Traceback" not in r.stderr + r.stdout
    return lines[0]


def columns(schema_json: str, table: str) -> list[str]:
    """The top-level column names of `table`'s current schema in `icelint schema --format json` output."""
    import json

    meta = json.loads(schema_json)[table]
    schema = next(s for s in meta["schemas"] if s["schema-id"] == meta["current-schema-id"])
    return [f["name"] for f in schema["fields"]]
