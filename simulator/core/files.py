"""Writing outputs atomically, and keeping a signal from cutting a group of writes in half.

Every file riftsim writes (diagrams, trace diagrams, GraphML exports, counterexample scenarios) goes
through :func:`atomic_write`: the data goes to a temporary file in the same folder, which then replaces
the target in one ``os.replace``; an interrupted run leaves the old file or the new one, never a
truncated one, and no temporary file behind.

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> p = atomic_write(os.path.join(d, "x.txt"), "one\\n")
>>> open(p).read(), os.listdir(d)
('one\\n', ['x.txt'])
"""
from __future__ import annotations

import contextlib
import os
import signal
import tempfile
from pathlib import Path
from typing import Callable, IO

SIGNALS = {signal.SIGINT, signal.SIGTERM}


def atomic_write(path: str | os.PathLike, data: str | bytes | Callable[[IO[bytes]], None]) -> Path:
    """Write ``data`` (text as UTF-8, bytes, or a function that writes into a binary file) to ``path``
    through a temporary file in the same folder and ``os.replace``. Raises OSError like ``open``."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            if callable(data):
                data(f)
            else:
                f.write(data.encode("utf-8") if isinstance(data, str) else data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return path


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
    """Raise OSError (with ``filename``) unless ``path`` can be written by :func:`atomic_write`: its folder
    exists and takes a new file, and the path is not a folder nor an existing file without write access."""
    path = Path(path)
    if path.is_dir():
        raise IsADirectoryError(21, "is a directory", str(path))
    if path.exists() and not os.access(path, os.W_OK):
        raise PermissionError(13, "permission denied", str(path))
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(fd)
    os.unlink(tmp)
