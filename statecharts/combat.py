"""Combat steps (459-466): Showdown step, Damage step, Resolution step."""
from .spec import Machine, T

COMBAT = Machine(
    "combat", "Combat steps (459-466)", ("Idle", "ShowdownStep", "DamageStep", "ResolutionStep"), "Idle",
    (
        T("begin", "Idle", "ShowdownStep", ("464", "464.2.c", "464.2.e"), effects=("designate", "combat_chain"),
          say="combat at {bf}: {attacker} attacks, {defender} defends"),
        T("showdown_done", "ShowdownStep", "DamageStep", ("465", "465.1"), guards=("both_sides_present",),
          effects=("deal_combat_damage",), say="combat damage step at {bf}"),
        T("showdown_done", "ShowdownStep", "ResolutionStep", ("465.1", "466"),
          effects=("resolve_combat",), say="no combat damage at {bf}: one side is gone"),
        T("damage_dealt", "DamageStep", "ResolutionStep", ("465.3", "466"), effects=("resolve_combat",),
          say="combat resolution step at {bf}"),
        T("finish", "ResolutionStep", "Idle", ("466.7",), effects=("trigger_on_combat_end", "end_combat"),
          sends=("battlefield.status:end_combat", "turn.mode:end_showdown"), say="the combat at {bf} ends"),
    ),
    rules=("459", "460", "461", "462", "464", "465", "466"),
    state_docs={
        "Idle": "no combat in progress",
        "ShowdownStep": "designations, the combat chain, then a showdown (464)",
        "DamageStep": "might totals, lethal-first assignment, dealt at once (465)",
        "ResolutionStep": "combat cleanup, result, control and Conquer (466)",
    },
)
