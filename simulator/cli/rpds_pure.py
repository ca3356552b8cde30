"""A pure-Python stand-in for ``rpds`` (rpds-py), shipped only by the playground (``riftsim site``).

``jsonschema`` 4.26 and ``referencing`` import ``HashTrieMap``, ``HashTrieSet`` and ``List`` from ``rpds``,
Rust bindings that Pyodide's npm package does not carry. The site's bundle stores this module as the
top-level ``rpds``, so the browser runs the same jsonschema (the same checks, the same messages) as the
command line. Persistent (immutable) structures over plain dicts, frozensets and tuples: each change
returns a new value and leaves the old one as it was; a scenario's schema is small, so copying on change
costs nothing that matters. ``tests/test_site.py`` checks it against the real ``rpds``, operation by
operation. Never imported by riftsim itself.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any

__all__ = ["HashTrieMap", "HashTrieSet", "List"]


def _pairs(value: Any) -> Iterable[tuple[Any, Any]]:
    return value.items() if isinstance(value, Mapping) else value


class HashTrieMap(Mapping):
    """An immutable mapping: ``insert``, ``remove``, ``discard`` and ``update`` return a new map."""

    __slots__ = ("_d",)

    def __init__(self, value: Any = (), **kwds: Any) -> None:
        d = dict(_pairs(value))
        d.update(kwds)
        self._d = d

    @classmethod
    def _of(cls, d: dict) -> HashTrieMap:
        new = cls.__new__(cls)
        new._d = d
        return new

    @classmethod
    def convert(cls, value: Any) -> HashTrieMap:
        return value if isinstance(value, HashTrieMap) else cls(value)

    @classmethod
    def fromkeys(cls, keys: Iterable, value: Any = None) -> HashTrieMap:
        return cls._of(dict.fromkeys(keys, value))

    def __getitem__(self, key: Any) -> Any:
        return self._d[key]

    def __iter__(self) -> Iterator:
        return iter(self._d)

    def __len__(self) -> int:
        return len(self._d)

    def __hash__(self) -> int:
        return hash(frozenset(self._d.items()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HashTrieMap):
            return NotImplemented
        return self._d == other._d

    def __repr__(self) -> str:
        return f"HashTrieMap({self._d!r})"

    def __reduce__(self):
        return HashTrieMap, (self._d,)

    def insert(self, key: Any, val: Any) -> HashTrieMap:
        return self._of({**self._d, key: val})

    def remove(self, key: Any) -> HashTrieMap:
        if key not in self._d:
            raise KeyError(key)
        return self.discard(key)

    def discard(self, key: Any) -> HashTrieMap:
        if key not in self._d:
            return self
        return self._of({k: v for k, v in self._d.items() if k != key})

    def update(self, *args: Any, **kwds: Any) -> HashTrieMap:
        d = dict(self._d)
        for a in args:
            d.update(_pairs(a))
        d.update(kwds)
        return self._of(d)


class HashTrieSet(frozenset):
    """An immutable set: ``insert``, ``remove``, ``discard`` and ``update`` return a new set."""

    def insert(self, value: Any) -> HashTrieSet:
        return HashTrieSet(self | {value})

    def discard(self, value: Any) -> HashTrieSet:
        return HashTrieSet(self - {value}) if value in self else self

    def remove(self, value: Any) -> HashTrieSet:
        if value not in self:
            raise KeyError(value)
        return self.discard(value)

    def update(self, *args: Iterable) -> HashTrieSet:
        return HashTrieSet(self.union(*args))

    def __repr__(self) -> str:
        return f"HashTrieSet({set(self)!r})"


class List:
    """An immutable singly linked list: ``push_front`` adds at the front, ``drop_first`` and ``rest`` drop it."""

    __slots__ = ("_t",)

    def __init__(self, value: Iterable = (), *more: Any) -> None:
        self._t = (value, *more) if more else tuple(value)

    @classmethod
    def _of(cls, t: tuple) -> List:
        new = cls.__new__(cls)
        new._t = t
        return new

    def __iter__(self) -> Iterator:
        return iter(self._t)

    def __len__(self) -> int:
        return len(self._t)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, List) and self._t == other._t

    def __hash__(self) -> int:
        return hash(self._t)

    def __repr__(self) -> str:
        return f"List({list(self._t)!r})"

    def __reversed__(self) -> Iterator:
        return reversed(self._t)

    @property
    def first(self) -> Any:
        if not self._t:
            raise IndexError("empty list has no first element")
        return self._t[0]

    @property
    def rest(self) -> List:
        return self._of(self._t[1:])

    def push_front(self, value: Any) -> List:
        return self._of((value, *self._t))

    def drop_first(self) -> List:
        if not self._t:
            raise IndexError("empty list has no first element")
        return self._of(self._t[1:])
