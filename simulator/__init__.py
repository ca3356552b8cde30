"""riftsim's simulator: the game model and the engine that drives the declared statecharts.

>>> from simulator import Game, Action
>>> g = Game.from_setup({"players": ["A", "B"], "battlefields": ["North"],
...                      "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2}]})
>>> g.apply(Action("move", "A", units=("a1",), to="North"))
>>> g.state.turn_state(), g.state.focus
('showdown-open', 'A')
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from simulator.core.errors import IllegalAction, RiftsimError, ScenarioError
    from simulator.game.actions import Action
    from simulator.game.engine import Game, step

__all__ = ["Game", "Action", "step", "IllegalAction", "RiftsimError", "ScenarioError"]
_WHERE = {"Action": "simulator.game.actions", "Game": "simulator.game.engine", "step": "simulator.game.engine",
          "IllegalAction": "simulator.core.errors", "RiftsimError": "simulator.core.errors",
          "ScenarioError": "simulator.core.errors"}


def __getattr__(name: str):
    """The names of :data:`__all__` are imported when first asked for: ``riftsim`` starts without the engine
    (its Ctrl-C handler is set before anything heavy loads)."""
    if name not in _WHERE:
        raise AttributeError(f"module 'simulator' has no attribute {name!r}")
    import importlib
    return getattr(importlib.import_module(_WHERE[name]), name)
