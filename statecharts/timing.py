"""Timing permissions (155, 806, 813, 358.4, 144, 381): who may do what in which state.

A table, not code: ``PLAY[state]`` lists the timings playable there, with the
rules; ``needs`` says which opportunity the player must hold.
"""

#: state -> timing keyword -> rule ids. "normal" means no keyword (a spell, a unit, gear).
PLAY = {
    "neutral-open": {"normal": ("155", "310.1.a"), "action": ("806",), "reaction": ("813",)},
    "neutral-closed": {"reaction": ("309.1.a", "813", "358.4")},
    "showdown-open": {"action": ("308.1.a", "806"), "reaction": ("308.1.a", "813")},
    "showdown-closed": {"reaction": ("309.1.a", "813", "358.4")},
}

#: what a player must hold to act, per state
NEEDS = {
    "neutral-open": ("priority", "312.2.a"),
    "neutral-closed": ("priority", "312.2.c"),
    "showdown-open": ("focus", "313.2"),
    "showdown-closed": ("priority", "312.2.c"),
}

#: in Neutral Open only the turn player (or an invited teammate, R13) acts; others need Action/Reaction
#: and those only work in showdowns or Closed states (155, 806, 813, 316.5.b.1)
NEUTRAL_OPEN_OWN_TURN = ("155", "316.5", "310.1.a")

#: the standard move: Main Phase, Neutral Open, turn player (144)
STANDARD_MOVE = {"neutral-open": ("144",)}

#: ending the turn (ruling R14)
END_TURN = {"neutral-open": ("316.9", "R14")}
