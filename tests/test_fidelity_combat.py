"""Rules fidelity in combat (issue 28), each pinned on both backends.

1. The Combat Resolution Step waits for the chain (466.1-466.7): what the Combat Cleanup makes pending is
   finalized and resolved before the result (466.2); the chain is resolved again before control (466.4) and
   before the combat ends (466.6).
2. Start-of-showdown abilities at a combat's opening trigger before the designations (464.2.b, then 464.2.c-e):
   placed on the chain before the attack and defend triggers, so they resolve after them, and never ordered
   together with them.

Each test checks what a judge checks: the chain and who has priority, Contested, control, score, the units,
legal actions, and the trace line citing the rule."""
from conftest import do, expect, game, illegal, lines, rules_of

from mp_helpers import trig, unit
from statecharts.states import CombatStep

SNUFF = {"snuff": {"type": "spell", "timing": "reaction", "effect": [{"kill": {"unit": "target"}}]}}


def _deathknell(*effects: dict) -> dict:
    return unit("b1", "B", "North", 2, keywords=[{"deathknell": list(effects)}])


def _combat(backend: str, *effects: dict, **keys):
    """A's a1 (3) attacks North, held by B's b1 (2) with that Deathknell; both pass focus: b1 dies, a1 survives."""
    g = game(units=[unit("a1", "A", "base", 3), _deathknell(*effects)], control={"North": "B"}, backend=backend,
             **keys)
    do(g, "A move a1 North", "A pass", "B pass")
    return g


# -- 466.2: the result waits for what the Combat Cleanup made pending --------------------------------------------

def test_the_deathknell_waits_on_the_chain_before_any_result_and_players_get_priority(backend):
    """466.1, 466.2, 337.4, R17: after the Combat Cleanup the Deathknell is pending and then finalized; the
    result is not determined yet: B still controls North, North is still Contested, nobody has scored; the
    state is Closed and B, the controller of the newest item, has priority; nobody has focus (313.5)."""
    g = _combat(backend, {"draw": {"count": 1}})
    expect(g, state="showdown-closed", chain=["deathknell"], priority="B", focus=None,
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"},
           units={"b1": {"zone": "trash"}, "a1": {"zone": "board", "at": "North", "damage": 0}},
           controller={"North": "B"}, contested=["North"], score={"A": 0, "B": 0},
           legal={"A": ["concede"], "B": ["concede", "pass"]})
    assert g.state.ms[("combat", None)] == CombatStep.ResolutionStep
    assert not any("wins" in e or "no result" in e for e in lines(g))
    illegal(g, "A pass", "priority")


def test_a_deathknell_that_kills_the_surviving_attacker_lets_the_defender_keep_control(backend):
    """466.2, 466.3, 466.5: the Deathknell kills a1 and plays B's unit at North before the result: B is the only
    designated player with units there and wins; B already controls North, so no Conquer; Contested is
    cleared (466.5.a); the combat ends (466.7). Before the fix A conquered North with a unit that then died."""
    g = _combat(backend, {"kill": {"unit": "a1"}}, {"play-unit": {"might": 1, "at": "here"}})
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", chain=[], active=None, priority="A", controller={"North": "B"}, contested=[],
           staged={}, score={"A": 0, "B": 0},
           units={"a1": {"zone": "trash"}, "token#1": {"zone": "board", "at": "North", "controller": "B"}})
    ev = lines(g)
    assert ev.index("deathknell resolves") < ev.index("combat at North: B wins, A loses") \
        < ev.index("the combat at North ends")
    assert rules_of(g, "the result of the combat at North is determined") == "466.2, 466.3"
    assert rules_of(g, "the combat at North ends") == "466.6, 466.7"
    assert not any("conquers" in e for e in ev)


def test_a_deathknell_that_leaves_nobody_there_makes_no_result_and_the_battlefield_uncontrolled(backend):
    """466.3.d, 466.5.b: the Deathknell kills the only unit left: neither player has units there, No Result,
    and North becomes uncontrolled; nobody conquers (before: A conquered it and scored)."""
    g = _combat(backend, {"kill": {"unit": "a1"}})
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, controller={"North": None}, contested=[], staged={},
           score={"A": 0, "B": 0}, units={"a1": {"zone": "trash"}})
    assert rules_of(g, "combat at North: no result") == "466.3.d"


def test_a_deathknell_that_brings_a_defender_makes_no_result_and_a_new_combat_with_the_same_attacker(backend):
    """466.3.d.1, R8, 466.5, 466.7: both players have units there when the result is determined: No Result, a
    showdown and a combat are staged again, control is not established and North stays Contested; the combat
    ends and the new combat opens with A attacking again (Contested was never cleared)."""
    g = _combat(backend, {"play-unit": {"might": 1, "at": "here"}})
    do(g, "B pass", "A pass")
    expect(g, state="showdown-open", chain=[], focus="A", priority="A", controller={"North": "B"},
           contested=["North"], staged={}, score={"A": 0, "B": 0},
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"},
           units={"a1": {"designation": "attacker"}, "token#1": {"designation": "defender"}})
    assert rules_of(g, "a showdown and a combat are staged there again") == "466.3.d, 466.3.d.1, R8"
    assert rules_of(g, "control is not established") == "466.4, 466.5"
    ev = lines(g)
    assert ev.index("combat at North: no result") < ev.index("the combat at North ends") \
        < ev.index("a combat begins at North", ev.index("the combat at North ends"))
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A"}, contested=[], score={"A": 1})


def test_a_reaction_played_while_the_deathknell_waits_resolves_before_the_result(backend):
    """466.2, 309.1.a, 340: while the Combat Cleanup's Deathknell waits, B may answer with a Reaction (the state
    is Closed); it resolves first and kills a1, so when the chain is empty nobody has units there: No Result and
    North uncontrolled (466.3.d, 466.5.b)."""
    g = _combat(backend, {"draw": {"count": 1}}, cards=SNUFF, hands={"B": ["snuff"]})
    expect(g, chain=["deathknell"], priority="B", legal={"B": ["concede", "pass", "play snuff"]})
    do(g, "B play snuff unit=a1", "B pass", "A pass")
    expect(g, chain=["deathknell"], units={"a1": {"zone": "trash"}}, controller={"North": "B"},
           contested=["North"])
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, controller={"North": None}, score={"A": 0, "B": 0})


# -- 464.2.b: start-of-showdown triggers before the designations ---------------------------------------------------

BEACON = [{"name": "North", "abilities": [trig("beacon", "on-showdown-start", {"draw": {"count": 1}})]}, "South"]


def test_start_of_showdown_triggers_go_under_the_combat_chain_and_are_not_ordered_with_defend_triggers(backend):
    """464.2.b, 464.2.e, 383.3.d: B's beacon (B controls North, 190.6) triggers as the combat's showdown begins,
    before the designations; B's brace triggers on the designations. Two events: B orders nothing, beacon sits
    under A's charge and B's brace and resolves last (340.1); B, controller of the newest item, has priority
    first (337.4, R17)."""
    g = game(battlefields=BEACON, control={"North": "B"}, backend=backend,
             units=[unit("a1", "A", "base", 2, abilities=[trig("charge", "on-attack", {"buff": {"unit": "self",
                                                                                                "might": 1}})]),
                    unit("b1", "B", "North", 3, abilities=[trig("brace", "on-defend", {"buff": {"unit": "self",
                                                                                                "might": 1}})])])
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", chain=["beacon", "charge", "brace"], priority="B", focus="A",
           legal={"A": ["concede"], "B": ["concede", "pass"]})
    assert rules_of(g, "its start-of-showdown abilities trigger before attacker and defender") == "464.2.b, 383.3.d.1"
    do(g, "B pass", "A pass", "A pass", "B pass")
    expect(g, chain=["beacon"], priority="B", units={"a1": {"might": 3}, "b1": {"might": 4}})
    do(g, "B pass", "A pass")
    expect(g, state="showdown-open", chain=[], focus="A", priority="A")


def test_one_players_start_of_showdown_triggers_are_ordered_among_themselves_only(backend):
    """383.3.d, 464.2.b: A's two start-of-showdown triggers are one event and A orders them; A's on-attack is
    another event, placed after them without a choice."""
    abilities = [trig("war-cry", "on-showdown-start", {"draw": {"count": 1}}),
                 trig("rally", "on-showdown-start", {"draw": {"count": 1}}),
                 trig("charge", "on-attack", {"buff": {"unit": "self", "might": 1}})]
    g = game(control={"North": "B"}, backend=backend,
             units=[unit("a1", "A", "base", 2, abilities=abilities), unit("b1", "B", "North", 3)])
    do(g, "A move a1 North")
    expect(g, chain=["war-cry", "rally", "charge"], priority=None,
           legal={"A": ["concede", "order a1:rally", "order a1:war-cry"], "B": ["concede"]})
    do(g, "A order a1:rally")
    expect(g, chain=["rally", "war-cry", "charge"], priority="A", focus="A")


def test_start_of_showdown_triggers_alone_give_priority_to_the_newest_ones_controller(backend):
    """383.3.d.1, 337.4, R17: with no attack or defend trigger, the turn player's war-cry goes first and B's
    beacon on top: B gets priority first."""
    g = game(battlefields=BEACON, control={"North": "B"}, backend=backend,
             units=[unit("a1", "A", "base", 2, abilities=[trig("war-cry", "on-showdown-start", {"draw": {}})]),
                    unit("b1", "B", "North", 3)])
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", chain=["war-cry", "beacon"], priority="B", focus="A")
