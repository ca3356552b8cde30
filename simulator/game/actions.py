"""Legality: whether an action may be taken now (:func:`check`), and every action that may (:func:`legal`).

Generic over the action kinds, each declared once in :mod:`simulator.game.action_kinds` (its shape, its
checks from the timing tables of ``statecharts/timing.py``, its offers); the decision now due comes from
:func:`simulator.game.decision.decision`: an action must answer it, or it is refused naming what is due.
"""
from __future__ import annotations

from contextlib import contextmanager
from typing import cast
from functools import lru_cache
from itertools import combinations

from statecharts.citations import cite

from simulator.core.errors import IllegalAction, TooCostly, need as _need
from simulator.core.model import State
from simulator.game.action_kinds import KINDS, Action, check_fields, must_first
from simulator.game.decision import PRIORITY, RANK, Decision, decision

__all__ = ["Action", "KINDS", "budget", "candidates", "check", "check_shape", "choice", "expand", "legal"]

#: what is due when nothing is (no priority, no choice: a position no rule leaves a game in)
NOBODY = Decision("priority", None)


def check(g: State, a: Action) -> None:
    """Raise :class:`IllegalAction` if the rules forbid ``a`` now; return None if it is legal.

    Only actions of the shape :func:`legal` produces are accepted: the fields of their kind, of the right
    types, a card's own target fields each once (:func:`check_shape`)."""
    check_shape(g, a)
    _check_player(g, a.player)
    if a.kind != "concede":
        _check_answer(g, a, g.turn_state(), decision(g) or NOBODY)


def check_shape(g: State, a: Action) -> None:
    """The action is one :func:`legal` could produce, whatever the moment: its kind's fields only, ids as
    texts, a play naming exactly its card's target fields (each once) and ``at`` only for a
    unit card. Raises :class:`IllegalAction` citing the rule of that kind of action.

    >>> from simulator.game.engine import Game
    >>> g = Game.from_setup({"players": ["A", "B"], "hands": {"A": ["action-spell"]}}).state
    >>> check_shape(g, Action("play", "A", card="action-spell", at="base"))
    Traceback (most recent call last):
    ...
    simulator.core.errors.IllegalAction: action-spell is a spell: at is only for playing a unit [353]
    """
    if not isinstance(a, Action):
        raise IllegalAction(f"not an action: {type(a).__name__}", cite("actions.not-action"))
    if a.kind not in KINDS:
        raise IllegalAction(f"unknown action {a.kind!r}", cite("actions.unknown-action"))
    if not isinstance(a.player, str):
        raise IllegalAction(f"the player must be a player name, not {type(a.player).__name__}", cite("actions.player-must-player-name-not"))
    check_fields(g, a)


def _check_player(g: State, p: str) -> None:
    """What every action of ``p`` needs: a player of this game, still in it, the game not over."""
    if p not in g.order:
        raise IllegalAction(f"{p} is not a player in this game", cite("actions.not-player-game"))
    if g.winner is not None:
        raise IllegalAction("the game is over", cite("actions.game-over"))
    if p not in g.in_game():
        raise IllegalAction(f"{p} has left the game and makes no more choices", cite("actions.has-left-game-makes-no"))


def _check_answer(g: State, a: Action, st: str, d: Decision) -> None:
    """The rest of :func:`check`, for any action but concede, in the turn state ``st`` with ``d`` due: the
    action answers ``d`` (or is refused: by what it would answer, when that comes later and is not due, else
    by ``d``), then its kind's own check."""
    row = KINDS[a.kind]
    if d.kind not in row.answers:
        idle = row.idle(a)
        if idle is not None and RANK[d.kind] > idle[0]:
            raise IllegalAction(idle[1], idle[2])
        raise must_first(g, d)
    row.check(g, a, d, st)


# -- enumeration ---------------------------------------------------------------------------------

#: ``Action(...)`` memoised on its arguments: an Action is an immutable value of exactly those arguments, so
#: an entry can never go stale; there are few distinct ones (players x units x destinations, cards x targets)
_action = lru_cache(maxsize=None)(Action)


#: decision kind -> the offers of the kinds of action that answer it, in the table's order
_OFFERS = {dk: tuple(row.offer for row in KINDS.values() if dk in row.answers) for dk in RANK}
#: kind of action -> its quick refusal by the timing tables (:func:`_refused_now`)
_SHUTS = {k: row.shut for k, row in KINDS.items() if row.shut is not None}


def candidates(g: State, p: str, d: Decision | None = None) -> list[Action]:
    """Every action worth checking for ``p``: concede, and the offers of every kind answering the decision
    due if ``p`` takes it (targets enumerated, legality not yet checked); a standard move once per unit and
    destination (a group move is legal exactly when each of its units' moves is); an order of simultaneous
    triggers (383.3.d) as one pick per trigger that may be placed next."""
    out: list[Action] = [_action("concede", p)]
    d = d or decision(g)
    if d is None or d.player != p:
        return out
    for offer in _OFFERS[d.kind]:
        out += offer(g, p, d)
    return out


MOVES = ("compact", "single", "all")
_BUDGET: list[int] = []          # the candidate checks legal() may still make, innermost budget last


@contextmanager
def budget(checks: int):
    """Within the block, :func:`legal` raises :class:`TooCostly` once it has checked more than ``checks``
    candidate actions in all (a scenario run's bound: its cost stays bounded whatever the file asks)."""
    _BUDGET.append(checks)
    try:
        yield
    finally:
        _BUDGET.pop()


def _refused_now(g: State, p: str, st: str, d: Decision):
    """A test ``shut(a)``: True for a candidate of ``p`` that the timing tables alone refuse in the turn
    state ``st`` (``statecharts/timing.py``: ``ALLOWED``, ``NO_PASS``, ``PLAY``), whatever its cards, units
    or targets: its kind's ``shut`` (a few comparisons), so that :func:`legal` skips those candidates
    without building each refusal. Only a necessary condition: every other candidate is still checked in
    full. None unless ``p`` holds priority or focus with nothing else due."""
    if d.kind not in PRIORITY or d.player != p:
        return None
    return lambda a: (shut := _SHUTS.get(a.kind)) is not None and shut(g, p, st, a)


def legal(g: State, p: str, *, moves: str = "compact") -> list[Action]:
    """The candidates :func:`check` accepts; its player part, the same for every candidate, is checked once.

    Standard moves (144) are described compactly by default: ONE move action per destination, naming
    every unit that may move there; any non-empty subset of those units is a legal move too (each unit's
    move is checked on its own), so the action stands for all of them without listing 2^n - 1 groups.
    ``moves="single"`` gives one move per unit and destination (what the explorer expands), ``moves="all"``
    every group (:func:`expand`: exponential, for small positions). (Orders of simultaneous triggers are
    picks of the next trigger, 383.3.d: n choices, never n!.)
    """
    if moves not in MOVES:
        raise ValueError(f"moves is one of {', '.join(MOVES)}, not {moves!r}")
    d = decision(g) or NOBODY
    cands = candidates(g, p, d)
    if _BUDGET:
        _BUDGET[-1] -= len(cands)
        if _BUDGET[-1] < 0:
            raise TooCostly("the legal actions would take too many candidate checks")
    try:
        _check_player(g, p)
    except IllegalAction:
        return []
    if len(cands) == 1:                          # concede alone (the first candidate): legal once the player is
        return cands                             # (the loop below checks nothing else of a concede)
    st = g.turn_state()
    res: list[Action | str] = []
    movers: dict[str, list[str]] = {}
    shut = _refused_now(g, p, st, d)
    for a in cands:
        if a.kind != "concede":
            if shut is not None and shut(a):
                continue                         # the timing tables refuse it whatever its details
            try:
                _check_answer(g, a, st, d)
            except IllegalAction:
                continue
        if a.kind == "move" and moves != "single":
            to = _need(a.to, "move's destination")
            if to not in movers:
                movers[to] = []
                res.append(to)                   # the destination's place in the list, filled in below
            movers[to].append(a.units[0])
            continue
        res.append(a)
    if not movers:                               # no destination was added: res holds actions only
        return cast("list[Action]", res)
    out: list[Action] = []
    for x in res:
        if isinstance(x, str):
            group = _action("move", p, units=tuple(movers[x]), to=x)
            out += expand(group) if moves == "all" else [group]
        else:
            out.append(x)
    return out


def expand(a: Action) -> list[Action]:
    """A compact move (:func:`legal`) as every move it stands for: each non-empty subset of its units,
    singles first, units in the order given.

    >>> [x.summary() for x in expand(Action("move", "A", units=("a1", "a2"), to="North"))]
    ['move a1 North', 'move a2 North', 'move a1 a2 North']
    """
    if a.kind != "move":
        return [a]
    return [_action("move", a.player, units=group, to=a.to)
            for k in range(1, len(a.units) + 1) for group in combinations(a.units, k)]


def choice(a: Action) -> str:
    """An action as the ``legal`` expectation lists it: its summary, except that an order names only the
    trigger placed first (383.3.d: "order a1:brace" = a1:brace may be placed next, the rest in any order).

    >>> choice(Action("order", "A", triggers=("a1:x", "a1:y")))
    'order a1:x'
    """
    return f"order {a.triggers[0]}" if a.kind == "order" else a.summary()
