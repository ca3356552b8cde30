"""Focus in showdowns (313, 341-348).

The focus holder acts when the chain is empty (Showdown Open). A chain closes
-> focus passes to the next player in turn order (340.2.a, 347.1.b), except a
chain started by a triggered or Add ability (346.1). Passing priority is not
passing focus (313.3). A full round of consecutive focus passes ends the
showdown (347.2.a); any new chain restarts the round (ruling R3).
"""
from .spec import Machine, T

FOCUS = Machine(
    "focus", "Focus in a showdown (313, 341-348)", ("Off", "Holding", "Waiting"), "Off",
    (
        T("award", "Off", "Waiting", ("345", "464.2.d", "R4", "R17"), guards=("chain_exists",),
          effects=("focus_to_contester",), say="{player} gains focus; the combat chain is pending"),
        T("award", "Off", "Holding", ("464.2.c.1.a", "313.2", "R4"), guards=("in_combat",), unless=("chain_exists",),
          effects=("focus_to_contester",), say="the attacker {player} gains focus and priority"),
        T("award", "Off", "Holding", ("345", "313.2", "R4"),
          effects=("focus_to_contester",), say="{player} gains focus and priority"),
        T("start_chain", "Holding", "Waiting", ("347.1", "313.3", "R3"), effects=("reset_focus_passes",),
          say="{player} keeps focus while the chain resolves; priority moves with the chain"),
        T("start_chain", "Off", "Off", ("313.5",)),
        T("chain_closed", "Waiting", "Holding", ("346.1", "340.2.a", "R3"), guards=("chain_by_trigger_or_add",),
          effects=("focus_keeps",), say="focus stays with {player}: the chain was started by a triggered or Add ability"),
        T("chain_closed", "Waiting", "Holding", ("340.2.a", "347.1.b", "R2", "R3", "R5"),
          effects=("focus_to_next",), say="focus passes to {player}"),
        T("chain_closed", "Off", "Off", ("313.5",), effects=("chain_over",)),
        T("pass_focus", "Holding", "Off", ("347.2.a", "348.1"), guards=("all_passed_focus", "in_combat"),
          effects=("focus_off",), sends=("combat:showdown_done",), say="every player has passed focus in succession: the combat's showdown step ends"),
        T("pass_focus", "Holding", "Off", ("347.2.a", "348.2", "R6"), guards=("all_passed_focus",),
          effects=("settle_showdown",), sends=("battlefield.status:end_showdown", "turn.mode:end_showdown"),
          say="every player has passed focus in succession: the showdown ends"),
        T("pass_focus", "Holding", "Holding", ("347.2.b", "R2"), effects=("focus_to_next",),
          say="focus passes to {player}"),
        T("convert", "Holding", "Holding", ("464.2.d", "R1"), guards=("ruling_R1_attacker",),
          effects=("focus_to_attacker",), say="the attacker {player} gains focus (R1=attacker)"),
        T("convert", "Holding", "Holding", ("464.2.c.1.b", "R1"), effects=("focus_keeps",),
          say="{player} keeps focus through the conversion (R1)"),
        T("convert", "Waiting", "Waiting", ("464.2.d", "R1"), guards=("ruling_R1_attacker",),
          effects=("focus_to_attacker",), say="the attacker {player} gains focus (R1=attacker); the combat chain is pending"),
        T("convert", "Waiting", "Waiting", ("464.2.c.1.b", "R1"),
          say="focus stays where it was through the conversion (R1); the combat chain is pending"),
        T("holder_left", "Holding", "Off", ("652.5",), guards=("all_passed_focus", "in_combat"),
          effects=("focus_off",), sends=("combat:showdown_done",), say="everyone left has passed focus: the combat's showdown step ends"),
        T("holder_left", "Holding", "Off", ("652.5", "348.2"), guards=("all_passed_focus",),
          effects=("settle_showdown",), sends=("battlefield.status:end_showdown", "turn.mode:end_showdown"),
          say="everyone left has passed focus: the showdown ends"),
        T("holder_left", "Holding", "Holding", ("652.5", "R10"), effects=("focus_to_next",),
          say="focus passes to {player}"),
        T("holder_left", "Waiting", "Waiting", ("652.5",), effects=("focus_to_next_silent",),
          say="focus passes to {player}; priority stays with the chain"),
    ),
    rules=("313", "341", "345", "346", "347", "348"),
    state_docs={
        "Off": "no showdown: nobody has focus (313.5)",
        "Holding": "Showdown Open: the focus holder has priority (313.2)",
        "Waiting": "a chain is running inside the showdown; focus is kept, priority moves (313.3)",
    },
)
