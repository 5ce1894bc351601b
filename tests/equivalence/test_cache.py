"""The run cache of `icelint check` (icelint.run.cache): output byte-identical to `--no-cache` whatever
changes between runs, a hit that imports neither sqlglot nor the replay, and a cache that survives
corrupt entries and concurrent writers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "examples" / "snapshots" / "db.events.metadata.json"

CREATE = "CREATE TABLE db.events (id bigint, payload string, account_id bigint) USING iceberg;\nINSERT INTO db.events VALUES (1, 'a', 2);\n"
DROP = "ALTER TABLE db.events DROP COLUMN payload;\n"
READD = "ALTER TABLE db.events ADD COLUMN payload binary;\n"
NARROW = "ALTER TABLE db.events ALTER COLUMN account_id TYPE int;\n"
CLEAN = "ALTER TABLE db.events ADD COLUMN source string;\n"


def _env() -> dict[str, str]:
    drop = ("ICELINT_NO_CACHE", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "FORCE_COLOR", "NO_COLOR", "ICELINT_DEBUG")
    return {k: v for k, v in os.environ.items() if k not in drop}


def icelint(cwd: Path, *args: str, python_flags: tuple[str, ...] = ()) -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, *python_flags, "-m", "icelint", "check", *args], cwd=cwd,
                       capture_output=True, env=_env(), timeout=180)
    return r.returncode, r.stdout.decode("utf-8"), r.stderr.decode("utf-8")


def same_as_uncached(cwd: Path, *args: str) -> tuple[int, str]:
    """Run cached (a miss or a hit), cached again (a hit) and uncached: all three byte-identical."""
    first = icelint(cwd, *args)[:2]
    second = icelint(cwd, *args)[:2]
    plain = icelint(cwd, *args, "--no-cache")[:2]
    assert first == plain, (args, first, plain)
    assert second == plain, (args, second, plain)
    return plain


def project(tmp_path: Path, extra: str = "") -> Path:
    (tmp_path / "pyproject.toml").write_text(f'[tool.icelint]\nmigrations = "migrations"\n{extra}', encoding="utf-8")
    m = tmp_path / "migrations"
    m.mkdir()
    (m / "V1__create.sql").write_text(CREATE, encoding="utf-8")
    (m / "V2__drop.sql").write_text(DROP, encoding="utf-8")
    (m / "V3__readd.sql").write_text(READD, encoding="utf-8")
    return tmp_path


def test_every_change_between_runs_gives_the_uncached_output(tmp_path: Path) -> None:
    root = project(tmp_path)
    m = root / "migrations"
    outputs = []
    for fmt in ("text", "json"):
        outputs.append(same_as_uncached(root, "--format", fmt))
    assert outputs[0][0] == 1 and "ICE001" in outputs[0][1]
    cache = root / ".icelint_cache"
    assert (cache / ".gitignore").read_text(encoding="utf-8").splitlines()[-1] == "*"
    assert list(cache.glob("*.json")), "nothing was cached"

    steps = []
    # edit a file
    (m / "V3__readd.sql").write_text(CLEAN, encoding="utf-8")
    steps.append(same_as_uncached(root, "--format", "json"))
    # a new file, then a rename that reorders the files (the re-add now comes before the drop)
    (m / "V4__narrow.sql").write_text(NARROW, encoding="utf-8")
    steps.append(same_as_uncached(root, "--format", "json"))
    (m / "V3__readd.sql").write_text(READD, encoding="utf-8")
    steps.append(same_as_uncached(root, "--format", "json"))
    (m / "V2__drop.sql").rename(m / "V5__drop.sql")
    steps.append(same_as_uncached(root, "--format", "json"))
    # delete a file
    (m / "V4__narrow.sql").unlink()
    steps.append(same_as_uncached(root, "--format", "json"))
    # the configuration: a file key, then a flag
    (root / "pyproject.toml").write_text('[tool.icelint]\nmigrations = "migrations"\nignore = ["ICE011"]\n', encoding="utf-8")
    steps.append(same_as_uncached(root, "--format", "json"))
    steps.append(same_as_uncached(root, "--format", "json", "--fail-on", "info"))
    steps.append(same_as_uncached(root, "--format", "json", "--exit-zero"))
    steps.append(same_as_uncached(root, "--format", "sarif"))
    steps.append(same_as_uncached(root, "--statistics"))
    steps.append(same_as_uncached(root, "-q"))
    # every step changed the output: a cache that missed a change would have failed above
    seen = [outputs[1], *steps[:6]]
    assert all(a != b for a, b in zip(seen, seen[1:])), [i for i, (a, b) in enumerate(zip(seen, seen[1:])) if a == b]


def test_state_changes_are_seen(tmp_path: Path) -> None:
    (tmp_path / "V9__drop.sql").write_text("ALTER TABLE db.events DROP COLUMN payload;\n", encoding="utf-8")
    meta = tmp_path / "db.events.metadata.json"
    meta.write_bytes(SNAPSHOT.read_bytes())
    before = same_as_uncached(tmp_path, "V9__drop.sql", "--metadata", str(meta), "--format", "json")
    data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    for schema in data["schemas"]:
        for f in schema["fields"]:
            if f["name"] == "payload":
                f["name"] = "body"
    meta.write_text(json.dumps(data), encoding="utf-8")
    after = same_as_uncached(tmp_path, "V9__drop.sql", "--metadata", str(meta), "--format", "json")
    assert before != after
    assert (tmp_path / ".icelint_cache").is_dir()  # no pyproject.toml: the current directory


def test_a_hit_imports_neither_sqlglot_nor_the_replay(tmp_path: Path) -> None:
    root = project(tmp_path)
    icelint(root, "--format", "json")
    code, out, err = icelint(root, "--format", "json", python_flags=("-X", "importtime"))
    assert code == 1 and json.loads(out)["findings"]
    imported = {line.rsplit("|", 1)[-1].strip() for line in err.splitlines() if line.startswith("import time:")}
    assert "icelint.cli.main" in imported
    assert not {m for m in imported if m.startswith(("sqlglot", "icelint.replay", "icelint.syntax", "icelint.rules"))}
    code, out, err = icelint(root, "--format", "json", "--no-cache", python_flags=("-X", "importtime"))
    assert any("sqlglot" in line for line in err.splitlines())  # the check above can fail


def test_corrupt_entries_are_recomputed(tmp_path: Path) -> None:
    root = project(tmp_path)
    good = same_as_uncached(root, "--format", "json")
    entries = list((root / ".icelint_cache").glob("*.json"))
    assert entries
    for i, e in enumerate(entries):
        e.write_bytes([b"", b"{not json", b'{"format": 1, "key": "x", "code": 0, "output": "wrong"}', b"\xff\xfe"][i % 4])
    assert icelint(root, "--format", "json")[:2] == good
    for e in (root / ".icelint_cache").glob("*.json"):
        e.write_bytes(b'{"format": 1')
    assert icelint(root, "--format", "json")[:2] == good


def test_no_cache_and_cache_dir(tmp_path: Path) -> None:
    root = project(tmp_path, 'cache-dir = "build/lint-cache"\n')
    same_as_uncached(root, "--format", "json")
    assert not (root / ".icelint_cache").exists()
    assert list((root / "build" / "lint-cache").glob("*.json"))
    other = tmp_path / "other"
    other.mkdir()
    project(other)
    icelint(other, "--no-cache")
    assert not (other / ".icelint_cache").exists()


def test_stdin_and_add_suppressions_are_never_cached(tmp_path: Path) -> None:
    root = project(tmp_path)
    r = subprocess.run([sys.executable, "-m", "icelint", "check", "-"], cwd=root, input=(CREATE + DROP + READD).encode(),
                       capture_output=True, env=_env(), timeout=180)
    assert r.returncode == 1
    assert not (root / ".icelint_cache").exists()
    code, _, err = icelint(root, "--add-suppressions", "legacy")
    assert code == 0, err
    assert not (root / ".icelint_cache").exists()
    assert "icelint: ignore ICE001 -- legacy" in (root / "migrations" / "V3__readd.sql").read_text(encoding="utf-8")


def test_concurrent_runs_do_not_corrupt_the_cache(tmp_path: Path) -> None:
    root = project(tmp_path)
    plain = icelint(root, "--format", "json", "--no-cache")[:2]
    for _ in range(2):
        procs = [subprocess.Popen([sys.executable, "-m", "icelint", "check", "--format", "json"], cwd=root,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=_env()) for _ in range(3)]
        for p in procs:
            out, _ = p.communicate(timeout=180)
            assert (p.returncode, out.decode("utf-8")) == plain
    assert not list((root / ".icelint_cache").glob(".tmp-*"))
    assert icelint(root, "--format", "json")[:2] == plain


def test_a_long_report_is_cached_as_it_is_written(tmp_path: Path) -> None:
    # the entry is written as the report is rendered (cache.EntryWriter, in chunks of 64 K characters):
    # a report of several chunks, non-ASCII names included, comes back byte for byte
    root = project(tmp_path)
    wide = ", ".join(f"`côté_{i}` string" for i in range(400))
    (root / "migrations" / "V4__wide.sql").write_text(
        f"CREATE TABLE db.wide (id bigint, {wide}) USING iceberg;\n"
        + "".join(f"ALTER TABLE db.wide ALTER COLUMN `côté_{i}` FIRST;\n" for i in range(0, 400, 2)),
        encoding="utf-8",
    )
    for fmt in ("text", "json"):
        code, out = same_as_uncached(root, "--format", fmt)
        assert code == 1 and len(out) > 2 * 65536 and "côté_" in out
    entries = list((root / ".icelint_cache").glob("*.json"))
    assert len(entries) == 2 and not list((root / ".icelint_cache").glob(".tmp-*"))
    outputs = {json.loads(e.read_text(encoding="utf-8"))["output"] for e in entries}
    assert outputs == {icelint(root, "--format", f, "--no-cache")[1] for f in ("text", "json")}


def test_an_entry_not_committed_leaves_nothing(tmp_path: Path) -> None:
    from icelint.run import cache

    slot = cache.Slot(tmp_path / "c", "k" * 64)
    w = slot.writer()
    w.write("half a report")
    w.abandon()
    assert slot.load() is None and [p.name for p in (tmp_path / "c").iterdir()] == [".gitignore"]
    w = slot.writer()
    w.write("a report\n")
    w.commit(1)
    w.abandon()  # after a commit: nothing to undo
    assert slot.load() == ("a report\n", 1)
    (tmp_path / "file").write_text("", encoding="utf-8")
    unwritable = cache.Slot(tmp_path / "file" / "c", "k" * 64).writer()  # a file where the folder should be
    unwritable.write("x")
    unwritable.commit(0)  # skipped silently, as a cache that cannot be written always is
    assert not (tmp_path / "file" / "c").exists()
