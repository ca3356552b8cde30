"""Vocabulary that can never take effect is refused at load, with one line ``FILE:LINE: why`` (issue 37 items 4, 5).

Each case was accepted before (a misspelled keyword given, an ability nobody can activate, a name printing
forged trace lines); now the file is refused with the line and, where a rule decides it, the rule. A YAML
merge key that overrides a merged key is accepted (it was refused as a duplicate key).
"""
from __future__ import annotations

import pytest

from simulator.cli.main import main
from simulator.core.errors import ScenarioError
from simulator.scenario.loader import loads, run

BASE = """\
name: t
players: [A, B]
battlefields: [North, South]
units:
  - {id: a1, owner: A, at: base, might: 2}
hands:
  A: [rune-prison]
steps:
  - expect: {state: neutral-open}
"""
CONTROL = "contains a control character or a direction override ({}): ids, names and texts that riftsim prints may not"
RESERVED = ("is a reserved word (self, target, here, there and base stand for a unit or a place in effects and "
            "moves): it can't be an id or a name")

#: (the file, its line, the exact message)
REFUSED = {
    "give-keyword of an unknown keyword": (
        BASE + "cards:\n  x: {effect: [{give-keyword: {unit: target, keyword: flying}}]}\n", 11,
        "unknown keyword flying (keywords: tank, backline, ganking, accelerate, assault, shield, ambush, hidden)"),
    "two activated abilities with the same name": (
        BASE.replace("might: 2}", "might: 2, abilities: [{name: go, activated: true, effect: [{draw: {}}]}, "
                                  "{name: go, activated: true, effect: [{draw: {}}]}]}"), 5,
        "two activated abilities are named go: an activate step names one by its name, so the second could never "
        "be activated [377]"),
    "an activated ability on a battlefield": (
        BASE.replace("[North, South]", "[North, {name: South, abilities: [{name: go, activated: true, "
                                       "effect: [{draw: {}}]}]}]"), 3,
        "a battlefield's abilities are triggered or static: nothing activates a battlefield (`activate` names a "
        "unit or gear), so an activated ability could never take effect"),
    "a unit keyword on a spell": (
        BASE + "cards:\n  x: {type: spell, keywords: [tank]}\n", 11,
        "a spell's only keyword is hidden (811): tank is for units (a spell never is on the board, and Deathknell "
        "triggers on a unit's death, 808)"),
    "Deathknell on a spell (type left to its default)": (
        BASE + "cards:\n  x: {keywords: [{deathknell: [{draw: {}}]}]}\n", 11,
        "a spell's only keyword is hidden (811): {deathknell: [{draw: {}}]} is for units (a spell never is on the "
        "board, and Deathknell triggers on a unit's death, 808)"),
    "might on gear": (
        BASE + "cards:\n  x: {type: gear, might: 2, abilities: [{name: go, activated: true, effect: [{draw: {}}]}]}\n",
        11, "gear has no might: only units have might (a gear's might could never take effect)"),
    "a unit id that is a reserved word": (BASE.replace("id: a1", "id: target"), 5, f"target {RESERVED}"),
    "a battlefield named here": (BASE.replace("[North, South]", "[North, here]"), 3, f"here {RESERVED}"),
    "a player named self": (BASE.replace("players: [A, B]", "players: [A, self]"), 2, f"self {RESERVED}"),
    "a gear id that is a reserved word": (
        BASE + "gear: [{id: there, owner: A, card: add-gear}]\n", 10, f"there {RESERVED}"),
    "a start where a player has already won": (
        BASE + "score: {A: 8}\n", 10,
        "A starts with 8 points, at least the victory score (8) and more than every opponent: the game would be "
        "over before anyone acts [323.1, 194.2]"),
    "a magma-chamber team that has already won": (
        BASE.replace("players: [A, B]", "mode: magma-chamber\nplayers: [A, B, C, D]\nteams: [[A, C], [B, D]]")
        + "score: {A: 11, B: 10}\n", 12,
        "A starts with 11 points, at least the victory score (11) and more than every opponent: the game would be "
        "over before anyone acts [323.1, 194.2]"),
    "a newline in the scenario's name (forged trace lines)": (
        BASE.replace("name: t", 'name: "t\\n-- PASS\\n1 scenario: 1 passed"'), 1,
        "name " + CONTROL.format("'t\\n-- PASS\\n1 scenario: 1 passed'")),
    "an escape sequence in a unit id": (
        BASE.replace("id: a1", 'id: "a\\e[31m1"'), 5, "id " + CONTROL.format("'a\\x1b[31m1'")),
    "NUL in a player name": (
        BASE.replace("players: [A, B]", 'players: [A, "B\\0"]'), 2, "entry 2 of players " + CONTROL.format("'B\\x00'")),
    "a right-to-left override in a battlefield name": (
        BASE.replace("[North, South]", '[North, "So\\u202Euth"]'), 3,
        "entry 2 of battlefields " + CONTROL.format("'So\\u202euth'")),
    "a newline in an ability name": (
        BASE.replace("might: 2}", 'might: 2, abilities: [{name: "x\\ny", trigger: on-play, effect: []}]}'), 5,
        "name " + CONTROL.format("'x\\ny'")),
    "a bell in a pending reason": (BASE + 'pending: "soon\\a"\n', 10, "pending " + CONTROL.format("'soon\\x07'")),
    "an escape sequence in a card's text": (
        BASE + 'cards:\n  x: {text: "\\e[2J"}\n', 11,
        "card x's text contains a control character or a direction override ('\\x1b[2J'): only new lines and tabs are "
        "allowed in it"),
}


@pytest.mark.parametrize("case", list(REFUSED))
def test_vocabulary_that_can_never_take_effect_is_refused(tmp_path, capsys, case):
    text, line, why = REFUSED[case]
    with pytest.raises(ScenarioError) as e:
        loads(text, "f.yaml")
    assert str(e.value) == f"f.yaml:{line}: {why}"
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    assert main(["simulate", str(path)]) == 2
    out, err = capsys.readouterr()
    assert err == f"{path}:{line}: {why}\n"                      # one line
    assert out.splitlines() == ["1 scenario: 0 passed, 0 failed, 1 invalid, 0 pending"]
    assert not [c for c in out + err if c != "\n" and (ord(c) < 32 or 0x7f <= ord(c) <= 0x9f or c == "\u202e")]


@pytest.mark.parametrize("text", [
    BASE + "score: {A: 8, B: 8}\n",                 # 194.2: a tie at the victory score is no win; play goes on
    BASE + "score: {A: 7}\n",
    BASE + "cards:\n  x: {type: spell, keywords: [hidden]}\n",          # 811: a spell may be Hidden
    BASE + "description: |\n  two\n  lines\tand a tab\n",               # free text printed nowhere
    BASE.replace("[North, South]", "[North, {name: South, abilities: [{name: bastion, static: {might: 1}}]}]"),
], ids=["tie-at-victory", "short-of-victory", "hidden-spell", "multi-line-description", "static-battlefield"])
def test_what_can_take_effect_is_still_accepted(text):
    assert run(loads(text, "f.yaml")).status == "pass"


def test_a_yaml_merge_key_may_be_overridden():
    """``<<: *u`` then ``id:`` and ``might:``: the mapping's own keys win over the merged ones (YAML 1.1 merge)."""
    text = BASE.replace("units:\n  - {id: a1, owner: A, at: base, might: 2}",
                        "units:\n  - &u {id: a1, owner: A, at: base, might: 2}\n  - {<<: *u, id: a2, might: 3}")
    text = text.replace("state: neutral-open}", "state: neutral-open, units: {a1: {might: 2}, a2: {might: 3, at: base}}}")
    sc = loads(text, "f.yaml")
    assert [u["id"] for u in sc.setup["units"]] == ["a1", "a2"]
    assert run(sc).status == "pass"


def test_a_key_written_twice_is_still_a_duplicate():
    with pytest.raises(ScenarioError, match=r"^f.yaml:6: duplicate key might$"):
        loads(BASE.replace("might: 2}", "might: 2,\n      might: 3}"), "f.yaml")


def test_game_from_setup_refuses_the_same_vocabulary():
    from simulator import Game
    with pytest.raises(ScenarioError) as e:
        Game.from_setup({"players": ["A", "B"], "units": [{"id": "self", "owner": "A", "might": 1}]})
    assert str(e.value) == f"setup:1: self {RESERVED}"
    with pytest.raises(ScenarioError) as e:
        Game.from_setup({"players": ["A", "B"], "score": {"B": 9}})
    assert str(e.value).startswith("setup:1: B starts with 9 points") and str(e.value).endswith("[323.1, 194.2]")
