"""Seed 001: the chain and Reactions. LIFO; all pass -> the newest item resolves; a new response window after
each resolution; units, gear and Add abilities resolve at once; En Garde (CR 328-340, 337.2, 429, 813, R17)."""
from conftest import do, expect, game, illegal, index_of, lines, rules_of

UNITS = [{"id": "a1", "owner": "A", "at": "base", "might": 2},
         {"id": "b1", "owner": "B", "at": "base", "might": 3}]


def test_seed001_example_reaction_resolves_then_older_spell_needs_a_new_full_round(backend):
    """Seed 001 'En pratique': your spell waits -> the opponent's Reaction is added -> all pass -> the Reaction
    resolves; your spell is still pending; a new round of passes is needed before it resolves (339, 340.4, R17)."""
    g = game(units=UNITS, hands={"A": ["normal-spell"], "B": ["reaction-spell"]}, backend=backend)
    do(g, "A play normal-spell")
    # R17/312.2.c: once finalized, the controller of the newest item has priority
    expect(g, state="neutral-closed", priority="A", focus=None, chain=["normal-spell"],
           legal={"A": ["concede", "pass"], "B": ["concede"]})
    do(g, "A pass")
    expect(g, state="neutral-closed", priority="B", chain=["normal-spell"],
           legal={"A": ["concede"], "B": ["concede", "pass", "play reaction-spell"]})
    do(g, "B play reaction-spell")
    expect(g, state="neutral-closed", priority="B", chain=["normal-spell", "reaction-spell"],
           legal={"A": ["concede"], "B": ["concede", "pass"]})
    do(g, "B pass")
    expect(g, state="neutral-closed", priority="A", chain=["normal-spell", "reaction-spell"])
    do(g, "A pass")                                   # all have passed in succession: the newest resolves
    expect(g, state="neutral-closed", priority="A", chain=["normal-spell"],
           legal={"A": ["concede", "pass"], "B": ["concede"]})
    assert "reaction-spell resolves" in lines(g) and "normal-spell resolves" not in lines(g)
    do(g, "A pass")                                   # one pass is not a full round: the spell still waits
    expect(g, state="neutral-closed", priority="B", chain=["normal-spell"])
    assert "normal-spell resolves" not in lines(g)
    do(g, "B pass")
    expect(g, state="neutral-open", priority="A", chain=[], legal={"B": ["concede"]})
    assert index_of(g, "reaction-spell resolves") < index_of(g, "normal-spell resolves")
    assert "340" in rules_of(g, "normal-spell resolves")


def test_seed001_passing_once_is_not_accepting_the_whole_chain():
    """Seed 001: 'Passer une fois ne signifie pas accepter la résolution de toute la chaîne' - after the newest
    item resolves, a player who passed before may respond again (340.4)."""
    g = game(units=UNITS, hands={"A": ["normal-spell", "reaction-spell"], "B": ["reaction-spell"]})
    do(g, "A play normal-spell", "A pass", "B play reaction-spell", "B pass", "A pass")
    expect(g, chain=["normal-spell"], priority="A")
    do(g, "A play reaction-spell")                    # A passed before, and responds now
    expect(g, state="neutral-closed", chain=["normal-spell", "reaction-spell"], priority="A")
    do(g, "A pass", "B pass")
    expect(g, chain=["normal-spell"], priority="A")
    do(g, "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], priority="A")


def test_seed001_units_resolve_at_once_without_a_response_window():
    """Seed 001 / 337.2, 359.2: a unit enters play as soon as it is finalized; nobody gets priority to respond to
    it; it enters exhausted at its chosen location."""
    g = game(units=UNITS, hands={"A": ["unit-2"], "B": ["reaction-spell"]})
    do(g, "A play unit-2")
    expect(g, state="neutral-open", priority="A", chain=[], units={"unit-2#1": {"at": "base", "exhausted": True,
                                                                                "might": 2}},
           legal={"B": ["concede"]})
    assert "337.2" in rules_of(g, "unit-2 is finalized and resolves at once")
    assert not any("passes priority" in e for e in lines(g))


def test_seed001_gear_and_add_ability_resolve_at_once_and_keep_priority():
    """Seed 001 / 337.2, 429, 400.2: gear enters at once; an Add ability resolves when finalized and does not pass
    priority, even when activated in response."""
    g = game(units=UNITS, gear=[{"id": "g2", "owner": "B", "card": "add-gear"}],
             hands={"A": ["add-gear", "normal-spell"]})
    do(g, "A play add-gear")
    expect(g, state="neutral-open", priority="A", chain=[])
    assert "add-gear#1" in g.state.units and g.state.units["add-gear#1"].kind == "gear"
    do(g, "A activate add-gear#1 add")
    expect(g, state="neutral-open", priority="A", chain=[])
    assert g.state.energy["A"] == 1
    do(g, "A play normal-spell", "A pass")
    expect(g, state="neutral-closed", priority="B", chain=["normal-spell"],
           legal={"B": ["activate g2 add", "concede", "pass"]})
    do(g, "B activate g2 add")
    expect(g, state="neutral-closed", priority="B", chain=["normal-spell"], legal={"B": ["concede", "pass"]})
    assert g.state.energy["B"] == 1
    assert "429" in rules_of(g, "B adds 1 energy")
    do(g, "B pass", "A pass")
    expect(g, state="neutral-open", chain=[], priority="A")


def test_seed001_en_garde_plus_one_and_one_more_when_alone():
    """Seed 001 En Garde (Reaction): +1 might this turn, +1 more if it is the only unit you control there."""
    g = game(units=[{"id": "a1", "owner": "A", "at": "North", "might": 2},
                    {"id": "a2", "owner": "A", "at": "South", "might": 2},
                    {"id": "a3", "owner": "A", "at": "South", "might": 2}],
             control={"North": "A", "South": "A"}, hands={"A": ["en-garde", "en-garde"]})
    do(g, "A play en-garde unit=a1", "A pass", "B pass")
    expect(g, state="neutral-open", chain=[], units={"a1": {"might": 4}})
    assert "a1 gets +2 might this turn (now 4): it is the only unit its controller has there" in lines(g)
    do(g, "A play en-garde unit=a2", "A pass", "B pass")
    expect(g, units={"a2": {"might": 3}, "a3": {"might": 2}})


def test_seed001_en_garde_only_targets_a_friendly_unit():
    """En Garde: 'Give a friendly unit ...' (356: an illegal target is refused, nothing changes)."""
    g = game(units=UNITS, hands={"A": ["en-garde"]})
    illegal(g, "A play en-garde unit=b1", "friendly", "356")


def test_seed001_en_garde_bonus_ends_with_the_turn():
    """En Garde gives might 'this turn': the Ending Phase expiration removes it (317.2 3d)."""
    g = game(units=UNITS, hands={"A": ["en-garde"]})
    do(g, "A play en-garde unit=a1", "A pass", "B pass")
    expect(g, units={"a1": {"might": 4}})
    do(g, "A end-turn")
    expect(g, turn="B", units={"a1": {"might": 2}})


def test_seed001_lifo_three_items_resolve_newest_first():
    """328-340: the chain is last-in, first-out; after each resolution the newest item's controller gets
    priority (340.4, R17)."""
    cards = {"r1": {"type": "spell", "timing": "reaction"}, "r2": {"type": "spell", "timing": "reaction"}}
    g = game(units=UNITS, hands={"A": ["normal-spell", "r2"], "B": ["r1"]}, cards=cards)
    do(g, "A play normal-spell", "A pass", "B play r1", "B pass", "A play r2")
    expect(g, chain=["normal-spell", "r1", "r2"], priority="A")
    do(g, "A pass", "B pass")
    expect(g, chain=["normal-spell", "r1"], priority="B")       # r1's controller
    do(g, "B pass", "A pass")
    expect(g, chain=["normal-spell"], priority="A")
    do(g, "A pass", "B pass")
    expect(g, chain=[], state="neutral-open")
    order = [e for e in lines(g) if e.endswith(" resolves")]
    assert order == ["r2 resolves", "r1 resolves", "normal-spell resolves"]


def test_seed001_in_a_showdown_a_closed_chain_passes_focus_but_an_add_chain_does_not():
    """Seed 001: during a showdown finishing the chain passes focus to the next player (340.2.a); a chain started
    by an Add ability does not (346.1), and the Add does not pass priority either (429)."""
    g = game(units=UNITS, gear=[{"id": "g1", "owner": "A", "card": "add-gear"}], hands={"A": ["action-spell"]})
    do(g, "A move a1 North")
    expect(g, state="showdown-open", focus="A", priority="A")
    do(g, "A activate g1 add")
    expect(g, state="showdown-open", focus="A", priority="A", chain=[],
           legal={"A": ["concede", "pass", "play action-spell"], "B": ["concede"]})
    assert "346.1" in rules_of(g, "focus stays with A")
    do(g, "A play action-spell", "A pass", "B pass")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[])


def test_seed001_unit_played_in_a_showdown_passes_focus_after_its_play_trigger():
    """Ruling R5 (340.2.a, v1.3 337.1.c.1.a): a unit played in a showdown resolves at once; its play trigger joins
    the same card-started chain; players may respond to the trigger; focus passes when that chain empties."""
    cards = {"herald": {"type": "unit", "timing": "action", "might": 1,
                        "abilities": [{"name": "herald-cry", "trigger": "on-play", "effect": [{"draw": {"count": 1}}]}]}}
    g = game(units=UNITS, hands={"A": ["herald"], "B": ["reaction-spell"]}, cards=cards)
    do(g, "A move a1 North", "A play herald")
    expect(g, state="showdown-closed", focus="A", priority="A", chain=["herald-cry"],
           units={"herald#1": {"at": "base", "exhausted": True}})
    do(g, "A pass")
    expect(g, priority="B", legal={"B": ["concede", "pass", "play reaction-spell"]})
    do(g, "B pass")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[])
    assert "R5" in rules_of(g, "focus passes to B")


def test_seed001_unit_without_trigger_in_a_showdown_passes_focus():
    """Ruling R5: a unit with Action played in a showdown - its chain was started by a card, focus passes."""
    g = game(units=UNITS, hands={"A": ["action-unit-1"]})
    do(g, "A move a1 North", "A play action-unit-1")
    expect(g, state="showdown-open", focus="B", priority="B", chain=[], units={"action-unit-1#1": {"at": "base"}})


def test_seed001_unit_without_action_cannot_be_played_in_a_showdown():
    """308.1.a: in a Showdown State only Action or Reaction cards may be played; the state is left unchanged."""
    g = game(units=UNITS, hands={"A": ["unit-2"]})
    do(g, "A move a1 North")
    illegal(g, "A play unit-2", "neither action nor reaction", "308.1.a")
