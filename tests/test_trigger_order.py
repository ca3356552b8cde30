"""383.3.d, 464.2.e: each player orders their own simultaneous triggers before they are finalized.

The cross-player placement is the rules' (attacker, non-defenders in turn order, defender for the combat
chain, 464.2.e); a player with two or more triggers of one event then chooses their relative order among
the chain positions they occupy. While a player orders, nobody holds priority: only that player's
``order`` actions and everyone's ``concede`` are legal.
"""
from __future__ import annotations

import pytest

from simulator.game.actions import Action
from simulator.core.errors import ScenarioError
from simulator.cli.play import parse_action
from simulator.scenario.loader import loads
from tests.conftest import do, expect, game, illegal, lines


def u(id, owner, at="base", might=2, *abilities):
    return {"id": id, "owner": owner, "at": at, "might": might, "abilities": list(abilities)}


def trig(name, when, *effect):
    return {"name": name, "trigger": when, "effect": list(effect)}


COMBAT_N = {"kind": "combat", "at": "North", "attacker": "A", "defender": "B"}


def two_by_two(**kw):
    """A attacks North with a1 (two on-attack triggers); B defends with b1 (two on-defend triggers)."""
    return game(units=[u("a1", "A", "base", 2, trig("charge", "on-attack"), trig("cry", "on-attack")),
                       u("b1", "B", "North", 1, trig("brace", "on-defend", {"buff": {"unit": "b1", "might": 1}}),
                         trig("guard", "on-defend", {"draw": {"count": 1}}))],
                control={"North": "B"}, **kw)


def resolved(g) -> list[str]:
    return [e[: -len(" resolves")] for e in lines(g) if e.endswith(" resolves")]


def test_combat_chain_attacker_orders_then_defender_defenders_last_resolves_first():
    """383.3.d, 464.2.e, R17: the combat chain is placed attacker first, defender last; A orders its two first
    (nobody has priority), then B orders its two; priority then goes to the defender (the newest item's
    controller), and B's trigger chosen last resolves first."""
    g = two_by_two()
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", focus="A", priority=None, active=COMBAT_N,
           chain=["charge", "cry", "brace", "guard"],
           legal={"A": ["concede", "order a1:charge", "order a1:cry"], "B": ["concede"]})
    do(g, "A order a1:cry a1:charge")
    expect(g, state="showdown-closed", priority=None, chain=["cry", "charge", "brace", "guard"],
           legal={"A": ["concede"], "B": ["concede", "order b1:brace", "order b1:guard"]})
    do(g, "B order b1:guard b1:brace")
    expect(g, state="showdown-closed", focus="A", priority="B", chain=["cry", "charge", "guard", "brace"],
           legal={"A": ["concede"], "B": ["concede", "pass"]})
    do(g, "B pass", "A pass")
    assert resolved(g) == ["brace"]
    expect(g, chain=["cry", "charge", "guard"], units={"b1": {"might": 2}})
    expect(g, priority="B")                          # 340.4, R17: the newest item (guard) is B's
    do(g, "B pass", "A pass")
    assert resolved(g) == ["brace", "guard"] and g.state.drawn.get("B") == 1
    expect(g, priority="A")
    do(g, "A pass", "B pass", "A pass", "B pass")
    assert resolved(g) == ["brace", "guard", "charge", "cry"]
    expect(g, state="showdown-open", chain=[], focus="A", priority="A", active=COMBAT_N)
    assert "A orders their simultaneous triggers: a1:cry, a1:charge (the last resolves first)" in lines(g)


def test_order_cites_the_rule_in_the_trace():
    """383.3.d: the decision point and the choice are trace lines citing the rule (and 464.2.e for combat)."""
    g = two_by_two()
    do(g, "A move a1 North")
    waits = [e for e in g.trace if e.trigger == "await_order"]
    assert [(e.player, e.source, e.dest) for e in waits] == [("A", "Finalize", "Order")]
    assert "383.3.d" in waits[0].rule and "464.2.e" in waits[0].rule
    do(g, "A order a1:charge a1:cry")
    step = [e for e in g.trace if e.trigger == "order"]
    assert [(e.source, e.dest) for e in step] == [("Order", "Order")]
    do(g, "B order b1:brace b1:guard")
    step = [e for e in g.trace if e.trigger == "order"]
    assert [(e.source, e.dest) for e in step] == [("Order", "Order"), ("Order", "Finalize")]
    assert all("383.3.d" in e.rule for e in step)


def test_one_trigger_each_no_pause():
    """383.3.d: with a single trigger per player there is nothing to order: priority goes straight to the
    defender (R17), as before."""
    g = game(units=[u("a1", "A", "base", 2, trig("charge", "on-attack")),
                    u("b1", "B", "North", 1, trig("brace", "on-defend"))], control={"North": "B"})
    do(g, "A move a1 North")
    expect(g, priority="B", chain=["charge", "brace"], legal={"A": ["concede"], "B": ["concede", "pass"]})
    assert not [e for e in g.trace if e.trigger in ("await_order", "order")]


def test_two_on_conquer_triggers_their_controller_orders_them():
    """469.1, 383.3.d: A conquers North with a1 and a2; their on-conquer triggers become pending together and
    A orders them before they are finalized; the one placed last resolves first."""
    g = game(units=[u("a1", "A", "base", 2, trig("loot", "on-conquer", {"draw": {"count": 1}})),
                    u("a2", "A", "base", 1, trig("rally", "on-conquer", {"buff": {"unit": "a2", "might": 1}}))])
    do(g, "A move a1 a2 North", "A pass", "B pass")
    expect(g, state="neutral-closed", priority=None, chain=["loot", "rally"], score={"A": 1},
           controller={"North": "A"},
           legal={"A": ["concede", "order a1:loot", "order a2:rally"], "B": ["concede"]})
    do(g, "A order a2:rally a1:loot")
    expect(g, chain=["rally", "loot"], priority="A", legal={"A": ["concede", "pass"], "B": ["concede"]})
    do(g, "A pass", "B pass")
    assert resolved(g) == ["loot"] and g.state.drawn.get("A") == 1
    do(g, "A pass", "B pass")
    assert resolved(g) == ["loot", "rally"]
    expect(g, state="neutral-open", chain=[], priority="A", units={"a2": {"might": 2}})


def test_illegal_orders_are_rejected_with_the_rule_and_change_nothing():
    """383.3.d, 464.2.e: only the player whose turn it is to order does, with exactly their own pending
    triggers, each once; nothing else but concede is legal meanwhile; a refusal changes nothing."""
    g = two_by_two()
    illegal(g, "A order a1:charge a1:cry", "no simultaneous triggers to order", "383.3.d")
    do(g, "A move a1 North")
    illegal(g, "B order b1:brace b1:guard", "only A orders now", "383.3.d")
    illegal(g, "A order a1:cry a1:cry", "listed more times than A has it pending", "383.3.d")
    illegal(g, "A order a1:cry a1:charge b1:brace", "b1:brace is B's trigger", "383.3.d")
    illegal(g, "A order a1:cry a1:nope", "not one of A's pending triggers", "383.3.d")
    illegal(g, "A pass", "must first order", "383.3.d")
    illegal(g, "B pass", "must first order", "383.3.d")
    do(g, "A order a1:charge a1:cry")
    illegal(g, "A order a1:charge a1:cry", "only B orders now", "383.3.d")
    illegal(g, "B order b1:brace a1:cry", "a1:cry is not one of B's pending triggers", "383.3.d")
    expect(g, priority=None, chain=["charge", "cry", "brace", "guard"])


def test_defender_concedes_while_ordering_in_a_duel_ends_the_game():
    """651.1, 652.4: the orderer concedes; in a duel the other player wins; nobody waits on the order."""
    g = two_by_two()
    do(g, "A move a1 North", "A order a1:charge a1:cry", "B concede")
    expect(g, winner="A", priority=None, legal={"A": [], "B": []})


def skirmish(b=(trig("brace", "on-defend"), trig("guard", "on-defend")), c=()):
    return game(mode="skirmish", players=["A", "B", "C"], control={"North": "B"},
                units=[u("a1", "A", "base", 2, trig("charge", "on-attack"), trig("cry", "on-attack")),
                       u("b1", "B", "North", 1, *b), u("c1", "C", "base", 1, *c)])


def test_attacker_concedes_while_ordering_the_defender_orders_next():
    """652.4, 383.3.d: A concedes while ordering: A's triggers are countered and B, next in placement order,
    orders theirs; C's single trigger keeps its place."""
    g = skirmish(c=[trig("watch", "on-any-attack")])
    do(g, "A move a1 North")
    expect(g, priority=None, chain=["charge", "cry", "watch", "brace", "guard"],
           legal={"A": ["concede", "order a1:charge", "order a1:cry"], "B": ["concede"],
                  "C": ["concede"]})
    do(g, "A concede")
    expect(g, players=["B", "C"], priority=None, chain=["watch", "brace", "guard"],
           legal={"B": ["concede", "order b1:brace", "order b1:guard"], "C": ["concede"]})
    assert "charge is countered: its controller left" in lines(g)
    do(g, "B order b1:brace b1:guard")
    expect(g, priority="B", chain=["watch", "brace", "guard"], legal={"B": ["concede", "pass"]})


def test_last_orderer_concedes_the_chain_finalizes_the_rest():
    """652.4, 337: B (the last to order) concedes; the remaining, already ordered items are finalized and
    priority goes to the newest item's controller (R17)."""
    g = skirmish(c=[trig("watch", "on-any-attack")])
    do(g, "A move a1 North", "A order a1:cry a1:charge", "B concede")
    expect(g, players=["A", "C"], chain=["cry", "charge", "watch"], priority="C",
           legal={"A": ["concede"], "C": ["concede", "pass"]})


def test_only_orderer_concedes_the_chain_empties_and_the_state_opens():
    """652.4, 340.2: A's are the only triggers; A concedes while ordering: the chain is empty and Open
    again (the showdown goes on with B holding focus), and nobody waits on A's order."""
    g = skirmish(b=())
    do(g, "A move a1 North")
    expect(g, priority=None, chain=["charge", "cry"])
    do(g, "A concede")
    expect(g, players=["B", "C"], chain=[], state="showdown-open", focus="B", priority="B",
           legal={"A": [], "B": ["concede", "pass"], "C": ["concede"]})     # 652.5: focus moves on to B
    assert [e.dest for e in g.trace if e.trigger == "withdraw" and e.machine == "chain"] == ["Empty"]


@pytest.mark.parametrize("backend", ["compiled", "transitions"])
def test_both_backends_give_the_same_trace(backend):
    """The Order decision point comes from the declarations: both backends fire the same transitions."""
    ref = two_by_two()
    g = two_by_two(backend=backend)
    for d in (ref, g):
        do(d, "A move a1 North", "A order a1:cry a1:charge", "B order b1:guard b1:brace", "B pass", "A pass")
    assert [e.as_dict() for e in g.trace] == [e.as_dict() for e in ref.trace]
    assert [e.dest for e in g.trace if e.machine == "chain"][:6] == \
        ["Finalize", "Finalize", "Finalize", "Finalize", "Order", "Order"]


def test_play_command_parses_an_order():
    """The play command's text form of an order: PLAYER order SOURCE:ABILITY ..."""
    assert parse_action("A order a1:brace a2:guard") == Action("order", "A", triggers=("a1:brace", "a2:guard"))
    assert Action("order", "A", triggers=("a1:brace", "a2:guard")).summary() == "order a1:brace a2:guard"


ORDER_SCENARIO = """\
name: t
players: [A, B]
battlefields: [North, South]
steps:
  - {do: order, player: A, triggers: %s}
"""


@pytest.mark.parametrize("triggers, message", [
    ("[]", "f.yaml:5: an order lists at least one trigger (SOURCE:ABILITY)"),
    ("[a1]", "f.yaml:5: trigger a1 is not SOURCE:ABILITY (e.g. a1:brace)"),
    ("[a1:brace, a1:brace]", "f.yaml:5: trigger 'a1:brace' is listed twice"),
    ("a1:brace", "f.yaml:5: step 1's triggers must be a list, not the text 'a1:brace'"),
])
def test_scenario_order_step_is_validated(triggers, message):
    """Scenario format: an order step's triggers are SOURCE:ABILITY labels, each once; errors are FILE:LINE."""
    with pytest.raises(ScenarioError) as info:
        loads(ORDER_SCENARIO % triggers, "f.yaml")
    assert str(info.value) == message


def test_scenario_order_step_needs_triggers():
    with pytest.raises(ScenarioError) as info:
        loads(ORDER_SCENARIO.replace(", triggers: %s", ""), "f.yaml")
    assert str(info.value).startswith("f.yaml:5:") and "triggers" in str(info.value)


def test_a_units_two_on_play_abilities_are_ordered_by_its_controller():
    """383.4.a.2, 383.3.d: a unit enters play (337.2) and its two play triggers become pending together while
    the chain resolves; A orders them before they are finalized, then A (the newest item's) gets priority."""
    cards = {"twin": {"type": "unit", "might": 2, "abilities": [
        {"name": "rally", "trigger": "on-play", "effect": [{"buff": {"unit": "self", "might": 1}}]},
        {"name": "scout", "trigger": "on-play", "effect": [{"draw": {"count": 1}}]}]}}
    g = game(hands={"A": ["twin"]}, cards=cards)
    do(g, "A play twin at=base")
    expect(g, state="neutral-closed", priority=None, chain=["rally", "scout"], units={"twin#1": {"might": 2}},
           legal={"A": ["concede", "order twin#1:rally", "order twin#1:scout"],
                  "B": ["concede"]})
    do(g, "A order twin#1:scout twin#1:rally")
    expect(g, chain=["scout", "rally"], priority="A", legal={"A": ["concede", "pass"], "B": ["concede"]})
    do(g, "A pass", "B pass")
    assert resolved(g) == ["rally"]
    expect(g, units={"twin#1": {"might": 3}}, chain=["scout"])
