"""Focus in showdowns (CR 313, 341-348; rulings R3, R4, R5): who gets it first, when it passes, when it does not,
and what ends the showdown."""
from conftest import do, expect, game, illegal, lines, rules_of

UNITS = [{"id": "a1", "owner": "A", "at": "base", "might": 2},
         {"id": "b1", "owner": "B", "at": "base", "might": 3}]


def test_first_focus_goes_to_the_player_who_applied_contested_even_off_turn():
    """345, 323.11.a: B's unit left at an uncontrolled battlefield after A's contester leaves re-contests it for B;
    the showdown that opens gives focus to B, on A's turn (focus follows Contested, not the turn)."""
    cards = {"hit-and-run": {"type": "spell", "timing": "normal",
                             "effect": [{"move": {"unit": "a1", "to": "North"}}, {"recall": {"unit": "a1"}}]}}
    g = game(units=[UNITS[0], {**UNITS[1], "at": "North"}], hands={"A": ["hit-and-run"]}, cards=cards)
    do(g, "A play hit-and-run", "A pass", "B pass")
    expect(g, turn="A", state="showdown-open", focus="B", priority="B", active={"kind": "showdown", "at": "North"},
           contested=["North"], legal={"A": ["concede"], "B": ["concede", "pass"]})
    assert "323.11.a" in rules_of(g, "B applies Contested")
    assert "North becomes Contested (B applied it)" in lines(g)
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", priority="A", controller={"North": "B"}, score={"B": 1, "A": 0})


def test_focus_passes_after_a_card_started_chain():
    """340.2.a, 347.1.b: when a chain started by a card play closes, focus passes to the next player in turn order."""
    g = game(units=UNITS, hands={"A": ["action-spell"]})
    do(g, "A move a1 North", "A play action-spell", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[])
    assert "340.2.a" in rules_of(g, "focus passes to B")


def test_focus_does_not_pass_after_an_add_started_chain():
    """346.1, 429: a chain started by an Add ability does not move focus when it empties."""
    g = game(units=UNITS, gear=[{"id": "g1", "owner": "A", "card": "add-gear"}])
    do(g, "A move a1 North", "A activate g1 add")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[])
    assert "346.1" in rules_of(g, "focus stays with A")


def test_focus_does_not_pass_after_a_trigger_started_chain():
    """346.1 (issue 2): the combat chain is started by triggered abilities; when it empties focus stays with the
    holder (the attacker), who then acts in Showdown Open."""
    g = game(units=[{**UNITS[0], "abilities": [{"name": "charge", "trigger": "on-attack", "effect": []}]},
                    {**UNITS[1], "at": "North"}], control={"North": "B"})
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", focus="A", priority="A", chain=["charge"])
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[],
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    assert "346.1" in rules_of(g, "focus stays with A")


def test_passing_priority_mid_chain_keeps_focus():
    """313.3 (issue 2): passing priority is not passing focus: priority moves to B and back, focus stays with A."""
    g = game(units=UNITS, hands={"A": ["action-spell"], "B": ["reaction-spell"]})
    do(g, "A move a1 North", "A play action-spell")
    expect(g, focus="A", priority="A", state="showdown-closed")
    do(g, "A pass")
    expect(g, focus="A", priority="B", state="showdown-closed")
    do(g, "B play reaction-spell", "B pass")
    expect(g, focus="A", priority="A", state="showdown-closed", chain=["action-spell", "reaction-spell"])
    do(g, "A pass")
    expect(g, focus="A", priority="A", chain=["action-spell"])


def test_a_full_round_of_consecutive_focus_passes_ends_the_showdown():
    """347.2.a-b: each focus pass moves focus on; once every player has passed in a row the showdown ends."""
    g = game(units=UNITS)
    do(g, "A move a1 North", "A pass")
    expect(g, state="showdown-open", focus="B", active={"kind": "showdown", "at": "North"})
    do(g, "B pass")
    expect(g, state="neutral-open", focus=None, active=None)
    assert "347.2.a" in rules_of(g, "every player has passed focus in succession")


def test_any_new_chain_restarts_the_run_of_focus_passes_ruling_R3():
    """R3 (347.2.a): A passes; B starts an Add chain (focus stays with B) - that restarts the run, so B's pass alone
    does not end the showdown: A must pass again."""
    g = game(units=UNITS, gear=[{"id": "g2", "owner": "B", "card": "add-gear"}])
    do(g, "A move a1 North", "A pass", "B activate g2 add")
    expect(g, state="showdown-open", focus="B", priority="B")
    do(g, "B pass")
    expect(g, state="showdown-open", focus="A", priority="A", active={"kind": "showdown", "at": "North"})
    do(g, "A pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A"})


def test_nobody_has_focus_in_a_neutral_state():
    """313.5: in a Neutral state nobody has focus, even with a chain."""
    g = game(units=UNITS, hands={"A": ["normal-spell"]})
    expect(g, focus=None)
    do(g, "A play normal-spell")
    expect(g, focus=None, state="neutral-closed")


def test_focus_holder_without_priority_cannot_start_a_chain():
    """313.4: focus is useless without priority - while B holds priority on A's chain, A (focus) can't play."""
    g = game(units=UNITS, hands={"A": ["action-spell", "reaction-spell"]})
    do(g, "A move a1 North", "A play action-spell", "A pass")
    expect(g, focus="A", priority="B")
    illegal(g, "A play reaction-spell", "does not hold priority")


def test_focus_is_awarded_once_the_cleanups_have_settled_ruling_R4():
    """R4 (320.1, 335.1): the showdown opens inside the cleanup; focus comes after it, as the last event."""
    g = do(game(units=UNITS), "A move a1 North")
    assert g.trace[-1].event == "A gains focus and priority"
    assert "R4" in g.trace[-1].rule


SCOUT = {"name": "scout", "trigger": "on-arrive", "effect": [{"draw": {"count": 1}}]}


def test_on_arrive_trigger_chain_runs_before_the_staged_showdown_opens():
    """Seed 000 / 323.12, 383: a standard move's on-arrive trigger goes on the chain (Neutral Closed); the showdown
    it staged opens only once that chain is empty, and the contester then gets focus (345)."""
    g = game(units=[{**UNITS[0], "abilities": [SCOUT]}, UNITS[1]])
    do(g, "A move a1 North")
    expect(g, state="neutral-closed", focus=None, priority="A", chain=["scout"], staged={"North": ["showdown"]},
           active=None)
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[], staged={},
           active={"kind": "showdown", "at": "North"})


def test_on_arrive_trigger_joins_the_move_spells_chain_focus_passes():
    """340.2.a, R5: a unit moved in by A's spell during a showdown triggers on arrival; the trigger joins the
    card-started chain, so focus still passes when it empties."""
    g = game(units=[*UNITS, {"id": "a2", "owner": "A", "at": "base", "might": 1, "abilities": [SCOUT]}],
             hands={"A": ["move-spell"]})
    do(g, "A move a1 North", "A play move-spell unit=a2 to=North", "A pass", "B pass")
    expect(g, state="showdown-closed", chain=["scout"], focus="A", priority="A", units={"a2": {"at": "North"}})
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", chain=[], focus="B", priority="B")
