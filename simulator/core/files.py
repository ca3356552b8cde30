"""Writing outputs without destroying anything, and keeping a signal from cutting a group of writes in half.

Every file riftsim writes (``play``'s ``save``, ``--html``, ``--export``, ``diagrams``, counterexample
scenarios, golden files) goes through :func:`atomic_write`, which looks at what the path names first:

* nothing, or a regular file: the data goes to a temporary file in the same folder, which then replaces
  the path in one ``os.replace`` (an interrupted run leaves the old file or the new one, never a truncated
  one, and no temporary file behind); a replaced file keeps its permission bits (and, as root, its owner);
* a symbolic link: the same, at the path the link resolves to; the link itself stays a link;
* a FIFO or a character device (``/dev/null``, a terminal): written through, as ``cat > PATH`` would;
* a folder, a block device, a socket, or a link loop: refused (:class:`OSError` naming the path and why).

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> p = atomic_write(os.path.join(d, "x.txt"), "one\\n")
>>> open(p).read(), os.listdir(d)
('one\\n', ['x.txt'])
>>> os.symlink("x.txt", os.path.join(d, "link"))
>>> _ = atomic_write(os.path.join(d, "link"), "two\\n")
>>> os.path.islink(os.path.join(d, "link")), open(p).read()
(True, 'two\\n')
>>> _ = atomic_write(os.devnull, "gone")
>>> os.path.exists(os.devnull) and not os.path.isfile(os.devnull)
True
"""
from __future__ import annotations

import contextlib
import errno
import os
import signal
import stat
import tempfile
from pathlib import Path
from typing import Callable, IO

SIGNALS = {signal.SIGINT, signal.SIGTERM}


def target(path: str | os.PathLike) -> tuple[Path, str]:
    """Where a write to ``path`` lands and how: ``(path, "replace")`` for nothing or a regular file (a symbolic
    link: the path it resolves to), ``(path, "through")`` for a FIFO or a character device. Raises OSError
    (with ``filename``) for a folder, a block device, a socket, a link loop or a missing folder."""
    path = Path(path)
    if path.is_symlink():
        resolved = Path(os.path.realpath(path))
        if resolved.is_symlink():
            raise OSError(errno.ELOOP, "a symbolic link loop", str(path))
        path = resolved
    try:
        mode = path.stat().st_mode
    except FileNotFoundError:
        if not path.parent.is_dir():
            raise FileNotFoundError(errno.ENOENT, f"no folder {path.parent} to write into", str(path)) from None
        return path, "replace"
    if stat.S_ISREG(mode):
        return path, "replace"
    if stat.S_ISFIFO(mode) or stat.S_ISCHR(mode):
        return path, "through"
    kind = "a directory" if stat.S_ISDIR(mode) else "a block device" if stat.S_ISBLK(mode) else \
        "a socket" if stat.S_ISSOCK(mode) else "not a regular file"
    raise OSError(errno.EISDIR if stat.S_ISDIR(mode) else errno.EINVAL, f"is {kind}: not written", str(path))


def atomic_write(path: str | os.PathLike, data: str | bytes | Callable[[IO[bytes]], None]) -> Path:
    """Write ``data`` (text as UTF-8, bytes, or a function that writes into a binary file) to ``path``, as the
    module says: atomically over nothing or a regular file (a link's target), through a FIFO or a character
    device, never over anything else. Returns the path written; raises OSError like ``open``."""
    where, how = target(path)
    if how == "through":
        with open(where, "wb") as f:
            _put(f, data)
        return Path(path)
    try:
        old = where.stat()
    except FileNotFoundError:
        old = None
    fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=f".{where.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            _put(f, data)
        os.chmod(tmp, stat.S_IMODE(old.st_mode) if old else 0o644)
        if old and os.geteuid() == 0:                     # root replacing a user's file leaves it theirs
            os.chown(tmp, old.st_uid, old.st_gid)
        os.replace(tmp, where)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(path)


def _put(f: IO[bytes], data: str | bytes | Callable[[IO[bytes]], None]) -> None:
    if callable(data):
        data(f)
    else:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)


@contextlib.contextmanager
def signals_deferred():
    """SIGINT and SIGTERM wait until the block is done (then they are delivered): for a group of
    :func:`atomic_write` calls that should land together, such as a whole ``diagrams/`` folder."""
    old = signal.pthread_sigmask(signal.SIG_BLOCK, SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def check_writable(path: str | os.PathLike) -> None:
    """Raise OSError (with ``filename``) unless :func:`atomic_write` can write ``path``: what it names is
    written (:func:`target`), an existing file or FIFO takes writes, and a file's folder takes a new file."""
    where, how = target(path)
    if where.exists() and not os.access(where, os.W_OK):
        raise PermissionError(errno.EACCES, "permission denied", str(path))
    if how == "through":
        return
    fd, tmp = tempfile.mkstemp(dir=where.parent, prefix=f".{where.name}.", suffix=".tmp")
    os.close(fd)
    os.unlink(tmp)
