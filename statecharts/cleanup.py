"""Cleanup (318-324): the ten tasks of 323 in order, repeated until nothing changes (322).

A cleanup never runs while an item resolves (321) and never awards focus or
priority (320.1; ruling R4: a showdown opened here gets its focus once the
cleanups have settled). Special cleanups insert steps after task 3: the
Combat Cleanup (466.1) and the Ending Cleanup (317.2).
"""
from .spec import Machine, T

TASKS = (
    ("WinCheck", "win_check", ("323.1", "194.2")),
    ("Designations", "designations", ("323",)),
    ("BoardState", "board_state", ("323", "142.4")),
    ("CombatCleanup", "combat_cleanup", ("466.1", "324")),
    ("EndingCleanup", "ending_cleanup", ("317.2", "324")),
    ("LossOfControl", "loss_of_control", ("323.6", "190.4.c")),
    ("Corrective", "corrective", ("323.7", "811")),
    ("StageShowdowns", "stage_showdowns", ("323.8",)),
    ("StageCombats", "stage_combats", ("323.9", "323.10")),
    ("ClearContested", "clear_contested", ("323.11",)),
    ("OpenShowdown", "open_showdown", ("323.12",)),
    ("OpenCombat", "open_combat", ("323.13", "323.14")),
)

#: What decides whether each task of 323 does anything (its inputs), by name: a machine leaf (its state, every
#: instance) or a part of the game model (``simulator.core.model.PARTS``: units, battlefields, score, winner, active,
#: sides, choosing, hidden). A task whose last run did nothing, none of whose inputs has been written since, would
#: do nothing again (322: a pass that changes nothing ends the cleanup), so the engine skips its body; the machine
#: still takes the transition into its state. A task that acts writes one of its own inputs. WinCheck is not
#: listed: it also begins each pass (322), so it always runs; nor are the special cleanups, which their guards
#: (324) choose.
INPUTS: dict[str, tuple[str, ...]] = {
    "Designations": ("combat", "active", "sides", "units"),                        # 2: designations follow control
    "BoardState": ("units", "battlefields"),                                       # 3: lethal damage (142.4), might
    "LossOfControl": ("turn.window", "battlefield.status", "battlefields", "units"),   # 4 (323.6, 190.4.c)
    "Corrective": ("hidden", "battlefields"),                                      # 5 (323.7, 811)
    "StageShowdowns": ("battlefield.status", "battlefields", "units"),             # 6 (323.8)
    "StageCombats": ("battlefield.status", "units"),                               # 7 (323.9-10)
    "ClearContested": ("battlefield.status", "battlefields", "units"),             # 8 (323.11)
    "OpenShowdown": ("winner", "active", "choosing", "battlefield.status", "turn.mode", "turn.window"),  # 9 (323.12)
    "OpenCombat": ("winner", "active", "choosing", "battlefield.status", "turn.mode", "turn.window"),    # 10 (323.13-14)
}

_ORDER = [n for n, _, _ in TASKS if n not in ("CombatCleanup", "EndingCleanup")]
_RULES = {n: r for n, _, r in TASKS}


def _chain() -> tuple[T, ...]:
    ts = [T("run", "Idle", "WinCheck", ("319", "321", "334"))]
    ts.append(T("next", "WinCheck", "Idle", ("323.1", "651.1"), guards=("game_over",)))
    for a, b in zip(_ORDER, _ORDER[1:]):
        if a == "BoardState":
            ts.append(T("next", a, "CombatCleanup", _RULES["CombatCleanup"], guards=("combat_cleanup_due",)))
            ts.append(T("next", a, "EndingCleanup", _RULES["EndingCleanup"], guards=("ending_cleanup_due",)))
            ts.append(T("next", "CombatCleanup", b, _RULES[b]))
            ts.append(T("next", "EndingCleanup", b, _RULES[b]))
        ts.append(T("next", a, b, _RULES[b]))
    ts.append(T("next", "OpenCombat", "WinCheck", ("322",), guards=("cleanup_changed",)))
    ts.append(T("next", "OpenCombat", "Idle", ("322",)))
    # 3a: a unit with lethal damage triggers its own-death abilities before it reaches the trash
    ts.append(T("lethal", "BoardState", "BoardState", ("323", "808.1.d", "383"), effects=("trigger_on_death",)))
    # 3: a unit with lethal damage and a ward does not die: the death is replaced (R21), nothing is noted in 3a
    ts.append(T("replaced", "BoardState", "BoardState", ("323", "R21"), effects=("replace_death",)))
    return tuple(ts)


CLEANUP = Machine(
    "cleanup", "Cleanup tasks (318-324)", ("Idle", *(n for n, _, _ in TASKS)), "Idle",
    _chain(),
    rules=("318", "319", "320", "321", "322", "323", "324"),
    enter={n: effect for n, effect, _ in TASKS},
    inputs=INPUTS,
    state_docs={
        "Idle": "no cleanup running",
        "WinCheck": "1: >= victory score and more than every opponent (323.1)",
        "Designations": "2: combat designations (only during combat)",
        "BoardState": "3: units with lethal damage die",
        "CombatCleanup": "466.1 3c heal all, 3d recall attackers if defenders remain",
        "EndingCleanup": "317.2 3c heal all, 3d 'this turn' effects and stun end, 3e pools empty",
        "LossOfControl": "4: lose control where you have no units (Open, nothing ongoing there)",
        "Corrective": "5: facedown cards where their controller lacks control are trashed (323.7, 811)",
        "StageShowdowns": "6: stage a showdown where Contested was applied (323.8)",
        "StageCombats": "7: stage a combat where two opposing players have units (323.9-10)",
        "ClearContested": "8: clear stale Contested; 8a re-apply it (323.11)",
        "OpenShowdown": "9: Neutral Open: open a staged non-combat showdown (323.12)",
        "OpenCombat": "10: Neutral Open: open a staged combat; 10a Showdown Open: convert (323.13-14)",
    },
)
