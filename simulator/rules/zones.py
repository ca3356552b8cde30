"""Leaving the board (108, 186): a unit or gear put into a non-board zone, and tokens, which cease to exist there.

A unit's ``zone`` is ``board``, ``trash``, ``banished`` or ``removed``. Every rule that puts a unit or gear off the
board (a kill, lethal damage, a banish, a replay, a conceding player's banish and removal) goes through
:func:`leave_board`, so a token (``token#N``, from ``play-unit``) put into any non-board zone other than the chain
ceases to exist at once (186.1): it is then in no zone, reported as ``removed``; it cannot be chosen, returned or
replayed, and nothing refers to it again (an instruction naming it finds it no longer on the board).
"""
from __future__ import annotations

from statecharts.citations import cite
from simulator.core.log import log
from simulator.core.model import State, Unit


def leave_board(g: State, u: Unit, zone: str) -> None:
    """``u`` (already written through ``g.edit``) leaves the board for ``zone`` and loses its designation; a token
    ceases to exist there instead of staying (186, 186.1). The caller writes its own trace line first (killed,
    dies, banished, removed from the game)."""
    u.zone = zone
    u.designation = None
    if u.token and zone != "removed":
        u.zone = "removed"
        log(g, "{unit} ceases to exist: a token cannot exist outside the board or the chain",
            cite("zones.token-ceases-to-exist"), u.controller, unit=u.id)
