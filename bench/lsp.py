"""The language server's diagnostics round-trip, as an editor sees it.

    python bench/lsp.py [--edits 40] [--debounce 0.04]

A real LSP client (pytest-lsp's, on pygls) starts `python -m icelint server` in its own process,
in a project whose `[tool.icelint]` names a migrations folder of 4,000 statements (40 files of 100,
written to `bench/out/lsp/`), opens files and edits one: each edit is a `didChange` with the whole
new text, and the round-trip is the wall time from sending it to receiving the
`publishDiagnostics` of that version (debounce included). Edits alternate between text with
findings (a re-add after a drop) and without. The first edits are warm-up (not counted).

Rows (target for each: median round-trip <= 150 ms):
- `10 tables, last file`: the folder of `bench_cache.py` (10 tables, each created in its first
  file, then columns added and commented); the last file is edited.
- `10 tables, middle file`: the 20th file is edited while the last one is open too: its round-trip,
  and when the last file's re-check (it comes after the edited one) arrives.
- `1 table, last file`: the same 4,000 statements on one table: no file can be left out of the
  check (the server's cut by table does not apply); the 3,900 statements before the edited file
  come from the checkpoint the previous check left (`icelint.run.checkpoint`).

CPU is the server process's user+sys time per edit (from /proc), less noisy than wall time on a
shared machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

from lsprotocol import types as lsp
from pytest_lsp import make_test_lsp_client

HERE = Path(__file__).resolve().parent
OUT = HERE / "out" / "lsp"
REPO = HERE.parent


def make_folder(name: str, tables: int) -> Path:
    """40 files of 100 statements: as `bench_cache.make_folder`, over `tables` tables."""
    root = OUT / name
    if root.exists():
        shutil.rmtree(root)
    m = root / "migrations"
    m.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[tool.icelint]\nmigrations = "migrations"\n', encoding="utf-8")
    for k in range(40):
        t = k % tables
        lines = []
        if k < tables:
            lines.append(f"CREATE TABLE db.t{t} (id bigint, kind string, payload string) USING iceberg PARTITIONED BY (kind);")
        while len(lines) < 100:
            i = len(lines)
            if i % 3 == 2:
                lines.append(f"ALTER TABLE db.t{t} ALTER COLUMN c{k}_{i - 1} COMMENT 'note {i}';")
            else:
                lines.append(f"ALTER TABLE db.t{t} ADD COLUMN c{k}_{i} {'string' if i % 2 else 'int'};")
        (m / f"V{k + 1}__step_{k + 1}.sql").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return root


def cpu_of(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Client:
    def __init__(self) -> None:
        self.client = make_test_lsp_client()
        self.got: dict[tuple[str, int], float] = {}
        self.event = asyncio.Event()
        features = self.client.protocol.fm.features
        default = features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

        def on_publish(params: lsp.PublishDiagnosticsParams) -> None:
            default(params)
            self.got[(params.uri, params.version)] = time.perf_counter()
            self.event.set()

        features[lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish

    async def wait(self, uri: str, version: int, after: float = 0.0) -> float:
        while True:
            t = self.got.get((uri, version))
            if t is not None and t >= after:
                return t
            self.event.clear()
            await asyncio.wait_for(self.event.wait(), 120)


async def measure(root: Path, edited: str, also_open: str | None, edits: int, warmup: int, debounce: float) -> dict:
    c = Client()
    env = dict(os.environ, PYTHONPATH=str(REPO))
    await c.client.start_io(sys.executable, "-m", "icelint", "server", cwd=str(root), env=env)
    await c.client.initialize_session(lsp.InitializeParams(capabilities=lsp.ClientCapabilities(), root_uri=root.as_uri(),
                                                           initialization_options={"debounce": debounce}))
    pid = c.client._server.pid
    path = root / "migrations" / edited
    uri = path.as_uri()
    base = path.read_text(encoding="utf-8")
    t0 = time.perf_counter()
    c.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=uri, language_id="sql", version=1, text=base)))
    await c.wait(uri, 1)
    cold = time.perf_counter() - t0
    other_uri = None
    if also_open:
        other = root / "migrations" / also_open
        other_uri = other.as_uri()
        c.client.text_document_did_open(lsp.DidOpenTextDocumentParams(lsp.TextDocumentItem(uri=other_uri, language_id="sql", version=1, text=other.read_text())))
        await c.wait(other_uri, 1)
    table = "db.t" + base.split("db.t", 1)[1].split(" ", 1)[0]
    trips, dependents, cpus = [], [], []
    for i in range(warmup + edits):
        extra = (f"ALTER TABLE {table} DROP COLUMN payload;\nALTER TABLE {table} ADD COLUMN payload string;\n" if i % 2
                 else f"ALTER TABLE {table} ADD COLUMN e{i} int;\n")
        version = i + 2
        cpu0 = cpu_of(pid)
        sent = time.perf_counter()
        c.client.text_document_did_change(lsp.DidChangeTextDocumentParams(
            lsp.VersionedTextDocumentIdentifier(version=version, uri=uri), [lsp.TextDocumentContentChangeWholeDocument(base + extra)]))
        arrived = await c.wait(uri, version)
        if other_uri is not None:
            dep = await c.wait(other_uri, 1, after=sent)
        else:
            dep = arrived
        await asyncio.sleep(0.05)  # the server idle again: the CPU read below is this edit's alone
        cpu1 = cpu_of(pid)
        if i >= warmup:
            trips.append(arrived - sent)
            dependents.append(dep - sent)
            cpus.append(cpu1 - cpu0)
    await c.client.shutdown_session()
    await c.client.stop()
    trips.sort()
    return {"cold": cold, "median": statistics.median(trips), "p90": trips[int(len(trips) * 0.9) - 1], "max": trips[-1],
            "cpu": statistics.median(cpus), "dependent": statistics.median(dependents) if other_uri else None, "n": len(trips)}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--edits", type=int, default=40)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--debounce", type=float, default=0.04, help="the server's debounce in seconds (its default: 0.04)")
    args = ap.parse_args()
    ten, one = make_folder("ten-tables", 10), make_folder("one-table", 1)
    rows = [
        ("10 tables, last file", ten, "V40__step_40.sql", None),
        ("10 tables, middle file (last one open)", ten, "V20__step_20.sql", "V40__step_40.sql"),
        ("1 table, last file", one, "V40__step_40.sql", None),
    ]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"4,000 statements / 40 files; {args.edits} edits after {args.warmup} warm-up; debounce {args.debounce * 1000:.0f} ms; "
          f"{os.cpu_count()} CPUs, load average {load}")
    print("| Case | Open (cold) | Round-trip median | p90 | max | Server CPU / edit | Later file re-checked (median) |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name, root, edited, also in rows:
        r = asyncio.run(measure(root, edited, also, args.edits, args.warmup, args.debounce))
        dep = f"{r['dependent'] * 1000:.0f} ms" if r["dependent"] is not None else ""
        print(f"| {name} | {r['cold'] * 1000:.0f} ms | {r['median'] * 1000:.0f} ms | {r['p90'] * 1000:.0f} ms | "
              f"{r['max'] * 1000:.0f} ms | {r['cpu'] * 1000:.0f} ms | {dep} |", flush=True)


if __name__ == "__main__":
    main()
