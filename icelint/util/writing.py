"""Writing a file the user asked icelint to change (`--fix`, `--add-suppressions`, `icelint snapshot`).

`write_file(path, data)` replaces the file's content and nothing else about it:

- A symbolic link is followed: the file written is the link's target (resolved), so every path that
  leads to it sees the new text; the link itself is left as it is.
- The file is written whole to a temporary file beside the target, then renamed over it (`os.replace`):
  a reader, a crash or a kill never sees half a file. The temporary file gets the target's mode and,
  when they differ from the writer's, its owner and group (as root: another user's file stays theirs).
- When a rename would change the file's identity, the text is written into the file itself instead,
  after it has been rendered whole and its space reserved (`posix_fallocate`): a file with several
  hard links (a rename would split them: the other names would keep the old text), and a file whose
  owner cannot be given back (not root, another user's file). A full disk then fails before a byte is
  written.
- Ctrl-C, SIGTERM and SIGHUP are held while a file is written: they take effect once it is whole
  (or not written at all), never in between, and the temporary file is always removed.
- A temporary file is named `.NAME.PID-RANDOM.TAG.icelint-tmp`, where TAG is a keyed hash of the rest
  of the name and of the host: a name no other program makes by chance. Only SIGKILL (or a power cut)
  can leave one behind; the next write of NAME removes such a leftover when it is provably icelint's
  (its TAG checks out for this host) and the process that made it is gone. Nothing else is ever removed.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import signal
import socket
import stat
import threading
from contextlib import contextmanager
from pathlib import Path

SUFFIX = ".icelint-tmp"
_KEY = b"icelint temporary file"
_HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)
_LEFTOVER = re.compile(r"^\.(?P<name>.+)\.(?P<pid>[0-9]+)-(?P<rand>[0-9a-f]{16})\.(?P<tag>[0-9a-f]{16})" + re.escape(SUFFIX) + r"$")


def _tag(name: str, pid: int, rand: str) -> str:
    try:  # what hashlib.blake2b is, without loading OpenSSL
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover
        from hashlib import blake2b
    text = f"{socket.gethostname()}\0{name}\0{pid}\0{rand}".encode("utf-8", "surrogateescape")
    return blake2b(text, key=_KEY, digest_size=8).hexdigest()


def temp_name(target: Path) -> Path:
    """A fresh temporary name beside `target`, recognisable as icelint's (see the module docstring)."""
    pid, rand = os.getpid(), secrets.token_hex(8)
    return target.with_name(f".{target.name}.{pid}-{rand}.{_tag(target.name, pid, rand)}{SUFFIX}")


def is_leftover(name: str, target_name: str | None = None) -> bool:
    """`name` is a temporary file of icelint's (for `target_name`, when given) whose writer is gone."""
    m = _LEFTOVER.match(name)
    if m is None or (target_name is not None and m["name"] != target_name):
        return False
    pid = int(m["pid"])
    if _tag(m["name"], pid, m["rand"]) != m["tag"]:
        return False  # not made by icelint on this host: not ours to judge
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False  # alive: a run writing now


def clean_leftovers(target: Path) -> list[str]:
    """Remove the leftovers of writes of `target` killed before they finished; their names."""
    prefix = f".{target.name}."
    removed = []
    try:
        with os.scandir(target.parent) as it:
            names = [e.name for e in it if e.name.startswith(prefix) and e.name.endswith(SUFFIX)]
    except OSError:
        return removed
    for name in names:
        path = target.parent / name
        try:
            st = os.lstat(path)
            if stat.S_ISREG(st.st_mode) and st.st_uid == os.geteuid() and is_leftover(name, target.name):
                os.unlink(path)
                removed.append(name)
        except OSError:
            pass
    return removed


@contextmanager
def signals_held():
    """Ctrl-C, SIGTERM and SIGHUP wait until the block is done (then they act as usual)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(signal, "pthread_sigmask"):
        yield
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, _HELD)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _reserve(fd: int, size: int) -> None:
    if size and hasattr(os, "posix_fallocate"):
        try:
            os.posix_fallocate(fd, 0, size)
        except OSError as e:
            if e.errno not in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
                raise


def _in_place(real: Path, data: bytes) -> None:
    fd = os.open(real, os.O_WRONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        _reserve(fd, len(data))  # a full disk fails here, before the file is touched
        os.lseek(fd, 0, os.SEEK_SET)
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def write_file(path: str | Path, data: bytes) -> Path:
    """Replace the content of `path` (through symbolic links) by `data`; the file written."""
    real = Path(os.path.realpath(path))
    try:
        st: os.stat_result | None = os.stat(real)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise OSError(errno.EINVAL, "not a regular file", str(path))
    with signals_held():
        if st is not None and st.st_nlink > 1:
            _in_place(real, data)  # a rename would split the hard links
            return real
        clean_leftovers(real)
        tmp = temp_name(real)
        try:
            if not _via_temp(tmp, st, data):
                os.unlink(tmp)
                _in_place(real, data)  # the owner could not be given back to the temporary file
                return real
            os.replace(tmp, real)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    return real


def _via_temp(tmp: Path, st: os.stat_result | None, data: bytes) -> bool:
    """Write `data` to the new file `tmp` with the owner, group and mode of `st`; False when the owner
    cannot be given (the file is then written in place)."""
    mode = 0o600 if st is not None else 0o666  # a new file: the umask decides, as for any file made
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), mode)
    try:
        _write_all(fd, data)
        if st is not None:
            mine = os.fstat(fd)
            if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
                try:
                    os.fchown(fd, st.st_uid, st.st_gid)
                except PermissionError:
                    return False
            os.fchmod(fd, stat.S_IMODE(st.st_mode))  # after the owner: chown clears set-id bits
        return True
    finally:
        os.close(fd)
