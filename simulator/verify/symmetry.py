"""Interchangeable battlefields: states that differ only by a renaming of them are one state of the search.

Battlefields are told apart by the rules only through what is printed on them or who provided them: a battlefield
with no abilities, no static might and no provider is a bare name, and two such battlefields can swap names
without changing what any player may do next. A search with ``symmetry`` on (``riftsim verify --symmetry``, or
``explore: {symmetry: true}`` on a position) identifies a state by :func:`identity`: its ``State.key()`` with its
interchangeable battlefields renamed into one canonical order (the classic symmetry reduction of model checkers,
Murphi's scalarsets). The search still expands a real state, the first of its class it met, so every trace it
prints is a real game.

The canonical order sorts the interchangeable battlefields by what is at each one (its machine states, control,
Contested, the cards whose place it is, active, scored, closed); battlefields alike in all of that are tried in
every order and the least key is kept, so a state and any renaming of it get one identity. Any renaming is
*sound* (two states are merged only if one is a renaming of the other). That the renaming changes nothing a rule
reads is checked, not assumed:
``tests/test_symmetry.py`` searches positions without it and checks, on every state, that the states one class
holds have the same findings, the same winner, and successors that fall into the same classes (a bisimulation).

>>> from simulator.game.setup import build
>>> g = build({"players": ["A", "B"], "battlefields": ["North", "South"],
...            "units": [{"id": "a1", "owner": "A", "at": "South", "might": 1}]})
>>> h = build({"players": ["A", "B"], "battlefields": ["North", "South"],
...            "units": [{"id": "a1", "owner": "A", "at": "North", "might": 1}]})
>>> g.key() == h.key(), identity(g) == identity(h)
(False, True)
"""
from __future__ import annotations

import marshal
from itertools import permutations
from math import factorial, prod

from simulator.core.model import KEY_PARTS, State

#: The rules that make a bare battlefield interchangeable (``riftsim rules 323.12`` lists it): decided here only,
#: by :func:`interchangeable` and :func:`identity`
RELIES_ON = {
    "battlefields with no abilities, static might, provider or card naming them as interchangeable (verify "
    "--symmetry): only printed abilities tell a battlefield apart, a provider's is replaced when they concede, "
    "and where several are staged the turn player picks": ("190.6", "652.2", "323.12", "323.13"),
}

_MS, _UNITS, _BFS = KEY_PARTS.index("ms"), KEY_PARTS.index("units"), KEY_PARTS.index("bfs")
#: the parts of ``State.key()`` that may name a battlefield (besides the positional ``ms`` and ``bfs``, and the
#: units' places): renamed string by string
_NAMING = tuple(KEY_PARTS.index(p) for p in ("chain", "active", "choosing", "scored", "blocked", "once", "hidden",
                                             "resolving"))
#: of those, the ones that hold a set of names in setup order or sorted: put back in that order once renamed
_CHOOSING, _SCORED, _BLOCKED = (KEY_PARTS.index(p) for p in ("choosing", "scored", "blocked"))
#: of those, the ones a battlefield's signature does not hold (active, scored and closed are in it): only where
#: these name tied battlefields can renaming the tied ones among themselves change the key
_UNSIGNED = tuple(KEY_PARTS.index(p) for p in ("chain", "choosing", "once", "hidden", "resolving"))


class Plan:
    """Where a game's interchangeable battlefields sit in its identity: their names in setup order, the indexes of
    each one's machine states in ``State.ms``, and every battlefield's place in setup order."""

    __slots__ = ("names", "ms", "place")

    def __init__(self, names: tuple[str, ...], ms: dict[str, tuple[int, ...]], place: dict[str, int]) -> None:
        self.names, self.ms, self.place = names, ms, place


#: id(cfg) -> (cfg, its Plan or None): one entry per game searched (a search has one), at most PLANS of them
_PLANS: dict[int, tuple] = {}
PLANS = 64
#: At most this many orders of tied battlefields are tried (4 alike: 24); past it the sorted order alone is kept,
#: which is as sound and may leave a few renamings of one state apart (a larger search, never a wrong one): 16
#: bare battlefields, a scenario's most, would be 16! orders
ORDERS = 24


def interchangeable(g: State) -> tuple[str, ...]:
    """The battlefields of ``g``'s game that may swap names: no abilities, no static might, no provider (a
    conceder's own battlefield is removed, 652.2), no card or ability that names it (``move: {to: North}``), and a
    name that nothing else in the game has (a player, a unit, a card, a machine state), so renaming it renames
    nothing else. Fewer than two: none."""
    others = {*g.cfg.order, *g.units, *g.cfg.cards, *(c for h in g.hands.values() for c in h),
              *g.ms.values(), *(inst for _leaf, inst in g.ms if inst not in g.bfs)}
    printed = repr((g.cfg.cards, [u.abilities for u in g.units.values()], [b.abilities for b in g.bfs.values()]))
    names = tuple(n for n, b in g.bfs.items() if _plain(b)
                  and n not in others and repr(n) not in printed)     # a card that names it tells it apart
    return names if len(names) >= 2 else ()


def _plain(b) -> bool:
    """A battlefield with no abilities, no static might and no provider."""
    return not b.abilities and not b.static_might and b.provider is None


def plan(g: State) -> Plan | None:
    """``g``'s game's :class:`Plan` (worked out once per game), or None when no battlefields are interchangeable."""
    cfg = g.cfg
    hit = _PLANS.get(id(cfg))
    if hit is not None and hit[0] is cfg:
        return hit[1]
    names = interchangeable(g)
    p = None
    if names:
        keys = list(g.ms)
        bfs = list(g.bfs)
        p = Plan(names, {n: tuple(i for i, (_leaf, inst) in enumerate(keys) if inst == n) for n in names},
                 {n: i for i, n in enumerate(bfs)})
    if len(_PLANS) >= PLANS:                 # many games in one process (a test run): forget the older ones
        _PLANS.clear()
    _PLANS[id(cfg)] = (cfg, p)
    return p


def _rename(x, m: dict):
    t = type(x)
    if t is tuple:
        return tuple([_rename(y, m) for y in x])
    if t is str:
        return m.get(x, x)
    return x


def identity(g: State) -> tuple:
    """``g``'s identity up to a renaming of its interchangeable battlefields: the least (by marshalled bytes) of the
    keys of ``g`` renamed into the orders that sort the battlefields by what is at each one; ``g.key()`` itself
    when that order is the setup order (or there are none). Battlefields alike in all that is at them are tried in
    every order, so two states one renaming apart get the same identity."""
    k = g.key()
    p = plan(g)
    if p is None:
        return k
    sig = _signature(g, p, k)
    groups, tied = _alike(sig)
    # Tied battlefields have no card whose place they are and equal machine states: renaming them among themselves
    # changes the key only where another part names them (the chain, a choice, facedown cards...).
    order = tuple([s[2] for s in sig])
    if order == p.names and not tied:
        return k
    texts = {i: repr(k[i]) for i in _NAMING if k[i]}   # where a name may be (C-level: cheaper than a walk)
    if tied and _tied_named(tied, groups, texts):
        return _least(k, p, groups, texts)
    return k if order == p.names else _renamed(k, p, order, texts)


def _tied_named(tied, groups: list[tuple[str, ...]], texts: dict[int, str]) -> bool:
    """A part of the key that no signature covers names a tied battlefield, and their orders are few enough to
    try them all."""
    return any(repr(n) in texts[i] for i in _UNSIGNED if i in texts for n in tied) and \
        prod(factorial(len(grp)) for grp in groups) <= ORDERS


def _least(k: tuple, p: Plan, groups: list[tuple[str, ...]], texts: dict[int, str]) -> tuple:
    """The least key over every order of the battlefields that keeps the groups' order (alike ones permuted)."""
    orders: list[tuple[str, ...]] = [()]
    for grp in groups:
        orders = [o + perm for o in orders for perm in permutations(grp)]
    return min((k if o == p.names else _renamed(k, p, o, texts) for o in orders), key=_bytes)


def _signature(g: State, p, k: tuple) -> list[tuple]:
    """Per battlefield, sorted: (what is at it, its place in the setup, its name)."""
    ms, bk = k[_MS], k[_BFS]
    here: dict[str, list] = {n: [] for n in p.names}
    for u in g.units.values():               # in the trash too: a card's last place may be read (359.3.f.2)
        at = here.get(u.at)
        if at is not None and u.zone != "removed":       # a removed card's place is forgotten (652.3)
            at.append(u.key())
    sig = []
    for n in p.names:
        b = bk[p.place[n]]
        sig.append(((tuple([ms[i] for i in p.ms[n]]), b[1] or "", b[2] or "", b[3], sorted(here[n]),
                     g.active == n, g.scored.get(n) or "", n in g.blocked), p.place[n], n))
    sig.sort()
    return sig


def _alike(sig: list[tuple]) -> tuple[list[tuple[str, ...]], set[str]]:
    """The battlefields in runs of equal signatures (in order), and those in a run of more than one (tied)."""
    groups: list[tuple[str, ...]] = []
    tied: set[str] = set()
    i = 0
    while i < len(sig):
        j = i + 1
        while j < len(sig) and sig[j][0] == sig[i][0]:
            j += 1
        groups.append(tuple([s[2] for s in sig[i:j]]))
        if j - i > 1:
            tied.update(groups[-1])
        i = j
    return groups, tied


def _bytes(k: tuple) -> bytes:
    try:
        return marshal.dumps(k, 0)
    except ValueError:                       # what marshal does not write: its repr
        return repr(k).encode()


def _renamed(k: tuple, p: Plan, order: tuple[str, ...], texts: dict[int, str]) -> tuple:
    """The key ``k`` with the battlefield ``order[i]`` renamed ``p.names[i]``, every part that holds a name
    (``texts``: the repr of each non-empty part that may, by index)."""
    m = {old: new for old, new in zip(order, p.names) if old != new}
    ms, bk = k[_MS], k[_BFS]
    out = list(k)
    ms2, bk2 = list(ms), list(bk)
    for old, new in m.items():
        for i, j in zip(p.ms[old], p.ms[new]):
            ms2[j] = ms[i]
        bk2[p.place[new]] = (new, *bk[p.place[old]][1:])
    out[_MS], out[_BFS] = tuple(ms2), tuple(bk2)
    out[_UNITS] = tuple([u if len(u) < 3 or u[2] not in m else (*u[:2], m[u[2]], *u[3:]) for u in k[_UNITS]])
    olds = [repr(old) for old in m]
    for i, text in texts.items():
        if any(r in text for r in olds):
            out[i] = _rename(k[i], m)
    _resort(out, p)
    return tuple(out)


def _resort(out: list, p: Plan) -> None:
    """The parts kept in the battlefields' setup order (or sorted), in that order again after a renaming."""
    for i in (_CHOOSING, _BLOCKED):
        if out[i]:
            out[i] = tuple(sorted(out[i], key=p.place.__getitem__))
    if out[_SCORED]:
        out[_SCORED] = tuple(sorted(out[_SCORED]))
