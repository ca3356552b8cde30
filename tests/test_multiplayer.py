"""Skirmish (3 players) and War (4 players): priority and focus rounds over every player still in the game,
combat trigger placement, and the exclusion of a third player from a combat (seed 004; CR 339, 340.4,
347.2, 462, 447.2, 464.2.e; rulings R2, R17)."""
from conftest import do, events, expect, illegal, lines, rules_of

from mp_helpers import skirmish, trig, unit, war

CONTROL = {"North": "C", "South": "B", "East": "D"}
SHOVE = {"shove-north": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "target", "to": "North"}}]},
         "shove-south": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "target", "to": "South"}}]},
         "charge": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "a2", "to": "South"}}]}}


# -- priority rounds (seed 004, 338-340) -----------------------------------------------------------------

def test_war_priority_round_needs_all_four_passes(backend):
    """Seed 004: A -> B -> C is not enough in War while D can still respond; all four pass in succession (339)."""
    g = war(hands={"A": ["normal-spell"]}, backend=backend)
    do(g, "A play normal-spell")
    expect(g, state="neutral-closed", chain=["normal-spell"], priority="A")          # R17: its controller first
    do(g, "A pass", "B pass", "C pass")
    expect(g, state="neutral-closed", chain=["normal-spell"], priority="D",
           legal={"A": ["concede"], "B": ["concede"], "C": ["concede"], "D": ["concede", "pass"]})
    do(g, "D pass")
    expect(g, state="neutral-open", chain=[], priority="A", turn="A")
    assert lines(g)[-5:-3] == ["every player has passed in succession", "normal-spell resolves"]
    assert events(g)[-1][1:] == ("A gets priority", "335.1, 312.2.a")        # the turn player again (335.1)


def test_war_reaction_needs_a_new_full_round_and_priority_returns_to_the_spell_controller(backend):
    """Seed 004: C adds a Reaction over A's spell -> a new full sequence of passes is needed (339); once it
    resolves, A's spell is the newest item again and A gets priority (340.4, R17); having passed before does
    not commit anyone: every player passes again before A's spell resolves."""
    g = war(hands={"A": ["normal-spell"], "C": ["reaction-spell"]}, backend=backend)
    do(g, "A play normal-spell", "A pass", "B pass", "C play reaction-spell")
    expect(g, chain=["normal-spell", "reaction-spell"], priority="C")
    do(g, "C pass", "D pass", "A pass")
    expect(g, chain=["normal-spell", "reaction-spell"], priority="B")                # B has not passed this round
    do(g, "B pass")
    expect(g, state="neutral-closed", chain=["normal-spell"], priority="A")
    do(g, "A pass", "B pass", "C pass")
    expect(g, chain=["normal-spell"], priority="D")
    do(g, "D pass")
    expect(g, state="neutral-open", chain=[], priority="A")


def test_skirmish_priority_round_is_three_passes(backend):
    """Skirmish: the round is A, B, C (339): after two passes the spell waits for C."""
    g = skirmish(hands={"A": ["normal-spell"]}, backend=backend)
    do(g, "A play normal-spell", "A pass", "B pass")
    expect(g, chain=["normal-spell"], priority="C")
    do(g, "C pass")
    expect(g, chain=[], state="neutral-open", priority="A")


# -- focus in turn order (R2) ------------------------------------------------------------------------------

def test_war_focus_goes_round_the_table_and_a_full_round_ends_the_showdown(backend):
    """Seed 004 / R2: focus circulates in turn order, every player still in the game, combatant or not
    (347.2.b); a full round of passes without a chain ends the showdown (347.2.a, 348.2.a Conquer)."""
    g = war(control={"South": "B", "East": "D"},
            units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("d1", "D", "East")], backend=backend)
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", priority="A", active={"kind": "showdown", "at": "North"})
    for holder, nxt in (("A", "B"), ("B", "C"), ("C", "D")):
        do(g, f"{holder} pass")
        expect(g, state="showdown-open", focus=nxt, priority=nxt, controller={"North": None},
               legal={holder: ["concede"], nxt: ["concede", "pass"]})
    do(g, "D pass")
    expect(g, state="neutral-open", focus=None, active=None, controller={"North": "A"}, score={"A": 1})


def test_war_focus_passes_to_the_next_player_after_a_card_chain(backend):
    """347.1.b, 340.2.a: B holds focus and plays an Action spell; when that chain closes focus goes to C, the next
    player in turn order (not back to the attacker); the pass run restarts (R3): A must pass again."""
    g = war(control={"South": "B", "East": "D"}, hands={"B": ["action-spell"]},
            units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("d1", "D", "East")], backend=backend)
    do(g, "A move a1 North", "A pass", "B play action-spell", "B pass", "C pass", "D pass", "A pass")
    expect(g, state="showdown-open", chain=[], focus="C", priority="C")
    do(g, "C pass", "D pass")
    expect(g, state="showdown-open", focus="A")                                     # A's earlier pass no longer counts
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", controller={"North": "A"})


def _combat_war(rulings=None, backend="compiled", **keys):
    """War, A's turn: A will attack C at North; B and D have 'on-any-attack' triggers away from the combat."""
    return war(control=CONTROL, rulings=rulings, backend=backend, units=[
        unit("a1", "A", "base", 2, abilities=[trig("a-attacks", "on-attack")]),
        unit("b1", "B", "South", 1, abilities=[trig("b-watches", "on-any-attack")]),
        unit("c1", "C", "North", 3, abilities=[trig("c-defends", "on-defend")]),
        unit("d1", "D", "East", 1, abilities=[trig("d-watches", "on-any-attack")])], **keys)


def test_war_combat_triggers_placed_attacker_non_defenders_then_defender(backend):
    """Seed 004 'A attaque C en Guerre': triggers placed A, B, D, then C (464.2.e) - not A, B, C, D; C's are
    the newest so C gets priority first (R17, 312.2.c) and C's resolve first (LIFO, 340)."""
    g = _combat_war(backend=backend)
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", active={"kind": "combat", "at": "North", "attacker": "A", "defender": "C"},
           chain=["a-attacks", "b-watches", "d-watches", "c-defends"], focus="A", priority="C",
           legal={"A": ["concede"], "B": ["concede"], "C": ["concede", "pass"], "D": ["concede"]})
    assert "464.2.e" in rules_of(g, "combat at North: A attacks, C defends")
    do(g, "C pass", "D pass", "A pass", "B pass")
    expect(g, chain=["a-attacks", "b-watches", "d-watches"], priority="D")          # 340.4: D's item is newest
    assert "c-defends resolves" in lines(g)
    do(g, "D pass", "A pass", "B pass", "C pass")
    expect(g, chain=["a-attacks", "b-watches"], priority="B")


def test_war_focus_order_r2_default_is_turn_order_in_a_combat(backend):
    """R2 default: in A's combat against C focus goes A -> B -> C -> D (340.2.a, 347.2.b)."""
    g = war(control=CONTROL, units=[unit("a1", "A", "base", 2), unit("c1", "C", "North", 3)], backend=backend)
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", active={"kind": "combat", "at": "North", "attacker": "A",
                                                        "defender": "C"})
    do(g, "A pass", "B pass")
    expect(g, focus="C", priority="C")
    do(g, "C pass")
    expect(g, focus="D", priority="D")


def test_war_focus_order_r2_defender_last_alternative(backend):
    """R2=defender-last: from the attacker round the table with the defender last: A -> B -> D -> C."""
    g = war(control=CONTROL, rulings={"R2": "defender-last"}, backend=backend,
            units=[unit("a1", "A", "base", 2), unit("c1", "C", "North", 3)])
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, focus="D", priority="D", legal={"C": ["concede"], "D": ["concede", "pass"]})
    do(g, "D pass")
    expect(g, focus="C", priority="C")
    assert "R2" in rules_of(g, "focus passes to D")
    do(g, "C pass")                          # the fourth pass in succession: the combat's showdown step ends
    expect(g, state="neutral-open", focus=None, active=None, controller={"North": "C"},
           units={"a1": {"zone": "trash"}, "c1": {"at": "North", "zone": "board"}})


def test_r2_defender_last_keeps_turn_order_in_a_non_combat_showdown(backend):
    """R2=defender-last applies to combats only: a non-combat showdown keeps turn order A -> B -> C -> D."""
    g = war(control={"South": "B", "East": "D"}, rulings={"R2": "defender-last"}, backend=backend,
            units=[unit("a1", "A", "base", 2), unit("b1", "B", "South"), unit("d1", "D", "East")])
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, focus="C", active={"kind": "showdown", "at": "North"})


# -- a third player is kept out of a combat (462, 447.2.a) ---------------------------------------------------

def _ongoing_combat(backend="compiled"):
    """War: A attacks C at North; B holds focus after A passes. B has b1 in base and b2 at South."""
    g = war(control=CONTROL, cards=SHOVE, backend=backend,
            hands={"A": ["move-spell"], "B": ["move-spell", "shove-north"]},
            units=[unit("a1", "A", "base", 2), unit("a2", "A", "base", 1), unit("b1", "B", "base"),
                   unit("b2", "B", "South"), unit("c1", "C", "North", 3), unit("d1", "D", "East")])
    do(g, "A move a1 North")
    return g


def test_outsider_may_not_aim_a_move_spell_at_an_ongoing_combat(backend):
    """Seed 004, 462, 447.2.a: B has no units at North where A and C fight: North is not a valid destination for
    B's move-spell (an illegal play, state unchanged); A, a participant, may bring another unit in."""
    g = _ongoing_combat(backend)
    do(g, "A pass")
    expect(g, state="showdown-open", focus="B", active={"kind": "combat", "at": "North", "attacker": "A",
                                                        "defender": "C"})
    e = illegal(g, "B play move-spell unit=b1 to=North", "staged or ongoing combat between two other players")
    assert "462" in e.rule and "447.2.a" in e.rule
    g2 = _ongoing_combat(backend)
    do(g2, "A play move-spell unit=a2 to=North")
    expect(g2, chain=["move-spell"], priority="A")


def test_outsider_forced_move_into_an_ongoing_combat_becomes_a_recall(backend):
    """Seed 004, 447.2.c: an effect that fixes the destination (shove-north) moves B's unit into A-vs-C's combat:
    it is recalled instead; no third combatant, the combat is still A against C."""
    g = _ongoing_combat(backend)
    do(g, "A pass", "B play shove-north unit=b2", "B pass", "C pass", "D pass", "A pass")
    expect(g, state="showdown-open", units={"b2": {"at": "base", "zone": "board"}},
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "C"}, focus="C")
    assert "447.2.c" in rules_of(g, "b2 cannot move to North")
    assert "b2 is recalled to base" in lines(g)
    assert {u for u, d in g.state.units.items() if d.at == "North" and d.zone == "board"} == {"a1", "c1"}


def _staged_combat(backend="compiled"):
    """War: A attacks C at North; during it A's 'charge' moves a2 to South where B is: a combat is staged there
    and waits (one showdown at a time, 461). D holds focus next."""
    g = war(control=CONTROL, cards=SHOVE, backend=backend, hands={"A": ["charge"], "D": ["move-spell", "shove-south"]},
            units=[unit("a1", "A", "base", 2), unit("a2", "A", "base", 1), unit("b2", "B", "South"),
                   unit("c1", "C", "North", 3), unit("d1", "D", "base"), unit("d2", "D", "East")])
    do(g, "A move a1 North", "A play charge", "A pass", "B pass", "C pass", "D pass")
    return g


def test_outsider_barred_from_a_staged_combat(backend):
    """Seed 004: 'La restriction d'arrivée s'applique déjà' - a staged combat (A vs B at South) is closed to D,
    who has no units there: D's move-spell to South is illegal (462, 447.2.a)."""
    g = _staged_combat(backend)
    expect(g, staged={"South": ["showdown", "combat"]}, active={"kind": "combat", "at": "North", "attacker": "A",
                                                                "defender": "C"})
    do(g, "B pass", "C pass")
    expect(g, focus="D", priority="D")
    illegal(g, "D play move-spell unit=d1 to=South", "staged or ongoing combat", rule="462")


def test_outsider_forced_move_into_a_staged_combat_is_a_recall(backend):
    """447.2.c: D's unit at East forced to South (staged combat A vs B) is recalled to D's base instead."""
    g = _staged_combat(backend)
    do(g, "B pass", "C pass", "D play shove-south unit=d2", "D pass", "A pass", "B pass", "C pass")
    expect(g, units={"d2": {"at": "base", "zone": "board"}}, staged={"South": ["showdown", "combat"]})
    assert "b2" in {u.id for u in g.state.units_at("South")} and "d2" not in {u.id for u in g.state.units_at("South")}


REINFORCE = trig("reinforce", "on-any-attack", {"play-unit": {"might": 1, "at": "North"}},
                 {"play-unit": {"might": 2, "at": "here"}})


def test_outsider_forced_play_into_a_combat_goes_to_base_and_here_means_that_base(backend):
    """Seed 004, 462: D's trigger must play a unit at North where A attacks C: it is played in D's base instead,
    and 'here' in the rest of the effect now means that base (the second unit is not played at East)."""
    g = war(control=CONTROL, backend=backend, units=[
        unit("a1", "A", "base", 2), unit("c1", "C", "North", 3), unit("d1", "D", "East", 1, abilities=[REINFORCE])])
    do(g, "A move a1 North")
    expect(g, chain=["reinforce"], priority="D")
    do(g, "D pass", "A pass", "B pass", "C pass")
    expect(g, units={"token#1": {"at": "base", "controller": "D", "might": 1},
                     "token#2": {"at": "base", "controller": "D", "might": 2}},
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "C"})
    assert "462" in rules_of(g, "D may not play a unit into the combat at North")


def test_forced_play_outside_any_combat_is_where_the_effect_says(backend):
    """Contrast: the same trigger aimed at a battlefield without a combat plays there, and 'here' is the source's
    battlefield (East) - the redirection above is the combat exclusion, not the effect."""
    calm = trig("reinforce", "on-any-attack", {"play-unit": {"might": 1, "at": "South"}},
                {"play-unit": {"might": 2, "at": "here"}})
    g = war(control=CONTROL, backend=backend, units=[
        unit("a1", "A", "base", 2), unit("c1", "C", "North", 3), unit("d1", "D", "East", 1, abilities=[calm])])
    do(g, "A move a1 North", "D pass", "A pass", "B pass", "C pass")
    expect(g, units={"token#1": {"at": "South"}, "token#2": {"at": "East"}})


# -- conversion with a pending combat chain (323.14, R1) -----------------------------------------------------

def _conversion(rulings=None, backend="compiled"):
    """Skirmish: A's non-combat showdown at North; B moves a unit in with a move-spell; the next cleanup converts
    the showdown into a combat (323.14) with attack/defend triggers pending."""
    g = skirmish(control={"South": "B", "East": "C"}, hands={"B": ["move-spell"]}, rulings=rulings, backend=backend,
                 units=[unit("a1", "A", "base", 2, abilities=[trig("a-attacks", "on-attack")]),
                        unit("b1", "B", "South", 1, abilities=[trig("b-defends", "on-defend")]),
                        unit("c1", "C", "East", 1)])
    do(g, "A move a1 North", "A pass", "B play move-spell unit=b1 to=North", "B pass", "C pass", "A pass")
    return g


def test_conversion_with_combat_triggers_focus_stays_with_its_holder_r1(backend):
    """R1 default (464.2.c.1.b): after B's move-spell chain closes focus passes to C (340.2.a); the conversion keeps
    it with C, a non-combatant, while the combat chain (A's trigger, then B's) gives B priority first (R17)."""
    g = _conversion(backend=backend)
    expect(g, state="showdown-closed", active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"},
           chain=["a-attacks", "b-defends"], focus="C", priority="B")


def test_conversion_with_combat_triggers_r1_attacker(backend):
    """R1=attacker (464.2.d): the attacker A gains focus at the conversion; priority still goes to B first."""
    g = _conversion({"R1": "attacker"}, backend)
    expect(g, state="showdown-closed", chain=["a-attacks", "b-defends"], focus="A", priority="B")


def test_outsider_may_not_choose_to_play_a_unit_into_a_staged_combat_even_at_a_battlefield_it_controls(backend):
    """462: 'Il n'est pas non plus un emplacement valide où un joueur extérieur peut jouer des unités.' B still
    controls South (its unit was recalled in a Closed state, so control is not yet lost, 323.6) while A and D
    have a combat staged there: B's Reaction unit may not be played at South (no three-player combat), only
    in base."""
    cards = {"swap": {"type": "spell", "timing": "reaction", "effect": [
                {"recall": {"unit": "b2"}}, {"move": {"unit": "a2", "to": "South"}}, {"move": {"unit": "d2", "to": "South"}}]},
             "ambusher": {"type": "unit", "timing": "reaction", "might": 1}}
    g = war(control=CONTROL, cards=cards, backend=backend, hands={"A": ["action-spell", "swap"], "B": ["ambusher"]},
            units=[unit("a1", "A", "base", 2), unit("a2", "A", "base", 1), unit("b2", "B", "South"),
                   unit("c1", "C", "North", 3), unit("d2", "D", "East")])
    do(g, "A move a1 North", "A play action-spell", "A play swap", "A pass", "B pass", "C pass", "D pass", "A pass")
    expect(g, state="showdown-closed", chain=["action-spell"], priority="B", controller={"South": "B"},
           staged={"South": ["showdown", "combat"]})
    illegal(g, "B play ambusher at=South", "staged or ongoing combat", rule="462")
    do(g, "B play ambusher at=base")
    expect(g, units={"ambusher#1": {"at": "base", "controller": "B"}})


def test_conversion_after_the_contesters_units_left_makes_the_two_present_players_fight(backend):
    """464.2.c.1 with 3 players: A contested North, then moved its unit home during the showdown; B and C moved in with
    move-spells and the showdown converts (323.14). The combat is between the two players present - B attacks (first
    in turn order from the turn player, as R7), C defends, both designated - never 'A attacks' with no units there
    while C's unit stays undesignated. Both units die: no result, North stays uncontrolled."""
    g = skirmish(control={"South": "B", "East": "C"}, backend=backend,
                 hands={"A": ["move-spell"], "B": ["move-spell"], "C": ["move-spell"]},
                 units=[unit("a1", "A", "base", 2), unit("b1", "B", "South", 1), unit("c1", "C", "East", 1)])
    do(g, "A move a1 North", "A play move-spell unit=a1 to=base", "A pass", "B pass", "C pass",
       "B play move-spell unit=b1 to=North", "B pass", "C pass", "A pass",
       "C play move-spell unit=c1 to=North", "C pass", "A pass", "B pass")
    expect(g, state="showdown-open", active={"kind": "combat", "at": "North", "attacker": "B", "defender": "C"},
           focus="A", priority="A", units={"b1": {"designation": "attacker"}, "c1": {"designation": "defender"},
                                           "a1": {"at": "base", "designation": None}})
    assert "R7" in rules_of(g, "B now applies Contested at North")
    do(g, "A pass", "B pass", "C pass")
    expect(g, state="neutral-open", active=None, controller={"North": None},
           units={"b1": {"zone": "trash"}, "c1": {"zone": "trash"}})
    assert "combat damage at North: B deals 1, C deals 1" in lines(g)


def test_skirmish_victory_score_is_8(backend):
    """Skirmish (487): 8 points win. A at 7 holds North at the start of A's next turn (after B's and C's turns)."""
    g = skirmish(control={"North": "A"}, score={"A": 7}, units=[unit("a1", "A", "North")], backend=backend)
    do(g, "A end-turn", "B end-turn")
    expect(g, turn="C", winner=None, score={"A": 7})
    do(g, "C end-turn")
    expect(g, winner="A", score={"A": 8}, priority=None, legal={"A": [], "B": [], "C": []})


def test_no_choice_may_put_a_third_player_where_two_others_have_units(backend):
    """144, 462: North holds units of B and C (they started there); A may neither move there nor aim a move-spell
    there - any choice that would make a three-player combat is illegal."""
    g = skirmish(control={"South": "C"}, hands={"A": ["move-spell"]}, backend=backend,
                 units=[unit("a1", "A", "base"), unit("b1", "B", "North"), unit("c1", "C", "North"),
                        unit("c2", "C", "South")])
    expect(g, legal={"A": ["concede", "end-turn", "move a1 East", "move a1 South", "play move-spell"]})
    illegal(g, "A move a1 North", "units of two other players", rule="462")
    illegal(g, "A play move-spell unit=a1 to=North", "units of two other players", rule="462")
