"""The rulings (../shared/rules/rulings.md): how the simulator decides where the rules leave a gap.

Each ruling has a default and, for some, an alternative a user can switch to
(``--ruling R1=attacker`` or a scenario's ``rulings:``). Trace events and the
declarations name the ruling ids they apply.
"""

RULINGS: dict[str, dict] = {
    "R1": {"name": "focus-on-conversion", "default": "the focus holder after the closing chain's hand-off keeps "
           "focus through the conversion (464.2.c.1.b)", "alternative": ("attacker", "the attacker gains focus (464.2.d)")},
    "R2": {"name": "focus-order", "default": "next player in turn order, every player still in the game",
           "alternative": ("defender-last", "in a combat, from the attacker round the table, the defender last")},
    "R3": {"name": "pass-sequence", "default": "any new chain restarts the run of consecutive focus passes"},
    "R4": {"name": "focus-after-cleanup", "default": "a showdown opens in the cleanup; focus and priority are "
           "awarded once cleanups have settled"},
    "R5": {"name": "unit-in-showdown", "default": "a unit played in a showdown: focus passes when its chain empties"},
    "R6": {"name": "showdown-end", "default": "establishing control clears Contested; with no units left nobody "
           "gains control and cleanup task 8 clears Contested"},
    "R7": {"name": "simultaneous-arrival", "default": "the turn player applies Contested if among the arrivals, "
           "else the first of them in turn order; the same order picks the attacker when the player who applied "
           "Contested has left the battlefield and two others' units remain (464.2.b, an extension of R7)"},
    "R8": {"name": "no-result-restage", "default": "a re-staged combat keeps the same attacker"},
    "R9": {"name": "concede-battlefield", "default": "the token battlefield keeps control and Contested",
           "alternative": ("reset", "the token battlefield is uncontrolled and uncontested")},
    "R10": {"name": "concede-turn", "default": "the turn passes to the next player still in the game, from Start of "
            "Turn; the conceder's extra turns are dropped"},
    "R11": {"name": "extra-turns", "default": "each new extra turn goes directly after the current turn",
            "alternative": ("fifo", "extra turns in the order their effects occurred")},
    "R12": {"name": "phases-modelled", "default": "Beginning (Hold), Main, Ending (expiration); Awaken, Channel "
            "and Draw as tasks without choices"},
    "R13": {"name": "team-invite", "default": "on a teammate's turn, Neutral Open plays need the turn player's "
            "invite, which lends priority for one action"},
    "R14": {"name": "end-turn", "default": "only the turn player, Main Phase, Neutral Open, holding priority"},
    "R15": {"name": "concede-control", "default": "the conceder's units are banished; a staged combat losing a "
            "side is dropped; an active combat proceeds"},
    "R16": {"name": "final-point", "default": "'every battlefield' counts all battlefields in play, the one "
            "being conquered included"},
    "R17": {"name": "chain-first-priority", "default": "the controller of the newest item once all pending "
            "items are finalized"},
    "R18": {"name": "replaced-final-point", "default": "a Conquer whose final point becomes a card draw (471.1.b) "
            "still scores the battlefield: it counts as scored this turn (470), its on-conquer triggers fire, "
            "and a later Conquer that turn may then be the final point",
            "why": "471.1.b replaces the point, not the score: Conquer effects trigger only when a battlefield "
            "actually scores (471.2) and they still trigger here (383.4.c.2.c), so the battlefield has scored; "
            "470 allows one score per battlefield per turn, with or without the point"},
    "R19": {"name": "contest-after-settle", "default": "a unit arriving at a battlefield whose combat has settled "
            "control (466.5.a) but not yet ended (466.7) applies Contested again; when the combat ends the "
            "battlefield stays Contested (or a showdown and combat are staged again when both sides remain)",
            "why": "190.3.a.1 applies Contested to any battlefield that is not Contested, and 466.5.a cleared it; "
            "no rule makes the 466.6 chain window an exception"},
    "R20": {"name": "move-to-own-place", "default": "an instruction that moves a unit to the place where it already "
            "is does nothing: no move (no on-arrive, no Contested), and no recall",
            "why": "a move's destination is a place other than the unit's own (355.4.a), so there is no move to "
            "carry out; an impossible instruction is ignored (055); 447.2.c recalls only a unit that may not be "
            "present at its destination, and it is already present there"},
}

#: the rulings that are switches: id -> allowed values ("default" first)
SWITCHES: dict[str, tuple[str, ...]] = {
    rid: ("default", r["alternative"][0]) for rid, r in RULINGS.items() if "alternative" in r
}
