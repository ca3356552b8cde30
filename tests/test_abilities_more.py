"""Abilities, the parts issue 15 left out at first: an activated ability's energy cost (377, 354), a `may`
decided as its entry executes (383.3.a.3), gear entering after the playing item (158.3, 354.3), on-showdown-
start triggers in the combat chain (464.2.e), replaced deaths (808.1.d, R21) and the Beginning Step (315.2.a).
Each test asserts what a judge checks: state, priority, chain, legal actions, units."""
from __future__ import annotations

from simulator.game.actions import legal
from tests.conftest import do, expect, game, illegal


# -- 377, 354: an activated ability's cost ---------------------------------------------------------------------

def brace(cost: int, **extra) -> dict:
    return {"id": "b1", "owner": "B", "at": "base", "might": 2,
            "abilities": [{"name": "brace", "activated": True, "speed": "reaction", "cost": cost,
                           "effect": [{"buff": {"unit": "self", "might": 2}}]}], **extra}


def test_an_unaffordable_activated_ability_is_refused_with_its_cost_and_changes_nothing():
    """377, 354: 2 energy against an empty pool and 1 ready rune: refused in one line naming the cost; the
    position, the trace and the legal actions are as before (conftest.illegal compares them)."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2}, brace(2)],
             resources={"A": {"runes": 2}, "B": {"runes": 1}}, hands={"A": ["Rune Prison"]})
    do(g, "A play 'Rune Prison' unit=b1", "A pass")
    expect(g, state="neutral-closed", priority="B", chain=["Rune Prison"], legal={"B": ["concede", "pass"]})
    e = illegal(g, "B activate b1 brace", "b1's brace costs 2 energy; B has 0 in the pool and 1 ready runes", "354")
    assert "\n" not in str(e)
    expect(g, state="neutral-closed", priority="B", chain=["Rune Prison"], energy={"A": 0, "B": 0},
           runes={"A": 0, "B": 1})


def test_an_affordable_cost_is_paid_from_the_pool_then_the_runes_as_it_is_activated():
    g = game(units=[brace(2)], resources={"A": {"runes": 0}, "B": {"runes": 2, "energy": 1}},
             hands={"A": ["action-spell"]})
    do(g, "A play action-spell", "A pass")
    assert "activate b1 brace" in [a.summary() for a in legal(g.state, "B")]
    do(g, "B activate b1 brace")
    expect(g, chain=["action-spell", "brace"], priority="B", energy={"A": 0, "B": 0}, runes={"A": 0, "B": 1})


def test_without_resources_an_activated_ability_costs_nothing():
    """Costs exist only in a file with resources: (as for cards)."""
    g = game(units=[brace(5)], hands={"A": ["action-spell"]})
    do(g, "A play action-spell", "A pass", "B activate b1 brace")
    expect(g, chain=["action-spell", "brace"], priority="B")


# -- 158.3, 354.3, 359.2: gear played by an instruction ----------------------------------------------------------

BANNER = {"war-banner": {"type": "gear", "abilities": [{"name": "rally", "trigger": "on-play",
                                                         "effect": [{"draw": {"count": 1}}]}]},
          "armory-call": {"type": "spell", "timing": "action",
                          "effect": [{"play": {"card": "war-banner"}}, {"exhaust": {"unit": "war-banner#1"}},
                                     {"draw": {"count": 1}}]}}


def test_gear_played_by_a_spell_enters_after_the_spell_ready_in_base_then_its_play_trigger():
    g = game(cards=BANNER, hands={"A": ["armory-call"]})
    do(g, "A play armory-call", "A pass", "B pass")
    events = [e.event for e in g.trace]
    played = events.index("A plays the gear war-banner#1: it enters its base once armory-call has finished resolving")
    drew = events.index("A draws 1", played)
    entered = events.index("A's gear war-banner#1 enters play in base: armory-call has finished resolving")
    assert played < drew < entered                      # the spell's later instructions ran first (158.3)
    assert "exhaust: war-banner#1 is not on the board (yet); nothing happens" in events[played:entered]
    gear = g.state.units["war-banner#1"]
    assert (gear.kind, gear.at, gear.exhausted, gear.zone) == ("gear", "base", False, "board")   # ready (359.2)
    expect(g, state="neutral-closed", chain=["rally"], priority="A")          # its own chain item (383.4.a.2)
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], priority="A")


# -- 464.2.a, 464.2.e: on-showdown-start in the combat chain ------------------------------------------------------

BEACON = [{"name": "North", "abilities": [{"name": "beacon", "trigger": "on-showdown-start",
                                           "effect": [{"draw": {"count": 1}}]}]}, "South"]


def test_a_combats_showdown_start_triggers_are_placed_in_the_combat_chain_order():
    """464.2.e: the attacker's items first, then the defender's; the battlefield's is its controller's (190.6),
    here the defender's, so it is placed after the attacker's on-attack and resolves before it."""
    g = game(battlefields=BEACON, control={"North": "B"},
             units=[{"id": "a1", "owner": "A", "at": "base", "might": 2,
                     "abilities": [{"name": "charge", "trigger": "on-attack", "effect": []}]},
                    {"id": "b1", "owner": "B", "at": "North", "might": 3}])
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", chain=["charge", "beacon"], priority="B", focus="A",
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    events = [e.event for e in g.trace]
    assert events.index("combat at North: A attacks, B defends") < events.index("beacon goes on the chain")


def test_a_non_combat_showdown_places_its_own_and_a_conversion_does_not_trigger_them_again():
    """344: a non-combat showdown's start triggers it (its own chain, the turn player handles the uncontrolled
    battlefield's, 190.6); when it becomes a combat (323.14) no showdown begins, so only the combat chain's
    on-attack/on-defend triggers are placed."""
    g = game(battlefields=BEACON, hands={"B": ["move-spell"]},
             units=[{"id": "a1", "owner": "A", "at": "base", "might": 2,
                     "abilities": [{"name": "charge", "trigger": "on-attack", "effect": []}]},
                    {"id": "b1", "owner": "B", "at": "base", "might": 1}])
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", chain=["beacon"], priority="A", active={"kind": "showdown", "at": "North"})
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", chain=[], focus="A")
    do(g, "A pass")
    expect(g, focus="B", priority="B")
    do(g, "B play move-spell unit=b1 to=North", "B pass", "A pass")
    expect(g, active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"}, chain=["charge"])
    assert sum(e.event == "beacon goes on the chain" for e in g.trace) == 1
