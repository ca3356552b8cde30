"""Seed 000: a showdown even on an empty battlefield; Contested, focus, passing, control and Conquer;
Rune Prison (Action). Every worked example, step by step (CR 190.3, 313, 341-348, 469, 806)."""
from conftest import do, expect, game, illegal, index_of, lines, rules_of

UNITS = [{"id": "a1", "owner": "A", "at": "base", "might": 2},
         {"id": "b1", "owner": "B", "at": "base", "might": 3}]


def test_seed000_example_move_to_empty_battlefield_showdown_then_conquer(backend):
    """Seed 000 'En pratique': unit arrives -> Contested (190.3.a.1) -> showdown (344.2) -> the mover has focus
    (345); both pass (347.2.a) -> control established and Conquer scored (348.2.a, 469.1), not on arrival."""
    g = game(units=UNITS, backend=backend)
    expect(g, state="neutral-open", turn="A", priority="A", focus=None, chain=[], active=None, staged={},
           contested=[], controller={"North": None}, score={"A": 0, "B": 0},
           legal={"A": ["concede", "end-turn", "move a1 North", "move a1 South"], "B": ["concede"]})

    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[], active={"kind": "showdown", "at": "North"},
           staged={}, contested=["North"], controller={"North": None}, score={"A": 0, "B": 0},
           units={"a1": {"at": "North", "exhausted": True}},
           legal={"A": ["concede", "pass"], "B": ["concede"]})
    # the order of the seed: arrives -> Contested -> showdown -> focus
    assert index_of(g, "a1 to North") < index_of(g, "North becomes Contested") \
        < index_of(g, "showdown begins at North") < index_of(g, "A gains focus")
    assert "190.3.a.1" in rules_of(g, "North becomes Contested")
    assert "345" in rules_of(g, "A gains focus")

    do(g, "A pass")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[], active={"kind": "showdown", "at": "North"},
           contested=["North"], controller={"North": None}, score={"A": 0},
           legal={"A": ["concede"], "B": ["concede", "pass"]})

    do(g, "B pass")
    expect(g, state="neutral-open", focus=None, priority="A", chain=[], active=None, staged={}, contested=[],
           controller={"North": "A", "South": None}, score={"A": 1, "B": 0},
           legal={"A": ["concede", "end-turn"], "B": ["concede"]})
    assert "348.2.a" in rules_of(g, "A takes control of North")
    assert "469.1" in rules_of(g, "A conquers North")


def test_seed000_control_is_not_taken_on_arrival():
    """Seed 000: 'Vous n'en avez pas pris le contrôle dès l'arrivée de l'unité' (190.3: Contested, not control)."""
    g = do(game(units=UNITS), "A move a1 North")
    expect(g, controller={"North": None}, score={"A": 0}, contested=["North"])
    assert not any("takes control" in e for e in lines(g))


def test_seed000_rune_prison_chain_finishes_before_focus_moves():
    """Seed 000 Rune Prison: with focus, priority and an empty chain A plays an Action (806); the chain, responses
    included, finishes before the next player gets focus (347.1.b); passing priority is not passing focus (313.3)."""
    g = game(units=UNITS, hands={"A": ["rune-prison"], "B": ["en-garde"]})
    do(g, "A move a1 North")
    expect(g, legal={"A": ["concede", "pass", "play rune-prison"], "B": ["concede"]})

    do(g, "A play rune-prison unit=a1")
    expect(g, state="showdown-closed", focus="A", priority="A", chain=["rune-prison"],
           legal={"A": ["concede", "pass"], "B": ["concede"]})

    do(g, "A pass")                                   # passes priority, keeps focus (313.3)
    expect(g, state="showdown-closed", focus="A", priority="B", chain=["rune-prison"],
           legal={"A": ["concede"], "B": ["concede", "pass", "play en-garde"]})

    do(g, "B play en-garde unit=b1")                  # a response (Reaction, 813)
    expect(g, state="showdown-closed", focus="A", priority="B", chain=["rune-prison", "en-garde"])
    do(g, "B pass", "A pass")
    expect(g, state="showdown-closed", focus="A", priority="A", chain=["rune-prison"],
           units={"b1": {"might": 5}})                # +1, +1 more: the only unit B controls there (its base)
    do(g, "A pass")
    expect(g, state="showdown-closed", focus="A", priority="B", chain=["rune-prison"])
    do(g, "B pass")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[], units={"a1": {"stunned": True}},
           active={"kind": "showdown", "at": "North"}, controller={"North": None},
           legal={"A": ["concede"], "B": ["concede", "pass"]})
    assert "340.2.a" in rules_of(g, "focus passes to B")


def test_seed000_pass_then_act_restarts_the_round_of_passes():
    """Seed 000: all must pass in succession to end the showdown; if someone acts after your pass, your earlier
    pass does not stop you acting later (347.2.a, ruling R3)."""
    g = game(units=UNITS, hands={"A": ["action-spell"], "B": ["action-spell"]})
    do(g, "A move a1 North", "A pass")
    expect(g, focus="B", priority="B")
    do(g, "B play action-spell", "B pass", "A pass")  # B acts after A's pass; the chain closes
    expect(g, state="showdown-open", focus="A", priority="A", chain=[], active={"kind": "showdown", "at": "North"},
           legal={"A": ["concede", "pass", "play action-spell"], "B": ["concede"]})
    do(g, "A pass")                                   # A's earlier pass no longer counts
    expect(g, state="showdown-open", focus="B", active={"kind": "showdown", "at": "North"})
    do(g, "B pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A"}, score={"A": 1})


def test_seed000_showdown_with_no_units_left_gives_nobody_control():
    """Seed 000 / ruling R6: at the end of a non-combat showdown with no units left nobody takes control this way;
    cleanup task 8 clears Contested (323.11)."""
    cards = {"withdraw": {"type": "spell", "timing": "action", "effect": [{"recall": {"unit": "target"}}]}}
    g = game(units=UNITS, hands={"A": ["withdraw"]}, cards=cards)
    do(g, "A move a1 North", "A play withdraw unit=a1", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", active={"kind": "showdown", "at": "North"},
           units={"a1": {"at": "base"}})
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, contested=[], controller={"North": None}, score={"A": 0, "B": 0})


def test_seed000_no_control_change_when_already_controlled():
    """Seed 000 / 348.2.a: a player who already controls the battlefield does not establish control again, so no
    Conquer. A unit of the controller arriving does not contest it (190.3.a.1)."""
    g = game(units=UNITS, control={"North": "A"})
    do(g, "A move a1 North")
    expect(g, state="neutral-open", active=None, contested=[], controller={"North": "A"}, score={"A": 0})


def test_seed000_joining_an_ongoing_contest_does_not_restart_it():
    """Seed 000: joining a contest already in progress creates no new showdown and does not reset who acts
    (190.3.a.1: only if not already Contested)."""
    cards = {"reinforce": {"type": "spell", "timing": "action",
                           "effect": [{"move": {"unit": "a2", "to": "North"}}]}}
    g = game(units=[*UNITS, {"id": "a2", "owner": "A", "at": "base", "might": 1}], hands={"A": ["reinforce"]},
             cards=cards)
    do(g, "A move a1 North", "A play reinforce", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", active={"kind": "showdown", "at": "North"}, contested=["North"],
           units={"a2": {"at": "North"}})
    assert sum("becomes Contested" in e for e in lines(g)) == 1
    assert sum("showdown begins" in e for e in lines(g)) == 1


def test_seed000_pending_chain_finishes_before_the_showdown_opens():
    """Seed 000: if a chain is still pending, finish it before opening the showdown (323.12: Neutral Open only)."""
    cards = {"advance": {"type": "spell", "timing": "normal", "effect": [{"move": {"unit": "a1", "to": "North"}}]}}
    g = game(units=UNITS, hands={"A": ["advance"], "B": ["reaction-spell"]}, cards=cards)
    do(g, "A play advance", "A pass")
    expect(g, state="neutral-closed", priority="B", chain=["advance"])
    do(g, "B play reaction-spell", "B pass", "A pass")
    expect(g, state="neutral-closed", priority="A", chain=["advance"], active=None)
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[], active={"kind": "showdown", "at": "North"})
    assert index_of(g, "the chain is empty") < index_of(g, "showdown begins at North")


def test_seed000_rune_prison_stunned_unit_deals_no_combat_damage():
    """Seed 000 Rune Prison: 'Stun a unit. (It doesn't deal combat damage this turn.)' (423.1.b, 465.2).
    2 against 2 would kill both; with b1 stunned only b1 dies and A wins and conquers (466.3, 466.5)."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2},
                    {"id": "b1", "owner": "B", "at": "North", "might": 2}],
             control={"North": "B"}, hands={"A": ["rune-prison"]})
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", active={"kind": "combat", "at": "North", "attacker": "A",
                                                            "defender": "B"})
    do(g, "A play rune-prison unit=b1", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", units={"b1": {"stunned": True}})
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, units={"a1": {"at": "North", "zone": "board", "damage": 0},
                                                        "b1": {"zone": "trash"}},
           controller={"North": "A"}, score={"A": 1})
    assert "combat damage at North: A deals 2, B deals 0 (stunned, adding nothing: b1)" in lines(g)
    assert "423.1.b" in rules_of(g, "combat damage at North")


def test_seed000_action_not_playable_by_a_player_without_focus():
    """313.1.a / 806: Action needs focus and priority in Showdown Open; the other player can't play it."""
    g = game(units=UNITS, hands={"A": ["rune-prison"], "B": ["rune-prison"]})
    do(g, "A move a1 North")
    illegal(g, "B play rune-prison unit=a1", "does not hold focus", "313.2")
    illegal(g, "B pass", "neither priority nor focus")
