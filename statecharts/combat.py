"""Combat steps (459-466): Showdown step, Damage step, Resolution step.

The Resolution step (466) is four tasks, each waiting for the chain: the Combat Cleanup (466.1), then, once
the items it made pending have been finalized and resolved (466.2), the result (466.3); once the chain is
empty again (466.4), control (466.5): its hand-offs make the battlefield uncontrolled if nobody's units remain
(466.5.b) and settle it, no longer Contested (466.5.a), unless both sides have units there (466.7, R8); once it is
empty again (466.6), the end of the combat (466.7). The
schedule (``statecharts/schedule.py``) fires each of them only with the chain empty; meanwhile players get
priority as on any chain (337.4, R17)."""
from .spec import Machine, T

COMBAT = Machine(
    "combat", "Combat steps (459-466)",
    ("Idle", "ShowdownStep", "Assignment", "DamageStep", "ResolutionStep", "Result", "Control"), "Idle",
    (
        T("begin", "Idle", "ShowdownStep", ("464", "464.2.c", "464.2.e"), effects=("designate", "combat_chain"),
          say="combat at {bf}: {attacker} attacks, {defender} defends"),
        T("showdown_done", "ShowdownStep", "DamageStep", ("465", "465.1", "465.2.c", "815.1.b", "826.3"),
          guards=("both_sides_present",), unless=("manual_assignment",),
          effects=("deal_combat_damage",), say="combat damage step at {bf}"),
        T("showdown_done", "ShowdownStep", "Assignment", ("465", "465.1", "465.2.c"),
          guards=("both_sides_present", "manual_assignment"), say="combat damage step at {bf}: players assign"),
        T("assign", "Assignment", "Assignment", ("465.2.c", "815.1.b", "826.3"), unless=("assignments_done",),
          say="{player} assigns combat damage at {bf}"),
        T("assign", "Assignment", "DamageStep", ("465.2.c", "465.2.c.1.a", "465.3"), guards=("assignments_done",),
          effects=("deal_combat_damage",), say="combat damage is dealt at {bf}"),
        T("showdown_done", "ShowdownStep", "ResolutionStep", ("465.1", "466", "466.1"),
          effects=("perform_combat_cleanup",), say="no combat damage at {bf}: one side is gone"),
        T("damage_dealt", "DamageStep", "ResolutionStep", ("465.3", "466", "466.1"),
          effects=("perform_combat_cleanup",), say="combat resolution step at {bf}"),
        T("result", "ResolutionStep", "Result", ("466.2", "466.3", "466.3.d.1", "R8"), guards=("both_sides_remain",),
          effects=("combat_result",), sends=("battlefield.status:restage",),
          say="the chain is empty: the result of the combat at {bf} is determined"),
        T("result", "ResolutionStep", "Result", ("466.2", "466.3"), effects=("combat_result",),
          say="the chain is empty: the result of the combat at {bf} is determined"),
        T("control", "Result", "Control", ("466.4", "466.5"), guards=("restaged",),
          say="the chain is empty; a showdown and a combat are staged at {bf}: control is not established"),
        T("control", "Result", "Control", ("466.4", "466.5"), effects=("combat_control",),
          sends=("battlefield.control:lose [abandoned]", "battlefield.status:settle [!both_sides_remain]"),
          say="the chain is empty: control of {bf} is decided"),
        T("finish", "Control", "Idle", ("466.6", "466.7"), effects=("trigger_on_combat_end", "end_combat"),
          sends=("battlefield.status:end_combat", "turn.mode:end_showdown"), say="the combat at {bf} ends"),
    ),
    rules=("459", "460", "461", "462", "464", "465", "466", "815", "826"),
    state_docs={
        "Idle": "no combat in progress",
        "ShowdownStep": "designations, the combat chain, then a showdown (464)",
        "Assignment": "assign: manual: the attacker, then the defender, assigns its damage (465.2.c)",
        "DamageStep": "might totals, lethal first, Tank first, Backline last, dealt at once (465, 815, 826)",
        "ResolutionStep": "the Combat Cleanup is done; the items it made pending are finalized and resolved "
                          "before the result (466.1, 466.2)",
        "Result": "the result is determined (466.3); the chain resolves before control (466.4)",
        "Control": "control is established and Contested cleared, or a showdown and a combat are staged again "
                   "(466.5); the chain resolves before the combat ends (466.6)",
    },
)
