"""Abilities (issue 15): trigger kinds placed by declared transitions (383), ordering by picks (383.3.d),
decisions at finalization (383.3.a, 402.4), conditions (383.2), activated abilities (377, 381, 806, 813),
and the loader's checks for the new keys."""
from __future__ import annotations

import tracemalloc

import pytest

import statecharts
from statecharts.triggers import KINDS
from simulator.core import cards, registry
from simulator.core.errors import IllegalAction, ScenarioError
from simulator.game.actions import Action, legal
from simulator.scenario.loader import loads
from tests.conftest import do, expect, game, illegal


def trig(name, when, *effect, **kw):
    return {"name": name, "trigger": when, "effect": list(effect), **kw}


# -- the declarations ---------------------------------------------------------------------------------------

def test_every_trigger_kind_is_declared_with_its_rule_and_placed_by_a_declared_transition():
    """Each trigger kind the format accepts is in statecharts/triggers.py, cites a rule, and its placing
    effect is named on a declared transition (so the diagrams show where it fires) and implemented."""
    from simulator import rules
    rules.install()
    assert set(cards.TRIGGERS) == set(KINDS)
    named = {e for m in statecharts.MACHINES for leaf in m.leaves() for t in leaf.transitions for e in t.effects}
    for kind, k in KINDS.items():
        assert k.rules, kind
        assert any(e in named for e in k.placed_by), (kind, k.placed_by)
        assert all(e in registry.EFFECTS for e in k.placed_by if e.startswith("trigger_")), kind
    new = [k for k in KINDS if KINDS[k].effect.startswith("trigger_")]
    assert len(new) >= 9


# -- 383.3.d: a sequence of picks ---------------------------------------------------------------------------

def eleven():
    abilities = [trig(f"t{i:02d}", "on-move", {"draw": {"count": 1}}) for i in range(11)]
    return game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 1, "abilities": abilities}],
                control={"North": "A"})


def test_eleven_simultaneous_triggers_are_ordered_by_eleven_picks_in_bounded_memory():
    """383.3.d: 11 triggers of one move: legal lists 11 entries (one per item that may go next), never 11!
    (39,916,800) permutations; computing them stays small (tracemalloc peak, well under 5 MB)."""
    g = eleven()
    tracemalloc.start()
    do(g, "A move a1 North")
    acts = legal(g.state, "A")
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    orders = [a for a in acts if a.kind == "order"]
    assert len(orders) == 11
    assert peak < 5_000_000, peak
    expect(g, priority=None, chain=[f"t{i:02d}" for i in range(11)])
    picks = [f"t{i:02d}" for i in (5, 0, 10, 3, 1, 2, 4, 6, 7, 8)]       # ten picks: the eleventh has no choice
    for n, name in enumerate(picks):
        assert len([a for a in legal(g.state, "A") if a.kind == "order"]) == 11 - n
        do(g, f"A order a1:{name}")
    # the first placed goes on the chain first (resolves last); t09 was left and placed last
    expect(g, chain=[*picks, "t09"], priority="A")


def test_an_order_may_name_several_items_and_a_label_no_more_times_than_it_is_pending():
    g = eleven()
    do(g, "A move a1 North")
    illegal(g, "A order a1:t01 a1:t01", "listed more times", "383.3.d")
    illegal(g, "A order a1:nope", "not one of A's pending triggers", "383.3.d")
    illegal(g, "B order a1:t01", "only A orders now", "383.3.d")
    do(g, "A order a1:t10 a1:t09")
    assert [a.summary() for a in legal(g.state, "A") if a.kind == "order"] == [f"order a1:t{i:02d}" for i in range(9)]


# -- 383.3.a, 402.4: decisions at finalization ----------------------------------------------------------------

def test_a_may_is_decided_by_its_controller_while_nobody_has_priority_and_declining_removes_it():
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 1,
                     "abilities": [trig("scout", "on-move", {"draw": {"count": 1}, "may": True})]}],
             control={"North": "A"})
    do(g, "A move a1 North")
    expect(g, chain=["scout"], priority=None, state="neutral-closed",
           legal={"A": ["choose no", "choose yes", "concede"], "B": ["concede"]})
    illegal(g, "A pass", "must first choose yes or no", "383.3.a")
    with pytest.raises(IllegalAction):
        g.apply(Action("choose", "B", option="yes"))
    g.apply(Action("choose", "A", option="no"), g.state.step + 1)
    expect(g, chain=[], priority="A", state="neutral-open")
    assert any("removed as if it never triggered" in e.event for e in g.trace)


def test_a_trigger_with_no_legal_target_is_removed_not_countered():
    """402.4: both units die in combat; b1's deathknell targets a unit and none is left: it is removed."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2},
                    {"id": "b1", "owner": "B", "at": "North", "might": 2,
                     "keywords": [{"deathknell": [{"stun": {"unit": "target"}}]}]}],
             control={"North": "B"})
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, chain=[], units={"a1": {"zone": "trash"}, "b1": {"zone": "trash"}}, state="neutral-open")
    assert any("has no legal target: it is removed" in e.event and "402.4" in e.rule for e in g.trace)


def test_a_triggered_ability_targets_at_finalization_and_its_choice_is_checked():
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2,
                     "abilities": [trig("mark", "on-arrive", {"stun": {"unit": "target"}})]},
                    {"id": "b1", "owner": "B", "at": "South", "might": 1}],
             control={"North": "A"})
    do(g, "A move a1 North")
    expect(g, chain=["mark"], priority=None, legal={"A": ["concede", "target"], "B": ["concede"]})
    with pytest.raises(IllegalAction):
        g.apply(Action("target", "A", targets=(("unit", "nobody"),)))
    g.apply(Action("target", "A", targets=(("unit", "b1"),)), g.state.step + 1)
    expect(g, chain=["mark"], priority="A")
    do(g, "A pass", "B pass")
    expect(g, units={"b1": {"stunned": True}}, chain=[])


# -- 383.2: conditions ----------------------------------------------------------------------------------------

def test_a_false_trigger_condition_means_no_trigger_and_the_trace_says_which():
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 1,
                     "abilities": [trig("surge", "on-arrive", {"draw": {"count": 1}}, **{"if": [{"might-at-least": 2}]})]}],
             control={"North": "A"})
    do(g, "A move a1 North")
    expect(g, chain=[], state="neutral-open")
    assert any("does not trigger: might-at-least 2 is false" in e.event for e in g.trace)


def test_not_your_turn_and_in_combat_conditions():
    """A defender's 'if not your turn' and 'if in combat' hold when it defends on the opponent's turn."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2},
                    {"id": "b1", "owner": "B", "at": "North", "might": 2,
                     "abilities": [trig("brace", "on-defend", {"draw": {"count": 1}},
                                        **{"if": ["not-your-turn", "in-combat", "controls-here", "at-battlefield"]}),
                                   trig("gloat", "on-defend", {"draw": {"count": 1}}, **{"if": "your-turn"})]}],
             control={"North": "B"})
    do(g, "A move a1 North")
    expect(g, chain=["brace"])


# -- activated abilities ----------------------------------------------------------------------------------------

def test_an_activated_ability_without_exhaust_can_be_used_while_exhausted_but_once_per_turn_once():
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 1, "exhausted": True,
                     "abilities": [{"name": "study", "activated": True, "once-per-turn": True,
                                    "effect": [{"draw": {"count": 1}}]}]}])
    do(g, "A activate a1 study")
    expect(g, chain=["study"], priority="A")
    do(g, "A pass", "B pass")
    illegal(g, "A activate a1 study", "once per turn", "381")


# -- the loader -------------------------------------------------------------------------------------------------

BASE = "name: t\nplayers: [A, B]\nbattlefields: [North]\nunits:\n"


@pytest.mark.parametrize("unit, msg", [
    ("  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-move, effect: [{draw: {count: 1}}, "
     "{draw: {count: 1}, may: sometimes}]}]}", "may must be true or false"),
    ("  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-move, if: sunny, effect: []}]}",
     "unknown condition sunny"),
    ("  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-move, by: enemy, effect: []}]}",
     "by is for on-chosen abilities"),
    ("  - {id: a1, owner: A, might: 1, abilities: [{name: x, activated: true, speed: fast, effect: [{draw: {}}]}]}",
     "speed must be one of"),
    ("  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-move, if: {might-at-least: two}, effect: []}]}",
     "might-at-least must be a whole number"),
    ("  - {id: a1, owner: A, might: 1, keywords: [flying]}", "unknown keyword flying"),
    ("  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-move, effect: [{play: {card: nope}}]}]}",
     "unknown card nope"),
])
def test_bad_ability_keys_are_one_line_errors_naming_the_line(unit, msg):
    with pytest.raises(ScenarioError) as e:
        loads(BASE + unit + "\nsteps: []\n", "f.yaml")
    assert msg in str(e.value)
    assert str(e.value).startswith("f.yaml:5:")


def test_a_choose_step_names_a_battlefield_or_an_option_not_both():
    with pytest.raises(ScenarioError) as e:
        loads(BASE + "  - {id: a1, owner: A, might: 1}\nsteps:\n  - {do: choose, player: A, battlefield: North, "
              "option: yes}\n", "f.yaml")
    assert "names one of battlefield" in str(e.value)
