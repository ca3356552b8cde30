"""Keywords that change a combat or who may act (465.2.c, 805, 807, 810, 811, 814, 815, 822, 826) and readiness.

Each test names its rule and checks what a judge checks: the damage each unit is dealt, who may act,
the legal actions, the facedown cards, the refusal and its rule (with the position left unchanged).
"""
from __future__ import annotations

import time

import pytest

from simulator.core.errors import IllegalAction
from simulator.game.actions import Action, legal
from simulator.rules import damage
from simulator.scenario.view import view
from tests.conftest import do, expect, game, illegal, lines


def u(id, owner, at="base", might=2, keywords=(), **kw):
    return {"id": id, "owner": owner, "at": at, "might": might, "keywords": list(keywords), **kw}


def to_damage_step(g):
    """A attacks North (B's) with everything at A's base; both pass focus: the Damage Step begins."""
    mine = [x.id for x in g.state.units.values() if x.controller == "A" and x.at == "base" and x.kind == "unit"]
    do(g, f"A move {' '.join(mine)} North", "A pass", "B pass")
    return g


def assign(g, player, **dmg):
    g.apply(Action("assign", player, damage=tuple(dmg.items())), g.state.step + 1)


def refused(g, player, reason, rule, **dmg):
    before = g.state.key()
    with pytest.raises(IllegalAction) as info:
        assign(g, player, **dmg)
    assert reason in info.value.reason and rule in info.value.rule, (info.value.reason, info.value.rule)
    assert g.state.key() == before


def manual(units, **kw):
    return to_damage_step(game(units=units, control={"North": "B"}, assign="manual", **kw))


# -- 465.2.c, 815.1.b, 826.3: the automatic assignment -------------------------------------------------

def test_automatic_assignment_fills_tank_then_plain_then_backline_in_listed_order():
    """815.1.b, 826.3: whatever the listed order, the Tank is filled first and the Backline unit last."""
    g = to_damage_step(game(units=[u("a1", "A", might=5), u("b1", "B", "North", 2, ["backline"]),
                                   u("b2", "B", "North", 2), u("b3", "B", "North", 2, ["tank"])],
                            control={"North": "B"}))
    hits = [x for x in lines(g) if x.startswith("b") and "combat damage" in x]
    assert hits == ["b3 takes 2 combat damage", "b2 takes 2 combat damage", "b1 takes 1 combat damage"]
    expect(g, units={"b1": {"zone": "board"}, "b2": {"zone": "trash"}, "b3": {"zone": "trash"}})


def test_a_unit_with_both_tank_and_backline_is_filled_first_automatically():
    """465.2.c.8: with both keywords the assigner places the unit; the automatic assigner puts it first."""
    g = to_damage_step(game(units=[u("a1", "A", might=2), u("b1", "B", "North", 2),
                                   u("b2", "B", "North", 2, ["tank", "backline"])], control={"North": "B"}))
    expect(g, units={"b1": {"zone": "board"}, "b2": {"zone": "trash"}})


# -- Assault (807) and Shield (814) ---------------------------------------------------------------------

def test_assault_counts_only_while_attacking_and_shield_only_while_defending():
    """807, 814: +N might as an attacker / a defender; outside the combat the printed might."""
    g = game(units=[u("a1", "A", might=2, keywords=[{"assault": 2}, {"shield": 5}]),
                    u("b1", "B", "North", 3, keywords=[{"shield": 1}, {"assault": 4}])], control={"North": "B"})
    assert view(g.state)["units"]["a1"]["might"] == 2
    do(g, "A move a1 North")
    # a1 attacks: 2 + Assault 2 = 4; b1 defends: 3 + Shield 1 = 4
    expect(g, units={"a1": {"might": 4, "designation": "attacker"}, "b1": {"might": 4, "designation": "defender"}})
    do(g, "A pass", "B pass")
    expect(g, units={"a1": {"zone": "trash"}, "b1": {"zone": "trash"}})


# -- assign: manual (465.2.c) ---------------------------------------------------------------------------

def test_manual_assignment_waits_for_the_attacker_then_the_defender_with_nobody_holding_priority():
    g = manual([u("a1", "A", might=3), u("b1", "B", "North", 2), u("b2", "B", "North", 2)])
    expect(g, state="showdown-open", priority=None, legal={"A": ["assign", "concede"], "B": ["concede"]})
    assert g.state.ms[("combat", None)] == "Assignment"
    refused(g, "B", "attacker assigns first", "465.2.c", a1=4)
    assign(g, "A", b2=2, b1=1)
    expect(g, priority=None, legal={"A": ["concede"], "B": ["assign", "concede"]})
    assign(g, "B", a1=4)
    # all damage at once (465.2.c.1.a): b2 dies, b1 keeps 1 damage until the heal, a1 dies
    expect(g, state="neutral-open", units={"a1": {"zone": "trash"}, "b1": {"zone": "board"}, "b2": {"zone": "trash"}})


def test_manual_assignment_refusals_name_their_rule_and_change_nothing():
    g = manual([u("a1", "A", might=5), u("b1", "B", "North", 2, ["tank"]), u("b2", "B", "North", 2),
                u("b3", "B", "North", 3, ["backline"])])
    refused(g, "A", "b1 has Tank", "815.1.b", b2=5)
    refused(g, "A", "b3 has Backline", "826.3", b1=2, b3=3)
    refused(g, "A", "exactly 5", "465.2.a", b1=2, b2=2)
    refused(g, "A", "more than lethal", "465.2.c.4", b1=3, b2=2)
    refused(g, "A", "not an enemy unit", "465.2.c", a1=5)
    with pytest.raises(IllegalAction) as info:
        g.apply(Action("pass", "A"))
    assert "465.2.c" in info.value.rule


def test_two_units_short_of_lethal_is_refused():
    """465.2.c.3: a unit is filled before the next gets any."""
    g = manual([u("a1", "A", might=2), u("b1", "B", "North", 2), u("b2", "B", "North", 2)])
    refused(g, "A", "both have less than lethal", "465.2.c.3", b1=1, b2=1)
    assign(g, "A", b2=2)                    # any unit may be filled first when none has a keyword
    assert damage.assigner(g.state) == "B"


def test_a_unit_with_both_keywords_may_be_placed_either_way_by_the_assigner():
    """465.2.c.8: Tank+Backline: the assigner picks, so both orders are accepted."""
    for dmg in ({"b1": 2}, {"b2": 2}):
        g = manual([u("a1", "A", might=2), u("b1", "B", "North", 2), u("b2", "B", "North", 2, ["tank", "backline"])])
        assign(g, "A", **dmg)
        assert g.state.ms[("combat", None)] != "Assignment" or damage.assigner(g.state) == "B"


def test_a_player_whose_units_have_no_might_skips_the_assignment():
    """465.2.b, 423.1.b: a stunned side adds 0: it has nothing to assign, only the other side decides."""
    g = game(units=[u("a1", "A", might=3), u("b1", "B", "North", 2)], control={"North": "B"},
             hands={"B": ["rune-prison"]}, assign="manual")
    do(g, "A move a1 North", "A pass", "B play rune-prison unit=b1", "B pass", "A pass", "A pass", "B pass")
    expect(g, priority=None, legal={"A": ["assign", "concede"], "B": ["concede"]})
    assign(g, "A", b1=3)
    expect(g, state="neutral-open", units={"a1": {"zone": "board", "damage": 0}, "b1": {"zone": "trash"}},
           controller={"North": "A"})


def test_the_explorer_is_offered_one_assignment_per_distinct_outcome():
    """3 damage against two 2-might units: many splits ({1,2}, {2,1}, ...) but two outcomes (which dies)."""
    g = manual([u("a1", "A", might=3), u("b1", "B", "North", 2), u("b2", "B", "North", 2)])
    acts = [a for a in legal(g.state, "A") if a.kind == "assign"]
    assert sorted(a.damage for a in acts) == [(("b1", 1), ("b2", 2)), (("b1", 2), ("b2", 1))]
    # with a Tank only one outcome is legal: the Tank dies
    g = manual([u("a1", "A", might=3), u("b1", "B", "North", 2), u("b2", "B", "North", 2, ["tank"])])
    acts = [a for a in legal(g.state, "A") if a.kind == "assign"]
    assert [a.damage for a in acts] == [(("b1", 1), ("b2", 2))]
    for a in acts:
        assert damage.problem(g.state, "A", a.damage) is None


def test_many_defenders_keep_the_assignment_choices_bounded():
    """Hostile input: 40 defenders against 60 damage cannot make the listing explode."""
    units = [u("a1", "A", might=60)] + [u(f"b{i}", "B", "North", 2) for i in range(40)]
    g = manual(units)
    t = time.process_time()
    acts = [a for a in legal(g.state, "A") if a.kind == "assign"]
    assert 1 <= len(acts) <= damage.MAX_CHOICES
    assert time.process_time() - t < 20          # a generous bound, not a benchmark


# -- Ganking (810) and readiness (144, 359.2, 805, 315.1) --------------------------------------------------

def test_ganking_allows_battlefield_to_battlefield_and_a_move_exhausts():
    g = game(units=[u("a1", "A", "North", 2, ["ganking"]), u("a2", "A", "North", 1), u("a3", "A", "South", 1),
                    u("b1", "B", "base", 1)], control={"North": "A", "South": "A"})
    illegal(g, "A move a2 South", "without Ganking", "810")
    do(g, "A move a1 South")
    expect(g, units={"a1": {"at": "South", "exhausted": True}})
    illegal(g, "A move a1 North", "a1 is exhausted", "144")


def test_units_enter_exhausted_and_accelerate_enters_ready_without_resources():
    """359.2: exhausted; 805: without resources: an Accelerate unit always enters ready."""
    g = game(hands={"A": ["Shipyard Skulker", "Blazing Scorcher"]})
    do(g, "A play 'Shipyard Skulker' at=base", "A play 'Blazing Scorcher' at=base")
    expect(g, units={"Shipyard Skulker#1": {"exhausted": True}, "Blazing Scorcher#1": {"exhausted": False}})
    illegal(g, "A move 'Shipyard Skulker#1' North", "exhausted", "144")
    do(g, "A move 'Blazing Scorcher#1' North")


def test_awaken_readies_the_turn_players_units_gear_and_runes_only():
    """315.1: the Awaken Phase readies everything its player controls."""
    g = game(units=[u("a1", "A", might=1, exhausted=True), u("b1", "B", might=1, exhausted=True)],
             gear=[{"id": "gb", "owner": "B", "card": "Seal of Focus", "exhausted": True}],
             resources={"A": {"runes": 2}, "B": {"runes": 3}})
    g.state.runes["B"] = 0
    do(g, "A end-turn")
    v = view(g.state, every=True)
    assert v["units"]["a1"]["exhausted"] is True and v["units"]["b1"]["exhausted"] is False
    assert v["gear"]["gb"]["exhausted"] is False and v["runes"] == {"A": 2, "B": 3}


# -- Ambush (822.1.b) ------------------------------------------------------------------------------------

def test_ambush_plays_as_a_reaction_where_its_controller_has_units_even_in_a_closed_state():
    """822.1.b: in Showdown Closed (a chain), A adds Diana to North where A has a unit but no control."""
    g = game(units=[u("a1", "A", might=2), u("b1", "B", "North", 4)], control={"North": "B"},
             hands={"A": ["Diana, No Longer Human", "Shipyard Skulker", "action-spell"]})
    do(g, "A move a1 North", "A play action-spell")
    expect(g, state="showdown-closed", priority="A")
    illegal(g, "A play 'Shipyard Skulker' at=North", "not a Reaction", "813")
    illegal(g, "A play 'Diana, No Longer Human' at=base", "not a Reaction", "813")
    do(g, "A play 'Diana, No Longer Human' at=North")
    expect(g, units={"Diana, No Longer Human#1": {"at": "North", "exhausted": True}})


def test_ambush_does_not_open_a_battlefield_without_the_players_units():
    """822.1.b: Ambush needs the controller's units there; else 359.2's control rule applies."""
    g = game(units=[u("b1", "B", "North", 1)], control={"North": "B"}, hands={"A": ["Chakram Dancer"]})
    illegal(g, "A play 'Chakram Dancer' at=North", "does not control North", "822.1.b")


# -- Hidden (811) ----------------------------------------------------------------------------------------

def hide(g, player, card, at):
    g.apply(Action("hide", player, card=card, at=at), g.state.step + 1)


def test_hiding_is_only_on_your_turn_in_neutral_open_and_opens_no_chain():
    g = game(units=[u("a1", "A", "North", 1), u("b1", "B", "South", 1)], control={"North": "A", "South": "B"},
             hands={"A": ["Back Off", "action-spell"], "B": ["Bedeviling Stranger"]})
    with pytest.raises(IllegalAction) as info:
        hide(g, "B", "Bedeviling Stranger", "South")
    assert "811.1.b" in info.value.rule
    do(g, "A play action-spell")
    with pytest.raises(IllegalAction) as info:
        hide(g, "A", "Back Off", "North")          # Neutral Closed: a chain exists
    assert "own turn, in Neutral Open" in info.value.reason
    do(g, "A pass", "B pass")
    hide(g, "A", "Back Off", "North")
    v = view(g.state, every=True)
    assert v["hidden"] == {"North": ["Back Off"]} and v["chain"] == [] and v["state"] == "neutral-open"
    assert "Back Off" not in g.state.hands["A"]


def test_a_hidden_card_is_trashed_by_cleanup_task_5_when_its_controller_loses_control():
    """323.6 then 323.7 (task 5): a1 leaves North, A loses control, A's facedown card there is trashed."""
    g = game(units=[u("a1", "A", "North", 1), u("b1", "B", "base", 1)], control={"North": "A"},
             hands={"A": ["Back Off"]})
    hide(g, "A", "Back Off", "North")
    do(g, "A move a1 base")
    assert view(g.state, every=True)["hidden"] == {}
    assert any("facedown Back Off at North is trashed" in x for x in lines(g))
    assert [e.rule for e in g.trace if "is trashed" in e.event] == ["323.7, 811"]


def test_a_hidden_card_is_played_on_the_opponents_turn_in_a_closed_state_for_no_cost():
    """811.1.d: Reaction timing from the next turn, any turn; no energy cost (resources: 0 runes)."""
    g = game(units=[u("a1", "A", "North", 1), u("b1", "B", "base", 2)], control={"North": "A"},
             hands={"A": ["Back Off"], "B": ["action-spell"]}, resources={"A": {"runes": 3}, "B": {"runes": 0}})
    hide(g, "A", "Back Off", "North")
    do(g, "A end-turn", "B play action-spell", "B pass")
    expect(g, state="neutral-closed", priority="A")
    assert "play Back Off from hidden" in {a.summary() for a in legal(g.state, "A")}
    g.apply(Action("play", "A", card="Back Off", targets=(("unit", "a1"),), hidden=True), g.state.step + 1)
    v = view(g.state, every=True)
    assert v["chain"] == ["action-spell", "Back Off"] and v["hidden"] == {} and v["runes"]["A"] == 3


def test_a_hidden_unit_enters_at_its_battlefield():
    """811.1.d.1: a unit played from facedown enters where it was hidden, not elsewhere."""
    g = game(units=[u("a1", "A", "North", 1)], control={"North": "A"}, hands={"A": ["Blastcone Fae"]})
    hide(g, "A", "Blastcone Fae", "North")
    do(g, "A end-turn", "B end-turn")
    with pytest.raises(IllegalAction) as info:
        g.apply(Action("play", "A", card="Blastcone Fae", at="base", hidden=True))
    assert "811.1.d.1" in info.value.rule
    g.apply(Action("play", "A", card="Blastcone Fae", hidden=True), g.state.step + 1)
    expect(g, units={"Blastcone Fae#1": {"at": "North", "exhausted": True}})


# -- the verify positions of issue 16 reach what they are for ----------------------------------------------

def _reach(name, found, limit=20_000):
    """Breadth-first over the legal actions of simulator/verify/positions/positions.yaml's position ``name`` (as the explorer
    does): the first state for which ``found(state, action)`` holds after ``action``, else None."""
    import yaml
    from pathlib import Path
    from simulator.game import engine
    from simulator.verify.explore import Position, actions_of
    doc = yaml.safe_load((Path(__file__).parent.parent / "simulator" / "verify" / "positions" / "positions.yaml").read_text())
    entry = next(p for p in doc["positions"] if p["name"] == name)
    setup = {k: v for k, v in entry.items() if k not in ("name", "explore")}
    start = Position(name, setup).start()
    seen, queue = {start.key()}, [start]
    while queue and len(seen) < limit:
        g = queue.pop(0)
        for a in actions_of(g, False):
            n = engine.step(g, a)
            if found(n, a):
                return n, a
            if n.key() not in seen and a.kind != "end-turn" or (a.kind == "end-turn" and n.turn == "B"):
                seen.add(n.key())
                queue.append(n)
    return None


def test_verify_position_manual_assignment_branches_on_distinct_outcomes_only():
    hit = _reach("duel-tank-backline-manual-assignment",
                 lambda s, a: damage.assigner(s) == "A")
    assert hit is not None
    acts = [a for a in legal(hit[0], "A") if a.kind == "assign"]
    # 2 damage: the Tank b1 first (lethal 1), then b2 or b3 (both plain); never b4 (Backline)
    assert sorted(a.damage for a in acts) == [(("b1", 1), ("b2", 1)), (("b1", 1), ("b3", 1))]


def test_verify_position_hidden_card_is_played_in_a_showdown():
    hit = _reach("duel-hidden-card-played-in-a-showdown",
                 lambda s, a: a.kind == "play" and a.hidden and s.turn_state() == "showdown-closed")
    assert hit is not None and hit[0].turn == "B" and hit[0].active == "North"


def test_verify_position_cost_is_paid_with_an_add_during_a_chain():
    hit = _reach("duel-cost-paid-with-an-add-during-a-chain",
                 lambda s, a: a.kind == "play" and a.card == "Discipline" and len(s.chain) == 2)
    assert hit is not None
    s = hit[0]
    assert [i.name for i in s.chain] == ["action-spell", "Discipline"] and s.runes["B"] == 0
    assert s.units["gb"].exhausted and s.energy["B"] == 0


def test_a_keyword_given_this_turn_counts_like_a_printed_one():
    """give-keyword (this turn): a given Tank is assigned lethal first (815.1.b); it ends with the turn."""
    g = game(units=[u("a1", "A", might=2), u("b1", "B", "North", 2), u("b2", "B", "North", 2)],
             control={"North": "B"}, hands={"B": ["guard"]},
             cards={"guard": {"type": "spell", "timing": "reaction", "effect": [{"give-keyword": {"unit": "b2", "keyword": "tank"}}]}})
    do(g, "A move a1 North", "A pass", "B play guard", "B pass", "A pass", "A pass", "B pass")
    expect(g, units={"b1": {"zone": "board"}, "b2": {"zone": "trash"}})
