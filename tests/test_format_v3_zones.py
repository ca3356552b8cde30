"""Format version 3, section Z (zones): decks, hands, the trash and banishment with card identity (Z1), drawing and
Burn Out (Z2), the zone verbs (Z3), playing from the trash (Z4), tokens off the board (Z5), zone expectations (Z6).

The examples of section Z of the specification run here as written (within a scenario that gives the cards they
name); each refusal of its Refused paragraphs is pinned with its message; the verifier's zone invariants are shown
to catch a broken position. The bundled scenarios (scenarios/rule-056-*, rule-419.1.a-*, rule-431*) are the
worked examples, checked by their golden traces.
"""
from __future__ import annotations

import pytest

from simulator.core.errors import ScenarioError
from simulator.game.engine import Game
from simulator.game.actions import Action, check, choice, legal
from simulator.core.errors import IllegalAction
from simulator.scenario.loader import loads, run
from simulator.verify import explore

JOLT = "jolt: {type: spell, timing: action, effect: [{damage: {unit: target, amount: 1}}], text: 'Action: deal 1.'}"


def scenario(body: str, steps: str, cards: str = JOLT) -> str:
    return f"name: z\nplayers: [A, B]\nbattlefields: [North]\ncards:\n  {cards}\n{body}\nsteps:\n{steps}"


def passes(text: str) -> None:
    res = run(loads(text, "z.yaml"))
    assert res.status == "pass", res.message


# -- Z1: the spec's zone keys, as written ------------------------------------------------------------------------

Z1 = """\
decks:
  A: 3                                  # 3 blank cards
  B: {count: 6, top: [jolt, {id: k9, card: unit-3}]}   # top first; count includes the named cards
hands:
  A: [jolt, {id: h4, card: unit-2}]
trash:
  A: [jolt, {id: t7, card: unit-3}]
banished:
  B: [unit-4]
"""


def test_z1_the_zone_keys_of_the_spec_build_the_zones_with_card_identity():
    """Z1 (108, 127): a deck of blank cards below its named top, named copies by id, the trash in order."""
    passes(scenario(Z1, """\
  - expect:
      deck: {A: 3, B: {count: 6, top: [jolt, k9]}}
      hand: {A: [jolt, h4], B: []}
      trash: {A: [jolt, t7]}
      banished: {B: [unit-4]}
  - expect: {deck: {B: {count: 6, top: [jolt, unit-3]}}, hand: {A: [jolt, unit-2]}, trash: {A: {has: [unit-3], lacks: [unit-2]}}}
"""))


def test_z1_a_card_played_by_its_id_enters_as_a_new_object_named_after_its_card():
    """124: h4 (a unit-2) played from the hand enters as unit-2#1; the chain shows its card name (Z1)."""
    passes(scenario(Z1, """\
  - {do: play, player: A, card: h4}
  - expect: {chain: [], hand: {A: [jolt]}, units: {"unit-2#1": {zone: board, might: 2}}}
"""))


def test_z1_version_2_files_keep_their_state_keys():
    """A file without decks, trash or banishment does not model its zones: the key and the hands are as before."""
    g = Game.from_setup({"players": ["A", "B"], "hands": {"A": ["action-spell"]}}).state
    assert not g.cfg.zones and g.piles == {}
    assert g.hands_key() == (("A", ("action-spell",)), ("B", ()))


# -- Z1, Z6: refusals (file errors) ------------------------------------------------------------------------------

@pytest.mark.parametrize("body, line, why", [
    ("decks:\n  A: {count: 1, top: [jolt, jolt]}", 7, "A's deck: count 1 is smaller than its top list (2 cards)"),
    ("trash:\n  A: [{id: t7, card: unit-3}]\nbanished:\n  B: [{id: t7, card: unit-4}]", 9, "duplicate id t7"),
    ("units: [{id: t7, owner: A, might: 1}]\ntrash:\n  A: [{id: t7, card: unit-3}]", 8, "duplicate id t7"),
    ("trash:\n  C: [jolt]", 7, "unknown player C in trash (players: A, B)"),
    ("trash:\n  A: [{id: t7, card: nothing}]", 7,
     "unknown card nothing in A's trash (not in the catalogue or cards:)"),
])
def test_z1_refusals_name_the_line_and_the_reason(body, line, why):
    with pytest.raises(ScenarioError) as e:
        loads(scenario(body, "  - expect: {turn: A}\n"), "z.yaml")
    assert str(e.value) == f"z.yaml:{line}: {why}"


def test_z1_a_negative_count_is_refused():
    with pytest.raises(ScenarioError) as e:
        loads(scenario("decks:\n  A: -1", "  - expect: {turn: A}\n"), "z.yaml")
    assert str(e.value).startswith("z.yaml:7: ")


def test_z1_card_is_the_blank_cards_name():
    """Z1: `card` is reserved for blank cards; no custom card takes that id."""
    with pytest.raises(ScenarioError) as e:
        loads(scenario("", "  - expect: {turn: A}\n", cards="card: {type: spell}"), "z.yaml")
    assert "card is the name of a blank card" in str(e.value)


@pytest.mark.parametrize("expect, why", [
    ("{deck: {A: 2}}", "A's deck is endless: give A a decks: entry"),
    ("{deck: {B: {count: 1, top: [jolt, jolt]}}}", "B's deck: top names 2 cards, more than its count 1"),
])
def test_z6_refusals(expect, why):
    with pytest.raises(ScenarioError) as e:
        loads(scenario("decks:\n  B: 3", f"  - expect: {expect}\n"), "z.yaml")
    assert str(e.value).endswith(why)


# -- Z2: drawing and Burn Out -----------------------------------------------------------------------------------

def test_z2_draw_phase_draws_from_a_modelled_deck_and_the_draw_verb_takes_a_player():
    """315.4.b, 413: B's Draw Phase takes B's top card; a draw for another player (Z2 player:) takes theirs."""
    passes(scenario("decks:\n  A: 2\n  B: {count: 2, top: [jolt]}\nhands:\n  A: [gift]", """\
  - {do: play, player: A, card: gift}
  - expect: {chain: [gift]}
  - {do: pass, player: A}
  - expect: {chain: [gift], priority: B}
  - {do: pass, player: B}
  - expect: {hand: {B: [jolt]}, deck: {A: 2, B: 1}}
  - {do: end-turn, player: A}
  - expect: {turn: B, hand: {B: [jolt, card]}, deck: {B: 0}}
""", cards=JOLT + "\n  gift: {type: spell, effect: [{draw: {count: 1, player: B}}]}"))


def test_z2_burn_out_in_a_duel_gives_the_opponent_the_point_and_recycles_the_trash():
    """431.2: the trash becomes the deck, the opponent gains 1 point, the draw goes on."""
    passes(scenario("decks:\n  A: 0\nhands:\n  A: [study]\ntrash:\n  A: [{id: t7, card: unit-3}]", """\
  - {do: play, player: A, card: study}
  - expect: {chain: [study]}
  - {do: pass, player: A}
  - expect: {chain: [study], priority: B}
  - {do: pass, player: B}
  - expect: {hand: {A: [t7]}, deck: {A: 0}, trash: {A: [study]}, score: {A: 0, B: 1}, units: {}}
""", cards=JOLT + "\n  study: {type: spell, effect: [{draw: {count: 1}}]}"))


# -- Z3: the zone verbs -----------------------------------------------------------------------------------------

def test_z3_a_returned_unit_is_not_killed_its_deathknell_does_not_trigger():
    """Z3 (056): a return is no death: the unit's own-death ability does not trigger."""
    body = ("units:\n  - {id: b1, owner: B, might: 2, keywords: [{deathknell: [{draw: {count: 1}}]}]}\n"
            "trash: {}\nhands:\n  A: [bounce]")
    passes(scenario(body, """\
  - {do: play, player: A, card: bounce, targets: {unit: b1}}
  - expect: {chain: [bounce]}
  - {do: pass, player: A}
  - expect: {chain: [bounce], priority: B}
  - {do: pass, player: B}
  - expect: {chain: [], hand: {B: [b1]}, units: {b1: {zone: hand}}}
""", cards=JOLT + "\n  bounce: {type: spell, effect: [{return: {unit: target}}]}"))


def test_z3_a_discard_of_alike_cards_asks_nothing():
    """422 (Z3): all the candidates are alike: the card is taken without a decision."""
    passes(scenario("trash: {}\nhands:\n  A: [purge, jolt, jolt]", """\
  - {do: play, player: A, card: purge}
  - expect: {chain: [purge]}
  - {do: pass, player: A}
  - expect: {chain: [purge], priority: B}
  - {do: pass, player: B}
  - expect: {chain: [], priority: A, hand: {A: [jolt]}, trash: {A: [jolt, purge]}}
""", cards=JOLT + "\n  purge: {type: spell, effect: [{discard: {count: 1}}]}"))


# -- Z4: playing from the trash ---------------------------------------------------------------------------------

Z4 = """\
gear:
  - {id: ossuary, owner: A, abilities: [{name: unearth, static: {may-play-from: trash}}]}   # a permission (K5)
trash:
  A: [revenant, jolt]
units:
  - {id: b1, owner: B, might: 3}
"""


def test_z4_the_spec_example_plays_revenant_from_the_trash():
    """419.1.a, 354.1: with ossuary's permission, revenant moves from the trash to the chain and enters play."""
    passes(scenario(Z4, """\
  - {do: play, player: A, card: revenant, from: trash}
  - expect: {chain: [], trash: {A: [jolt]}, units: {"revenant#1": {zone: board}}}
  - {do: play, player: A, card: jolt, from: trash, targets: {unit: b1}}
  - expect: {chain: [jolt], trash: {A: []}}
""", cards=JOLT + "\n  revenant: {type: unit, might: 3, cost: 4, play-from-trash: {energy: 5}}"))


def test_z4_refusals_cite_419_1_a_and_811_1_c_1():
    """Without a permission the play is refused (419.1.a); a hide from the trash never is allowed (811.1.c.1);
    legal lists `play CARD from trash` only where permitted, never a hide from the trash."""
    sc = loads(scenario("trash:\n  A: [jolt, shade]\nunits:\n  - {id: b1, owner: B, might: 3}", "  - expect: {turn: A}\n",
                        cards=JOLT + "\n  shade: {type: unit, might: 1, keywords: [hidden]}"), "z.yaml")
    g = sc.game().state
    with pytest.raises(IllegalAction) as e:
        check(g, Action("play", "A", card="jolt", targets=(("unit", "b1"),), origin="trash"))
    assert (e.value.reason, e.value.rule) == ("nothing lets A play jolt from the trash", "419.1.a")
    with pytest.raises(IllegalAction) as e:
        check(g, Action("hide", "A", card="shade", at="North", origin="trash"))
    assert e.value.rule == "811.1.b, 811.1.c.1"
    with pytest.raises(IllegalAction) as e:
        check(g, Action("play", "B", card="jolt", targets=(("unit", "b1"),), origin="trash"))
    assert not any("from trash" in choice(a) for a in legal(g, "A"))


# -- Z5: tokens -------------------------------------------------------------------------------------------------

def test_z5_a_killed_token_is_in_no_trash():
    """186.1: a token put into the trash ceases to exist: no zone lists it, it reports zone removed."""
    passes(scenario("trash: {}\nhands:\n  A: [conscript, snuff]", """\
  - {do: play, player: A, card: conscript}
  - expect: {chain: [conscript]}
  - {do: pass, player: A}
  - expect: {chain: [conscript], priority: B}
  - {do: pass, player: B}
  - expect: {units: {"token#1": {zone: board}}}
  - {do: play, player: A, card: snuff, targets: {unit: "token#1"}}
  - expect: {chain: [snuff]}
  - {do: pass, player: A}
  - expect: {chain: [snuff], priority: B}
  - {do: pass, player: B}
  - expect: {units: {"token#1": {zone: removed}}, trash: {A: [conscript, snuff], B: []}}
""", cards=JOLT + "\n  conscript: {type: spell, effect: [{play-unit: {might: 1}}]}"
         "\n  snuff: {type: spell, effect: [{kill: {unit: target}}]}"))


# -- Z6: the spec's expectation, as written ---------------------------------------------------------------------

def test_z6_the_spec_example_holds_as_written():
    """Z6: the spec's expectation, after g1's abilities returned u4 (B's) to B's hand and banished u8 (B's)."""
    body = """\
units:
  - {id: u4, owner: B, might: 4}
  - {id: u8, owner: B, might: 8}
gear:
  - {id: g1, owner: A, abilities: [{name: bounce, activated: true, effect: [{return: {unit: target}}]},
                                   {name: exile, activated: true, effect: [{banish: {unit: target}}]}]}
decks:
  A: 4
  B: {count: 3, top: [unit-3]}
hands:
  A: [jolt, card]
  B: [jolt]
trash:
  A: [{id: u3, card: unit-3}, jolt]
"""
    steps = """\
  - {do: activate, player: A, source: g1, ability: bounce, targets: {unit: u4}}
  - expect: {chain: [bounce]}
  - {do: pass, player: A}
  - expect: {chain: [bounce], priority: B}
  - {do: pass, player: B}
  - expect: {chain: []}
  - {do: activate, player: A, source: g1, ability: exile, targets: {unit: u8}}
  - expect: {chain: [exile]}
  - {do: pass, player: A}
  - expect: {chain: [exile], priority: B}
  - {do: pass, player: B}
  - expect:
      hand: {A: [jolt, card], B: {count: 2}}
      deck: {A: 4, B: {count: 3, top: [unit-3]}}
      trash: {A: [u3, jolt]}
      banished: {B: {has: [u8], lacks: [jolt]}}
      units: {u4: {zone: hand}, u8: {zone: banished}}
"""
    passes(scenario(body, steps))
    res = run(loads(scenario(body, steps.replace("trash: {A: [u3, jolt]}", "trash: {A: [u3, jolt, jolt]}")), "z.yaml"))
    assert res.status == "fail" and "expected trash of A [u3, jolt, jolt], got [u3, jolt]" in res.message


# -- verify: the zone invariants catch a broken position --------------------------------------------------------

def zoned():
    sc = loads(scenario(Z1, "  - expect: {turn: A}\n"), "z.yaml")
    return sc.game().state


def test_the_one_zone_invariant_catches_a_card_in_two_zones():
    g = zoned()
    assert explore._one_zone(g, {}) is None
    g.set_pile("banished", "A", ("t7",))
    assert explore._one_zone(g, {}) == "t7 is in 2 zones: [('trash', 'A'), ('banished', 'A')]"


def test_the_conservation_invariant_catches_a_card_that_vanished():
    g = zoned()
    assert explore._cards_conserved(g, {}) is None
    g.set_pile("deck", "A", ("card", "card"))
    assert explore._cards_conserved(g, {}) == "the game holds 13 cards, 14 expected (+0 made by rules)"


def test_z3_gear_returned_banished_and_killed():
    """Z3: return and banish take gear too (no death, 427), and a kill of gear is a death (428): each goes to its
    owner's zone (056)."""
    body = ("gear:\n  - {id: g1, owner: B, card: add-gear}\n  - {id: g2, owner: B, card: add-gear}\n"
            "  - {id: g3, owner: B, card: add-gear}\ntrash: {}\nhands:\n  A: [lift, exile, smash]")
    cards = (JOLT + "\n  lift: {type: spell, effect: [{return: {gear: target}}]}"
             "\n  exile: {type: spell, effect: [{banish: {gear: g2}}]}"
             "\n  smash: {type: spell, effect: [{kill: {gear: target}}]}")
    steps = ""
    for card, tgt in (("lift", ", targets: {gear: g1}"), ("exile", ""), ("smash", ", targets: {gear: g3}")):
        steps += (f"  - {{do: play, player: A, card: {card}{tgt}}}\n  - expect: {{chain: [{card}]}}\n"
                  f"  - {{do: pass, player: A}}\n  - expect: {{priority: B}}\n  - {{do: pass, player: B}}\n"
                  f"  - expect: {{chain: []}}\n")
    steps += ("  - expect: {hand: {B: [g1]}, banished: {B: [g2]}, trash: {B: [g3], A: [lift, exile, smash]},"
              " gear: {g1: {zone: hand}, g2: {zone: banished}, g3: {zone: trash}}}\n")
    passes(scenario(body, steps, cards=cards))
    with pytest.raises(ScenarioError) as e:
        loads(scenario(body, "  - {do: play, player: A, card: lift, targets: {gear: g9}}\n  - expect: {turn: A}\n",
                       cards=cards), "z.yaml")
    assert "unknown unit or gear g9" in str(e.value)


@pytest.mark.parametrize("body, why", [
    ("hands:\n  A: [gift]", "unknown player C in draw player (players: A, B)"),
    ("decks:\n  A: 101", "A must be at most 100, not 101"),
    ("trash:\n  A: [" + ", ".join(["jolt"] * 101) + "]", "A has 101 entries: at most 100"),
])
def test_z2_a_literal_player_not_in_the_game_and_the_zone_bounds_are_file_errors(body, why):
    """Z2: `player:` naming someone not in the game is a file error; zones hold at most 100 cards a player."""
    with pytest.raises(ScenarioError) as e:
        loads(scenario(body, "  - expect: {turn: A}\n",
                       cards=JOLT + "\n  gift: {type: spell, effect: [{draw: {count: 1, player: C}}]}"), "z.yaml")
    assert str(e.value).endswith(why)


def test_z3_a_discard_of_cards_that_differ_is_the_discarder_s_decision():
    """422 (Z3) in the one decision function (X3): while purge's discard waits, Game.decision() is A's ``choose``
    about purge with A's hand as its options; nothing else may be done (nobody has priority), only A chooses, and
    only a card of A's hand."""
    passes(scenario("trash: {}\nhands:\n  A: [purge, jolt, unit-2]", """\
  - {do: play, player: A, card: purge}
  - expect: {chain: [purge]}
  - {do: pass, player: A}
  - expect: {chain: [purge], priority: B}
  - {do: pass, player: B}
  - expect:
      decision: {kind: choose, player: A, item: purge}
      priority: null
      legal: {A: [choose card jolt, choose card unit-2, concede], B: [concede]}
  - {do: pass, player: B, illegal: "A must first choose the card to discard for purge; nobody has priority"}
  - {do: choose, player: B, card: jolt, illegal: "only A chooses the card to discard"}
  - {do: choose, player: A, card: unit-4, illegal: "unit-4 is not in A's hand"}
  - {do: choose, player: A, option: yes, illegal: "A must first choose the card to discard for purge"}
  - {do: choose, player: A, card: unit-2}
  - expect: {chain: [], priority: A, decision: {kind: main, player: A}, hand: {A: [jolt]}, trash: {A: [unit-2, purge]}}
""", cards=JOLT + "\n  purge: {type: spell, effect: [{discard: {count: 1}}]}"))
