"""Loops no player decision can end (ruling R22): a position's identity modulo fresh ids and counters.

A card played by an effect, a token, a copy gets a fresh id (``CARD#N``, ``token#N``, from ``State.counters``), and
a unit that died or was banished stays in ``State.units`` with its id, in a zone no rule reads again (only units on
the board are targets, movers, combatants or sources of what happens next). So a death loop (a unit whose
on-death plays a copy of itself, which dies again) never repeats ``State.key()``: every round adds one trashed
``phoenix#N``. :func:`identity` is the key with those gone units left out and the fresh ids that remain renumbered
in the order they sit in the game (the ``k``-th unit of card ``C`` still there is ``C#k``); a gone unit still named
(the source of a trigger waiting on the chain) is ``C#gone``. Two positions with one identity are the same
position: same units, chain, machines and everything else ``key()`` holds, up to the numbering of new objects.

A position with no gone fresh unit has ``identity(g) == g.key()`` (nothing is renamed), so a search that
identifies states by it explores exactly the states ``key()`` tells apart wherever no new object has left the
board. ``engine.settle`` reads it to stop a loop of forced steps (:class:`~simulator.core.errors.Loop`), and
``riftsim verify`` to find a loop of forced actions and to keep the space of a position with one finite.
"""
from __future__ import annotations

from statecharts.citations import cite

from simulator.core.model import KEY_PARTS, State
from simulator.game.actions import legal

_UNITS = KEY_PARTS.index("units")


def _gone(g: State) -> dict[str, str]:
    """The renaming of the fresh ids of ``g`` when one of them has left the board, else an empty dict."""
    counters = g.counters
    if not counters or not any(u.zone != "board" and "#" in u.id for u in g.units.values()):
        return {}
    fresh = []
    gone = False
    entering = g.resolving.entering if g.resolving is not None else ()
    for u in [*g.units.values(), *entering]:
        card, sep, n = u.id.rpartition("#")
        if sep and n.isdigit() and 0 < int(n) <= counters.get(card, 0):
            fresh.append((u, card))
            gone = gone or u.zone != "board"
    if not gone:
        return {}
    rank: dict[str, int] = {}
    names = {}
    for u, card in fresh:
        if u.zone == "board" or u in entering:
            rank[card] = rank.get(card, 0) + 1
            names[u.id] = f"{card}#{rank[card]}"
        else:
            names[u.id] = f"{card}#gone"
    return names


def _renamed(x, names: dict[str, str]):
    if type(x) is str:
        return names.get(x, x)
    if type(x) is tuple:
        return tuple([_renamed(y, names) for y in x])
    return x


def renamed(g: State) -> bool:
    """Whether a new object of ``g`` has left the board (its identity is then not its key)."""
    return bool(_gone(g))


def identity(g: State) -> tuple:
    """``g.key()`` modulo fresh ids and counters: fresh units that left the board left out, the others renumbered."""
    names = _gone(g)
    key = g.key()
    if not names:
        return key
    units = tuple(u for u in key[_UNITS] if names.get(u[0], "").rpartition("#")[2] != "gone")
    return _renamed(key[:_UNITS] + (units,) + key[_UNITS + 1:], names)


def forced(g: State) -> bool:
    """Whether the players of ``g`` have one legal action in all, conceding aside (R22's forced step)."""
    return g.winner is None and sum(1 for p in g.in_game() for a in legal(g, p) if a.kind != "concede") == 1


class Watch:
    """A game played step by step (``simulate``, ``play``): the positions after a run of forced actions, by
    :func:`identity`; :meth:`step` says when one comes back, a loop no player decision can end (R22). Only a
    position where a new object left the board is looked at (the signature of a loop that makes new objects; a
    position that repeats exactly is a cycle of the game, which ``riftsim verify`` explores), so a game without such
    a loop pays nothing but :func:`renamed`."""

    def __init__(self) -> None:
        self.seen: dict[tuple, int] = {}      # identity -> the step after which the game was there
        self.steps: list[str] = []           # the forced actions since the first of those positions

    def before(self, g: State, last: int) -> None:
        """Before an action from ``g`` (``last``: the number of the step ``g`` came from)."""
        if not (renamed(g) and forced(g)):
            self.seen, self.steps = {}, []
        elif not self.seen:
            self.seen[identity(g)] = last

    def after(self, g: State, number: int, action: str) -> str:
        """After the action (step ``number``, described ``action``): the loop it closes, or ''."""
        if not self.seen:
            return ""
        self.steps.append(action)
        k = identity(g)
        first = self.seen.get(k)
        if first is None:
            self.seen[k] = number
            return ""
        round_ = self.steps[-(number - first):] if number > first else self.steps
        return (f"{action} brings back the position after step {first} (up to the numbering of new objects) with "
                f"only forced actions between ({'; '.join(round_)}): a loop no player decision can end, the game is "
                f"a draw [{cite('engine.loop')}]")
