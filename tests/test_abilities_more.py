"""Abilities, the parts issue 15 left out at first: an activated ability's energy cost (377, 354), a `may`
decided as its entry executes (383.3.a.3), gear entering after the playing item (158.3, 354.3), on-showdown-
start triggers in the combat chain (464.2.e), replaced deaths (808.1.d, R21) and the Beginning Step (315.2.a).
Each test asserts what a judge checks: state, priority, chain, legal actions, units."""
from __future__ import annotations

from simulator.game.actions import legal
from tests.conftest import do, expect, game, illegal, rules_of


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


# -- 464.2.b, then 464.2.c-e: on-showdown-start at a combat's start, before the combat chain ----------------------

BEACON = [{"name": "North", "abilities": [{"name": "beacon", "trigger": "on-showdown-start",
                                           "effect": [{"draw": {"count": 1}}]}]}, "South"]


def test_a_combats_showdown_start_triggers_go_on_the_chain_before_the_combat_chain():
    """464.2.b before 464.2.c-e: the battlefield's start-of-showdown trigger (its controller's, B's, 190.6) is
    pending before the designations, so it is placed before A's on-attack and resolves after it (340.1); the
    controller of the newest item, A, gets priority first (337.4, R17)."""
    g = game(battlefields=BEACON, control={"North": "B"},
             units=[{"id": "a1", "owner": "A", "at": "base", "might": 2,
                     "abilities": [{"name": "charge", "trigger": "on-attack", "effect": []}]},
                    {"id": "b1", "owner": "B", "at": "North", "might": 3}])
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", chain=["beacon", "charge"], priority="A", focus="A",
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    events = [e.event for e in g.trace]
    assert events.index("beacon goes on the chain") < events.index("combat at North: A attacks, B defends")
    assert rules_of(g, "its start-of-showdown abilities trigger before") == "464.2.b, 383.3.d.1"


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


# -- 315.2.a: the Beginning Step ----------------------------------------------------------------------------------

def test_the_beginning_step_is_a_declared_state_where_turn_start_triggers_fire():
    """315.1, 315.2.a, 315.2.b: Awaken -> BeginningStep (trigger_on_turn_start) -> Beginning (the Scoring
    Step, hold_scoring); nothing else places turn-start triggers."""
    from statecharts.phases import PHASES
    assert "BeginningStep" in PHASES.states and "BeginningStep" in PHASES.state_docs
    placing = [t for t in PHASES.transitions if "trigger_on_turn_start" in t.effects]
    assert [(t.source, t.dest) for t in placing] == [("Awaken", "BeginningStep")]
    assert "315.2.a" in placing[0].rules
    scoring = [t for t in PHASES.transitions if "hold_scoring" in t.effects]
    assert [(t.source, t.dest) for t in scoring] == [("BeginningStep", "Beginning")]


def test_a_turn_start_trigger_is_played_out_in_the_beginning_step_after_the_awaken_before_the_hold():
    g = game(control={"South": "B"},
             units=[{"id": "b1", "owner": "B", "at": "South", "might": 2, "exhausted": True,
                     "abilities": [{"name": "withdraw", "trigger": "on-turn-start",
                                    "effect": [{"recall": {"unit": "self"}}]}]}])
    do(g, "A end-turn")
    expect(g, turn="B", phase="BeginningStep", state="neutral-closed", chain=["withdraw"], priority="B",
           units={"b1": {"exhausted": False, "at": "South"}}, score={"B": 0},
           legal={"A": ["concede"], "B": ["concede", "pass"]})
    illegal(g, "B end-turn", "closed", "R14")
    do(g, "B pass", "A pass")
    # recalled: the cleanup took South from B (323.6) before the Scoring Step, so nothing is held
    expect(g, phase="Main", turn="B", chain=[], units={"b1": {"at": "base"}}, controller={"South": None},
           score={"B": 0})


# -- 383.3.a.3: a may decided as its entry executes ---------------------------------------------------------------

GAMBIT = {"gambit": {"type": "spell", "timing": "action",
                     "effect": [{"damage": {"unit": "b1", "amount": 2}},
                                {"move": {"unit": "a1", "to": "North"}, "may": True},
                                {"draw": {"count": 1}}]}}


def gambit_game(**keys):
    setup = dict(control={"North": "A"}, hands={"A": ["gambit"]},
                 units=[{"id": "a1", "owner": "A", "at": "base", "might": 1,
                         "abilities": [{"name": "scout", "trigger": "on-move", "effect": [{"draw": {"count": 1}}]}]},
                        {"id": "b1", "owner": "B", "at": "South", "might": 2}])
    setup.update(keys)
    return game(cards=GAMBIT, **setup)


def test_a_spells_may_is_decided_mid_resolution_with_no_cleanup_and_no_priority(backend):
    """383.3.a.3, 158.3, 321: the spell stops at its may; b1's lethal damage waits for the cleanup; the chain
    machine is in its declared ResolveChoice state; the later entries run after the decision."""
    from simulator.core.model import Resolving
    g = gambit_game(backend=backend)
    do(g, "A play gambit", "A pass", "B pass")
    assert g.state.ms[("chain", None)] == "ResolveChoice"
    assert isinstance(g.state.resolving, Resolving) and g.state.resolving.at == 1
    expect(g, state="neutral-closed", chain=["gambit"], priority=None, focus=None,
           units={"b1": {"zone": "board", "damage": 2}, "a1": {"at": "base"}},
           legal={"A": ["choose no", "choose yes", "concede"], "B": ["concede"]})
    illegal(g, "A pass", "must first decide whether gambit", "383.3.a.3")
    drawn = g.state.drawn.get("A", 0)
    from simulator.game.actions import Action
    g.apply(Action("choose", "A", option="no"), g.state.step + 1)
    # declined: no move (no scout), the draw after it happened, the cleanup killed b1, the chain is empty
    assert g.state.drawn["A"] == drawn + 1 and g.state.resolving is None
    expect(g, state="neutral-open", chain=[], priority="A", units={"a1": {"at": "base"}, "b1": {"zone": "trash"}})


def test_triggers_made_before_the_decision_wait_for_the_item_and_a_yes_runs_the_entry():
    from simulator.game.actions import Action
    g = gambit_game()
    do(g, "A play gambit", "A pass", "B pass")
    g.apply(Action("choose", "A", option="yes"), g.state.step + 1)
    events = [e.event for e in g.trace]
    assert events.index("scout goes on the chain, pending") < events.index("b1 dies (lethal damage)")
    assert events.index("a1 moves to North") < events.index("A draws 1", events.index("a1 moves to North"))
    expect(g, chain=["scout"], priority="A", units={"a1": {"at": "North"}, "b1": {"zone": "trash"}})


def test_the_decider_conceding_counters_the_rest_of_the_item():
    """652.4: the controller of the item waiting for its may leaves: the rest is not carried out."""
    from simulator.game.actions import Action
    g = gambit_game(mode="skirmish", players=["A", "B", "C"], battlefields=["North", "South", "East"])
    do(g, "A play gambit", "A pass", "B pass", "C pass")
    expect(g, chain=["gambit"], priority=None)
    g.apply(Action("concede", "A"), g.state.step + 1)
    assert g.state.resolving is None and g.state.ms[("chain", None)] != "ResolveChoice"
    assert any(e.event == "the rest of gambit is not carried out: its controller left" for e in g.trace)
    expect(g, chain=[], players=["B", "C"])


def test_another_player_conceding_leaves_the_decision_waiting():
    from simulator.game.actions import Action
    g = gambit_game(mode="skirmish", players=["A", "B", "C"], battlefields=["North", "South", "East"])
    do(g, "A play gambit", "A pass", "B pass", "C pass")
    g.apply(Action("concede", "C"), g.state.step + 1)
    expect(g, chain=["gambit"], priority=None, legal={"A": ["choose no", "choose yes", "concede"], "B": ["concede"]})


def test_may_is_accepted_on_any_entry_of_a_spell_and_of_a_triggered_ability():
    from simulator.scenario.loader import loads
    text = ("name: t\nplayers: [A, B]\nbattlefields: [North]\ncards:\n  s: {type: spell, effect: [{draw: {count: 1},"
            " may: true}]}\nunits:\n  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-move, "
            "effect: [{draw: {count: 1}}, {draw: {count: 1}, may: true}]}]}\nsteps: []\n")
    assert loads(text, "f.yaml") is not None


# -- R21, 808.1.d: replaced deaths ------------------------------------------------------------------------------

def test_replaced_death_is_a_declared_hook_of_cleanup_task_3_and_of_a_kill():
    import statecharts
    for leaf, src in (("cleanup", "BoardState"), ("chain", "Resolve")):
        ts = [t for t in statecharts.LEAVES[leaf].transitions if t.trigger == "replaced"]
        assert [(t.source, t.dest, t.effects) for t in ts] == [(src, src, ("replace_death",))]
        assert "R21" in ts[0].rules
    from statecharts.rulings import RULINGS
    assert "808.1.d" in RULINGS["R21"].rules


def test_a_warded_unit_killed_by_a_spell_does_not_die_and_its_on_death_does_not_trigger_the_second_kill_does():
    """R21: B answers A's kill with a ward (a Reaction): the kill is replaced as it executes, b1 stays on the board
    (healed, exhausted, recalled), grudge does not trigger; a second kill, with no ward left, kills it (808.1.d)."""
    cards = {"guard": {"type": "spell", "timing": "reaction", "effect": [{"ward": {"unit": "target"}}]},
             "smite": {"type": "spell", "timing": "action", "effect": [{"kill": {"unit": "target"}}]}}
    g = game(cards=cards, hands={"A": ["smite", "smite"], "B": ["guard"]}, control={"South": "B"},
             units=[{"id": "b1", "owner": "B", "at": "South", "might": 2,
                     "abilities": [{"name": "grudge", "trigger": "on-death", "effect": [{"draw": {"count": 1}}]}]}])
    do(g, "A play smite unit=b1", "A pass", "B play guard unit=b1", "B pass", "A pass")
    expect(g, chain=["smite"], priority="A", units={"b1": {"ward": True, "zone": "board"}})
    do(g, "A pass", "B pass")        # smite resolves: the kill is replaced (R21)
    expect(g, chain=[], state="neutral-open", priority="A",
           units={"b1": {"zone": "board", "at": "base", "exhausted": True, "damage": 0}})
    assert g.state.units["b1"].ward is False                # used up
    assert not any("grudge goes on the chain" in e.event for e in g.trace)
    assert any(e.event == "b1 does not die, so its grudge does not trigger" and "R21" in e.rule for e in g.trace)
    do(g, "A play smite unit=b1", "A pass", "B pass")    # no ward left: it dies, grudge triggers (808.1.d)
    expect(g, chain=["grudge"], units={"b1": {"zone": "trash"}})
