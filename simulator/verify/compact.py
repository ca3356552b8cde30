"""The states a search holds, made small: their parts shared between states (SPIN's COLLAPSE compression).

A breadth-first search keeps a whole level of states (the frontier, and the successors a sharded search
holds until their owners say which are new). A :class:`~simulator.core.model.State` copies every container
(machine states, units, battlefields, hands, scores...) on ``clone``, about 3.8 KB a state in a 4-player
position; most of these parts are equal between the states of a level (the same units in the same places,
the same hands). :class:`Collapser` replaces each container part of a state by an equal one it has seen
before, so a held state costs its own slots (about 400 bytes) and the parts that are new.

Sharing is sound because the search never changes a state it holds: a successor is computed on a
``clone``, which copies every container (``State.clone``; units are copied on their first write,
``State.edit``, and a collapsed state owns none: its ``own`` set is an empty frozenset, so a write without a
clone would fail loudly), so a shared part is only ever read. Parts are
compared by value (a dict's items, a list's items) except units, battlefields and chain items, compared by
their every attribute (abilities and items by identity: the table keeps the object alive, so its identity is
not reused while the entry exists). The table is cleared with :meth:`Collapser.clear` (once per level):
states already held keep their parts, new states share among themselves.

>>> from simulator.game.setup import build
>>> g = build({"players": ["A", "B"], "battlefields": ["North"]})
>>> c = Collapser()
>>> a, b = c.collapse(g.clone()), c.collapse(g.clone())
>>> a.ms is b.ms and a.units is b.units and a.key() == g.key()
True
"""
from __future__ import annotations

from simulator.core.compiled.slots import KEYS
from simulator.core.model import Battlefield, State, Unit

_UNIT = tuple(n for n in Unit.__slots__ if n != "k")     # not the cached key (derived from the others)
_BF = Battlefield.__slots__
_OWN: frozenset = frozenset()   # a collapsed state owns no unit (copy-on-write: State.edit must not write a shared one)


def _key(names: tuple[str, ...], by_id: tuple[str, ...]):
    """``key(o)``: every attribute ``names`` of ``o``, those of ``by_id`` by identity: the straight-line function
    ``riftsim generate`` wrote for them (``simulator/core/compiled/slots.py``), else (a slot list changed since:
    ``riftsim generate --check`` fails) a loop over the names."""
    fn = KEYS.get((tuple(names), by_id))
    if fn is not None:
        return fn
    return lambda o: tuple([id(getattr(o, n)) if n in by_id else getattr(o, n) for n in names])


unit_key, bf_key = _key(_UNIT, ("abilities",)), _key(_BF, ("abilities",))   # abilities by identity


class Collapser:
    """Shares the container parts of the states it is given (see the module's docstring)."""

    __slots__ = ("parts",)

    def __init__(self) -> None:
        self.parts: dict = {}

    def clear(self) -> None:
        self.parts = {}

    def collapse(self, s: State) -> State:
        """``s`` itself, its containers replaced by equal shared ones."""
        parts = self.parts
        get = parts.setdefault
        s.ms = get(("m", tuple(s.ms.items())), s.ms)
        s.units = get(("u", tuple([unit_key(u) for u in s.units.values()]), tuple(s.units)), s.units)
        s.bfs = get(("b", tuple([bf_key(b) for b in s.bfs.values()]), tuple(s.bfs)), s.bfs)
        s.hands = get(("h", tuple([(p, tuple(h)) for p, h in s.hands.items()])), s.hands)
        s.chain = get(("c", tuple(map(id, s.chain))), s.chain)
        s.score = get(("s", tuple(s.score.items())), s.score)
        s.scored = get(("S", tuple(s.scored.items())), s.scored)
        s.drawn = get(("d", tuple(s.drawn.items())), s.drawn)
        s.energy = get(("e", tuple(s.energy.items())), s.energy)
        s.counters = get(("n", tuple(s.counters.items())), s.counters)
        s.runes = get(("r", tuple(s.runes.items())), s.runes)
        s.extra = get(("x", tuple(s.extra)), s.extra)
        s.trace = get(("t", tuple(map(id, s.trace))), s.trace)
        s.own = _OWN              # type: ignore[assignment]  # its units may be shared: an edit without a clone fails loudly
        return s
