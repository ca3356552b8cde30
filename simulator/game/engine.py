"""The engine: applies actions and runs the declared schedule (HOT FEPR, 334) until someone must decide.

:class:`Game` is the OpenSpiel-style facade: ``legal_actions()``, ``apply()``,
``clone()``, ``is_terminal()``, ``key()``; a rejected action leaves the state
exactly as it was (the action runs on a clone that replaces the state only on
success).
"""
from __future__ import annotations

from statecharts.citations import cite

from simulator.game.actions import KINDS, Action, check, choice, legal
from simulator.game.decision import Decision, decision
from simulator.game.setup import build
from simulator.game import start as midtiming
from simulator.game import shape
from simulator.game.validate import SetupValidator
from simulator.game import loops
from simulator.core.errors import IllegalAction, Loop, RulesBug
from simulator.core.machines import schedule
from simulator.core.model import State

LIMIT = 10_000

#: schedule steps one settle runs before it looks for a repeated position (a real settle takes a few dozen)
LOOP_FROM = 100


def settle(g: State) -> None:
    """HOT FEPR (334-340) and the turn cycle, until a player must act (or the game is over): the declared
    schedule (``statecharts/schedule.py``), one step at a time. Past :data:`LOOP_FROM` steps each position is
    remembered by its identity modulo fresh ids (``simulator.game.loops``): one that comes back is a loop no
    player decision can end, raised as :class:`~simulator.core.errors.Loop` with one round of its trace."""
    once = schedule()
    for _ in range(LOOP_FROM):
        if not once(g):
            return
    seen: dict[tuple, tuple[int, int]] = {}
    for n in range(LOOP_FROM, LIMIT):
        k = loops.identity(g)
        if k in seen:
            first, at = seen[k]
            raise Loop(f"the position of schedule step {first} repeats at step {n} with no decision between (up to "
                       f"the numbering of new objects): a loop no player decision can end, the game is a draw",
                       cite("engine.loop"), tuple(e.event for e in g.trace[at:at + 12]))
        seen[k] = (n, len(g.trace))
        if not once(g):
            return
    raise RulesBug("HOT FEPR did not settle (a loop in the rules model)")


def perform(g: State, a: Action) -> None:
    """Carry out a legal action: its kind's ``perform`` (:data:`simulator.game.action_kinds.KINDS`)."""
    row = KINDS.get(a.kind)
    if row is None:            # pragma: no cover - check() refuses unknown kinds
        raise IllegalAction(f"unknown action {a.kind!r}", cite("engine.unknown-action"))
    row.perform(g, a)


def step(g: State, a: Action, number: int | None = None) -> State:
    """The successor of ``g`` under ``a`` (a new state); raises IllegalAction and leaves ``g`` untouched."""
    check(g, a)
    n = g.clone()
    if number is not None:
        n.step = number
    perform(n, a)
    settle(n)
    return n


class Game:
    """A game you can play, copy, hash and explore."""

    def __init__(self, state: State) -> None:
        self.state = state

    @classmethod
    def from_setup(cls, setup: dict, *, backend: str = "compiled", rulings: dict | None = None) -> "Game":
        """A game from a scenario-format starting position (a dict), validated like a scenario file:
        bad input raises ScenarioError with a one-line message (``setup: what is wrong``)."""
        shape.check(setup, "setup", "setup")
        pos = SetupValidator("setup").position(setup)
        g = build(pos.setup, backend=backend, rulings={**pos.rulings, **(rulings or {})}, cards=pos.cards)
        if midtiming.begin(g, pos.setup):          # a start mid-timing (format v3 M1): step 0 settles it
            settle(g)
        return cls(g)

    # OpenSpiel-style API
    def legal_actions(self, player: str | None = None, *, moves: str = "compact") -> list[Action]:
        """Every legal action (of ``player``, or of everyone still in the game). A standard move is listed
        once per destination with every unit that may go there: any non-empty subset of them is legal too
        (``moves="all"`` lists each group, exponential in the units; ``moves="single"`` one per unit)."""
        players = [player] if player else list(self.state.in_game())
        return [a for p in players for a in legal(self.state, p, moves=moves)]

    def decision(self) -> Decision | None:
        """Who must decide what now (:func:`simulator.game.decision.decision`); None once the game is over."""
        return decision(self.state)

    def legal_summary(self, player: str) -> list[str]:
        return sorted(dict.fromkeys(choice(a) for a in legal(self.state, player)))

    def apply(self, action: Action, step_number: int | None = None) -> None:
        """Apply a legal action; an illegal one raises IllegalAction and changes nothing."""
        self.state = step(self.state, action, step_number)

    def clone(self) -> "Game":
        return Game(self.state.clone())

    def is_terminal(self) -> bool:
        return self.state.winner is not None

    def key(self) -> tuple:
        return self.state.key()

    @property
    def trace(self):
        return self.state.trace
