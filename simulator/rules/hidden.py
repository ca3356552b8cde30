"""Hidden (811): facedown cards at battlefields, hidden on one turn and played from the next.

``State.hidden`` holds ``(battlefield, player, card, fresh)`` entries; ``fresh`` is true during the turn
the card was hidden (811.1.d: it may be played from the next turn). A facedown card whose controller
does not control its battlefield is trashed by cleanup task 5 (323.7) and by 466.5.c after a combat.
"""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.log import log
from simulator.core.model import State
from simulator.rules.zones import put


def hide(g: State, p: str, card: str, bf: str) -> None:
    """811.1.b: ``p`` puts ``card`` from their hand facedown at ``bf`` (no chain; its power cost is ignored)."""
    hand = list(g.hands[p])
    hand.remove(card)
    g.set_hand(p, hand)
    g.touch("hidden")
    g.hidden = tuple(sorted(g.hidden + ((bf, p, card, True),)))
    log(g, '{player} hides {card} facedown at {bf}', cite("hidden.hides-facedown"), p, card=card, bf=bf)


def entry(g: State, p: str, card: str, bf: str | None):
    """``p``'s facedown ``card`` (at ``bf`` if given), or None."""
    for e in g.hidden:
        if e[1] == p and e[2] == card and (bf is None or e[0] == bf):
            return e
    return None


def take(g: State, e) -> None:
    """The facedown card leaves its battlefield to be played (811.1.d)."""
    hidden = list(g.hidden)
    hidden.remove(e)
    g.touch("hidden")
    g.hidden = tuple(hidden)


def next_turn(g: State) -> None:
    """From the next turn a facedown card may be played (811.1.d)."""
    if any(e[3] for e in g.hidden):
        g.touch("hidden")
        g.hidden = tuple((bf, p, c, False) for bf, p, c, _ in g.hidden)


def trash_uncontrolled(g: State, rule: str, only: str | None = None) -> bool:
    """Trash the facedown cards whose controller lacks control of their battlefield; True if any went."""
    keep: list[tuple] = []
    gone: list[tuple] = []
    for e in g.hidden:
        bf, p = e[0], e[1]
        (gone if (only is None or bf == only) and g.bfs[bf].controller != p else keep).append(e)
    if not gone:
        return False
    g.touch("hidden")
    g.hidden = tuple(keep)
    for bf, p, card, _ in gone:
        log(g, "{player}'s facedown {card} at {bf} is trashed: {player} doesn't control {bf}", rule, p, card=card, bf=bf)
        if g.cfg.zones:
            put(g, "trash", p, card)
    return True


def banish_player(g: State, p: str) -> None:
    """652.1: the facedown cards a leaving player controls are banished (others' stay put, 652.2)."""
    mine = [e for e in g.hidden if e[1] == p]
    if mine:
        g.touch("hidden")
        g.hidden = tuple(e for e in g.hidden if e[1] != p)
        for bf, _, card, _ in mine:
            log(g, "{player}'s facedown {card} at {bf} is banished", cite("hidden.facedown-banished"), p, card=card, bf=bf)
