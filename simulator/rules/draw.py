"""Drawing from the Main Deck (413, 315.4), Z2.

A player without a modelled deck has an endless deck of blank cards: a draw never runs out and never burns out (the
version 2 behaviour; the card joins the hand only in a game that models its zones). With a modelled deck a draw
takes the top card into the hand, one card at a time (413.1); a card that must be drawn from an empty deck makes
the player burn out (431), which gives points and may win the game: ``simulator.rules.scoring.burn_out``, passed
in by the caller (scoring builds on this module), after which the draw goes on (431.2.d).
"""
from __future__ import annotations

from typing import Callable

from statecharts.citations import cite
from simulator.core.log import log
from simulator.core.model import State
from simulator.rules.zones import BLANK, endless, put


def draw(g: State, p: str, n: int, burn_out: Callable[[State, str, int], None], say: bool = True) -> None:
    """``p`` draws ``n`` cards (413), burning out (``burn_out(g, p, nth)``, 431) each time the deck is empty; ``say``:
    write the version 2 line for an endless deck."""
    if n <= 0:
        return
    if endless(g, p):
        g.drawn[p] = g.drawn.get(p, 0) + n
        if g.cfg.zones:                             # a blank card from the endless deck: a card more
            g.set_hand(p, [*g.hands.get(p, ()), *[BLANK] * n])
            g.made += n
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
