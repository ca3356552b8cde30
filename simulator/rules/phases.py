"""The turn cycle (315-317, R10-R12): Start of Turn tasks, Main Phase, Ending Phase, the next turn."""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.log import fire, log
from simulator.core.model import State
from simulator.core.registry import effect, guard
from simulator.rules.draw import draw
from simulator.rules.scoring import burn_out, hold_all


@effect
def _hold_scoring(g: State, inst, ctx) -> None:
    hold_all(g)
    g.dirty = True


@effect
def _draw_for_turn(g: State, inst, ctx) -> None:
    """315.4.b: the turn player draws 1 (413): from a modelled deck, with Burn Out (431); from an endless deck a
    blank card, never a burn out (Z2)."""
    draw(g, g.turn, 1, burn_out, say=False)


@effect
def _main_start(g: State, inst, ctx) -> None:
    """316.1: rune pools empty at the start of the Main Phase."""
    for p in g.energy:
        g.energy[p] = 0
    ctx["player"] = g.turn


@effect
def _expire(g: State, inst, ctx) -> None:
    """317.2: the Expiration Step is an Ending Cleanup (heal, 'this turn' effects end, pools empty)."""
    g.special = "ending"
    g.dirty = True


@effect
def _next_turn(g: State, inst, ctx) -> None:
    """317.3 (R11): the next queued turn, else the next player in turn order; Awaken readies everything (315.1)."""
    if g.handoff:
        g.handoff = False
        g.normal = g.turn
    elif g.extra:
        g.turn = g.extra.pop(0)
        log(g, "{player} takes an extra turn", cite("phases.takes-extra-turn"), g.turn)
    else:                                   # 735: extra turns don't change turn order
        g.turn = g.normal = g.next_player(g.normal)
    g.scored = {}
    g.blocked = ()
    g.once = ()                             # once-per-turn abilities may be used again
    g.priority = None
    g.invited = None
    for u in g.units.values():
        if u.exhausted and u.zone == "board" and u.controller == g.turn:
            g.edit(u).exhausted = False
    from simulator.rules import hidden, resources
    resources.ready_runes(g, g.turn)                 # 315.1: runes too
    hidden.next_turn(g)                              # 811.1.d: facedown cards may be played from now on
    ctx["player"] = g.turn


# -- the schedule's steps (statecharts/schedule.py) ------------------------------------------------

@guard("handoff_due")
def _handoff_due(g: State, inst, ctx) -> bool:
    """652.5, R10: the turn player left during their Main Phase; the next player's turn begins"""
    return g.handoff


@effect
def _turn_handoff(g: State, inst, ctx) -> None:
    # not a hand-off: the schedule's next-turn step acting (652.5, R10)
    fire(g, "phases", "handoff", player=g.turn)


@effect
def _advance_phase(g: State, inst, ctx) -> None:
    # not a hand-off: the schedule's next-phase step acting (314-317)
    fire(g, "phases", "advance", player=g.turn)
