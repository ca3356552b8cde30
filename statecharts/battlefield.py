"""Battlefield status (190, 323.8-323.14): control, Contested, staged and active showdowns and combats.

One instance per battlefield. Two orthogonal regions: who may control it
(Uncontrolled/Controlled, 190.4) and its timing status (Calm -> Contested ->
staged showdown -> staged combat -> active showdown or combat).
"""
from .spec import Machine, T

CONTROL = Machine(
    "battlefield.control", "Control (190.4)", ("Uncontrolled", "Controlled"), "Uncontrolled",
    (
        T("gain", "Uncontrolled", "Controlled", ("190.4.a", "348.2.a", "466.5"), say="{player} takes control of {bf}"),
        T("gain", "Controlled", "Controlled", ("190.4.a", "348.2.a", "466.5"), say="{player} takes control of {bf}"),
        T("lose", "Controlled", "Uncontrolled", ("323.6", "190.4.c", "466.5"), say="{bf} becomes uncontrolled"),
    ),
    per="battlefield",
)

STATUS = Machine(
    "battlefield.status", "Contested, staged, active (190.3, 323)",
    ("Calm", "Contested", "Staged", "StagedCombat", "Showdown", "ShowdownCombatStaged", "Combat", "Settled",
     "CombatRestaged"),
    "Calm",
    (
        T("contest", "Calm", "Contested", ("190.3.a.1", "450"), say="{bf} becomes Contested ({player} applied it)"),
        T("stage_showdown", "Contested", "Staged", ("323.8",), say="showdown staged at {bf}"),
        T("stage_combat", "Staged", "StagedCombat", ("323.9", "461"), say="combat staged at {bf}"),
        T("stage_combat", "Showdown", "ShowdownCombatStaged", ("323.9", "316.8.b.1.a"),
          say="combat staged at {bf}, where a non-combat showdown is running"),
        T("unstage_combat", "StagedCombat", "Staged", ("323.10", "461.2"), say="the combat staged at {bf} is no longer staged"),
        T("unstage_combat", "ShowdownCombatStaged", "Showdown", ("323.10",),
          say="the combat staged at {bf} is no longer staged"),
        T("unstage", "Staged", "Contested", ("323.8",), say="the showdown staged at {bf} is no longer staged"),
        T("unstage", "StagedCombat", "Contested", ("323.8", "323.10"),
          say="the showdown and combat staged at {bf} are no longer staged"),
        T("clear", "Contested", "Calm", ("323.11", "190.3.b.1", "R6"), say="{bf} is no longer Contested"),
        T("open_showdown", "Staged", "Showdown", ("323.12", "344.2"), sends=("turn.mode:begin_showdown",),
          say="a non-combat showdown begins at {bf}"),
        T("open_combat", "StagedCombat", "Combat", ("323.13", "344.1", "460"),
          sends=("turn.mode:begin_showdown", "combat:begin"), say="a combat begins at {bf}"),
        T("convert", "ShowdownCombatStaged", "Combat", ("323.14", "464.1", "316.8.b.1.a"),
          sends=("combat:begin", "focus:convert"), say="the showdown at {bf} becomes a combat showdown"),
        T("end_showdown", "Showdown", "Calm", ("348.2.a", "190.3.b", "R6"), guards=("control_settled",),
          say="{bf} is no longer Contested: control is settled"),
        T("end_showdown", "Showdown", "Contested", ("348.2", "R6"), say="nobody's units remain at {bf}"),
        T("settle", "Combat", "Settled", ("466.5", "466.5.a", "190.3.b"),
          say="{bf} is no longer Contested: control is settled"),
        T("contest", "Settled", "Combat", ("190.3.a.1", "450", "R19"),
          say="{bf} becomes Contested again ({player} applied it) while its combat is still ongoing"),
        T("restage", "Combat", "CombatRestaged", ("466.3.d", "466.3.d.1", "R8"),
          say="both players have units at {bf}: a showdown and a combat are staged there again"),
        T("end_combat", "Settled", "Calm", ("466.7",)),
        T("end_combat", "CombatRestaged", "StagedCombat", ("466.7", "466.3.d.1", "R8"),
          say="the combat at {bf} is over; the showdown and the combat staged there again wait to open"),
        T("end_combat", "Combat", "StagedCombat", ("466.3.d.1", "R8"), guards=("both_sides_remain",),
          say="no result at {bf}: a showdown and a combat are staged there again"),
        T("end_combat", "Combat", "Contested", ("466.7", "190.3.a.1", "R19"),
          say="the combat at {bf} is over; {bf} stays Contested: it was contested again after control was settled"),
        T("reset", "Staged", "Calm", ("652.2", "R9"), say="the token battlefield {bf} is uncontested (R9=reset)"),
        T("reset", "StagedCombat", "Calm", ("652.2", "R9"), say="the token battlefield {bf} is uncontested (R9=reset)"),
    ),
    per="battlefield",
    state_docs={
        "Calm": "not Contested",
        "Contested": "a unit arrived where its controller lacks control (190.3)",
        "Staged": "a showdown waits to open (323.8)",
        "StagedCombat": "a showdown and a combat wait to open (323.9)",
        "Showdown": "an active non-combat showdown (344.2)",
        "ShowdownCombatStaged": "an active non-combat showdown that the next cleanup converts (323.14)",
        "Combat": "an active combat (460)",
        "Settled": "an active combat whose control is settled: no longer Contested (466.5.a) until it ends (466.7)",
        "CombatRestaged": "an active combat with No Result while both players have units there: a showdown and a "
                          "combat are staged there again (466.3.d.1), and open once it has ended (466.7)",
    },
)

BATTLEFIELD = Machine(
    "battlefield", "Battlefield: control x status (190, 323)", (), "",
    regions=(CONTROL, STATUS), per="battlefield", rules=("190", "323"),
)

#: the statuses of a battlefield whose showdown or combat is active (344, 460): at most one battlefield is in one,
#: and it is the game's active battlefield (``State.active`` is derived from it)
ONGOING = ("Showdown", "ShowdownCombatStaged", "Combat", "Settled", "CombatRestaged")
assert set(ONGOING) <= set(STATUS.states), "ONGOING names a status STATUS does not declare"
