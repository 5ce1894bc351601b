"""`icelint server` under a real LSP client: diagnostics on open, change and save, code actions that
apply, hover, later files re-checked, broken files, and the missing extra."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

from lsprotocol import types as lsp

from tests.server.editor import ROOT, Editor, apply_edits, project, run, uri_of

CREATE = "CREATE TABLE db.events (id bigint, payload string) USING iceberg;\n"
DROP = "ALTER TABLE db.events DROP COLUMN payload;\n"
READD = "ALTER TABLE db.events ADD COLUMN payload string;\n"


def codes(diags) -> list[str]:
    return sorted(str(d.code) for d in diags)


def test_diagnostics_follow_the_buffer_on_open_change_and_save(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": CREATE, "migrations/V2__drop.sql": DROP,
                              "migrations/V3__readd.sql": READD})
    v3 = root / "migrations" / "V3__readd.sql"

    async def go():
        async with Editor(root) as ed:
            opened = await ed.open(v3)
            assert codes(opened) == ["ICE001"]
            d = opened[0]
            assert d.severity == lsp.DiagnosticSeverity.Error and d.source == "icelint"
            assert d.range == lsp.Range(lsp.Position(0, 33), lsp.Position(0, 47))  # `payload string`
            assert "field id 3" in d.message and "\n\n" in d.message  # the message, then the help
            assert d.code_description.href.endswith("ICE001.md")
            # the unsaved buffer is what is checked, not the file on disk
            changed = await ed.change(v3, "ALTER TABLE db.events ADD COLUMN body string;\n")
            assert changed == []
            assert (await ed.change(v3, READD + "ALTER TABLE db.events ADD COLUMN x int;\n")) != []
            saved = await ed.save(v3)
            assert codes(saved) == ["ICE001"]

    run(go())


def test_severities_map_to_lsp(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": CREATE, "migrations/V2__drop.sql": DROP})

    async def go():
        async with Editor(root) as ed:
            got = await ed.open(root / "migrations" / "V2__drop.sql")
            assert [(d.code, d.severity) for d in got] == [("ICE011", lsp.DiagnosticSeverity.Warning)]

    run(go())


def test_later_open_files_are_rechecked_when_an_earlier_one_changes(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": CREATE, "migrations/V2__drop.sql": DROP,
                              "migrations/V3__readd.sql": READD})
    v2, v3 = root / "migrations" / "V2__drop.sql", root / "migrations" / "V3__readd.sql"

    async def go():
        async with Editor(root) as ed:
            assert codes(await ed.open(v3)) == ["ICE001"]
            await ed.open(v2)
            uri, version = ed.send_change(v2, "-- the drop is gone\n")
            # (an older file than the folder's newest is ICE022 in `icelint check --stdin-filename` too)
            assert codes(await ed.diagnostics(uri, version)) == ["ICE022"]
            # V3 re-checked: `payload` was never dropped, so adding it fails in Spark
            assert codes(await ed.diagnostics(uri_of(v3), 1)) == ["ICE005"]
            ed.send_change(v2, DROP)
            assert codes(await ed.diagnostics(uri_of(v3), 1)) == ["ICE001"]
            ed.close(v2)  # back to the disk's text, which drops: V3 is re-checked with it
            assert codes(await ed.diagnostics(uri_of(v3), 1)) == ["ICE001"]

    run(go())


PARTITION = "CREATE TABLE db.logs (id bigint, logged_at timestamp) USING iceberg PARTITIONED BY (days(logged_at));\n"
FIXABLE = "ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;\nSET spark.sql.caseSensitive=true;\nALTER TABLE db.logs ADD COLUMN x int;\n"


def test_code_actions_fixes_first_then_suppressions_and_each_applies_cleanly(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": PARTITION, "migrations/V2__change.sql": FIXABLE})
    v2 = root / "migrations" / "V2__change.sql"
    uri = uri_of(v2)

    async def go():
        async with Editor(root) as ed:
            assert codes(await ed.open(v2)) == ["ICE003", "ICE008"]
            whole = lsp.Range(lsp.Position(0, 0), lsp.Position(3, 0))
            actions = await ed.code_actions(v2, whole)
            titles = [a.title for a in actions]
            assert titles[0].startswith("ICE003: name the partition field exactly") and actions[0].is_preferred
            assert titles[1] == "ICE008: remove the SET (unsafe)" and not actions[1].is_preferred
            assert all(t.startswith("Suppress ") for t in titles[2:]) and len(titles) == 6
            # the safe fix: the partition error is gone, nothing new appears
            fixed = apply_edits(FIXABLE, actions[0].edit.changes[uri])
            assert fixed.startswith("ALTER TABLE db.logs DROP PARTITION FIELD logged_at_day;")
            assert codes(await ed.change(v2, fixed)) == ["ICE008"]
            # the unsafe fix on the re-checked text
            actions = await ed.code_actions(v2, whole)
            assert actions[0].title == "ICE008: remove the SET (unsafe)"
            assert await ed.change(v2, apply_edits(fixed, actions[0].edit.changes[uri])) == []
            # a suppression comment for the statement: the finding is waived and the comment used (no ICE100)
            await ed.change(v2, FIXABLE)
            actions = await ed.code_actions(v2, lsp.Range(lsp.Position(0, 45), lsp.Position(0, 45)))
            stmt = next(a for a in actions if a.title == "Suppress ICE003 (partition-source-change) for this statement")
            text = apply_edits(FIXABLE, stmt.edit.changes[uri])
            assert text.startswith("-- icelint: ignore ICE003 -- <reason>\nALTER TABLE db.logs DROP PARTITION FIELD")
            assert codes(await ed.change(v2, text)) == ["ICE008"]
            # a suppression for the whole file
            actions = await ed.code_actions(v2, lsp.Range(lsp.Position(2, 0), lsp.Position(2, 5)))
            whole_file = next(a for a in actions if a.title.startswith("Suppress ICE008") and a.title.endswith("in this file"))
            assert await ed.change(v2, apply_edits(text, whole_file.edit.changes[uri])) == []

    run(go())


def test_hover_over_a_finding_shows_the_rule_documentation(tmp_path: Path) -> None:
    from icelint.rules import get

    root = project(tmp_path, {"migrations/V1__create.sql": CREATE, "migrations/V2__drop.sql": DROP,
                              "migrations/V3__readd.sql": READD})
    v3 = root / "migrations" / "V3__readd.sql"

    async def go():
        async with Editor(root) as ed:
            await ed.open(v3)
            got = await ed.hover(v3, lsp.Position(0, 40))
            assert got is not None and got.contents.kind == lsp.MarkupKind.Markdown
            assert got.contents.value.startswith("# ICE001 drop-then-add (error)")
            assert get("ICE001").doc.strip() in got.contents.value
            assert await ed.hover(v3, lsp.Position(0, 3)) is None  # no finding under `ALTER`

    run(go())


def test_broken_files_never_stop_the_server(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": CREATE})
    bad = root / "migrations" / "V2__bad.sql"
    elsewhere = project(tmp_path / "broken", {"x.sql": CREATE}, config="select = [\n")  # not TOML

    async def go():
        async with Editor(root) as ed:
            garbage = await ed.open(bad, "ALTER TABLE db.events ADD COLUMN ((( ;;; ')\n\x00\x01\x02\ufffd\n" + "(" * 5000)
            assert garbage and all(d.source == "icelint" for d in garbage)
            await ed.change(bad, "\x00" * 1000 + "\udcff")  # binary, and a lone surrogate
            await ed.change(bad, "SELECT '" + "x" * 100_000)
            assert any("icelint: " in d.message for d in await ed.open(elsewhere / "x.sql"))  # the config error, one line
            # still serving: a normal file is checked as before
            assert codes(await ed.change(bad, "ALTER TABLE db.events ADD COLUMN body string;\n")) == []
            assert await ed.hover(bad, lsp.Position(0, 0)) is None

    run(go())


def test_without_the_extra_one_line_and_exit_2(tmp_path: Path) -> None:
    fake = tmp_path / "fake"
    (fake / "pygls").mkdir(parents=True)
    (fake / "pygls" / "__init__.py").write_text("raise ImportError('no pygls here')\n", encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(fake), str(ROOT)]))
    proc = subprocess.run([sys.executable, "-m", "icelint", "server"], check=False, capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "icelint: error: `icelint server` needs the lsp extra (pygls, lsprotocol): pip install 'icelint[lsp]'"]
    assert proc.stdout == ""


def test_positions_count_utf16_units_and_a_byte_order_mark(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": CREATE})
    v2 = root / "migrations" / "V2__drop.sql"
    drop = "ALTER TABLE db.events /* 😀 é */ DROP COLUMN payload;\n"  # 😀 is two UTF-16 units, é one

    async def go():
        async with Editor(root) as ed:
            got = await ed.open(v2, drop)
            start = drop.index("payload")
            assert [(d.code, d.range) for d in got] == [
                ("ICE011", lsp.Range(lsp.Position(0, start + 1), lsp.Position(0, start + 1 + len("payload"))))]
            got = await ed.change(v2, "\ufeff" + drop)  # the mark is a character of the editor's first line
            assert [d.range for d in got] == [lsp.Range(lsp.Position(0, start + 2), lsp.Position(0, start + 2 + len("payload")))]
            actions = await ed.code_actions(v2, got[0].range)
            stmt = next(a for a in actions if a.title.endswith("for this statement"))
            text = apply_edits("\ufeff" + drop, stmt.edit.changes[uri_of(v2)])
            assert text == "\ufeff-- icelint: ignore ICE011 -- <reason>\n" + drop
            assert await ed.change(v2, text) == []

    run(go())


def test_a_history_file_changed_on_disk_rechecks_the_open_files(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": CREATE, "migrations/V2__drop.sql": DROP,
                              "migrations/V3__readd.sql": READD})
    v3 = root / "migrations" / "V3__readd.sql"
    capabilities = lsp.ClientCapabilities(workspace=lsp.WorkspaceClientCapabilities(
        did_change_watched_files=lsp.DidChangeWatchedFilesClientCapabilities(dynamic_registration=True)))

    async def go():
        async with Editor(root, capabilities=capabilities) as ed:
            assert codes(await ed.open(v3)) == ["ICE001"]
            assert [r.method for r in ed.registrations] == [lsp.WORKSPACE_DID_CHANGE_WATCHED_FILES]
            (root / "migrations" / "V2__drop.sql").write_text("-- no drop any more\n", encoding="utf-8")  # a `git checkout`
            ed.client.workspace_did_change_watched_files(lsp.DidChangeWatchedFilesParams([lsp.FileEvent(
                uri_of(root / "migrations" / "V2__drop.sql"), lsp.FileChangeType.Changed)]))
            assert codes(await ed.diagnostics(uri_of(v3), 1)) == ["ICE005"]  # `payload` was never dropped: it exists

    run(go())


def test_fix_all_is_what_check_fix_leaves(tmp_path: Path) -> None:
    root = project(tmp_path, {"migrations/V1__create.sql": PARTITION, "migrations/V2__change.sql": FIXABLE})
    v2 = root / "migrations" / "V2__change.sql"
    uri = uri_of(v2)
    fixed = subprocess.run([sys.executable, "-m", "icelint", "check", "--no-cache", "--fix", "--stdin-filename", str(v2)],
                           input=FIXABLE, capture_output=True, text=True, cwd=root, check=False,
                           env=dict(os.environ, PYTHONPATH=str(ROOT))).stdout
    assert fixed.startswith("ALTER TABLE db.logs DROP PARTITION FIELD logged_at_day;")  # the safe fix only

    async def go():
        async with Editor(root) as ed:
            await ed.open(v2)
            everything = lsp.Range(lsp.Position(0, 0), lsp.Position(3, 0))
            got = await asyncio.wait_for(ed.client.text_document_code_action_async(lsp.CodeActionParams(
                lsp.TextDocumentIdentifier(uri), everything,
                lsp.CodeActionContext(diagnostics=[], only=[lsp.CodeActionKind.SourceFixAll]))), 60)
            assert [a.kind for a in got] == ["source.fixAll.icelint"]
            assert apply_edits(FIXABLE, got[0].edit.changes[uri]) == fixed
            assert all(a.kind == lsp.CodeActionKind.QuickFix for a in await ed.code_actions(v2, everything))  # not unasked

    run(go())
