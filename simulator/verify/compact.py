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

from simulator.core.model import Battlefield, State, Unit

_UNIT = tuple(n for n in Unit.__slots__ if n != "k")     # not the cached key (derived from the others)
_BF = Battlefield.__slots__
_OWN: frozenset = frozenset()   # a collapsed state owns no unit (copy-on-write: State.edit must not write a shared one)


def _src() -> str:
    """``unit_key(u)``, ``bf_key(b)``: every attribute, abilities by identity (generated from the slot lists)."""
    def attrs(var: str, names: tuple[str, ...]) -> str:
        return ", ".join(f"id({var}.{n})" if n == "abilities" else f"{var}.{n}" for n in names)
    return (f"def unit_key(u):\n    return ({attrs('u', _UNIT)})\n"
            f"def bf_key(b):\n    return ({attrs('b', _BF)})\n")


_ns: dict = {}
exec(_src(), _ns)
unit_key, bf_key = _ns["unit_key"], _ns["bf_key"]


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
