"""Turn state (307-310): Neutral/Showdown and Open/Closed, two separate distinctions.

Seed 002: "Ce sont deux distinctions séparées." The machine has two orthogonal
regions; the combined state (Neutral Open, Showdown Closed, ...) is their product (310).
"""
from .spec import Machine, T

#: the combined turn states (310): Neutral/Showdown x Open/Closed, as the scenario format writes them
NEUTRAL_OPEN, NEUTRAL_CLOSED = "neutral-open", "neutral-closed"
SHOWDOWN_OPEN, SHOWDOWN_CLOSED = "showdown-open", "showdown-closed"
TURN_STATES = (NEUTRAL_OPEN, NEUTRAL_CLOSED, SHOWDOWN_OPEN, SHOWDOWN_CLOSED)

MODE = Machine(
    "turn.mode", "Neutral / Showdown (308)", ("Neutral", "Showdown"), "Neutral",
    (
        T("begin_showdown", "Neutral", "Showdown", ("308", "344", "323.12", "323.13"),
          effects=("trigger_on_showdown_start",), say="the turn is now in a Showdown state"),
        T("end_showdown", "Showdown", "Neutral", ("308", "348", "466.7"), effects=("clear_active",),
          say="the turn is Neutral again"),
    ),
    state_docs={"Neutral": "no showdown or combat in progress (308)",
                "Showdown": "a showdown or combat in progress; only Action/Reaction (308.1.a)"},
)

WINDOW = Machine(
    "turn.window", "Open / Closed (309)", ("Open", "Closed"), "Open",
    (
        T("close_state", "Open", "Closed", ("309", "354.1", "377.3.a.1", "319"), effects=("cleanup_due",),
          say="the state is Closed"),
        T("open_state", "Closed", "Open", ("309", "340.2", "319"), effects=("cleanup_due",),
          say="the state is Open"),
    ),
    state_docs={"Open": "no chain exists (309)", "Closed": "a chain exists; only Reaction (309.1.a)"},
)

TURN = Machine(
    "turn", "Turn state: Neutral/Showdown x Open/Closed (307-310)", (), "",
    regions=(MODE, WINDOW), rules=("307", "308", "309", "310"),
    doc="Two orthogonal regions; seed 002 insists they are separate distinctions.",
)
