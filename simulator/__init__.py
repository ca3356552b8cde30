"""riftsim's simulator: the game model and the engine that drives the declared statecharts.

>>> from simulator import Game, Action
>>> g = Game.from_setup({"players": ["A", "B"], "battlefields": ["North"],
...                      "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2}]})
>>> g.apply(Action("move", "A", units=("a1",), to="North"))
>>> g.state.turn_state(), g.state.focus
('showdown-open', 'A')
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from simulator.core.errors import IllegalAction, RiftsimError, ScenarioError

if TYPE_CHECKING:
    from simulator.game.actions import Action
    from simulator.game.engine import Game, step

__all__ = ["Game", "Action", "step", "IllegalAction", "RiftsimError", "ScenarioError"]


def __getattr__(name: str):
    """``Game``, ``Action`` and ``step`` are imported when first asked for: ``riftsim`` starts without the engine
    (its Ctrl-C handler is in place before anything heavy loads)."""
    if name == "Action":
        from simulator.game.actions import Action
        return Action
    if name in ("Game", "step"):
        from simulator.game import engine
        return getattr(engine, name)
    raise AttributeError(f"module 'simulator' has no attribute {name!r}")
