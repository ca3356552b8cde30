"""Timing permissions (155, 308-316, 806, 813, 144, R13, R14): who may do what in which turn state.

Tables, not code. ``simulator/game/actions.py`` asks them for every action it checks, and
``riftsim rules ID`` shows the rows citing a rule; nothing else restates them.

* :data:`NEEDS`: what a player must hold to act in a state (priority or focus).
* :data:`PLAY`: the timings playable in a state ("normal" = no keyword: a spell, a unit, gear; an Add
  ability is a Reaction, 429).
* :data:`ALLOWED`: the other discretionary actions (the standard move, ending the turn, inviting a
  teammate) and the states they may be taken in.
* :data:`TURN_PLAYER_ONLY`: states where only the turn player (or the teammate they invited, R13) acts.
* :data:`NO_PASS`: states where the turn player does not pass priority (they end the turn instead).
* :data:`REFUSED`: the reason and rules of each refusal where a row above does not allow the action.

>>> sorted(PLAY[SHOWDOWN_OPEN]), "move" in ALLOWED and SHOWDOWN_OPEN in ALLOWED["move"]
(['action', 'reaction'], False)
"""
from .turn import NEUTRAL_CLOSED, NEUTRAL_OPEN, SHOWDOWN_CLOSED, SHOWDOWN_OPEN, TURN_STATES

#: state -> (what a player must hold to act, rule)
NEEDS: dict[str, tuple[str, str]] = {
    NEUTRAL_OPEN: ("priority", "312.2.a"),
    NEUTRAL_CLOSED: ("priority", "312.2.c"),
    SHOWDOWN_OPEN: ("focus", "313.2"),
    SHOWDOWN_CLOSED: ("priority", "312.2.c"),
}

#: state -> timing keyword -> rule ids
PLAY: dict[str, dict[str, tuple[str, ...]]] = {
    NEUTRAL_OPEN: {"normal": ("155", "310.1.a"), "action": ("806",), "reaction": ("813",)},
    NEUTRAL_CLOSED: {"reaction": ("309.1.a", "813", "358.4")},
    SHOWDOWN_OPEN: {"action": ("308.1.a", "806"), "reaction": ("308.1.a", "813")},
    SHOWDOWN_CLOSED: {"reaction": ("309.1.a", "813", "358.4")},
}

#: action -> state -> rule ids: the states where the turn player holding priority may take it
ALLOWED: dict[str, dict[str, tuple[str, ...]]] = {
    "move": {NEUTRAL_OPEN: ("144",)},                   # the standard move: Main Phase, Neutral Open
    "end-turn": {NEUTRAL_OPEN: ("316.9", "R14")},
    "invite": {NEUTRAL_OPEN: ("316.5.b.1", "R13")},     # magma-chamber only
    "hide": {NEUTRAL_OPEN: ("811.1.b", "310.1.a")},     # a card with Hidden, facedown, no chain (811)
}

#: state -> rule ids: only the turn player, or the teammate they invited, plays or activates there
TURN_PLAYER_ONLY: dict[str, tuple[str, ...]] = {NEUTRAL_OPEN: ("310.1.a", "316.5")}

#: state -> rule ids: the turn player ends the turn instead of passing; an invited teammate's pass declines
NO_PASS: dict[str, tuple[str, ...]] = {NEUTRAL_OPEN: ("316.9", "R14")}

#: (action, state) -> (reason, rules) where the tables above do not allow it ({what}: the card or ability,
#: {state}: the state)
REFUSED: dict[tuple[str, str], tuple[str, str]] = {
    **{("play", st): ("{what} is not a Reaction: only Reactions in a Closed state", "309.1.a, 813")
       for st in (NEUTRAL_CLOSED, SHOWDOWN_CLOSED)},
    ("play", SHOWDOWN_OPEN): ("{what} has neither Action nor Reaction: not playable during a showdown",
                              "308.1.a, 806"),
    **{("move", st): ("no standard move during a showdown or combat", "144")
       for st in (SHOWDOWN_OPEN, SHOWDOWN_CLOSED)},
    ("move", NEUTRAL_CLOSED): ("no standard move in a Closed state", "144"),
    **{("end-turn", st): ("the turn can't end in a {state} state", "R14") for st in TURN_STATES if st != NEUTRAL_OPEN},
    **{("invite", st): ("only the turn player holding priority in Neutral Open may invite", "316.5.b.1, R13")
       for st in TURN_STATES if st != NEUTRAL_OPEN},
    **{("hide", st): ("a card is hidden only on its controller's own turn, in Neutral Open, holding priority",
                      "811.1.b") for st in TURN_STATES if st != NEUTRAL_OPEN},
}

#: standard move paths (144): base <-> battlefield for everyone; battlefield -> battlefield needs Ganking (810)
MOVE_PATHS: dict[str, tuple[str, ...]] = {
    "base->battlefield": ("144",),
    "battlefield->base": ("144",),
    "battlefield->battlefield, Ganking only": ("144", "810"),
}

#: keywords that give a card Reaction timing while it is played a certain way (on top of PLAY)
KEYWORD_TIMING: dict[str, tuple[str, tuple[str, ...]]] = {
    "ambush": ("reaction", ("822.1.b",)),     # a unit played to a battlefield where its controller has units
    "hidden": ("reaction", ("811.1.d",)),     # played from facedown, from the turn after it was hidden
}

#: readiness (every game): what exhausts and what readies units and gear
READINESS: dict[str, tuple[str, tuple[str, ...]]] = {
    "standard move": ("exhausts the moving units", ("144",)),
    "unit enters play": ("exhausted", ("359.2",)),
    "unit enters play, Accelerate paid": ("ready", ("805",)),
    "gear enters play": ("ready", ("359.2",)),
    "Awaken Phase": ("readies everything the turn player controls, runes too", ("315.1",)),
}
