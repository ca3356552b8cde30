"""The visited set of a large search as flat arrays: fingerprints (and node ids) in an open-addressing table.

A ``dict`` from a 60-bit fingerprint to a node id costs about 100 bytes an entry (two int objects and the
dict's slot); :class:`FlatTable` holds the same in two flat arrays, 8 bytes of fingerprint and 8 of id a slot,
at most 5/8 full: about 26 bytes a state, or about 13 without the ids (``ids=False``: a search that keeps
no state graph never reads the id of a state it has seen, only whether it has). The explorer starts each
shard on a ``dict`` (the faster of the two, about 1 us less a lookup) and moves the states into a table
once they pass :data:`FLAT_FROM` (:func:`compacted`): the table only where memory matters.

Linear probing; a slot's fingerprint is stored plus one, so 0 marks an empty slot. Only the operations the
search uses: ``get``, ``[h] = v``, ``in``, ``len``, ``items``.

>>> t = FlatTable()
>>> t[12345] = 7; t[0] = 8
>>> t.get(12345), t.get(0), t.get(99), 12345 in t, len(t)
(7, 8, None, True, 2)
>>> u = FlatTable(ids=False); u[5] = 3
>>> u.get(5), u.get(6)
(0, None)
"""
from __future__ import annotations

from array import array

#: a shard's visited set moves from a dict into a :class:`FlatTable` once it holds this many states
FLAT_FROM = 1_000_000


class FlatTable:
    """An open-addressing hash table from fingerprints (< 2**63 - 1) to node ids, as two flat arrays."""

    __slots__ = ("keys", "vals", "mask", "count", "limit")

    def __init__(self, capacity: int = 1024, ids: bool = True) -> None:
        size = 1024
        while size * 5 < capacity * 8:
            size *= 2
        self.keys = array("Q", bytes(8 * size))
        self.vals = array("q", bytes(8 * size)) if ids else None
        self.mask = size - 1
        self.count = 0
        self.limit = size * 5 // 8

    def __len__(self) -> int:
        return self.count

    def get(self, h: int, default=None):
        """The id stored for ``h`` (0 for every one when the table keeps no ids), or ``default``."""
        keys, mask = self.keys, self.mask
        k = h + 1
        i = (h ^ (h >> 29)) & mask
        while True:
            x = keys[i]
            if x == k:
                return self.vals[i] if self.vals is not None else 0
            if not x:
                return default
            i = (i + 1) & mask

    def __contains__(self, h: int) -> bool:
        return self.get(h) is not None

    def __getitem__(self, h: int) -> int:
        v = self.get(h)
        if v is None:
            raise KeyError(h)
        return v

    def __setitem__(self, h: int, v: int) -> None:
        keys, mask, vals = self.keys, self.mask, self.vals
        k = h + 1
        i = (h ^ (h >> 29)) & mask
        while True:
            x = keys[i]
            if x == k:
                if vals is not None:
                    vals[i] = v
                return
            if not x:
                break
            i = (i + 1) & mask
        keys[i] = k
        if vals is not None:
            vals[i] = v
        self.count += 1
        if self.count > self.limit:
            self._grow()

    def _grow(self) -> None:
        old_keys, old_vals = self.keys, self.vals
        size = (self.mask + 1) * 2
        self.keys = keys = array("Q", bytes(8 * size))
        self.vals = vals = array("q", bytes(8 * size)) if old_vals is not None else None
        self.mask = mask = size - 1
        self.limit = size * 5 // 8
        for j, k in enumerate(old_keys):
            if k:
                h = k - 1
                i = (h ^ (h >> 29)) & mask
                while keys[i]:
                    i = (i + 1) & mask
                keys[i] = k
                if vals is not None:
                    vals[i] = old_vals[j]        # type: ignore[index]

    def items(self):
        vals = self.vals
        for j, k in enumerate(self.keys):
            if k:
                yield k - 1, (vals[j] if vals is not None else 0)

    def nbytes(self) -> int:
        return self.keys.itemsize * len(self.keys) + (self.vals.itemsize * len(self.vals) if self.vals is not None else 0)


def compacted(seen, ids: bool = True):
    """``seen`` itself while it is small (a dict), else a :class:`FlatTable` holding the same entries."""
    if isinstance(seen, FlatTable) or len(seen) < FLAT_FROM:
        return seen
    t = FlatTable(len(seen) * 2, ids=ids)
    for h, v in seen.items():
        t[h] = v
    return t


def nbytes(seen) -> int:
    """The bytes of a visited set: a dict's with its keys and values, a table's arrays."""
    if isinstance(seen, FlatTable):
        return seen.nbytes()
    import sys
    return sys.getsizeof(seen) + sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in seen.items())
