"""Cleanup (CR 318-324): the tasks of 323 in order, repeated until nothing changes (322), never during a
resolution (321), control lost only when Open and nothing is ongoing (323.6), staging and stale Contested
(323.8-323.11)."""
from conftest import do, expect, game, index_of, lines, rules_of

A1 = {"id": "a1", "owner": "A", "at": "base", "might": 2}
A2 = {"id": "a2", "owner": "A", "at": "South", "might": 1}
B1 = {"id": "b1", "owner": "B", "at": "base", "might": 3}


def test_cleanup_tasks_run_in_the_order_of_323():
    """323 tasks 3 (deaths) and 6 (stage a showdown) run in the cleanup that follows the resolution, while the last
    item is still leaving the chain (Closed); task 4 (loss of control, Open only) and task 9 (open the showdown,
    Neutral Open only) run in the cleanup that follows the state opening (319)."""
    cards = {"chaos": {"type": "spell", "timing": "normal",
                       "effect": [{"move": {"unit": "a1", "to": "North"}}, {"damage": {"unit": "a2", "amount": 1}}]}}
    g = game(units=[A1, A2, B1], control={"South": "A"}, hands={"A": ["chaos"]}, cards=cards)
    do(g, "A play chaos", "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", active={"kind": "showdown", "at": "North"},
           controller={"South": None, "North": None}, units={"a2": {"zone": "trash"}})
    order = [index_of(g, "a2 dies"), index_of(g, "showdown staged at North"), index_of(g, "the state is Open"),
             index_of(g, "South becomes uncontrolled"), index_of(g, "showdown begins at North")]
    assert order == sorted(order), lines(g)
    assert "142.4" in rules_of(g, "a2 dies") and "323.6" in rules_of(g, "South becomes uncontrolled")


def test_no_cleanup_while_an_item_resolves():
    """321, 158.3: a cleanup that qualifies during a resolution runs after it - both moves of one spell happen before
    anything is staged."""
    cards = {"split": {"type": "spell", "timing": "normal",
                       "effect": [{"move": {"unit": "a1", "to": "North"}}, {"move": {"unit": "a2", "to": "base"}},
                                  {"move": {"unit": "a2", "to": "South"}}]}}
    g = game(units=[A1, {**A2, "at": "base"}], hands={"A": ["split"]}, cards=cards)
    do(g, "A play split", "A pass", "B pass")
    last_move = max(i for i, e in enumerate(g.trace) if e.event.startswith("a2 moves") or e.event.startswith("a1 moves"))
    first_stage = index_of(g, "staged at")
    assert last_move < first_stage
    expect(g, priority=None, staged={"North": ["showdown"], "South": ["showdown"]})


def test_control_is_not_lost_in_a_closed_state_only_once_open():
    """323.6, 190.4.c: a player with no units left at their battlefield loses control at a cleanup - but only when
    the turn is Open; while an older spell waits on the chain they keep it."""
    cards = {"withdraw": {"type": "spell", "timing": "reaction", "effect": [{"recall": {"unit": "a2"}}]}}
    g = game(units=[A1, A2, B1], control={"South": "A"}, hands={"A": ["normal-spell", "withdraw"]}, cards=cards)
    do(g, "A play normal-spell", "A play withdraw", "A pass", "B pass")
    expect(g, state="neutral-closed", chain=["normal-spell"], units={"a2": {"at": "base"}},
           controller={"South": "A"})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], controller={"South": None})


def test_control_is_not_lost_during_a_showdown_there():
    """323.6: no loss of control at a battlefield where a showdown is ongoing, even with no units of the controller;
    it is settled when the showdown ends (348.2)."""
    cards = {"withdraw": {"type": "spell", "timing": "action", "effect": [{"recall": {"unit": "b2"}}]}}
    g = game(units=[A1, B1, {"id": "b2", "owner": "B", "at": "North", "might": 1}], control={"North": "B"},
             hands={"A": ["withdraw"]}, cards=cards)
    # b2 is B's only unit at North; A attacks with a1, then recalls b2 by a spell: combat with no defenders left
    do(g, "A move a1 North")
    expect(g, active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    do(g, "A play withdraw", "A pass", "B pass")
    expect(g, state="showdown-open", controller={"North": "B"}, units={"b2": {"at": "base"}},
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A"}, score={"A": 1})
    assert "465.1" in rules_of(g, "one side is gone")


def test_cleanup_repeats_until_nothing_changes_8a_then_staging():
    """322, 323.11-323.11.a: task 8 clears A's stale Contested, 8a has B re-apply it; a further pass of the cleanup
    then stages (task 6) and opens (task 9) B's showdown - all before anyone gets priority."""
    cards = {"hit-and-run": {"type": "spell", "timing": "normal",
                             "effect": [{"move": {"unit": "a1", "to": "North"}}, {"recall": {"unit": "a1"}}]}}
    g = game(units=[A1, {**B1, "at": "North"}], hands={"A": ["hit-and-run"]}, cards=cards)
    do(g, "A play hit-and-run", "A pass", "B pass")
    seq = [index_of(g, "North is no longer Contested"), index_of(g, "B applies Contested"),
           index_of(g, "showdown staged at North"), index_of(g, "showdown begins at North"),
           index_of(g, "B gains focus")]
    assert seq == sorted(seq), lines(g)
    expect(g, state="showdown-open", focus="B", priority="B", staged={}, contested=["North"])


def test_units_that_start_at_a_battlefield_do_not_contest_it():
    """Scenario contract / 190.3.a.1, 323.11.a: a unit placed at an uncontrolled battlefield by the setup is not an
    arrival; no cleanup contests it (8a applies only where task 8 just removed Contested)."""
    g = game(units=[A1, {**B1, "at": "South"}])
    do(g, "A move a1 North")
    expect(g, contested=["North"], staged={}, active={"kind": "showdown", "at": "North"})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", contested=[], staged={}, controller={"North": "A", "South": None})


def test_staged_showdown_stays_staged_while_the_contester_has_units_there():
    """323.8: a staged showdown stays staged while the battlefield is still Contested and its contester has units
    there - here behind an active showdown elsewhere."""
    g = game(units=[A1, {**A2, "at": "base"}, B1], hands={"A": ["move-spell"]})
    do(g, "A move a1 North", "A play move-spell unit=a2 to=South", "A pass", "B pass")
    expect(g, staged={"South": ["showdown"]}, active={"kind": "showdown", "at": "North"})
    do(g, "B pass")
    expect(g, staged={"South": ["showdown"]}, active={"kind": "showdown", "at": "North"}, focus="A")


def test_lethal_damage_kills_in_cleanup_task_3():
    """323 task 3, 142.4: non-zero damage at least the unit's might kills it at the next cleanup; less does not."""
    cards = {"zap": {"type": "spell", "timing": "normal", "effect": [{"damage": {"unit": "target", "amount": 2}}]}}
    g = game(units=[{**A1, "might": 3}, B1], hands={"A": ["zap", "zap"]}, cards=cards)
    do(g, "A play zap unit=a1", "A pass", "B pass")
    expect(g, units={"a1": {"zone": "board", "damage": 2}})
    do(g, "A play zap unit=a1", "A pass", "B pass")
    expect(g, units={"a1": {"zone": "trash"}})
