"""The chain and priority: HOT FEPR (334-340).

Handle Outstanding Tasks (cleanups run first, 334), then Finalize the oldest
pending item (337) -- once each player has ordered their own simultaneous
triggers (Order, 383.3.d; the combat chain in the 464.2.e order) -- Execute (the priority holder plays a Reaction or passes,
338), Pass (all players in succession -> Resolve, 339), Resolve the newest
item (340). Seed 001 is the worked example.
"""
from .spec import Machine, T

CHAIN = Machine(
    "chain", "Chain and priority: HOT FEPR (334-340)",
    ("Empty", "Finalize", "Order", "Execute", "Resolve"), "Empty",
    (
        T("add", "Empty", "Finalize", ("329.1", "354.1"), sends=("turn.window:close_state", "focus:start_chain"),
          say="{item} goes on the chain"),
        T("add", "Execute", "Finalize", ("338.1", "813"), say="{item} goes on the chain"),
        T("add", "Finalize", "Finalize", ("337.3",), say="{item} goes on the chain"),
        T("add", "Resolve", "Resolve", ("158.3", "383.4.a.2"), say="{item} goes on the chain, pending"),
        T("await_order", "Finalize", "Order", ("383.3.d", "464.2.e"), guards=("unordered_triggers",),
          say="{player} orders their simultaneous triggers before they are finalized"),
        T("order", "Order", "Order", ("383.3.d", "464.2.e"), guards=("unordered_triggers",),
          say="{player} has ordered their triggers; the next player orders theirs"),
        T("order", "Order", "Finalize", ("383.3.d", "337"), say="{player} has ordered their triggers"),
        T("withdraw", "Order", "Empty", ("652.4",), guards=("chain_empty",),
          sends=("turn.window:open_state", "focus:chain_closed"), say="the chain is empty"),
        T("withdraw", "Order", "Order", ("652.4", "383.3.d"), guards=("unordered_triggers",),
          unless=("chain_empty",), say="triggers of players still in the game remain to be ordered"),
        T("withdraw", "Order", "Finalize", ("652.4", "337")),
        T("finalize", "Finalize", "Resolve", ("337.2", "359.2", "429"), guards=("item_immediate",),
          effects=("resolve_item",), say="{item} is finalized and resolves at once"),
        T("finalize", "Finalize", "Finalize", ("337.3",), guards=("pending_remain",), unless=("item_immediate",),
          say="{item} is finalized"),
        T("finalize", "Finalize", "Execute", ("337.4", "312.2.c", "R17"),
          effects=("priority_to_newest",), say="{item} is finalized"),
        T("pass", "Execute", "Resolve", ("339", "340"), guards=("all_passed",),
          effects=("resolve_item",), say="every player has passed in succession"),
        T("pass", "Execute", "Execute", ("338.2", "312.2.d"), effects=("priority_to_next",)),
        T("resolved", "Resolve", "Empty", ("340.2",), guards=("chain_empty",),
          sends=("turn.window:open_state", "focus:chain_closed"), say="the chain is empty"),
        T("resolved", "Resolve", "Finalize", ("340.3",), guards=("pending_remain",)),
        T("resolved", "Resolve", "Execute", ("429", "400.2", "338"), guards=("priority_kept",),
          unless=("chain_empty", "pending_remain"),
          effects=("new_round",), say="{player} keeps priority: an Add ability does not pass it"),
        T("resolved", "Resolve", "Execute", ("340.4", "R17"), effects=("priority_to_newest",)),
        T("withdraw", "Execute", "Empty", ("652.4",), guards=("chain_empty",),
          sends=("turn.window:open_state", "focus:chain_closed"), say="the chain is empty"),
        T("withdraw", "Execute", "Resolve", ("652.5",), guards=("all_passed",), unless=("chain_empty",),
          effects=("resolve_item",), say="everyone left has passed"),
        T("withdraw", "Execute", "Execute", ("652.5", "R10"), effects=("priority_to_next",)),
    ),
    rules=("334", "335", "336", "337", "338", "339", "340"),
    state_docs={
        "Empty": "no chain: the state is Open (329)",
        "Finalize": "the oldest pending item is finalized (337)",
        "Order": "a player orders their own simultaneous triggers; nobody has priority (383.3.d, 464.2.e)",
        "Execute": "the priority holder plays a Reaction or passes (338)",
        "Resolve": "the newest finalized item resolves (340)",
    },
    doc="Step 1 Finalize, 2 Execute, 3 Pass, 4 Resolve; tasks (cleanups) are handled before each step.",
)
