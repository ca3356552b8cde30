"""The turn cycle (315-317, ruling R12): Start of Turn tasks, Main Phase, Ending Phase.

The Beginning Phase has two steps (315.2): the Beginning Step (``BeginningStep``: start-of-turn abilities
trigger, 315.2.a) and the Scoring Step (``Beginning``: Hold, 315.2.b); a chain created in either is played
out there before the turn goes on (R12)."""
from .spec import Machine, T

PHASES = Machine(
    "phases", "Turn cycle (315-317)",
    ("Awaken", "BeginningStep", "Beginning", "Channel", "Draw", "Main", "Ending", "Expiration", "GameOver"), "Main",
    (
        T("advance", "Awaken", "BeginningStep", ("315.2", "315.2.a", "383", "R12"), effects=("trigger_on_turn_start",),
          say="Beginning phase of {player}: Beginning Step"),
        T("advance", "BeginningStep", "Beginning", ("315.2.b", "469.2", "R12"), effects=("hold_scoring",),
          say="Scoring Step of {player}"),
        T("advance", "Beginning", "Channel", ("315.3", "R12"), say="Channel phase"),
        T("advance", "Channel", "Draw", ("315.4", "R12"), effects=("draw_for_turn",), say="Draw phase"),
        T("advance", "Draw", "Main", ("316", "316.1"), effects=("main_start",), say="Main phase of {player}"),
        T("end_turn", "Main", "Ending", ("316.9", "R14"), effects=("trigger_on_turn_end",),
          say="{player} ends the turn"),
        T("advance", "Ending", "Expiration", ("317.2",), effects=("expire",), say="Expiration step"),
        T("advance", "Expiration", "Awaken", ("317.3", "315.1", "R11", "R10"),
          effects=("next_turn",),
          say="turn of {player} begins: Awaken"),
        T("handoff", "Main", "Awaken", ("652.5", "R10"), effects=("next_turn",),
          say="turn of {player} begins: Awaken (the turn player left, R10)"),
        T("game_over", "Main", "GameOver", ("323.1", "651.1", "194.2"), say="the game is over"),
        T("game_over", "BeginningStep", "GameOver", ("323.1", "194.2", "R12"), say="the game is over"),
        T("game_over", "Beginning", "GameOver", ("323.1", "194.2"), say="the game is over"),
        T("game_over", "Ending", "GameOver", ("323.1", "194.2", "319"), say="the game is over"),
        T("game_over", "Draw", "GameOver", ("431.3.c", "431.3.c.1"), say="the game is over"),
    ),
    final=("GameOver",),
    rules=("315", "316", "317"),
    state_docs={
        "Awaken": "the turn player readies everything (315.1)",
        "BeginningStep": "the Beginning Phase's Beginning Step: start-of-turn abilities trigger, their chain is "
                         "played out here (315.2.a, R12)",
        "Beginning": "the Beginning Phase's Scoring Step: Hold scoring of every battlefield the turn player controls "
                     "(315.2.b)",
        "Channel": "runes (no choices in this model, R12)",
        "Draw": "draw 1 (315.4)",
        "Main": "Neutral Open for the turn player; showdowns and combats happen here (316)",
        "Ending": "end-of-turn effects (317.1)",
        "Expiration": "Ending cleanup: heal, 'this turn' effects and stun end (317.2)",
        "GameOver": "a player or team has won",
    },
)
