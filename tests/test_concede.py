"""Conceding (seed 003; CR 649-652, 195.1; rulings R9, R10, R15): banish, replace the battlefield, remove the
cards, counter the chain items, then hand the turn, focus and priority on - in every timing state - so that
nothing ever waits on a player who left."""
import random

from conftest import do, expect, illegal, lines, rules_of

from mp_helpers import assert_no_stale_holder, game, magma, skirmish, trig, unit, war
from simulator.game.actions import legal
from simulator.game.engine import Game, step

EAST_OF_C = {"name": "East", "provider": "C", "abilities": [{"name": "bastion", "static": {"might": 1}}]}
CONTROL = {"North": "C", "South": "B", "East": "D"}


# -- seed 003's three-player example and the removal steps (652.1-652.4) -------------------------------------

def _seed003(rulings=None, backend="compiled", **keys):
    """Skirmish. C contributed East (+1 might to units there); A's unit a1 (might 2) is at East, which A controls."""
    return skirmish(battlefields=["North", "South", EAST_OF_C], control={"South": "B", "East": "A"},
                    rulings=rulings, backend=backend, units=[unit("a1", "A", "East", 2), unit("b1", "B", "South"),
                                                            unit("c1", "C", "base", 3)], **keys)


def test_seed003_conceders_battlefield_is_replaced_and_the_other_unit_loses_its_bonus(backend):
    """Seed 003 'Exemple': C concedes in a three-player game; East, still in use, becomes a token battlefield with no
    abilities (652.2); A's unit stays there but loses the +1 of East's text; R9 default: the token inherits A's
    control. The game goes on with A and B (651: free-for-all with two left), A still holding the turn."""
    g = _seed003(backend=backend)
    expect(g, units={"a1": {"at": "East", "might": 3}}, controller={"East": "A"})
    do(g, "C concede")
    expect(g, players=["A", "B"], winner=None, turn="A", priority="A", focus=None, state="neutral-open",
           controller={"East": "A"}, contested=[],
           units={"a1": {"at": "East", "might": 2, "zone": "board"}, "c1": {"zone": "removed"}},
           legal={"A": ["concede", "end-turn", "move a1 base"], "B": ["concede"], "C": []})
    assert [n for n, b in g.state.bfs.items() if b.token] == ["East"] and g.state.bfs["East"].abilities == ()
    assert "652.2" in rules_of(g, "East is replaced by a token battlefield")
    assert_no_stale_holder(g)


def test_seed003_r9_reset_makes_the_token_battlefield_uncontrolled(backend):
    """R9=reset: the token battlefield is uncontrolled and uncontested; A's unit still stays there, unboosted."""
    g = _seed003({"R9": "reset"}, backend)
    do(g, "C concede")
    expect(g, controller={"East": None}, contested=[], staged={}, units={"a1": {"at": "East", "might": 2}},
           players=["A", "B"], turn="A", priority="A")
    assert_no_stale_holder(g)


def _two_staged(rulings=None, backend="compiled"):
    """War, A's turn: A's 'split' sends a1 to North and a2 to East (C's battlefield): two showdowns are staged and
    A must choose (323.12) when C concedes."""
    split = {"split": {"type": "spell", "effect": [{"move": {"unit": "a1", "to": "North"}},
                                                   {"move": {"unit": "a2", "to": "East"}}]}}
    g = war(battlefields=["North", "South", EAST_OF_C], control={"South": "B"}, cards=split, rulings=rulings,
            backend=backend, hands={"A": ["split"]},
            units=[unit("a1", "A", "base", 2), unit("a2", "A", "base", 1), unit("b1", "B", "South")])
    do(g, "A play split", "A pass", "B pass", "C pass", "D pass")
    expect(g, staged={"North": ["showdown"], "East": ["showdown"]}, priority=None,
           legal={"A": ["choose East", "choose North", "concede"]})
    return g


def test_r9_default_the_token_keeps_contested_and_its_staged_showdown(backend):
    """R9 default (Replace inherits statuses, 438): C concedes; East is still Contested by A with its showdown
    staged; A still chooses between North and East."""
    g = _two_staged(backend=backend)
    do(g, "C concede")
    expect(g, staged={"North": ["showdown"], "East": ["showdown"]}, contested=["North", "East"], priority=None,
           players=["A", "B", "D"], legal={"A": ["choose East", "choose North", "concede"], "B": ["concede"]})
    assert_no_stale_holder(g)


def test_r9_reset_the_token_is_uncontested_so_the_remaining_showdown_opens(backend):
    """R9=reset: East loses Contested and its staged showdown; North is the only candidate left and opens at once
    (323.12): A gains focus."""
    g = _two_staged({"R9": "reset"}, backend)
    do(g, "C concede")
    expect(g, staged={}, contested=["North"], active={"kind": "showdown", "at": "North"}, focus="A", priority="A",
           units={"a2": {"at": "East", "zone": "board"}})
    assert_no_stale_holder(g)


def test_banish_what_they_own_or_control_then_remove_their_cards(backend):
    """652.1, 652.3 (seed 003 step 1): C's cards controlled by someone else (c9, controlled by A) and another
    player's card C controls (b9, B's) are banished; C's own cards then leave the game; B's card stays banished."""
    g = skirmish(battlefields=["North", "South", EAST_OF_C], control={"South": "B"}, backend=backend,
                 hands={"C": ["en-garde"]},
                 units=[unit("b1", "B", "South"), unit("c1", "C", "base", 3),
                        unit("c9", "C", "base", 1, controller="A"), unit("b9", "B", "base", 1, controller="C")])
    do(g, "C concede")
    expect(g, units={"c1": {"zone": "removed"}, "c9": {"zone": "removed"}, "b9": {"zone": "banished"},
                     "b1": {"zone": "board"}})
    assert g.state.hands["C"] == []
    assert lines(g)[:4] == ["C concedes", "c1 is banished", "c9 is banished", "b9 is banished"]
    assert_no_stale_holder(g)


# -- every timing state (652.4-652.5) ---------------------------------------------------------------------

def _showdown_war(backend="compiled", **keys):
    """War: A moved to uncontrolled North; a non-combat showdown, A holds focus."""
    g = war(control={"South": "B", "East": "D"}, backend=backend,
            units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("c1", "C", "base"),
                   unit("d1", "D", "East")], **keys)
    do(g, "A move a1 North")
    return g


def test_concede_while_holding_focus_hands_it_to_the_next_player(backend):
    """652.5: B holds focus and concedes -> C, the next player still in the game, gains focus and priority; the
    showdown goes on and now needs C, D and A to pass."""
    g = _showdown_war(backend)
    do(g, "A pass")
    expect(g, focus="B", priority="B")
    do(g, "B concede")
    expect(g, state="showdown-open", focus="C", priority="C", players=["A", "C", "D"],
           active={"kind": "showdown", "at": "North"},
           legal={"A": ["concede"], "B": [], "C": ["concede", "pass"], "D": ["concede"]})
    assert_no_stale_holder(g)
    do(g, "C pass", "D pass")
    expect(g, state="neutral-open", controller={"North": "A"}, score={"A": 1})


def test_concede_with_the_last_focus_pass_missing_ends_the_showdown(backend):
    """Seed 003 step 4: A, B and C passed focus, D holds it and concedes: everyone left has now passed, so the
    showdown ends (348.2): A establishes control and conquers North."""
    g = _showdown_war(backend)
    do(g, "A pass", "B pass", "C pass")
    do(g, "D concede")
    expect(g, state="neutral-open", active=None, focus=None, priority="A", controller={"North": "A"},
           score={"A": 1}, players=["A", "B", "C"])
    assert "652.5" in rules_of(g, "everyone left has passed focus")
    assert_no_stale_holder(g)


def test_concede_holding_priority_mid_chain_counters_their_item_and_passes_priority(backend):
    """652.4-652.5 (seed 004's chain): C added a Reaction over A's spell and holds priority; C concedes -> the
    Reaction is countered, priority goes to D; A's spell resolves once D, A and B have passed."""
    g = war(control=CONTROL, hands={"A": ["normal-spell"], "C": ["reaction-spell"]}, backend=backend)
    do(g, "A play normal-spell", "A pass", "B pass", "C play reaction-spell")
    do(g, "C concede")
    expect(g, state="neutral-closed", chain=["normal-spell"], priority="D", players=["A", "B", "D"],
           legal={"A": ["concede"], "B": ["concede"], "C": [], "D": ["concede", "pass"]})
    assert "652.4" in rules_of(g, "reaction-spell is countered: its controller left")
    assert_no_stale_holder(g)
    do(g, "D pass", "A pass")
    expect(g, chain=["normal-spell"], priority="B")
    do(g, "B pass")
    expect(g, state="neutral-open", chain=[], priority="A")


def test_concede_holding_priority_on_someone_elses_item(backend):
    """652.5: B holds priority on A's spell (A passed) and concedes; C gets priority; C and D passing completes the
    round of the players left (A had passed): the spell resolves."""
    g = war(control=CONTROL, hands={"A": ["normal-spell"]}, backend=backend)
    do(g, "A play normal-spell", "A pass", "B concede")
    expect(g, chain=["normal-spell"], priority="C")
    assert_no_stale_holder(g)
    do(g, "C pass", "D pass")
    expect(g, state="neutral-open", chain=[], priority="A")


def test_concede_with_the_last_priority_pass_missing_resolves_the_newest_item(backend):
    """Seed 003 step 4: A, B and C passed; D, holding priority, concedes -> everyone left has passed: the newest
    item resolves and priority is set up as usual (A, Neutral Open)."""
    g = war(control=CONTROL, hands={"A": ["normal-spell"]}, units=[unit("d1", "D", "East")], backend=backend)
    do(g, "A play normal-spell", "A pass", "B pass", "C pass", "D concede")
    expect(g, state="neutral-open", chain=[], priority="A", players=["A", "B", "C"])
    assert "652.5" in rules_of(g, "everyone left has passed")
    assert "normal-spell resolves" in lines(g)
    assert_no_stale_holder(g)


def test_concede_as_turn_player_starts_the_next_players_turn_and_drops_extra_turns(backend):
    """R10 (652.5): A concedes on A's turn, with an extra turn queued for A: B's turn starts from its Start of Turn
    (B holds South in the Beginning phase, 315.2.b) into the Main Phase with B holding priority; A's extra turn is
    dropped, so after B comes C."""
    cards = {"time-warp": {"type": "spell", "effect": [{"extra-turn": {}}]}}
    g = war(control=CONTROL, cards=cards, hands={"A": ["time-warp"]}, backend=backend,
            units=[unit("b1", "B", "South"), unit("c1", "C", "North"), unit("d1", "D", "East")])
    do(g, "A play time-warp", "A pass", "B pass", "C pass", "D pass")
    assert g.state.extra == ["A"]
    do(g, "A concede")
    expect(g, turn="B", priority="B", state="neutral-open", phase="Main", score={"B": 1}, players=["B", "C", "D"],
           legal={"A": [], "B": ["concede", "end-turn", "move b1 base"], "C": ["concede"], "D": ["concede"]})
    assert g.state.extra == []
    assert "R10" in rules_of(g, "turn of B begins")
    assert_no_stale_holder(g)
    do(g, "B end-turn")
    expect(g, turn="C")


def _combat_war(backend="compiled"):
    """War: A attacks C at North; A's and C's triggers on the combat chain."""
    g = war(control=CONTROL, backend=backend, units=[
        unit("a1", "A", "base", 2, abilities=[trig("a-attacks", "on-attack")]), unit("b1", "B", "South"),
        unit("c1", "C", "North", 3, abilities=[trig("c-defends", "on-defend")]), unit("d1", "D", "East")])
    do(g, "A move a1 North")
    expect(g, chain=["a-attacks", "c-defends"], focus="A", priority="C")
    return g


def test_attacker_and_turn_player_concedes_mid_combat_the_combat_ends_with_the_side_left(backend):
    """R15, R10: A (turn player, attacker, focus holder) concedes while the combat chain waits: A's trigger is
    countered, focus moves to B; the combat proceeds without A's units (no damage step) and C wins, keeping North;
    only then does B's turn start (B holds South)."""
    g = _combat_war(backend)
    do(g, "A concede")
    expect(g, state="showdown-closed", chain=["c-defends"], focus="B", priority="C", turn="B",
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "C"}, units={"a1": {"zone": "removed"}})
    assert_no_stale_holder(g)
    do(g, "C pass", "D pass", "B pass")
    expect(g, state="showdown-open", chain=[], focus="B", priority="B")        # 346.1: trigger chain keeps focus
    do(g, "B pass", "C pass", "D pass")
    expect(g, state="neutral-open", active=None, controller={"North": "C"}, turn="B", priority="B", phase="Main",
           score={"B": 1, "C": 0})
    assert "combat at North: C wins, A loses" in lines(g)
    assert lines(g).index("combat at North: C wins, A loses") < lines(g).index("turn of B begins: Awaken (the turn player left, R10)")


def test_defender_concedes_mid_combat_the_attacker_conquers(backend):
    """R15: C (defender) concedes while priority is C's on the combat chain: C's trigger is countered, priority goes
    to D; once the chain and the showdown step are done A is the only side left: A wins and conquers North."""
    g = _combat_war(backend)
    do(g, "C concede")
    expect(g, chain=["a-attacks"], priority="D", focus="A", players=["A", "B", "D"])
    assert_no_stale_holder(g)
    do(g, "D pass", "A pass", "B pass")                      # a-attacks resolves; focus stays with A (346.1)
    do(g, "A pass", "B pass", "D pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A"}, score={"A": 1})


def test_a_staged_combat_that_loses_a_side_is_dropped(backend):
    """R15 (323.10): A attacks C at North while A's charge stages a combat against B at South; B concedes: the combat
    at South is no longer staged (only A's showdown stays staged there)."""
    charge = {"charge": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "a2", "to": "South"}}]}}
    g = war(control=CONTROL, cards=charge, hands={"A": ["charge"]}, backend=backend,
            units=[unit("a1", "A", "base", 2), unit("a2", "A", "base", 1), unit("b2", "B", "South"),
                   unit("c1", "C", "North", 3), unit("d2", "D", "East")])
    do(g, "A move a1 North", "A play charge", "A pass", "B pass", "C pass", "D pass")
    expect(g, staged={"South": ["showdown", "combat"]}, focus="B")
    do(g, "B concede")
    expect(g, staged={"South": ["showdown"]}, focus="C", priority="C",
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "C"})
    assert_no_stale_holder(g)


def test_the_contester_of_a_staged_showdown_concedes(backend):
    """323.8 after 652.1: B's move-spell contested West during A's showdown (staged, waiting); B concedes: B's unit
    is banished, the staged showdown at West is gone and West is no longer Contested."""
    g = war(battlefields=["North", "South", "East", "West"], control={"South": "B", "East": "D"}, backend=backend,
            hands={"B": ["move-spell"]},
            units=[unit("a1", "A", "base", 2), unit("b1", "B", "base"), unit("b2", "B", "South"),
                   unit("d1", "D", "East")])
    do(g, "A move a1 North", "A pass", "B play move-spell unit=b1 to=West", "B pass", "C pass", "D pass", "A pass")
    expect(g, staged={"West": ["showdown"]}, contested=["North", "West"], focus="C")
    do(g, "B concede")
    expect(g, staged={}, contested=["North"], focus="C", priority="C", active={"kind": "showdown", "at": "North"})
    assert_no_stale_holder(g)


def test_turn_player_concedes_while_a_choice_of_battlefield_is_pending(backend):
    """323.12 + R10: A must choose between two staged showdowns and concedes instead: A's units are banished,
    both showdowns unstaged, and B's turn starts - nobody is left waiting on A's choice."""
    g = _two_staged(backend=backend)
    do(g, "A concede")
    expect(g, staged={}, contested=[], turn="B", priority="B", state="neutral-open", players=["B", "C", "D"],
           legal={"A": [], "B": ["concede", "end-turn", "move b1 base"]})
    assert_no_stale_holder(g)


# -- who wins ----------------------------------------------------------------------------------------------

def test_duel_concede_the_other_player_wins_even_mid_chain(backend):
    """651.1: in a two-player game the one left wins at once; nobody has priority or any action left."""
    g = game({"players": ["A", "B"], "battlefields": ["North", "South"]}, hands={"A": ["normal-spell"]},
             control={"North": "A", "South": "B"}, units=[unit("a1", "A", "North"), unit("b1", "B", "South")],
             backend=backend)
    do(g, "A play normal-spell", "A pass", "B concede")
    expect(g, winner="A", players=["A"], priority=None, focus=None, legal={"A": [], "B": []})
    assert "651.1" in rules_of(g, "A wins")
    assert g.is_terminal()
    illegal(g, "A end-turn", "game is over")


def test_free_for_all_goes_on_while_two_remain_then_the_last_one_wins(backend):
    """651, 651.1: in War the game goes on with three, then two players; when only A is left, A wins."""
    g = war(control=CONTROL, backend=backend, units=[unit("b1", "B", "South"), unit("c1", "C", "North"),
                                                     unit("d1", "D", "East")])
    do(g, "D concede")
    expect(g, players=["A", "B", "C"], winner=None, turn="A", priority="A")
    do(g, "C concede")
    expect(g, players=["A", "B"], winner=None, turn="A", priority="A")
    assert_no_stale_holder(g)
    do(g, "B concede")
    expect(g, players=["A"], winner="A", priority=None)


def test_a_player_who_left_makes_no_more_choices(backend):
    """651: a removed player's actions are refused, even conceding again, and the position is unchanged."""
    g = war(control=CONTROL, backend=backend)
    do(g, "B concede")
    illegal(g, "B concede", "has left the game", rule="651")
    illegal(g, "B end-turn", "has left the game")


def test_magma_chamber_concede_during_a_showdown_ends_the_game_for_both_teams(backend):
    """651.4: B concedes in a 2v2 while holding focus; D leaves with B, A and C win together and nothing waits."""
    g = magma(control={"South": "B", "East": "D"}, backend=backend,
              units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("d1", "D", "East")])
    do(g, "A move a1 North", "A pass")
    expect(g, focus="B")
    do(g, "B concede")
    expect(g, winner=["A", "C"], players=["A", "C"], focus=None, priority=None)


# -- no stall after any concede (bounded random play, deterministic seeds) ---------------------------------

def _positions():
    hands = {p: ["action-spell", "reaction-spell", "move-spell", "action-unit-1"] for p in "ABCD"}
    units = [unit("a1", "A", "base", 2, abilities=[trig("atk", "on-attack")]), unit("a2", "A", "base", 1),
             unit("b1", "B", "South", 2, abilities=[trig("def", "on-defend")]),
             unit("c1", "C", "East", 1, abilities=[trig("any", "on-any-attack")]),
             unit("d1", "D", "base", 2, abilities=[trig("any", "on-any-attack")])]
    ctl = {"South": "B", "East": "C"}
    yield war(control=ctl, hands=hands, units=units)
    yield magma(control=ctl, hands=hands, units=units)
    yield skirmish(control=ctl, hands={p: hands[p] for p in "ABC"}, units=units[:4])


def test_random_play_with_concedes_never_leaves_a_stale_holder_or_a_stall():
    """652.5 as an invariant: from 3-, 4-player and 2v2 positions, 40 deterministic random games of up to 30
    actions each (concede among them); after every concede nobody who left holds focus, priority or the turn, and
    somebody still in the game can act; no action ever raises a rules-model error."""
    concedes = 0
    for g0 in _positions():
        for seed in range(40):
            rng, s = random.Random(seed), g0.state
            for k in range(30):
                if s.winner is not None:
                    break
                acts = [a for p in s.in_game() for a in legal(s, p, moves="single")]
                others = [a for a in acts if a.kind != "concede"]
                assert others, f"stalled: only concede is possible ({s.cfg.mode}, seed {seed})"
                a = rng.choice(acts if rng.random() < 0.1 else others)
                s = step(s, a, k + 1)
                if a.kind == "concede":
                    concedes += 1
                    assert_no_stale_holder(Game(s))
    assert concedes > 50


def test_exhaustive_exploration_of_the_multiplayer_positions_holds_every_invariant():
    """652.5 and the verification invariants (no deadlock, exactly one player can act, nobody who left holds
    priority, focus or the turn) over every state reachable within the bounds of the default positions'
    multiplayer.yaml 2v2, R2=defender-last and seed 003 (R9=reset) positions, concede explored; each search is complete."""
    from simulator.verify.explore import explore
    from simulator.verify.command import VERIFY_DIR, load_positions

    path = VERIFY_DIR / "multiplayer.yaml"
    positions, _ = load_positions(str(path))
    small = [p for p in positions if p.name in ("magma-chamber-teams-invite-concede",
                                                 "war-combat-R2-defender-last-concede",
                                                 "skirmish-seed003-replaced-battlefield-R9-reset")]
    assert len(small) == 3 and all(p.concede for p in small)
    for pos in small:
        res = explore(pos)
        assert res.complete and res.violations == [], (pos.name, [v.message for v in res.violations][:3])
        assert res.states > 1000 and res.terminal > 0, (pos.name, res.states)


def test_turn_player_concedes_mid_chain_the_chain_finishes_then_the_next_turn_starts(backend):
    """652.4, R10: A's spell is countered when A concedes; B's Reaction on the chain still resolves after B, C and D
    pass; only then, with nothing ongoing, B's turn starts from its Start of Turn (B holds South)."""
    g = war(control=CONTROL, hands={"A": ["normal-spell"], "B": ["reaction-spell"]}, backend=backend,
            units=[unit("b1", "B", "South"), unit("c1", "C", "North"), unit("d1", "D", "East")])
    do(g, "A play normal-spell", "A pass", "B play reaction-spell", "A concede")
    expect(g, state="neutral-closed", chain=["reaction-spell"], priority="B", turn="B", phase="Main",
           score={"B": 0}, players=["B", "C", "D"])
    assert "normal-spell is countered: its controller left" in lines(g)
    assert_no_stale_holder(g)
    do(g, "B pass", "C pass", "D pass")
    expect(g, state="neutral-open", chain=[], turn="B", priority="B", phase="Main", score={"B": 1})
    assert lines(g).index("reaction-spell resolves") < lines(g).index("turn of B begins: Awaken (the turn player left, R10)")


def test_focus_holder_concedes_while_their_chain_runs_literal_reading(backend):
    """652.5 then 340.2.a, read literally: B (focus holder) played a spell and C reacted; B concedes while C holds
    priority: B's spell is countered, C gets focus now (the next player), and when the card-started chain closes
    focus passes on normally, to D. (The other reading - C keeps it because B's pass was already made - is a gap
    the rulings do not settle yet; see the issue 7 report.)"""
    g = war(control={"South": "B", "East": "D"}, hands={"B": ["action-spell"], "C": ["reaction-spell"]},
            backend=backend, units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("d1", "D", "East")])
    do(g, "A move a1 North", "A pass", "B play action-spell", "B pass", "C play reaction-spell", "B concede")
    expect(g, state="showdown-closed", chain=["reaction-spell"], focus="C", priority="C", players=["A", "C", "D"])
    assert "action-spell is countered: its controller left" in lines(g)
    assert_no_stale_holder(g)
    do(g, "C pass", "D pass", "A pass")
    expect(g, state="showdown-open", chain=[], focus="D", priority="D")
