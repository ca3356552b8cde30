"""Drawing from the Main Deck (413, 315.4) and Burn Out (431), Z2.

A player without a modelled deck has an endless deck of blank cards: a draw never runs out and never burns out (the
version 2 behaviour; the card joins the hand only in a game that models its zones). With a modelled deck a draw
takes the top card into the hand, one card at a time (413.1); a card that must be drawn from an empty deck makes
the player burn out (431): they recycle their trash into the deck, an opponent gains 1 point, and the draw goes on
(431.2). A later burn out of the same draw that brings a side to the Victory Score with more points than every
other side wins at once, without a cleanup (431.3.c, 431.3.c.1).
"""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.errors import RulesBug
from simulator.core.log import log
from simulator.core.model import State
from simulator.rules.cleanup import declare_winner
from simulator.rules.scoring import add_points, holder, points, team_score
from simulator.rules.zones import BLANK, endless, put


def draw(g: State, p: str, n: int, say: bool = True) -> None:
    """``p`` draws ``n`` cards (413); ``say``: write the version 2 line for an endless deck."""
    if n <= 0:
        return
    if endless(g, p):
        g.drawn[p] = g.drawn.get(p, 0) + n
        if g.cfg.zones:
            g.set_hand(p, [*g.hands.get(p, ()), *[BLANK] * n])
        if say:
            log(g, "{player} draws {count}", cite("effects.draws"), p, count=n)
        return
    burns = 0
    while n > 0 and g.winner is None:
        deck = g.pile("deck", p)
        k = min(n, len(deck))
        if k:
            g.set_pile("deck", p, deck[k:])
            for entry in deck[:k]:
                put(g, "hand", p, entry)
            g.drawn[p] = g.drawn.get(p, 0) + k
            n -= k
            log(g, "{player} draws {count} ({left} left in the Main Deck)", cite("draw.draws-from-deck"), p,
                count=k, left=len(deck) - k)
        if n:
            burn_out(g, p, burns)
            burns += 1


def burn_out(g: State, p: str, nth: int) -> None:
    """431: ``p`` must draw from an empty Main Deck: their trash becomes their deck (431.2.b, in the order the cards
    entered the trash: the rules randomize it, 416.5), and an opponent gains 1 point (431.2.c); ``nth`` > 0: a later
    burn out of the same draw, whose point may win at once (431.3.c.1)."""
    log(g, "{player} must draw from an empty Main Deck: {player} burns out", cite("draw.burns-out"), p)
    trash = g.pile("trash", p)
    if trash:
        g.set_pile("trash", p, ())
        for entry in trash:
            put(g, "deck", p, entry)
        log(g, "{player} recycles {n} card(s) from the trash into the Main Deck", cite("draw.recycles-trash"), p,
            n=len(trash))
    sides = {holder(g, q) for q in g.in_game() if g.opponents(p, q)}
    if len(sides) != 1:
        raise RulesBug(f"{p} burns out with {len(sides)} opponents' scores to choose from: the choice of the "
                       f"opponent who gains the point (431.2.c) is not modelled yet")
    opp = next(q for q in g.in_game() if g.opponents(p, q))
    add_points(g, opp)
    log(g, "{opponent} gains 1 point from {player}'s burn out (now {points})", cite("draw.burn-out-point"), p,
        opponent=opp, points=points(g, opp))
    mine = team_score(g, g.team(opp))
    if nth and mine >= g.cfg.victory and all(mine > team_score(g, t) for t in {g.team(q) for q in g.in_game()}
                                              if t != g.team(opp)):
        log(g, "{player} wins at once: a point from a repeated burn out", cite("draw.wins-at-once"), opp)
        declare_winner(g, g.team(opp), cite("draw.wins-at-once"))
