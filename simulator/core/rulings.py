"""Reading a ruling switch: the one way the simulator asks which reading of a ruling a game uses.

A game's switches are the scenario's ``rulings:`` and ``--ruling`` pins (validated on load against
``statecharts.rulings``); a ruling not pinned is at its default. ``ruling_is`` refuses an id that is not a
declared switch and a value that switch does not declare, so a misspelt reading fails loudly instead of
silently reading as the default.

>>> from types import SimpleNamespace as NS
>>> g = NS(cfg=NS(rulings={"R9": "reset"}))
>>> ruling_is(g, "R9", "reset"), ruling_is(g, "R1", "attacker"), ruling_is(g, "R1", "default")
(True, False, True)
>>> ruling_is(g, "R9", "rest")
Traceback (most recent call last):
KeyError: "R9 has no reading 'rest' (statecharts/rulings.py declares: default, reset)"
"""
from __future__ import annotations

from typing import Any

from statecharts.rulings import SWITCHES


def ruling_is(g: Any, rid: str, value: str) -> bool:
    """Whether the game ``g`` reads ruling ``rid`` as ``value`` (``"default"`` or a declared alternative)."""
    values = SWITCHES.get(rid)
    if values is None or value not in values:
        raise KeyError(f"{rid} has no reading {value!r} (statecharts/rulings.py declares: "
                       f"{', '.join(values) if values else 'no switch of that id'})")
    return g.cfg.rulings.get(rid, "default") == value
