"""The states a large level holds, packed: pickled a chunk at a time, the chunk compressed (issue 13's memory).

A breadth-first search holds a whole level of states (the frontier, and the successors a sharded search
holds until their owners say which are new). In the 4-player positions a full state is about 3.8 KB, one
whose parts are shared with the other states of its level (:mod:`simulator.verify.compact`) about 1 KB.
:class:`Packer` pickles the states it is given :data:`CHUNK` at a time, so the parts a chunk's states share
are written once, and compresses the chunk with zlib: measured on the 4-player position, about 30 bytes a
state and 18 us to pack and unpack it (docs/performance.md). A packed state is a :class:`Packed` handle
(its chunk, its place in it, whether it is terminal); :func:`unpacked` gives the state back, unpacking its
chunk once for all the states of the chunk read in a row (the search reads a level in the order it packed it).

The states are pickled without their configuration and monitor (``cfg``, ``coverage``: the worker's own,
shared by every state), which :func:`unpacked` puts back, as a state sent to another shard is
(``Shard.give`` and ``take``). An unpacked state is a fresh copy: the search never changes a state it holds.

>>> from simulator.game.setup import build
>>> g = build({"players": ["A", "B"], "battlefields": ["North"]})
>>> p = Packer(g.cfg, None)
>>> h = p.pack(g.clone())
>>> unpacked(h).key() == g.key() and unpacked(h).cfg is g.cfg
True
"""
from __future__ import annotations

import pickle
import zlib

from simulator.verify import unpickle
from simulator.verify.compact import Collapser

#: states pickled together (their shared parts once) and compressed as one chunk
CHUNK = 1024


class _Chunk:
    """A chunk's states: the list being filled, then its compressed pickle (the list let go)."""

    __slots__ = ("states", "data", "cfg", "coverage", "origin")

    def __init__(self, cfg, coverage) -> None:
        self.states: list | None = []
        self.data: bytes | None = None
        self.cfg, self.coverage = cfg, coverage
        self.origin: str | None = None      # the checkpoint file it was read from (named by an error)

    def __getstate__(self):                 # pickled (a checkpoint) sealed, without the worker's own parts
        if self.states is not None:
            self.seal()
        return self.data

    def __setstate__(self, data) -> None:
        self.states, self.data, self.cfg, self.coverage, self.origin = None, data, None, None, None

    def seal(self) -> None:
        states = self.states
        assert states is not None
        for g in states:
            g.cfg = g.coverage = None
        self.data = zlib.compress(pickle.dumps(states, protocol=pickle.HIGHEST_PROTOCOL), 1)
        self.states = None


class Packed:
    """A packed state: its chunk and index; ``winner`` as the state's (what the search reads without it)."""

    __slots__ = ("chunk", "i", "winner")

    def __init__(self, chunk: _Chunk, i: int, winner) -> None:
        self.chunk, self.i, self.winner = chunk, i, winner


_last: list = [None, None]      # the chunk unpacked last and its states: a level is read chunk after chunk


def unpacked(g):
    """The state ``g`` packs (a fresh copy), or ``g`` itself if it is not packed."""
    if type(g) is not Packed:
        return g
    c = g.chunk
    if c.states is not None:                 # the chunk being filled: its states are still whole
        s = c.states[g.i]
        return s
    if _last[0] is not c:
        try:                                 # (read from a checkpoint too: not trusted)
            states = unpickle.loads(unpickle.inflate(c.data))
            for s in states:
                s.cfg, s.coverage = c.cfg, c.coverage
        except Exception as e:  # noqa: BLE001 - damaged or hostile bytes can raise almost anything
            raise unpickle.Refused(f"{c.origin or 'a packed level'}: unreadable packed chunk ({e})") from None
        _last[0], _last[1] = c, states
    return _last[1][g.i]


class Packer:
    """Packs the states of one level (:meth:`pack`); :meth:`seal` packs the last, partly filled chunk."""

    __slots__ = ("cfg", "coverage", "chunk", "chunks", "compact")

    def __init__(self, cfg, coverage) -> None:
        self.cfg, self.coverage = cfg, coverage
        self.chunk: _Chunk | None = None
        self.chunks = 0
        self.compact = Collapser()       # a chunk's states share their equal parts: pickled once

    def pack(self, g) -> Packed:
        c = self.chunk
        if c is None or len(c.states) >= CHUNK:          # type: ignore[arg-type]
            if c is not None:
                c.seal()
                self.compact.clear()
            c = self.chunk = _Chunk(self.cfg, self.coverage)
            self.chunks += 1
        c.states.append(self.compact.collapse(g))        # type: ignore[union-attr]
        return Packed(c, len(c.states) - 1, g.winner)    # type: ignore[arg-type]

    def seal(self) -> None:
        if self.chunk is not None and self.chunk.states is not None:
            self.chunk.seal()
        self.chunk = None
        self.compact.clear()


def clear_cache() -> None:
    """Lets go of the chunk unpacked last (its states)."""
    _last[0] = _last[1] = None
