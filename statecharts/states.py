"""The state names of every declared machine, as constants: one namespace per leaf machine.

The simulator never writes a state name as a text: it writes ``ChainState.Decide``, so a typo is an
``AttributeError`` (and a mypy error), and renaming a state in its declaration makes every use fail
until it is renamed too. Each namespace is checked against its declaration when this module is
imported: the constants are exactly the leaf's declared states, each spelled as its own name.

>>> ChainState.Decide, Status.Contested, Phase.Main
('Decide', 'Contested', 'Main')
>>> NAMESPACES["battlefield.status"] is Status
True
>>> ChainState.Decidee
Traceback (most recent call last):
AttributeError: type object 'ChainState' has no attribute 'Decidee'
"""
from __future__ import annotations

from .spec import Machine


class States:
    """A namespace of one machine's state names: each attribute is its own name."""

    @classmethod
    def names(cls) -> tuple[str, ...]:
        return tuple(v for k, v in vars(cls).items() if not k.startswith("_") and isinstance(v, str))


class Mode(States):
    """turn.mode (308)"""
    Neutral = "Neutral"
    Showdown = "Showdown"


class Window(States):
    """turn.window (309)"""
    Open = "Open"
    Closed = "Closed"


class ChainState(States):
    """chain: HOT FEPR (334-340)"""
    Empty = "Empty"
    Finalize = "Finalize"
    Order = "Order"
    Decide = "Decide"
    Execute = "Execute"
    Resolve = "Resolve"
    ResolveChoice = "ResolveChoice"


class FocusState(States):
    """focus (313, 341-348)"""
    Off = "Off"
    Holding = "Holding"
    Waiting = "Waiting"


class CleanupState(States):
    """cleanup: the tasks of 323"""
    Idle = "Idle"
    WinCheck = "WinCheck"
    Designations = "Designations"
    BoardState = "BoardState"
    CombatCleanup = "CombatCleanup"
    EndingCleanup = "EndingCleanup"
    LossOfControl = "LossOfControl"
    Corrective = "Corrective"
    StageShowdowns = "StageShowdowns"
    StageCombats = "StageCombats"
    ClearContested = "ClearContested"
    OpenShowdown = "OpenShowdown"
    OpenCombat = "OpenCombat"


class Control(States):
    """battlefield.control (190.4)"""
    Uncontrolled = "Uncontrolled"
    Controlled = "Controlled"


class Status(States):
    """battlefield.status (190.3, 323)"""
    Calm = "Calm"
    Contested = "Contested"
    Staged = "Staged"
    StagedCombat = "StagedCombat"
    Showdown = "Showdown"
    ShowdownCombatStaged = "ShowdownCombatStaged"
    Combat = "Combat"
    Settled = "Settled"
    CombatRestaged = "CombatRestaged"


class CombatStep(States):
    """combat (459-466)"""
    Idle = "Idle"
    ShowdownStep = "ShowdownStep"
    Assignment = "Assignment"
    DamageStep = "DamageStep"
    ResolutionStep = "ResolutionStep"
    Result = "Result"
    Control = "Control"


class Phase(States):
    """phases (315-317)"""
    Awaken = "Awaken"
    BeginningStep = "BeginningStep"
    Beginning = "Beginning"
    Channel = "Channel"
    Draw = "Draw"
    Main = "Main"
    Ending = "Ending"
    Expiration = "Expiration"
    GameOver = "GameOver"


class PlayerState(States):
    """player (649-652)"""
    InGame = "InGame"
    Banishing = "Banishing"
    Replacing = "Replacing"
    Removing = "Removing"
    Countering = "Countering"
    Lost = "Lost"
    Won = "Won"


#: leaf machine name -> its namespace of state names
NAMESPACES: dict[str, type[States]] = {
    "turn.mode": Mode, "turn.window": Window, "chain": ChainState, "focus": FocusState, "cleanup": CleanupState,
    "battlefield.control": Control, "battlefield.status": Status, "combat": CombatStep, "phases": Phase,
    "player": PlayerState,
}


def check(leaves: dict[str, Machine]) -> None:
    """Every leaf has a namespace holding exactly its declared states, in order, each spelled as its name."""
    if set(leaves) != set(NAMESPACES):
        raise ValueError(f"state namespaces {sorted(NAMESPACES)} do not match the leaf machines {sorted(leaves)}")
    for name, leaf in leaves.items():
        ns = NAMESPACES[name]
        bad = [k for k, v in vars(ns).items() if not k.startswith("_") and isinstance(v, str) and k != v]
        if bad or ns.names() != leaf.states:
            raise ValueError(f"{ns.__name__} {ns.names()} is not {name}'s declared states {leaf.states}")
