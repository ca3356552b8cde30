"""riftsim's simulator: the game model and the engine that drives the declared statecharts.

>>> from simulator import Game, Action
>>> g = Game.from_setup({"players": ["A", "B"], "battlefields": ["North"],
...                      "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2}]})
>>> g.apply(Action("move", "A", units=("a1",), to="North"))
>>> g.state.turn_state(), g.state.focus
('showdown-open', 'A')
"""
from simulator.game.actions import Action
from simulator.game.engine import Game, step
from simulator.core.errors import IllegalAction, RiftsimError, ScenarioError

__all__ = ["Game", "Action", "step", "IllegalAction", "RiftsimError", "ScenarioError"]
