"""The turn cycle (CR 315-317, 734-738; rulings R11, R12, R14): end of turn, the next player in turn order, the
Start-of-Turn tasks, the Ending Phase expiration, extra turns."""
import pytest

from conftest import do, expect, game, index_of, lines, rules_of

A1 = {"id": "a1", "owner": "A", "at": "base", "might": 3}
B1 = {"id": "b1", "owner": "B", "at": "base", "might": 3}
EXTRA = {"warp": {"type": "spell", "timing": "normal", "effect": [{"extra-turn": {}}]},
         "gift": {"type": "spell", "timing": "normal", "effect": [{"extra-turn": {"player": "B"}}]}}


def turns(g, n):
    """The turn players of the next ``n`` turns, each ended at once."""
    seen = []
    for _ in range(n):
        do(g, f"{g.state.turn} end-turn")
        seen.append(g.state.turn)
    return seen


def test_end_of_turn_passes_to_the_next_player_through_the_phases(backend):
    """316.9, 317, 315, R12: A ends the turn -> Ending (Expiration) -> B's Awaken, Beginning, Channel, Draw, Main;
    B holds priority in Neutral Open and may act; A may not."""
    g = game(units=[A1, B1], backend=backend)
    do(g, "A end-turn")
    expect(g, turn="B", state="neutral-open", priority="B", focus=None, chain=[], phase="Main",
           legal={"A": ["concede"], "B": ["concede", "end-turn", "move b1 North", "move b1 South"]})
    seq = ["A ends the turn", "Expiration step", "turn of B begins: Awaken", "Beginning phase of B", "Channel phase",
           "Draw phase", "Main phase of B"]
    pos = [index_of(g, s) for s in seq]
    assert pos == sorted(pos)
    assert "316.9" in rules_of(g, "A ends the turn") and "317.2" in rules_of(g, "Expiration step")
    assert g.state.drawn.get("B") == 1                       # 315.4: draw 1


def test_turn_order_cycles_through_every_player():
    """115, 317.3: turns follow turn order as a loop, for any number of players (skirmish: A, B, C)."""
    g = game({"mode": "skirmish", "players": ["A", "B", "C"], "battlefields": ["North", "South", "East"]})
    assert turns(g, 4) == ["B", "C", "A", "B"]


def test_awaken_readies_only_the_turn_players_units():
    """315.1: the turn player readies everything; the other player's exhausted units stay exhausted."""
    g = game(units=[A1, {**B1, "at": "South"}], control={"North": "A", "South": "B"})
    do(g, "A move a1 North", "A end-turn")
    expect(g, turn="B", units={"a1": {"exhausted": True}, "b1": {"exhausted": False}})
    do(g, "B move b1 base", "B end-turn")
    expect(g, turn="A", units={"a1": {"exhausted": False}, "b1": {"exhausted": True}})


def test_ending_phase_expiration_stun_and_this_turn_effects_end_damage_heals():
    """317.2 (3c heal, 3d 'this turn' effects and Stun end, 423.1.a.2): at the end of A's turn."""
    cards = {"zap": {"type": "spell", "timing": "normal", "effect": [{"damage": {"unit": "target", "amount": 1}}]}}
    g = game(units=[A1, B1], hands={"A": ["rune-prison", "en-garde", "zap"]}, cards=cards)
    do(g, "A play rune-prison unit=b1", "A pass", "B pass", "A play en-garde unit=a1", "A pass", "B pass",
       "A play zap unit=b1", "A pass", "B pass")
    expect(g, units={"b1": {"stunned": True, "damage": 1}, "a1": {"might": 5}})
    do(g, "A end-turn")
    expect(g, turn="B", units={"b1": {"stunned": False, "damage": 0, "zone": "board"}, "a1": {"might": 3}})


def test_scores_reset_each_turn_battlefield_scorable_again_next_turn():
    """470: 'per turn' - North conquered on A's turn can be scored again on a later turn (by Hold)."""
    g = game(units=[A1, B1])
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, score={"A": 1}, controller={"North": "A"})
    do(g, "A end-turn", "B end-turn")
    expect(g, turn="A", score={"A": 2})


@pytest.mark.parametrize("ruling, expected", [
    (None, ["B", "A", "B", "A"]),          # R11 default: each new extra turn goes directly after the current one
    ({"R11": "fifo"}, ["A", "B", "B", "A"]),  # R11=fifo: in the order their effects occurred
])
def test_extra_turns_ruling_R11(ruling, expected):
    """735, 738, R11: A creates an extra turn for A (warp) then one for B (gift). Default: B*, A*, then the normal
    rotation resumes after A's normal turn (B). fifo: A*, B*, then B. Turn order itself never changes."""
    g = game(units=[A1, B1], hands={"A": ["warp", "gift"]}, cards=EXTRA, rulings=ruling)
    do(g, "A play warp", "A pass", "B pass", "A play gift", "A pass", "B pass")
    assert "735" in rules_of(g, "A will take an extra turn after this one")
    assert turns(g, 4) == expected
    assert sum("takes an extra turn" in e for e in lines(g)) == 2


def test_extra_turn_for_the_other_player_then_normal_rotation():
    """735: A gives B an extra turn: A, B*, then B's normal turn (the queue after A), then A."""
    g = game(units=[A1, B1], hands={"A": ["gift"]}, cards=EXTRA)
    do(g, "A play gift", "A pass", "B pass")
    assert turns(g, 3) == ["B", "B", "A"]


def test_extra_turn_is_a_full_turn_with_hold_scoring():
    """734-735, 315.2.b: the extra turn has its own Beginning phase: A holds North again on its extra turn."""
    g = game(units=[{**A1, "at": "North"}, B1], control={"North": "A"}, hands={"A": ["warp"]}, cards=EXTRA)
    do(g, "A play warp", "A pass", "B pass", "A end-turn")
    expect(g, turn="A", score={"A": 1}, priority="A", state="neutral-open")
    do(g, "A end-turn")
    expect(g, turn="B", score={"A": 1})
