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

#: standard move paths (144): base <-> battlefield for everyone; battlefield -> battlefield needs Ganking (810)
MOVE_PATHS = {
    "base->battlefield": ("144",),
    "battlefield->base": ("144",),
    "battlefield->battlefield": ("144", "810"),     # only a unit with Ganking
}

#: keywords that give a card Reaction timing while it is played a certain way (on top of PLAY)
KEYWORD_TIMING = {
    "ambush": ("reaction", ("822.1.b",)),     # a unit played to a battlefield where its controller has units
    "hidden": ("reaction", ("811.1.d",)),     # played from facedown, from the turn after it was hidden
}

#: hiding a card (811.1.b): own turn, Neutral Open, holding priority; it opens no chain
HIDE = {"neutral-open": ("811.1.b", "310.1.a")}

#: readiness (every game): what exhausts and what readies units and gear
READINESS = {
    "standard move": ("exhausts the moving units", ("144",)),
    "unit enters play": ("exhausted", ("359.2",)),
    "unit enters play, Accelerate paid": ("ready", ("805",)),
    "gear enters play": ("ready", ("359.2",)),
    "Awaken Phase": ("readies everything the turn player controls, runes too", ("315.1",)),
}
