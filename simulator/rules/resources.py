"""Costs and the rune pool (354, 429, 167, 316.1, 317.2.d): paying while playing, only with ``resources:``.

A game whose file has a top-level ``resources:`` gives each player ready runes and an energy pool. A card's
energy cost (and Accelerate's extra cost, 805) is paid while it is played: the pool first, then ready
runes, each exhausting for 1 energy (a rune's own Add, 429). Gear Adds are activated by their controller
(they resolve at once, 429), before or while playing. Without ``resources:`` nothing costs anything.
"""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.cards import Card, keyword
from simulator.core.log import log
from simulator.core.model import State


def cost_of(card: Card, *, accelerate: bool = False, hidden: bool = False, base: int | None = None) -> int:
    """The energy to pay: its cost (none when played from facedown, 811.1.d; ``base`` when an alternate cost
    replaces it, 356.1.a) plus Accelerate's (805)."""
    base = 0 if hidden else card.cost if base is None else base
    return base + ((keyword(card.keywords, "accelerate") or 0) if accelerate else 0)


def available(g: State, p: str) -> int:
    """Energy ``p`` can pay now: the pool and one per ready rune."""
    return g.energy.get(p, 0) + g.runes.get(p, 0)


def pay(g: State, p: str, amount: int, what: str) -> None:
    """354, 429: pay ``amount`` energy for ``what``: the pool first, then ready runes (each an Add of 1)."""
    if g.cfg.resources is None or amount <= 0:
        return
    short = amount - g.energy.get(p, 0)
    if short > 0:
        g.runes[p] -= short
        g.energy[p] = g.energy.get(p, 0) + short
        log(g, '{player} exhausts {short} rune{value}: adds {short} energy', cite("resources.exhausts-rune-adds-energy"), p, short=short, value='s' if short > 1 else '')
    g.energy[p] -= amount
    log(g, '{player} pays {amount} energy for {what} ({p} left in the pool, {p2} ready rune{value})', cite("resources.pays-energy-left-pool-ready"), p, amount=amount, what=what, p=g.energy[p], p2=g.runes[p], value='s' if g.runes[p] != 1 else '')


def ready_runes(g: State, p: str) -> None:
    """315.1: the Awaken Phase readies the turn player's runes."""
    if g.cfg.resources is not None:
        g.runes[p] = g.cfg.resources[p]
