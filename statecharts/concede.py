"""A player's lifecycle and the removal procedure (649-652, 195.1, seed 003)."""
from .spec import Machine, T

PLAYER = Machine(
    "player", "Player and conceding (649-652)",
    ("InGame", "Banishing", "Replacing", "Removing", "Countering", "Lost", "Won"), "InGame",
    (
        T("concede", "InGame", "Banishing", ("651", "652.1"), effects=("banish_all",), say="{player} concedes"),
        T("lose", "InGame", "Banishing", ("651.4", "195.1"), effects=("banish_all",),
          say="{player} loses with their team and leaves"),
        T("next", "Banishing", "Replacing", ("652.2", "R9"), effects=("replace_battlefield",)),
        T("next", "Replacing", "Removing", ("652.3",), effects=("remove_cards",)),
        T("next", "Removing", "Countering", ("652.4",), effects=("counter_items",)),
        T("next", "Countering", "Lost", ("652.5", "R10", "R15"), effects=("continue_game",),
          say="{player} has left the game"),
        T("win", "InGame", "Won", ("323.1", "194.2", "651.1"), say="{player} wins"),
    ),
    final=("Lost", "Won"),
    per="player",
    rules=("649", "650", "651", "652"),
    state_docs={
        "InGame": "still making choices",
        "Banishing": "652.1: banish what they own or control",
        "Replacing": "652.2: their battlefield becomes a token battlefield with no abilities",
        "Removing": "652.3: remove their cards from the game",
        "Countering": "652.4: counter their chain items",
        "Lost": "652.5: out of the game; turn, focus and priority have moved on",
        "Won": "the winner (323.1, 651.1)",
    },
)
