"""Writing an output file: the one mechanism is :func:`simulator.core.files.atomic_write` (over nothing or a
regular file, a temporary file beside it then ``os.replace``; a link's target the same way; a FIFO or a
character device written through; anything else refused); this name is kept for the modules that import it.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "out.txt"
>>> write_atomic(p, b"hello") == p, p.read_text()
(True, 'hello')
"""
from __future__ import annotations

from simulator.core.files import atomic_write as write_atomic

__all__ = ["write_atomic"]
