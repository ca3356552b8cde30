"""Small helpers shared by the rule modules."""
from __future__ import annotations

from simulator.core.model import Event, State


def fire(g: State, leaf: str, trigger: str, inst: str | None = None, **ctx):
    """Fire a declared transition (the only way a machine changes state)."""
    return g.cfg.rt.fire_ctx(g, leaf, trigger, inst, ctx)


def log(g: State, text: str, rule: str = "", player: str | None = None, detail: str = "") -> None:
    """A trace line that is not a machine transition (an action, a card's effect)."""
    if g.events_on:
        g.trace.append(Event(g.step, text, player, detail, rule))
