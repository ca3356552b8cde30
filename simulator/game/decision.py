"""Who must decide what now: the one place that answers it (the engine's checks and offers, the scenario
format's ``decision:`` expectation, ``riftsim play``, the trace JSON and the tests all ask :func:`decision`).

At any moment of a running game exactly one player is asked one question (the rules settle them in this
order; :data:`RANK`):

========================  =============================================================================
``battlefield``           the turn player chooses which staged showdown or combat opens (323.12, 323.13)
``choose``                an item's controller decides a may as it resolves (383.3.a.3), or a player chooses
                          the card to discard as a discard resolves (422; ``options``: their hand's cards)
``order``                 a player orders their simultaneous triggers (383.3.d)
``may`` / ``finalize``    a pending triggered ability's controller decides its may, or its targets (383.3.a)
``assign``                a combat's attacker, then defender, assigns combat damage (465.2.c)
``main``                  the turn player with priority in Neutral Open, Main Phase (310.1.a)
``priority``              the priority holder in a Closed state (or Neutral Open outside the Main Phase)
``focus``                 the focus holder in Showdown Open (313.2)
========================  =============================================================================

``None`` when nobody decides: the game is over. ``concede`` is open to every player still in the game at
any moment (651) and is never the question.

>>> from simulator.game.engine import Game
>>> Game.from_setup({"players": ["A", "B"]}).decision()
Decision(kind='main', player='A', item=None, options=())
"""
from __future__ import annotations

from dataclasses import dataclass

from statecharts.states import ChainState, Phase
from statecharts.turn import NEUTRAL_OPEN, SHOWDOWN_OPEN

from simulator.core.model import State
from simulator.rules import damage, zones
from simulator.rules.triggers import deciding, orderer, unordered_labels

#: the decision kinds in the order the rules settle them: while one of rank r is due, nothing of a later
#: rank can be done (an action that answers only later decisions is refused with its own "there is no ...")
RANK = {"battlefield": 0, "choose": 1, "order": 2, "may": 3, "finalize": 3, "assign": 4,
        "main": 5, "priority": 5, "focus": 5}
#: the decisions a player takes holding priority or focus (the timing tables' discretionary actions)
PRIORITY = ("main", "priority", "focus")
YES_NO = ("yes", "no")


@dataclass(frozen=True)
class Decision:
    """``kind`` (a key of :data:`RANK`), the ``player`` who decides, the chain ``item`` it is about (by name,
    for ``choose``, ``may`` and ``finalize``) and its ``options`` where they are a short list of words: the
    battlefields to choose among, the triggers that may be placed next, yes / no. The actions that answer
    it, and so its full choices, are :func:`simulator.game.actions.legal`'s."""
    kind: str
    player: str | None
    item: str | None = None
    options: tuple[str, ...] = ()

    def data(self) -> dict:
        """The JSON form (the ``decision:`` expectation and the trace's positions): ``{kind, player, item}``."""
        return {"kind": self.kind, "player": self.player, "item": self.item}


def decision(g: State) -> Decision | None:
    """Who must decide what now (see the module's table); None once the game is over."""
    if g.winner is not None:
        return None
    if g.choosing:
        return Decision("battlefield", g.turn, options=g.choosing)
    chain = g.ms[("chain", None)]
    if chain == ChainState.ResolveChoice and g.resolving is not None:
        return _resolving(g)
    who = orderer(g)
    if who is not None:
        return Decision("order", who, options=tuple(unordered_labels(g, who)))
    it = deciding(g) if chain == ChainState.Decide else None
    if it is not None:
        may = it.ask[0] == "may"
        return Decision("may" if may else "finalize", it.controller, it.name, YES_NO if may else ())
    who = damage.assigner(g)
    if who is not None:
        return Decision("assign", who)
    return _discretionary(g)


def discarding(g: State) -> tuple | None:
    """The resolving item and its entry's fields while it waits for the card to discard (422, Z3), else None."""
    r = g.resolving
    if r is None or g.ms[("chain", None)] != ChainState.ResolveChoice or r.item.effect[r.at][0] != "discard":
        return None
    return r.item, dict(r.item.effect[r.at][1])


def _resolving(g: State) -> Decision:
    """An item waits as it resolves: for the card a player discards (422), or its controller's may (383.3.a.3)."""
    d = discarding(g)
    if d is not None:
        item, args = d
        return Decision("choose", zones.discarder(item, args), item.name,
                        tuple(zones.discard_options(g, item, args)))
    r = g.resolving
    assert r is not None                        # decision() asks only while an item resolves
    return Decision("choose", r.item.controller, r.item.name, YES_NO)


def _discretionary(g: State) -> Decision | None:
    """The priority or focus holder's decision (None if nobody holds either: no decision is due)."""
    if g.priority is None:
        return None
    st = g.turn_state()
    if st == SHOWDOWN_OPEN:
        return Decision("focus", g.priority)
    if st == NEUTRAL_OPEN and g.ms[("phases", None)] == Phase.Main:
        return Decision("main", g.priority)
    return Decision("priority", g.priority)
