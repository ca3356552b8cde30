"""Seed 002: showdowns step by step - staging, one active at a time, Neutral/Showdown x Open/Closed, focus
hand-offs, conversion of a non-combat showdown into a combat, cleanup task order (CR 190.3, 307-310,
323.8-323.14, 341-348, 464; rulings R1, R3, R4)."""
from conftest import do, expect, game, illegal, index_of, lines, rules_of

A1 = {"id": "a1", "owner": "A", "at": "base", "might": 2}
A2 = {"id": "a2", "owner": "A", "at": "base", "might": 2}
B1 = {"id": "b1", "owner": "B", "at": "base", "might": 3}

SPLIT = {"split": {"type": "spell", "timing": "normal",
                   "effect": [{"move": {"unit": "a1", "to": "North"}}, {"move": {"unit": "a2", "to": "South"}}]}}
PULL = {"pull": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "target", "to": "North"}}]}}
RETREAT = {"retreat": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "target", "to": "base"}}]}}


def test_seed002_one_effect_two_battlefields_one_showdown_at_a_time_turn_player_chooses(backend):
    """Seed 002: an effect sends units to two battlefields; finish it, then both showdowns are staged (323.8); one
    active at a time; the turn player chooses (323.12); the other opens once the first is over."""
    g = game(units=[A1, A2, B1], hands={"A": ["split"]}, cards=SPLIT, backend=backend)
    do(g, "A play split")
    expect(g, state="neutral-closed", priority="A", chain=["split"], staged={}, contested=[])
    do(g, "A pass", "B pass")
    # the effect is finished before either showdown opens; the game waits on A's choice, nobody has priority
    expect(g, state="neutral-open", priority=None, focus=None, chain=[], active=None,
           staged={"North": ["showdown"], "South": ["showdown"]}, contested=["North", "South"],
           legal={"A": ["choose North", "choose South", "concede"], "B": ["concede"]})
    assert index_of(g, "split resolves") < index_of(g, "the chain is empty") < index_of(g, "A must choose")
    illegal(g, "B choose North", "only the turn player", "323.12")
    illegal(g, "A move a1 South", "must first choose", "323.12")
    illegal(g, "A choose Nowhere", "not among the candidates")

    do(g, "A choose South")
    expect(g, state="showdown-open", focus="A", priority="A", active={"kind": "showdown", "at": "South"},
           staged={"North": ["showdown"]}, contested=["North", "South"],
           legal={"A": ["concede", "pass"], "B": ["concede"]})
    do(g, "A pass")
    expect(g, focus="B", priority="B", active={"kind": "showdown", "at": "South"}, staged={"North": ["showdown"]})
    do(g, "B pass")
    # South settled; the single remaining staged showdown opens without a choice (323.12)
    expect(g, state="showdown-open", focus="A", priority="A", active={"kind": "showdown", "at": "North"},
           staged={}, contested=["North"], controller={"South": "A", "North": None}, score={"A": 1})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", priority="A", active=None, staged={}, contested=[],
           controller={"North": "A", "South": "A"}, score={"A": 2, "B": 0})


def test_seed002_the_four_turn_states_are_two_separate_distinctions():
    """Seed 002 / 307-310: Neutral/Showdown and Open/Closed are separate; all four combinations occur."""
    g = game(units=[A1, B1], hands={"A": ["normal-spell", "action-spell"]})
    seen = [g.state.turn_state()]
    do(g, "A play normal-spell")
    seen.append(g.state.turn_state())
    do(g, "A pass", "B pass", "A move a1 North")
    seen.append(g.state.turn_state())
    do(g, "A play action-spell")
    seen.append(g.state.turn_state())
    assert seen == ["neutral-open", "neutral-closed", "showdown-open", "showdown-closed"]
    assert g.state.m("turn.mode") == "Showdown" and g.state.m("turn.window") == "Closed"


def test_seed002_focus_hand_offs_in_a_non_combat_showdown():
    """Seed 002: the contester gets focus first (345) and with it priority (313.2); a card chain closes the state,
    Reactions use priority; once the chain ends the showdown is Open again and focus passes (340.2.a); everybody
    passing focus in a row ends it (347.2.a)."""
    g = game(units=[A1, B1], hands={"A": ["action-spell"], "B": ["reaction-spell", "action-spell"]})
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", priority="A", legal={"A": ["concede", "pass", "play action-spell"],
                                                                       "B": ["concede"]})
    do(g, "A play action-spell")
    expect(g, state="showdown-closed", focus="A", priority="A", chain=["action-spell"])
    do(g, "A pass")
    expect(g, state="showdown-closed", focus="A", priority="B",
           legal={"A": ["concede"], "B": ["concede", "pass", "play reaction-spell"]})  # no Action when Closed
    do(g, "B play reaction-spell", "B pass", "A pass")
    expect(g, state="showdown-closed", focus="A", priority="A", chain=["action-spell"])
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[],
           legal={"A": ["concede"], "B": ["concede", "pass", "play action-spell"]})
    do(g, "B pass")
    expect(g, state="showdown-open", focus="A", priority="A", active={"kind": "showdown", "at": "North"})
    do(g, "A pass")
    expect(g, state="neutral-open", focus=None, active=None, controller={"North": "A"}, score={"A": 1})


def conversion(rulings=None, backend="compiled"):
    """Seed 002's conversion: A's non-combat showdown at North; B moves b1 in with a legal move spell."""
    g = game(units=[A1, {**B1, "abilities": [{"name": "guard", "trigger": "on-defend", "effect": []}]}],
             hands={"B": ["move-spell"]}, rulings=rulings, backend=backend)
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", active={"kind": "showdown", "at": "North"}, staged={})
    do(g, "A pass")
    expect(g, state="showdown-open", focus="B", priority="B",
           legal={"A": ["concede"], "B": ["concede", "pass", "play move-spell"]})
    do(g, "B play move-spell unit=b1 to=North")
    # the spell makes the showdown Closed; nothing about combat yet
    expect(g, state="showdown-closed", focus="B", priority="B", chain=["move-spell"],
           active={"kind": "showdown", "at": "North"}, staged={}, units={"b1": {"at": "base"}})
    do(g, "B pass")
    expect(g, state="showdown-closed", focus="B", priority="A", chain=["move-spell"],
           active={"kind": "showdown", "at": "North"}, staged={})
    return g


def test_seed002_conversion_sequence_step_by_step_ruling_R1_default(backend):
    """Seed 002 / 323.14, 464.1: open non-combat showdown -> the spell closes it -> it resolves and the checks stage
    the combat -> the chain ends and the showdown is Open again -> the conversion task opens the combat. Damage never
    starts inside the move spell. R1: focus hand-off first (B -> A), the holder keeps it; the combat chain's
    defend trigger resolves and focus does not pass when it empties (346.1)."""
    g = conversion(backend=backend)
    before = len(g.trace)
    do(g, "A pass")
    step = lines(g, before)
    seq = ["move-spell resolves", "b1 moves to North", "combat staged at North", "the chain is empty",
           "the state is Open", "focus passes to A", "becomes a combat showdown", "A attacks, B defends",
           "guard goes on the chain"]
    pos = [next(i for i, e in enumerate(step) if s in e) for s in seq]
    assert pos == sorted(pos), step
    assert not any("damage" in e for e in step)
    assert "464.2.c.1.b" in rules_of(g, "through the conversion (R1)")
    expect(g, state="showdown-closed", focus="A", priority="B", chain=["guard"],
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"}, staged={},
           contested=["North"], units={"b1": {"at": "North", "designation": "defender"},
                                       "a1": {"designation": "attacker"}})
    do(g, "B pass", "A pass")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[],
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", active=None, controller={"North": "B"}, score={"B": 1, "A": 0},
           units={"a1": {"zone": "trash"}, "b1": {"zone": "board", "damage": 0}})


def test_seed002_conversion_with_R1_attacker_focus_goes_to_the_attacker():
    """Ruling R1 alternative `attacker` (464.2.d): A's own pull spell closes -> focus passes to B -> on conversion
    the attacker A gains focus; by default (R1) B would keep it."""
    setup = dict(units=[A1, B1], hands={"A": ["pull"]}, cards=PULL)
    default = do(game(**setup), "A move a1 North", "A play pull unit=b1", "A pass", "B pass")
    expect(default, state="showdown-open", focus="B", priority="B",
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    switched = do(game(**setup, rulings={"R1": "attacker"}), "A move a1 North", "A play pull unit=b1", "A pass",
                  "B pass")
    expect(switched, state="showdown-open", focus="A", priority="A",
           active={"kind": "combat", "at": "North", "attacker": "A", "defender": "B"})
    assert "464.2.d" in rules_of(switched, "the attacker A gains focus")


def test_seed002_staged_combat_dropped_if_the_opponent_leaves_before_it_opens():
    """Seed 002: 'Si la présence adverse disparaît avant ce début, le combat prévu n'a plus lieu' (323.10). b1
    arrives by a Reaction while B's older spell waits: the combat is staged but cannot open (Closed); the older spell
    takes b1 home, the combat is unstaged and the non-combat showdown continues."""
    cards = {"fall-back": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "b1", "to": "base"}}]},
             "dash": {"type": "spell", "timing": "reaction", "effect": [{"move": {"unit": "b1", "to": "North"}}]}}
    g = game(units=[A1, B1], hands={"B": ["fall-back", "dash"]}, cards=cards)
    do(g, "A move a1 North", "A pass", "B play fall-back", "B play dash")
    expect(g, state="showdown-closed", focus="B", priority="B", chain=["fall-back", "dash"])
    do(g, "B pass", "A pass")
    expect(g, state="showdown-closed", focus="B", priority="B", chain=["fall-back"],
           active={"kind": "showdown", "at": "North"}, staged={"North": ["combat"]}, units={"b1": {"at": "North"}})
    do(g, "B pass", "A pass")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[], active={"kind": "showdown", "at": "North"},
           staged={}, units={"b1": {"at": "base"}})
    assert "323.10" in rules_of(g, "the combat staged at North is no longer staged")
    assert not any("becomes a combat showdown" in e or "attacks" in e for e in lines(g))
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", controller={"North": "A"}, score={"A": 1})


def test_seed002_new_contest_during_an_active_showdown_stays_staged():
    """Seed 002: during the active showdown at North an effect contests South; South stays staged while North and
    its chains run, with no second focus alternation (323.12: Neutral Open only), and opens after North ends."""
    g = game(units=[A1, A2, B1], hands={"A": ["move-spell"]})
    do(g, "A move a1 North", "A play move-spell unit=a2 to=South", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", priority="B", active={"kind": "showdown", "at": "North"},
           staged={"South": ["showdown"]}, contested=["North", "South"], units={"a2": {"at": "South"}})
    assert sum("gains focus" in e for e in lines(g)) == 1
    do(g, "B pass")
    expect(g, focus="A", active={"kind": "showdown", "at": "North"}, staged={"South": ["showdown"]})
    do(g, "A pass")
    expect(g, state="showdown-open", focus="A", priority="A", active={"kind": "showdown", "at": "South"},
           staged={}, controller={"North": "A", "South": None})
    assert index_of(g, "showdown ends") < index_of(g, "showdown begins at South")


def test_seed002_staged_showdown_cancelled_when_the_contesting_units_leave_before_it_opens():
    """Seed 002 / 323.8, 323.11: removing the units contesting South cancels its pending showdown before it begins;
    Contested is cleared (task 8) and nothing opens there."""
    g = game(units=[A1, A2, B1], hands={"A": ["split", "retreat"]}, cards={**SPLIT, **RETREAT})
    do(g, "A play split", "A pass", "B pass", "A choose North")
    expect(g, active={"kind": "showdown", "at": "North"}, staged={"South": ["showdown"]},
           contested=["North", "South"])
    do(g, "A play retreat unit=a2", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", active={"kind": "showdown", "at": "North"}, staged={},
           contested=["North"], units={"a2": {"at": "base"}})
    assert "323.8" in rules_of(g, "the showdown staged at South is no longer staged")
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", active=None, staged={}, contested=[], controller={"North": "A", "South": None},
           score={"A": 1})
    assert not any("begins at South" in e for e in lines(g))


def test_seed002_non_combat_showdowns_open_before_staged_combats():
    """Seed 002 / 323.12 before 323.13: a staged non-combat showdown (North) opens before a staged combat (South),
    without a choice, even though both were staged by the same effect."""
    g = game(units=[A1, A2, {**B1, "at": "South"}], control={"South": "B"}, hands={"A": ["split"]}, cards=SPLIT)
    do(g, "A play split", "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", active={"kind": "showdown", "at": "North"},
           staged={"South": ["showdown", "combat"]}, contested=["North", "South"])
    assert not any("must choose" in e for e in lines(g))
    do(g, "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", active={"kind": "combat", "at": "South", "attacker": "A",
                                                            "defender": "B"}, staged={},
           controller={"North": "A", "South": "B"})


def test_seed002_no_standard_move_during_a_showdown():
    """Seed 004 / 144: a standard move may not be ordered during a showdown or combat; refused, nothing changes."""
    g = game(units=[A1, A2, B1])
    do(g, "A move a1 North")
    expect(g, legal={"A": ["concede", "pass"]})
    illegal(g, "A move a2 South", "no standard move during a showdown", "144")
    illegal(g, "B move b1 North", "no standard move during a showdown", "144")
