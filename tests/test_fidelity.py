"""Rules fidelity (issue 10): divergences found against independent rulings, each pinned on both backends.

Each test names the rule it pins and checks what a judge checks: the chain and who has priority, where
units are and what they look like, control, score, Contested, legal actions, and the trace line citing
the rule."""
from conftest import do, expect, game, illegal, lines, rules_of

from mp_helpers import magma, trig, unit

KILL = {"snuff": {"type": "spell", "timing": "reaction", "effect": [{"kill": {"unit": "target"}}]},
        "yank": {"type": "spell", "timing": "reaction", "effect": [{"recall": {"unit": "target"}}]}}


# -- 383.4.a.2: gear has play triggers ------------------------------------------------------------------

BANNER = {"war-banner": {"type": "gear", "abilities": [trig("rally", "on-play", {"buff": {"unit": "a1", "might": 1}})]}}


def test_gear_play_trigger_is_its_own_chain_item_after_the_gear_entered_and_the_opponent_may_respond(backend):
    """383.4.a.2, 337.2: the gear resolves at once when finalized; its play trigger becomes pending after it
    has entered, as its own chain item; its controller gets priority first (312.2.c, R17), then the opponent,
    whose Reaction resolves first (340)."""
    g = game(units=[unit("a1", "A", "base", 2)], hands={"A": ["war-banner"], "B": ["reaction-spell"]},
             cards=BANNER, backend=backend)
    do(g, "A play war-banner")
    assert "war-banner#1" in g.state.units and g.state.units["war-banner#1"].kind == "gear"
    ev = lines(g)
    assert ev.index("A's gear war-banner#1 enters play in base") < ev.index("rally goes on the chain, pending")
    expect(g, state="neutral-closed", chain=["rally"], priority="A", units={"a1": {"might": 2}})
    do(g, "A pass")
    expect(g, priority="B", legal={"B": ["concede", "pass", "play reaction-spell"]})
    do(g, "B play reaction-spell", "B pass", "A pass")
    expect(g, chain=["rally"], priority="A", units={"a1": {"might": 2}})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], priority="A", units={"a1": {"might": 3}})


def test_gear_on_the_board_at_the_start_was_not_played_and_fires_no_play_trigger(backend):
    """383.4.a.2: only playing the gear fires it; a starting gear entry never was played."""
    g = game(gear=[{"id": "g1", "owner": "A", "card": "war-banner"}], units=[unit("a1", "A", "base", 2)],
             cards=BANNER, backend=backend)
    expect(g, state="neutral-open", chain=[], priority="A")


# -- 359.3.f.2: location information of a source that left the board --------------------------------------

def _beacon(effect: dict) -> dict:
    return {"beacon": {"type": "unit", "might": 1, "abilities": [trig("summon", "on-play", effect)]}, **KILL}


def test_here_of_a_trigger_whose_source_was_killed_is_unavailable_and_the_move_does_nothing(backend):
    """359.3.f.2: the source is in the trash when its trigger resolves; 'here' is unavailable, so
    'move a1 here' does nothing (before: a1 went to the battlefield where the source died)."""
    g = game(units=[unit("a2", "A", "North", 2), unit("a1", "A", "base", 1)], control={"North": "A"},
             hands={"A": ["beacon"], "B": ["snuff"]}, cards=_beacon({"move": {"unit": "a1", "to": "here"}}),
             backend=backend)
    do(g, "A play beacon at=North", "A pass", "B play snuff unit=beacon#1", "B pass", "A pass")
    expect(g, chain=["summon"], units={"beacon#1": {"zone": "trash", "at": "North"}})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], units={"a1": {"at": "base"}}, contested=[])
    assert rules_of(g, "'here' is unavailable") == "359.3.f.2"


def test_here_of_a_trigger_whose_source_was_killed_plays_no_unit(backend):
    """359.3.f.2: 'play a unit here' with the source gone plays nothing at all (not in base, not where it died)."""
    g = game(units=[unit("a2", "A", "North", 2)], control={"North": "A"}, hands={"A": ["beacon"], "B": ["snuff"]},
             cards=_beacon({"play-unit": {"might": 1, "at": "here"}}), backend=backend)
    do(g, "A play beacon at=North", "A pass", "B play snuff unit=beacon#1", "B pass", "A pass", "A pass", "B pass")
    expect(g, state="neutral-open", chain=[])
    assert not any(u.startswith("token#") for u in g.state.units)


def test_here_is_read_as_the_instruction_executes_a_recalled_source_means_its_base(backend):
    """359.3.f.1: 'here' is the source's location when the instruction executes: recalled to base in
    response, the unit is played in its controller's base."""
    g = game(units=[unit("a2", "A", "North", 2)], control={"North": "A"}, hands={"A": ["beacon"], "B": ["yank"]},
             cards=_beacon({"play-unit": {"might": 1, "at": "here"}}), backend=backend)
    do(g, "A play beacon at=North", "A pass", "B play yank unit=beacon#1", "B pass", "A pass", "A pass", "B pass")
    expect(g, state="neutral-open", units={"beacon#1": {"at": "base"}, "token#1": {"at": "base", "zone": "board"}})


def test_here_of_a_battlefield_ability_is_the_battlefield(backend):
    """359.3.f.1: a battlefield is its own location; it never leaves the board."""
    g = game(battlefields=[{"name": "North", "abilities": [trig("muster", "on-conquer", {"play-unit": {"might": 1, "at": "here"}})]},
                           "South"], units=[unit("a1", "A", "base", 2)], backend=backend)
    do(g, "A move a1 North", "A pass", "B pass", "A pass", "B pass")
    expect(g, state="neutral-open", controller={"North": "A"}, units={"token#1": {"at": "North"}})


# -- 354.3: a unit played by a resolving item enters when that item has finished -----------------------------

CALL = {"call-to-arms": {"type": "spell", "timing": "action",
                         "effect": [{"play-unit": {"might": 1, "at": "base"}}, {"buff": {"unit": "token#1", "might": 2}}]},
        "muster": {"type": "spell", "timing": "action",
                   "effect": [{"play-unit": {"might": 1, "at": "North"}}, {"move": {"unit": "token#1", "to": "base"}}]}}


def test_unit_played_by_a_spell_enters_after_the_spell_so_its_later_buff_misses_it(backend):
    """354.3: the play process of a unit played by an effect waits while the spell resolves; the unit enters
    once the spell has finished (exhausted, 359.2), so 'token#1 gets +2' finds no such unit yet (340)."""
    g = game(hands={"A": ["call-to-arms"]}, cards=CALL, backend=backend)
    do(g, "A play call-to-arms", "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], units={"token#1": {"at": "base", "might": 1, "exhausted": True}})
    ev = lines(g)
    miss = next(i for i, t in enumerate(ev) if t.startswith("buff: token#1 is not on the board"))
    enter = ev.index("token#1 (might 1) enters play at base: call-to-arms has finished resolving")
    assert miss < enter
    assert rules_of(g, "enters play at base: call-to-arms") == "354.3, 359.2"


def test_unit_played_at_a_battlefield_by_a_spell_contests_it_once_it_has_entered(backend):
    """354.3, 190.3.a.1: the unit enters North after the spell (the spell's later move finds nothing), and
    its arrival there applies Contested: a showdown opens with A's focus (345, R4)."""
    g = game(hands={"A": ["muster"]}, cards=CALL, backend=backend)
    do(g, "A play muster", "A pass", "B pass")
    expect(g, state="showdown-open", focus="A", active={"kind": "showdown", "at": "North"},
           units={"token#1": {"at": "North"}})


# -- 355.4.a / 055: an imposed move to the unit's own place ----------------------------------------------

STAY = {"stand-fast": {"type": "spell", "timing": "action", "effect": [{"move": {"unit": "a1", "to": "North"}}]}}


def test_imposed_move_to_the_units_own_place_is_no_move_and_fires_no_arrival(backend):
    """355.4.a, 055: nothing moves; a1's on-arrive ability does not trigger."""
    g = game(units=[unit("a1", "A", "North", 2, abilities=[trig("cheer", "on-arrive", {"buff": {"unit": "self", "might": 1}})])],
             control={"North": "A"}, hands={"A": ["stand-fast"]}, cards=STAY, backend=backend)
    do(g, "A play stand-fast", "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], units={"a1": {"at": "North", "might": 2}})
    assert rules_of(g, "the move does nothing") == "355.4.a, 055"


def test_imposed_move_to_the_units_own_place_is_no_recall_even_where_a_teammate_has_units(backend):
    """355.4.a: a battlefield occupied by a teammate is closed to moves (447.2.b), and a move there becomes a
    recall (447.2.c); but a1 is already there: the instruction does nothing, a1 is not recalled."""
    g = magma(units=[unit("a1", "A", "North", 2), unit("c1", "C", "North", 1)], control={"North": "A"},
              hands={"A": ["stand-fast"]}, cards=STAY, backend=backend)
    do(g, "A play stand-fast", "A pass", "B pass", "C pass", "D pass")
    expect(g, state="neutral-open", units={"a1": {"at": "North"}})
    assert not any("recalled" in t for t in lines(g))


# -- on-arrive: a move, not a play ---------------------------------------------------------------------

SCOUT = {"scout": {"type": "unit", "might": 2,
                   "abilities": [trig("eager", "on-arrive", {"buff": {"unit": "self", "might": 1}})]}}


def test_on_arrive_does_not_fire_when_a_unit_is_played_to_a_battlefield(backend):
    """359.2, 446: being played at North is entering play, not a move: nothing triggers; the play still
    applies Contested where its controller lacks control (190.3.a.1) -- here A controls North."""
    g = game(units=[unit("a0", "A", "North", 1)], control={"North": "A"}, hands={"A": ["scout"]}, cards=SCOUT,
             backend=backend)
    do(g, "A play scout at=North")
    expect(g, state="neutral-open", chain=[], priority="A", units={"scout#1": {"at": "North", "might": 2}})


def test_on_arrive_fires_on_a_standard_move_and_on_an_imposed_move(backend):
    """383, 446: both a standard move (144) and a card's move are moves: the trigger goes on the chain."""
    g = game(units=[unit("a1", "A", "base", 2, abilities=[trig("eager", "on-arrive", {"buff": {"unit": "self", "might": 1}})]),
                    unit("a2", "A", "base", 1, abilities=[trig("eager", "on-arrive", {"buff": {"unit": "self", "might": 1}})])],
             control={"North": "A"}, hands={"A": ["move-spell"]}, backend=backend)
    do(g, "A move a1 North")
    expect(g, state="neutral-closed", chain=["eager"], priority="A")
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", units={"a1": {"might": 3}})
    do(g, "A play move-spell unit=a2 to=North", "A pass", "B pass")
    expect(g, state="neutral-closed", chain=["eager"], priority="A", units={"a2": {"at": "North", "might": 1}})
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", units={"a2": {"at": "North", "might": 2}})
