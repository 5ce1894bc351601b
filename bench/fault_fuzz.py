"""Faults at random moments: `python bench/fault_fuzz.py --seconds 600 [--seed N]`.

Each round builds a small project in a temporary folder and does one of:

- `check --fix` or `check --add-suppressions`, killed (SIGINT or SIGKILL) after a random delay; the
  migrations include one reached through a symbolic link and one with a second hard link;
- `snapshot` into a folder holding an out-of-date snapshot, killed the same way;
- a cached `check` after a bad entry was planted in place of the run's entry (JSON nested thousands
  deep, a FIFO, a link to /dev/zero or to a forged entry, a folder, garbage, a truncated entry).

(the delay counts from the moment the interpreter is up: Ctrl-C inside CPython's own start-up, before
any icelint code runs, is CPython's to report) and then requires: exit 0/1/2 (130 for SIGINT; SIGKILL's own status for a kill), at most one line
on stderr and never a traceback; every file either as it was or exactly as an uninterrupted run
leaves it, and no other file changed; no temporary file left behind once the next run of the
same command has run (SIGKILL cannot be caught: its leftovers are removed by that run); and that
next run's output the same as an uncached, serial (`ICELINT_JOBS=1`) run. Exits 1 at the first
round that breaks one of these, printing the round; 0 otherwise. `tests/faults/test_fault_fuzz.py`
runs it for a few seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "examples" / "snapshots" / "db.events.metadata.json"

CREATE = "CREATE TABLE db.logs (id bigint, logged_at timestamp, a int) USING iceberg PARTITIONED BY (days(logged_at));\n"
FIXABLE = "ALTER TABLE db.logs DROP PARTITION FIELD Logged_At_Day;\n"  # ICE003, a safe fix
RISKY = "ALTER TABLE db.logs DROP COLUMN a;\nALTER TABLE db.logs ADD COLUMN a string;\n"  # ICE001: suppressible
NO_CACHE = ("ICELINT_NO_CACHE", "ICELINT_DEBUG", "GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "FORCE_COLOR", "NO_COLOR")


class Broken(Exception):
    """A round broke a property."""


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in NO_CACHE}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    env.update(extra)
    return env


def _icelint(cwd: Path, *args: str, **env: str) -> tuple[int, str, str]:
    r = subprocess.run([sys.executable, "-m", "icelint", *args], cwd=cwd, capture_output=True, env=_env(**env), timeout=120)
    return r.returncode, r.stdout.decode("utf-8", "replace"), r.stderr.decode("utf-8", "replace")


def _tree(base: Path) -> dict[str, bytes | str]:
    """Every file under `base` (links as their target text), for comparing before and after."""
    out: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(base):
        dirnames[:] = [d for d in dirnames if d != ".icelint_cache"]
        for name in dirnames + filenames:
            p = Path(dirpath) / name
            rel = str(p.relative_to(base))
            if p.is_symlink():
                out[rel] = "-> " + os.readlink(p)
            elif p.is_file():
                out[rel] = p.read_bytes()
    return out


def _temporaries(base: Path) -> list[str]:
    return [k for k in _tree(base) if k.endswith((".icelint-tmp", ".tmp"))]


_ICELINT_FRAME = re.compile(r'File "[^"]*[/\\]icelint[/\\]')  # a frame in icelint's own code


def _quiet_enough(code: int, err: str, killed: int | None, what: str) -> None:
    if killed == signal.SIGINT and "Traceback" in err and not _ICELINT_FRAME.search(err):
        return  # it landed in the launcher's lines, before the first line of icelint ran
    if "Traceback" in err or "internal error" in err:
        raise Broken(f"{what}: a traceback or internal error:\n{err[-2000:]}")
    if killed == signal.SIGKILL and code == -signal.SIGKILL:
        return
    if code not in (0, 1, 2) and not (killed == signal.SIGINT and code == 130):
        raise Broken(f"{what}: exit {code}:\n{err[-2000:]}")
    if len(err.splitlines()) > 1 and code in (2, 130):
        raise Broken(f"{what}: more than one line on stderr:\n{err[-2000:]}")


# the interpreter is up (its `site` imported): say so, then start icelint as `python -m icelint` does.
# The delay counts from there: Ctrl-C inside CPython's own initialisation is CPython's to report.
_LAUNCH = """import os, runpy, sys
os.write(int(sys.argv[1]), b"up")
os.close(int(sys.argv[1]))
sys.argv = ["icelint", *sys.argv[2:]]
runpy.run_module("icelint", run_name="__main__", alter_sys=True)
"""


def _killed(cwd: Path, args: list[str], delay: float, sig: int) -> tuple[int, str]:
    r, w = os.pipe()
    p = subprocess.Popen([sys.executable, "-c", _LAUNCH, str(w), *args], cwd=cwd, env=_env(), pass_fds=(w,),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    os.close(w)
    os.read(r, 2)
    os.close(r)
    time.sleep(delay)
    if p.poll() is None:
        p.send_signal(sig)
    _, err = p.communicate(timeout=120)
    return p.returncode, err.decode("utf-8", "replace")


def _project(base: Path) -> None:
    (base / "shared").mkdir(parents=True)
    m = base / "migs"
    m.mkdir()
    (m / "V1__create.sql").write_text(CREATE, encoding="utf-8")
    (m / "V2__fix.sql").write_text(FIXABLE + RISKY, encoding="utf-8")
    (base / "shared" / "V3__linked.sql").write_text(FIXABLE, encoding="utf-8")
    (m / "V3__linked.sql").symlink_to(Path("..") / "shared" / "V3__linked.sql")
    (m / "V4__hard.sql").write_text("-- a second hard link in shared/\n" + FIXABLE, encoding="utf-8")
    os.link(m / "V4__hard.sql", base / "shared" / "V4__hard_again.sql")
    (base / "notes.txt").write_text("not icelint's\n", encoding="utf-8")


def _writer_round(rng: random.Random, work: Path, args: list[str]) -> str:
    ref, run = work / "ref", work / "run"
    _project(ref)
    _project(run)
    t0 = time.monotonic()
    code, _, err = _icelint(ref, *args, "--no-cache", ICELINT_JOBS="1")
    span = time.monotonic() - t0
    _quiet_enough(code, err, None, f"reference {args}")
    before, done = _tree(run), _tree(ref)
    sig = rng.choice([signal.SIGINT, signal.SIGKILL])
    delay = rng.uniform(0, span * 1.1)
    what = f"{' '.join(args)} killed by {signal.Signals(sig).name} after {delay:.3f} s"
    code, err = _killed(run, args, delay, sig)
    _quiet_enough(code, err, sig, what)
    after = _tree(run)
    for name, now in after.items():
        if name.endswith(".icelint-tmp"):
            if sig != signal.SIGKILL:
                raise Broken(f"{what}: left {name}")
            continue
        if now != before.get(name) and now != done.get(name):
            raise Broken(f"{what}: {name} is neither as it was nor as the finished run leaves it:\n{now!r}")
    missing = set(before) - set(after)
    if missing:
        raise Broken(f"{what}: files gone: {sorted(missing)}")
    if (run / "shared" / "V4__hard_again.sql").read_bytes() != (run / "migs" / "V4__hard.sql").read_bytes():
        raise Broken(f"{what}: the hard links were split")
    # the next run finishes the job and clears a killed run's leftovers
    code, _, err = _icelint(run, *args)
    _quiet_enough(code, err, None, f"{what}, then again")
    if _tree(run) != done:
        diff = sorted(k for k in set(_tree(run)) | set(done) if _tree(run).get(k) != done.get(k))
        raise Broken(f"{what}, then again: the files differ from an uninterrupted run: {diff}")
    cached = _icelint(run, "check", "migs")
    plain = _icelint(run, "check", "migs", "--no-cache", ICELINT_JOBS="1")
    if cached != plain:
        raise Broken(f"{what}: the next check differs from an uncached serial run:\n{cached}\n{plain}")
    return f"{args[1]} {signal.Signals(sig).name}"


def _snapshot_round(rng: random.Random, work: Path) -> str:
    meta = json.loads(SOURCE.read_text(encoding="utf-8"))
    meta.setdefault("properties", {}).update({f"note.{i}": "x" * 40 for i in range(rng.choice([10, 5000]))})
    work.mkdir(parents=True, exist_ok=True)
    src = work / "db.events.metadata.json"
    src.write_text(json.dumps(meta), encoding="utf-8")
    out = work / "snaps"
    out.mkdir()
    stale = b"{}\n"
    (out / "db.events.metadata.json").write_bytes(stale)
    (out / "README").write_text("the snapshots\n", encoding="utf-8")
    args = ["snapshot", "db.events", "--metadata", str(src), "--out", str(out)]
    ref = work / "ref"
    ref.mkdir()
    t0 = time.monotonic()
    code, _, err = _icelint(ref, *args[:-1], str(ref))
    span = time.monotonic() - t0
    _quiet_enough(code, err, None, "reference snapshot")
    done = (ref / "db.events.metadata.json").read_bytes()
    sig = rng.choice([signal.SIGINT, signal.SIGKILL])
    delay = rng.uniform(0, span * 1.1)
    what = f"snapshot killed by {signal.Signals(sig).name} after {delay:.3f} s"
    code, err = _killed(work, args, delay, sig)
    _quiet_enough(code, err, sig, what)
    now = (out / "db.events.metadata.json").read_bytes()
    if now not in (stale, done):
        raise Broken(f"{what}: the snapshot is half written")
    if sig != signal.SIGKILL and _temporaries(out):
        raise Broken(f"{what}: left {_temporaries(out)}")
    code, _, err = _icelint(work, *args)
    _quiet_enough(code, err, None, f"{what}, then again")
    if _temporaries(out) or (out / "db.events.metadata.json").read_bytes() != done or not (out / "README").exists():
        raise Broken(f"{what}, then again: {sorted(_tree(out))}")
    return f"snapshot {signal.Signals(sig).name}"


def _plant(entry: Path, how: str, root: Path) -> None:
    data = entry.read_bytes()
    entry.unlink()
    if how == "nested":
        entry.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    elif how == "fifo":
        os.mkfifo(entry)
    elif how == "zero":
        entry.symlink_to("/dev/zero")
    elif how == "forged-link":
        other = root / "forged.json"
        other.write_text(json.dumps({"format": 1, "key": entry.stem, "output": "forged\n", "code": 0}), encoding="utf-8")
        entry.symlink_to(other)
    elif how == "folder":
        entry.mkdir()
    elif how == "truncated":
        entry.write_bytes(data[: len(data) // 2])
    else:
        entry.write_bytes(os.urandom(256))


def _cache_round(rng: random.Random, work: Path) -> str:
    _project(work)
    fmt = rng.choice(["text", "json", "sarif", "junit"])
    args = ["check", "migs", "--format", fmt]
    plain = _icelint(work, *args, "--no-cache", ICELINT_JOBS="1")
    first = _icelint(work, *args)
    entries = sorted((work / ".icelint_cache").glob("*.json"))
    if first != plain or len(entries) != 1:
        raise Broken(f"cache ({fmt}): the first run differs or left {len(entries)} entries")
    how = rng.choice(["nested", "fifo", "zero", "forged-link", "folder", "truncated", "garbage"])
    _plant(entries[0], how, work)
    got = _icelint(work, *args)
    if got != plain:
        raise Broken(f"cache ({fmt}) with a planted {how} entry: differs from an uncached serial run:\n{got}\n{plain}")
    return f"cache {how}"


def run(seconds: float, seed: int, say=print) -> int:
    """Rounds until `seconds` have passed; 0 when none broke, else 1 (the broken round is said)."""
    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    counts: dict[str, int] = {}
    rounds = [
        lambda w: _writer_round(rng, w, ["check", "--fix", "migs"]),
        lambda w: _writer_round(rng, w, ["check", "--add-suppressions", "legacy", "migs"]),
        lambda w: _snapshot_round(rng, w),
        lambda w: _cache_round(rng, w),
    ]
    i = 0
    while time.monotonic() < deadline or i < len(rounds):  # every kind at least once
        work = Path(tempfile.mkdtemp(prefix="icelint-fault-"))
        try:
            kind = rounds[i % len(rounds)](work / "p")
        except Broken as e:
            say(f"FAILED (seed {seed}, round {i + 1}): {e}")
            return 1
        finally:
            shutil.rmtree(work, ignore_errors=True)
        counts[kind] = counts.get(kind, 0) + 1
        i += 1
    say(f"no failure in {i} rounds: " + ", ".join(f"{k}: {v}" for k, v in sorted(counts.items())))
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=600.0)
    ap.add_argument("--seed", type=int, default=None)
    args = ap.parse_args()
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    print(f"seed {seed}", flush=True)
    return run(args.seconds, seed)


if __name__ == "__main__":
    sys.exit(main())
