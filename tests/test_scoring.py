"""Scoring and winning (CR 467-472, 194.2, 323.1, 489.8; rulings R12, R16): Conquer and Hold, one score per
battlefield per turn, the final-point rule, the win check in cleanup task 1."""
from conftest import do, expect, game, illegal, index_of, lines, rules_of

A1 = {"id": "a1", "owner": "A", "at": "base", "might": 2}
A2 = {"id": "a2", "owner": "A", "at": "base", "might": 2}


def conquer(g, unit, bf):
    return do(g, f"A move {unit} {bf}", "A pass", "B pass")


def test_conquer_scores_one_point():
    """469.1: gaining control of a battlefield not yet scored this turn scores 1."""
    g = conquer(game(units=[A1]), "a1", "North")
    expect(g, controller={"North": "A"}, score={"A": 1, "B": 0})
    assert "469.1" in rules_of(g, "A conquers North and scores 1")


def test_at_most_one_score_per_battlefield_per_turn():
    """470: A conquers North, loses it (no units there, 323.6), conquers it again the same turn - no second point."""
    cards = {"withdraw": {"type": "spell", "timing": "normal", "effect": [{"recall": {"unit": "a1"}}]}}
    g = conquer(game(units=[A1, A2], hands={"A": ["withdraw"]}, cards=cards), "a1", "North")
    do(g, "A play withdraw", "A pass", "B pass")
    expect(g, controller={"North": None}, score={"A": 1})
    conquer(g, "a2", "North")
    expect(g, controller={"North": "A"}, score={"A": 1})
    assert "470" in rules_of(g, "North was already scored this turn")


def test_final_point_conquer_without_every_battlefield_draws_a_card_instead():
    """471.1.b, R16: at 7 of 8, a Conquer gives the final point only if every other battlefield was scored this turn;
    otherwise the player draws a card and stays at 7 (control is still taken)."""
    g = conquer(game(units=[A1], score={"A": 7}), "a1", "North")
    expect(g, controller={"North": "A"}, score={"A": 7}, winner=None)
    assert g.state.drawn.get("A") == 1
    assert "471.1.b" in rules_of(g, "draws a card instead")


def test_final_point_conquer_after_scoring_every_other_battlefield_wins_in_cleanup():
    """471.1.b, R16, 323.1: from 6, A conquers South (7) then North: every battlefield scored this turn, so the
    point counts (8) and cleanup task 1 declares A the winner; nothing more is legal."""
    g = conquer(game(units=[A1, A2], score={"A": 6}), "a1", "South")
    expect(g, score={"A": 7}, winner=None)
    conquer(g, "a2", "North")
    expect(g, score={"A": 8, "B": 0}, winner="A", priority=None, focus=None,
           legal={"A": [], "B": []})
    assert "323.1" in rules_of(g, "A wins")
    assert index_of(g, "A conquers North and scores 1 (now 8)") < index_of(g, "A wins")
    assert g.is_terminal()
    illegal(g, "A end-turn", "game is over", "323.1")


def test_win_needs_strictly_more_than_every_opponent():
    """194.2, 323.1: at 8-8 nobody wins (a tie continues); one more point (9-8) wins at the next cleanup."""
    g = game(units=[A1], score={"A": 8, "B": 8}, battlefields=["North"])
    do(g, "A move a1 North")
    expect(g, winner=None, score={"A": 8, "B": 8}, state="showdown-open")
    do(g, "A pass", "B pass")
    expect(g, winner="A", score={"A": 9, "B": 8})


def test_hold_scoring_at_the_start_of_the_turn():
    """315.2.b, 469.2, R12: in the Beginning Phase the turn player holds every battlefield they control (1 point each,
    together); the opponent's turn scores nothing for A."""
    g = game(units=[{**A1, "at": "North"}, {**A2, "at": "South"}], control={"North": "A", "South": "A"})
    do(g, "A end-turn")
    expect(g, turn="B", score={"A": 0, "B": 0}, priority="B")
    do(g, "B end-turn")
    expect(g, turn="A", score={"A": 2, "B": 0}, priority="A", state="neutral-open")
    assert "469.2" in rules_of(g, "A holds North and scores 1")
    assert "A holds South and scores 1 (now 2)" in lines(g)


def test_held_battlefield_cannot_be_conquered_for_a_second_point_that_turn():
    """470: North was held this turn; losing and re-taking it that turn scores nothing more."""
    cards = {"withdraw": {"type": "spell", "timing": "normal", "effect": [{"recall": {"unit": "a1"}}]}}
    g = game(units=[{**A1, "at": "North"}, A2], control={"North": "A"}, hands={"A": ["withdraw"]}, cards=cards)
    do(g, "A end-turn", "B end-turn")
    expect(g, score={"A": 1})
    do(g, "A play withdraw", "A pass", "B pass")
    expect(g, controller={"North": None})
    conquer(g, "a2", "North")
    expect(g, controller={"North": "A"}, score={"A": 1})


def test_hold_gives_the_final_point_without_the_every_battlefield_condition():
    """471.1.a.1: the final-point restriction is for Conquer only - at 7, holding North alone wins (cleanup task 1)."""
    g = game(units=[{**A1, "at": "North"}], control={"North": "A"}, score={"A": 7})
    do(g, "A end-turn", "B end-turn")
    expect(g, score={"A": 8}, winner="A")
    assert index_of(g, "A holds North") < index_of(g, "A wins")


def test_win_decided_in_cleanup_even_on_the_opponents_turn():
    """323.1: the win check is cleanup task 1, whoever's turn it is - B at 7 wins a defence at an uncontrolled
    battlefield on A's turn (466.5 Conquer) once that would be B's final point and North is the only battlefield."""
    g = game(units=[A1, {"id": "b1", "owner": "B", "at": "North", "might": 4}], score={"B": 7},
             battlefields=["North"])
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, turn="A", winner="B", score={"B": 8}, controller={"North": "B"})


def test_team_final_point_ignores_the_allys_battlefield():
    """471.1.b with 489.8.g.1, 489.8.d (magma-chamber): C's East is blocked for the team at A's scoring step; A
    conquering South then North has scored 'every battlefield' - the shared score reaches 11 and the team wins."""
    g = game({"mode": "magma-chamber", "players": ["A", "B", "C", "D"], "teams": [["A", "C"], ["B", "D"]],
              "battlefields": ["North", "South", "East"]},
             units=[A1, A2, {"id": "c1", "owner": "C", "at": "East", "might": 2}], control={"East": "C"},
             score={"A": 8})
    do(g, "A end-turn", "B end-turn", "C end-turn", "D end-turn")
    expect(g, turn="A", score={"A": 9, "C": 9})               # C held East on C's turn (shared points)
    do(g, "A move a1 South", "A pass", "B pass", "C pass", "D pass")
    expect(g, score={"A": 10}, winner=None)
    do(g, "A move a2 North", "A pass", "B pass", "C pass", "D pass")
    expect(g, score={"A": 11, "C": 11}, winner=["A", "C"])


def test_hold_triggers_go_on_the_chain_in_the_beginning_phase():
    """471.2, 315.2.b, 383: on-hold abilities (a unit's and the battlefield's, both A's) trigger only when North
    actually scores; they go on the chain in the Beginning Phase, players get priority on them (B may react), and
    the turn moves on to the Main Phase once they have resolved."""
    g = game(units=[{**A1, "at": "North", "abilities": [{"name": "tithe", "trigger": "on-hold",
                                                         "effect": [{"draw": {"count": 1}}]}]}],
             battlefields=[{"name": "North", "abilities": [{"name": "shrine", "trigger": "on-hold", "effect": []}]},
                           "South"],
             control={"North": "A"}, hands={"B": ["reaction-spell"]})
    do(g, "A end-turn")
    expect(g, turn="B", chain=[], phase="Main")                   # B holds nothing: no trigger
    do(g, "B end-turn")
    expect(g, turn="A", phase="Beginning", state="neutral-closed", score={"A": 1}, chain=["tithe", "shrine"],
           priority=None, legal={"A": ["concede", "order North:shrine", "order a1:tithe"],
                                 "B": ["concede"]})                # 383.3.d: both A's, held together: A orders
    do(g, "A order a1:tithe North:shrine")
    expect(g, chain=["tithe", "shrine"], priority="A", legal={"A": ["concede", "pass"], "B": ["concede"]})
    do(g, "A pass")
    expect(g, priority="B", legal={"B": ["concede", "pass", "play reaction-spell"]})
    do(g, "B pass", "A pass", "B pass")
    expect(g, phase="Main", state="neutral-open", chain=[], priority="A")
    assert [e for e in lines(g) if e.endswith(" resolves")] == ["shrine resolves", "tithe resolves"]
    assert g.state.drawn.get("A", 0) >= 1
