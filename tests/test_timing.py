"""Timing permissions (CR 155, 308.1.a, 309.1.a, 310, 144, 806, 813, 358.4; ruling R14): exactly which actions
each player has in each of the four turn states, and the rule named when one is refused (state unchanged)."""
import pytest

from conftest import do, expect, game, illegal

HAND = ["normal-spell", "normal-spell", "action-spell", "action-spell", "reaction-spell", "unit-1",
        "action-unit-1"]
UNITS = [{"id": "a1", "owner": "A", "at": "base", "might": 2},
         {"id": "a2", "owner": "A", "at": "base", "might": 2},
         {"id": "b1", "owner": "B", "at": "base", "might": 2}]


def position(state: str):
    g = game(units=UNITS, hands={"A": list(HAND), "B": ["reaction-spell", "action-spell", "normal-spell"]})
    if state == "neutral-closed":
        do(g, "A play normal-spell")
    elif state == "showdown-open":
        do(g, "A move a1 North")
    elif state == "showdown-closed":
        do(g, "A move a1 North", "A play action-spell")
    assert g.state.turn_state() == state
    return g


# 144: a1 and a2 may each move to either battlefield, alone or together: one compact entry per destination
MOVES = ["move a1 a2 North", "move a1 a2 South"]
LEGAL_A = {
    # 310.1.a: Neutral Open, own turn: everything, standard moves (144), ending the turn (R14)
    "neutral-open": ["concede", "end-turn", *MOVES, "play action-spell", "play action-unit-1", "play normal-spell",
                     "play reaction-spell", "play unit-1"],
    # 309.1.a: only Reactions in a Closed state; no standard move (144)
    "neutral-closed": ["concede", "pass", "play reaction-spell"],
    # 308.1.a, 806: Action or Reaction only, by the focus holder; no standard move, no end of turn
    "showdown-open": ["concede", "pass", "play action-spell", "play action-unit-1", "play reaction-spell"],
    "showdown-closed": ["concede", "pass", "play reaction-spell"],
}


@pytest.mark.parametrize("state", list(LEGAL_A))
def test_exact_legal_actions_in_each_turn_state(state):
    """307-310, 155, 806, 813, 144, R14: the priority/focus holder's exact options; the other player only concedes."""
    g = position(state)
    expect(g, state=state, priority="A", legal={"A": LEGAL_A[state], "B": ["concede"]})


def test_action_not_playable_in_a_closed_state_reaction_is():
    """309.1.a, 813 (issue 2): in Neutral Closed and Showdown Closed an Action spell is refused, a Reaction is not."""
    for state in ("neutral-closed", "showdown-closed"):
        g = position(state)
        illegal(g, "A play action-spell", "not a Reaction", "309.1.a")
        illegal(g, "A play normal-spell", "not a Reaction", "309.1.a")
        illegal(g, "A play action-unit-1", "not a Reaction", "309.1.a")
        do(g, "A play reaction-spell")
        expect(g, chain=[g.state.chain[0].name, "reaction-spell"], priority="A")


def test_action_playable_in_showdown_open_normal_is_not():
    """308.1.a, 806: in Showdown Open the focus holder may play an Action; a card without Action/Reaction is refused."""
    g = position("showdown-open")
    illegal(g, "A play normal-spell", "neither Action nor Reaction", "308.1.a")
    illegal(g, "A play unit-1", "neither Action nor Reaction", "308.1.a")
    do(g, "A play action-spell")
    expect(g, state="showdown-closed", chain=["action-spell"], focus="A", priority="A")


def test_opponent_may_react_only_with_priority():
    """312.2.d, 813: B can play a Reaction in a Closed state once A passes priority to B, but not an Action."""
    g = position("neutral-closed")
    illegal(g, "B play reaction-spell", "does not hold priority", "312.2.c")
    do(g, "A pass")
    expect(g, priority="B", legal={"B": ["concede", "pass", "play reaction-spell"], "A": ["concede"]})
    illegal(g, "B play action-spell", "not a Reaction", "309.1.a")
    do(g, "B play reaction-spell")
    expect(g, chain=["normal-spell", "reaction-spell"], priority="B")


def test_opponent_cannot_act_in_neutral_open_on_the_turn_players_turn():
    """155, 310.1.a: Neutral Open is the turn player's window; even a Reaction of the other player is refused."""
    g = position("neutral-open")
    illegal(g, "B play reaction-spell", "does not hold priority")
    illegal(g, "B move b1 North", "only the turn player", "144")
    illegal(g, "B end-turn", "only the turn player", "R14")
    illegal(g, "B pass", "neither priority nor focus")


def test_no_standard_move_during_a_showdown_or_a_closed_state():
    """144 (issue 2): no standard move in a Closed state nor during a showdown or combat."""
    illegal(position("neutral-closed"), "A move a2 North", "closed state", "144")
    illegal(position("showdown-open"), "A move a2 South", "during a showdown", "144")
    illegal(position("showdown-closed"), "A move a2 South", "during a showdown", "144")


def test_end_turn_only_in_neutral_open_by_the_turn_player_ruling_R14():
    """R14 (316.9): the turn ends only by the turn player, Main Phase, Neutral Open, holding priority."""
    for state in ("neutral-closed", "showdown-open", "showdown-closed"):
        illegal(position(state), "A end-turn", "can't end", "R14")
    illegal(position("neutral-open"), "A pass", "ends the turn instead", "R14")


def test_unit_is_played_to_base_or_a_controlled_battlefield():
    """806, 359.2: Action is a timing permission only; a unit goes to its base or a battlefield its controller
    controls."""
    g = game(units=UNITS, hands={"A": ["action-unit-1", "unit-2"]}, control={"South": "A"})
    illegal(g, "A play unit-2 at=North", "does not control North", "359.2")
    do(g, "A play unit-2 at=South")
    expect(g, units={"unit-2#1": {"at": "South", "exhausted": True}}, contested=[], state="neutral-open")


def test_move_rules_standard_move_exhausts_and_paths():
    """144: a standard move exhausts the unit; base <-> battlefield only (no Ganking); an exhausted unit can't move."""
    g = game(units=UNITS, control={"North": "A", "South": "A"})
    do(g, "A move a1 North")
    expect(g, state="neutral-open", units={"a1": {"at": "North", "exhausted": True}}, contested=[])
    illegal(g, "A move a1 base", "exhausted", "144")
    g2 = game(units=[{"id": "a1", "owner": "A", "at": "North", "might": 2}], control={"North": "A"})
    illegal(g2, "A move a1 South", "without Ganking", "144")
    illegal(g2, "A move b9 South", "not a unit on the board", "144")


def test_card_not_in_hand_is_refused():
    """353: only a card in hand can be played."""
    g = position("neutral-open")
    illegal(g, "A play en-garde unit=a1", "not in A's hand", "353")


# -- every refusal leaves the position untouched; replays are deterministic ---------------------------------

from hypothesis import HealthCheck, given, settings, strategies as st  # noqa: E402

from simulator.game.actions import candidates  # noqa: E402
from simulator.core.errors import IllegalAction  # noqa: E402

RICH = dict(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2},
                   {"id": "a2", "owner": "A", "at": "base", "might": 3,
                    "abilities": [{"name": "charge", "trigger": "on-attack", "effect": []}]},
                   {"id": "b1", "owner": "B", "at": "North", "might": 2,
                    "abilities": [{"name": "brace", "trigger": "on-defend", "effect": []}]},
                   {"id": "b2", "owner": "B", "at": "base", "might": 1}],
            gear=[{"id": "g1", "owner": "A", "card": "add-gear"}], control={"North": "B"},
            hands={"A": ["rune-prison", "move-spell", "normal-spell", "action-unit-2"],
                   "B": ["en-garde", "reaction-spell", "move-spell", "action-spell"]})


def everyone_candidates(g):
    return [a for p in g.state.order for a in candidates(g.state, p) if a.kind != "concede"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(min_value=0, max_value=10_000), min_size=1, max_size=40))
def test_random_play_rejections_change_nothing_and_replays_are_identical(picks):
    """apply() (issue 2): any action refused leaves ``state.key()`` and the trace exactly as they were; the legal
    actions accepted, replayed from the start, give the identical trace (deterministic output)."""
    g = game(**RICH)
    accepted = []
    for n in picks:
        if g.is_terminal():
            break
        # two picks in three among the legal actions (to get deep into the game), one among all candidates
        cands = everyone_candidates(g) if n % 3 == 0 else [a for a in g.legal_actions() if a.kind != "concede"]
        if not cands:
            break
        a = cands[(n // 3) % len(cands)]
        key, trace = g.state.key(), list(g.state.trace)
        try:
            g.apply(a, g.state.step + 1)
        except IllegalAction as e:
            assert e.rule, f"{a.describe()}: refusal names no rule"
            assert g.state.key() == key and list(g.state.trace) == trace, a.describe()
            continue
        accepted.append(a)
    again = game(**RICH)
    for i, a in enumerate(accepted, 1):
        again.apply(a, i)
    assert [(e.event, e.rule) for e in again.trace] == [(e.event, e.rule) for e in g.trace]
    assert again.state.key() == g.state.key()
