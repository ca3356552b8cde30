"""Combat steps (459-466): Showdown step, Damage step, Resolution step."""
from .spec import Machine, T

COMBAT = Machine(
    "combat", "Combat steps (459-466)", ("Idle", "ShowdownStep", "Assignment", "DamageStep", "ResolutionStep"), "Idle",
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
        T("showdown_done", "ShowdownStep", "ResolutionStep", ("465.1", "466"),
          effects=("resolve_combat",), say="no combat damage at {bf}: one side is gone"),
        T("damage_dealt", "DamageStep", "ResolutionStep", ("465.3", "466"), effects=("resolve_combat",),
          say="combat resolution step at {bf}"),
        T("finish", "ResolutionStep", "Idle", ("466.7",), effects=("trigger_on_combat_end", "end_combat"),
          sends=("battlefield.status:end_combat", "turn.mode:end_showdown"), say="the combat at {bf} ends"),
    ),
    rules=("459", "460", "461", "462", "464", "465", "466", "815", "826"),
    state_docs={
        "Idle": "no combat in progress",
        "ShowdownStep": "designations, the combat chain, then a showdown (464)",
        "Assignment": "assign: manual: the attacker, then the defender, assigns its damage (465.2.c)",
        "DamageStep": "might totals, lethal first, Tank first, Backline last, dealt at once (465, 815, 826)",
        "ResolutionStep": "combat cleanup, result, control and Conquer (466)",
    },
)
