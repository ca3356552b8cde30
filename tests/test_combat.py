"""Combat (CR 459-466; seeds 000, 002, 004; rulings R8, R17): staging and opening, the turn player's choice, the
combat chain order, damage, and the resolution step (result, control, Conquer)."""
from conftest import do, expect, game, illegal, index_of, lines, rules_of

COMBAT_N = {"kind": "combat", "at": "North", "attacker": "A", "defender": "B"}
COMBAT_S = {"kind": "combat", "at": "South", "attacker": "A", "defender": "B"}


def u(id, owner, at="base", might=2, *abilities):
    return {"id": id, "owner": owner, "at": at, "might": might, "abilities": list(abilities)}


def trig(name, when, *effect):
    return {"name": name, "trigger": when, "effect": list(effect)}


def fight(a_might, b_might, control=None, a_at="base"):
    return game(units=[u("a1", "A", a_at, a_might), u("b1", "B", "North", b_might)],
                control={"North": "B"} if control is None else control)


def test_combat_opens_attacker_is_the_contester_defender_the_other(backend):
    """323.9, 323.13, 464.2.c: units of two opposing players at a contested battlefield stage a combat that opens
    at once; the player who applied Contested attacks and gains focus (464.2.c.1.a); units are designated."""
    g = game(units=[u("a1", "A"), u("b1", "B", "North", 1)], control={"North": "B"}, backend=backend)
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[], active=COMBAT_N, staged={},
           contested=["North"], controller={"North": "B"},
           units={"a1": {"designation": "attacker"}, "b1": {"designation": "defender"}},
           legal={"A": ["concede", "pass"], "B": ["concede"]})
    assert index_of(g, "combat staged at North") < index_of(g, "a combat begins at North") \
        < index_of(g, "A attacks, B defends")


def test_combat_won_by_the_attacker_control_and_conquer():
    """465, 466.3-466.5: 4 against 1 - b1 dies, A is the only one left: A wins, takes control, Conquers (1 point);
    Contested is cleared and the combat ends (466.7)."""
    g = fight(4, 1)
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, state="neutral-open", priority="A", focus=None, active=None, staged={}, contested=[],
           controller={"North": "A"}, score={"A": 1, "B": 0},
           units={"a1": {"zone": "board", "damage": 0, "designation": None, "at": "North"}, "b1": {"zone": "trash"}})
    seq = ["combat damage step", "combat damage at North: A deals 4, B deals 1", "b1 dies", "A wins, B loses",
           "A takes control of North", "A conquers North", "the combat at North ends"]
    pos = [index_of(g, s) for s in seq]
    assert pos == sorted(pos)
    assert "466.3" in rules_of(g, "A wins, B loses")


def test_combat_lost_by_the_attacker_defender_keeps_control_without_scoring():
    """466.3, 466.5, 348.2.a: 1 against 4 - a1 dies; B wins but already controls North, so no Conquer."""
    g = fight(1, 4)
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, state="neutral-open", active=None, contested=[], controller={"North": "B"}, score={"A": 0, "B": 0},
           units={"a1": {"zone": "trash"}, "b1": {"zone": "board", "damage": 0}})
    assert "combat at North: B wins, A loses" in lines(g)


def test_combat_won_by_the_defender_at_an_uncontrolled_battlefield_is_a_conquer_for_the_defender():
    """466.5: establishing control need not be by the contester - B's b1 (placed there, uncontrolled) beats A's a1,
    B takes control and Conquers on A's turn."""
    g = fight(1, 4, control={})
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, turn="A", state="neutral-open", controller={"North": "B"}, score={"A": 0, "B": 1}, contested=[])


def test_combat_no_result_when_both_sides_die_battlefield_becomes_uncontrolled():
    """466.3.d, 466.5: 2 against 2 - both die: no result; with no units at all the battlefield is Uncontrolled."""
    g = fight(2, 2)
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, state="neutral-open", active=None, contested=[], controller={"North": None}, score={"A": 0, "B": 0},
           units={"a1": {"zone": "trash"}, "b1": {"zone": "trash"}})
    assert "combat at North: no result" in lines(g)


def test_combat_no_result_when_both_survive_attackers_recalled():
    """466.1 (3c heal, 3d recall attackers if defenders remain), 466.3.d: A stuns b1 (3), so a1 (2) takes nothing and
    b1 survives 2 damage: both sides survive, damage heals, a1 is recalled, no result, B keeps North."""
    g = game(units=[u("a1", "A", "base", 2), u("b1", "B", "North", 3)], control={"North": "B"},
             hands={"A": ["rune-prison"]})
    do(g, "A move a1 North", "A play rune-prison unit=b1", "A pass", "B pass", "B pass", "A pass")
    expect(g, state="neutral-open", active=None, contested=[], controller={"North": "B"}, score={"A": 0, "B": 0},
           units={"a1": {"at": "base", "damage": 0, "zone": "board"}, "b1": {"at": "North", "damage": 0}})
    seq = [index_of(g, "b1 takes 2 combat damage"), index_of(g, "a1 is recalled to base: defenders remain"),
           index_of(g, "combat at North: no result")]
    assert seq == sorted(seq)
    assert "466.1" in rules_of(g, "a1 is recalled to base")


def test_damage_is_lethal_first_and_dealt_all_at_once():
    """465.2: the attacker's 3 is assigned lethal to b1 (2) before b2 gets any (1); all damage is dealt at the same
    time, so b1 and b2 (4 total) still kill the 3-might a1."""
    g = game(units=[u("a1", "A", "base", 3), u("b1", "B", "North", 2), u("b2", "B", "North", 2)],
             control={"North": "B"})
    do(g, "A move a1 North", "A pass", "B pass")
    assert "b1 takes 2 combat damage" in lines(g) and "b2 takes 1 combat damage" in lines(g)
    assert "a1 takes 4 combat damage" in lines(g)
    expect(g, units={"a1": {"zone": "trash"}, "b1": {"zone": "trash"}, "b2": {"zone": "board", "damage": 0}},
           controller={"North": "B"})


def test_stunned_unit_adds_nothing_to_combat_damage_rune_prison():
    """Seed 000 Rune Prison, 423.1.b: the defender stuns the attacker in the combat showdown; a1 deals 0, b1 survives
    and kills a1."""
    g = game(units=[u("a1", "A", "base", 3), u("b1", "B", "North", 3)], control={"North": "B"},
             hands={"B": ["rune-prison"]})
    do(g, "A move a1 North", "A pass", "B play rune-prison unit=a1", "B pass", "A pass")
    expect(g, focus="A", units={"a1": {"stunned": True}})
    do(g, "A pass", "B pass")                # R3: B's chain restarted the round of focus passes
    assert "combat damage at North: A deals 0, B deals 3 (stunned, adding nothing: a1)" in lines(g)
    expect(g, state="neutral-open", units={"a1": {"zone": "trash"}, "b1": {"zone": "board"}},
           controller={"North": "B"})


def test_combat_chain_attacker_first_defender_last_defender_resolves_first():
    """464.2.e, 383.3.d, R17: attack/defend triggers are placed attacker first then defender, each player's own in
    the order they choose (A orders its two before anything is finalized, nobody holding priority); the defender
    gets priority first and its triggers resolve first; focus stays with the attacker when the combat chain
    empties (346.1)."""
    g = game(units=[u("a1", "A", "base", 2, trig("a-cry", "on-attack", {"draw": {"count": 1}}),
                      trig("a-shout", "on-attack")),
                    u("b1", "B", "North", 1, trig("b-guard", "on-defend", {"draw": {"count": 1}}))],
             control={"North": "B"})
    do(g, "A move a1 North")
    expect(g, state="showdown-closed", focus="A", priority=None, chain=["a-cry", "a-shout", "b-guard"],
           legal={"A": ["concede", "order a1:a-cry", "order a1:a-shout"], "B": ["concede"]})
    do(g, "A order a1:a-cry a1:a-shout")
    expect(g, state="showdown-closed", focus="A", priority="B", chain=["a-cry", "a-shout", "b-guard"],
           active=COMBAT_N, legal={"A": ["concede"], "B": ["concede", "pass"]})
    do(g, "B pass", "A pass")
    expect(g, chain=["a-cry", "a-shout"], priority="A")
    assert g.state.drawn.get("B") == 1 and not g.state.drawn.get("A")
    do(g, "A pass", "B pass", "A pass", "B pass")
    expect(g, state="showdown-open", chain=[], focus="A", priority="A", active=COMBAT_N)
    res = [e for e in lines(g) if e.endswith(" resolves")]
    assert res == ["b-guard resolves", "a-shout resolves", "a-cry resolves"]


def test_turn_player_chooses_among_several_staged_combats():
    """461, 323.13: one effect stages combats at North and South; the turn player chooses; one active at a time."""
    cards = {"split": {"type": "spell", "timing": "normal",
                       "effect": [{"move": {"unit": "a1", "to": "North"}}, {"move": {"unit": "a2", "to": "South"}}]}}
    g = game(units=[u("a1", "A", "base", 3), u("a2", "A", "base", 3), u("b1", "B", "North", 1),
                    u("b2", "B", "South", 1)], control={"North": "B", "South": "B"}, hands={"A": ["split"]},
             cards=cards)
    do(g, "A play split", "A pass", "B pass")
    expect(g, state="neutral-open", priority=None, active=None,
           staged={"North": ["showdown", "combat"], "South": ["showdown", "combat"]},
           legal={"A": ["choose North", "choose South", "concede"], "B": ["concede"]})
    do(g, "A choose South")
    expect(g, state="showdown-open", focus="A", active=COMBAT_S, staged={"North": ["showdown", "combat"]})
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", active=COMBAT_N, staged={}, controller={"South": "A"},
           score={"A": 1})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A", "South": "A"}, score={"A": 2})


def seed004(*acts):
    """Seed 004 'un second champ', duel form: A and B fight at North; A's move spell sends a2 to South, where b2 is,
    staging a second combat that waits for the first."""
    g = game(units=[u("a1", "A", "base", 3), u("a2", "A", "base", 3), u("b1", "B", "North", 1),
                    u("b2", "B", "South", 1)], control={"North": "B", "South": "B"},
             hands={"A": ["move-spell"], "B": ["move-spell"]})
    do(g, "A move a1 North", "A play move-spell unit=a2 to=South", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", active=COMBAT_N, staged={"South": ["showdown", "combat"]},
           contested=["North", "South"])
    do(g, *acts)
    return g


def test_seed004_second_combat_waits_for_the_first():
    """Seed 004 / 460, 461: the A-B combat at South waits while North is fought, then opens on its own."""
    g = seed004("B pass")
    expect(g, focus="A", active=COMBAT_N, staged={"South": ["showdown", "combat"]})
    do(g, "A pass")
    expect(g, state="showdown-open", focus="A", active=COMBAT_S, staged={}, controller={"North": "A"})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", controller={"North": "A", "South": "A"}, score={"A": 2})


def test_seed004_second_combat_dropped_when_the_defender_leaves_first():
    """Seed 004 / 323.10, 461.2: b2 leaves South before its combat begins - the combat is not resolved; A's contest
    remains, so a non-combat showdown opens there instead after North."""
    g = seed004("B play move-spell unit=b2 to=base", "B pass", "A pass")
    expect(g, focus="A", active=COMBAT_N, staged={"South": ["showdown"]}, units={"b2": {"at": "base"}})
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", active={"kind": "showdown", "at": "South"}, staged={}, focus="A")
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", controller={"North": "A", "South": "A"}, score={"A": 2})
    assert not any("combat begins at South" in e or "combat at South" in e for e in lines(g))


def test_seed004_second_combat_dropped_when_the_attacker_leaves_first():
    """Seed 004 / 323.8, 323.10, 323.11: a2 leaves South before its combat begins - nothing is staged there any
    more, Contested is cleared, and B keeps South."""
    cards = {"fall-back": {"type": "spell", "timing": "reaction", "effect": [{"move": {"unit": "a2", "to": "base"}}]}}
    g = game(units=[u("a1", "A", "base", 3), u("a2", "A", "base", 3), u("b1", "B", "North", 1),
                    u("b2", "B", "South", 1)], control={"North": "B", "South": "B"},
             hands={"A": ["move-spell", "fall-back"]}, cards=cards)
    do(g, "A move a1 North", "A play move-spell unit=a2 to=South", "A pass", "B pass")
    do(g, "B pass", "A play fall-back", "A pass", "B pass")
    expect(g, active=COMBAT_N, staged={}, contested=["North"], units={"a2": {"at": "base"}})
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, controller={"North": "A", "South": "B"}, score={"A": 1})


def test_combatant_may_join_its_own_combat_by_an_effect():
    """447.2.a, 462 only bar players without units there: in a duel both combatants may still be moved in by an
    effect, so A's move spell to the combat battlefield is legal."""
    g = game(units=[u("a1", "A", "base", 3), u("a2", "A", "base", 1), u("b1", "B", "North", 1)],
             control={"North": "B"}, hands={"A": ["move-spell"]})
    do(g, "A move a1 North", "A play move-spell unit=a2 to=North", "A pass", "B pass")
    expect(g, units={"a2": {"at": "North", "designation": "attacker"}}, active=COMBAT_N)


def test_on_conquer_trigger_resolves_in_the_resolution_step_before_the_combat_ends():
    """466.5-466.7, 471.2: the Conquer trigger goes on the chain in the resolution step; players get priority on
    it and it resolves before 'combat ends' (designations removed) and before the state is Neutral again."""
    g = game(units=[u("a1", "A", "base", 3, trig("spoils", "on-conquer", {"draw": {"count": 1}})),
                    u("b1", "B", "North", 1)], control={"North": "B"})
    do(g, "A move a1 North", "A pass", "B pass")
    expect(g, state="showdown-closed", chain=["spoils"], priority="A", active=COMBAT_N, controller={"North": "A"},
           score={"A": 1}, units={"a1": {"designation": "attacker"}})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], active=None, units={"a1": {"designation": None}})
    assert index_of(g, "spoils resolves") < index_of(g, "the combat at North ends")


def test_no_standard_move_into_or_out_of_a_combat():
    """144: no standard move during a combat showdown, for either player (the state is unchanged)."""
    g = game(units=[u("a1", "A", "base", 3), u("a2", "A"), u("b1", "B", "North", 1), u("b2", "B")],
             control={"North": "B"})
    do(g, "A move a1 North")
    illegal(g, "A move a2 North", "during a showdown", "144")
    do(g, "A pass")
    illegal(g, "B move b2 North", "during a showdown", "144")
