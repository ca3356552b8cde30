"""The rules layer: one module per concept of the rules, each supplying the named guards and effects
that the declarations in ``statecharts/`` refer to.

:data:`MODULES` lists them; :func:`install` registers their guards and effects (the game layer calls it
before it builds a game, so nothing depends on an import done for its side effect).
"""
from __future__ import annotations

from simulator.core import registry
from simulator.rules import (chain, cleanup, combat, concede, damage, draw, effects, focus, hidden, moves, phases,
                             resources, scoring, targets, triggers, zones)

MODULES = (chain, targets, triggers, moves, scoring, cleanup, combat, damage, focus, phases, concede, effects,
           hidden, resources, zones, draw)


_installed = False


def install() -> None:
    """Register the guards and effects of every rule module, once (a test may then patch one entry)."""
    global _installed
    if not _installed:
        registry.register(*MODULES)
        _installed = True
