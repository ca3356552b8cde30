"""The real-card catalogue (simulator/core/data/cards.yaml): 40+ real cards by printed name, each played once.

Every card is played from A's hand in a game with resources (its printed energy cost is paid from ready
runes) and its modelled effect is checked once it resolves: a stun stuns, a buff raises might, damage
is dealt, a kill kills, a draw draws, a counter counters, a move moves, a unit enters play (exhausted,
or ready when its Accelerate is paid), gear enters ready and its Add adds energy.
"""
from __future__ import annotations

import subprocess
import sys

import pytest

from simulator.cli.main import main
from simulator.core.cards import KEYWORDS, REAL, keyword
from simulator.game.actions import Action
from simulator.scenario.view import view
from tests.conftest import game

NAMES = sorted(REAL)


def test_the_catalogue_has_at_least_40_real_cards_each_with_facts_and_a_modelled_effect():
    assert len(REAL) >= 40
    for name, c in REAL.items():
        assert c.name == name == c.id and c.type in ("spell", "unit", "gear")
        assert c.cost >= 0 and all(k in KEYWORDS for k, _ in c.keywords)
        assert c.effect or c.abilities or c.keywords or (c.type == "unit" and c.might >= 0), name
    kinds = {k for c in REAL.values() for k, _ in c.keywords}
    assert kinds == set(KEYWORDS), f"every keyword has a real card: missing {set(KEYWORDS) - kinds}"


def _play(name: str):
    card = REAL[name]
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2},
                    {"id": "b1", "owner": "B", "at": "base", "might": 5}],
             hands={"A": [name, "normal-spell"]}, resources={"A": {"runes": 20}, "B": {"runes": 0}})
    s = g.state

    def act(a):
        g.apply(a, g.state.step + 1)

    fields = card.target_fields()
    if card.type == "spell" and "item" in fields:
        act(Action("play", "A", card="normal-spell"))          # something to counter, then the counter
        act(Action("play", "A", card=name, targets=(("item", "normal-spell"),)))
    elif card.type == "spell":
        targets = tuple((f, "b1" if f == "unit" else "North") for f in fields)
        if "to" in fields:
            targets = (("unit", "a1"), ("to", "North"))
        act(Action("play", "A", card=name, targets=targets))
    elif card.type == "unit":
        act(Action("play", "A", card=name, at="base", accelerate=keyword(card.keywords, "accelerate") is not None))
    else:
        act(Action("play", "A", card=name))
    while g.state.chain:                                          # everyone passes until the chain is empty
        act(Action("pass", g.state.priority))
    return g, s


@pytest.mark.parametrize("name", NAMES)
def test_each_real_card_plays_once_with_its_modelled_effect(name):
    card = REAL[name]
    g, before = _play(name)
    v = view(g.state, every=True)
    verbs = {verb: dict(f) for verb, f in card.effect}
    # a move to an uncontrolled battlefield opens a showdown there (323.12); anything else is back to Neutral
    assert v["state"] == ("showdown-open" if "move" in verbs else "neutral-open")
    assert name not in g.state.hands["A"]
    paid = card.cost + ((keyword(card.keywords, "accelerate") or 0) if card.type == "unit" else 0)
    assert v["runes"]["A"] == 20 - paid, "the printed energy cost (and Accelerate's) is paid from ready runes"
    b1 = v["units"]["b1"]
    if "stun" in verbs:
        assert b1["stunned"] is True
    if "buff" in verbs:
        assert b1["might"] == 5 + int(verbs["buff"]["might"])
    if "damage" in verbs:
        assert b1["damage"] == int(verbs["damage"]["amount"]) and b1["zone"] == "board"
    if "kill" in verbs:
        assert b1["zone"] == "trash"
    if "draw" in verbs:
        assert g.state.drawn.get("A", 0) == int(verbs["draw"].get("count", 1))
    if "counter" in verbs:
        assert any(e.event == "normal-spell is countered" for e in g.trace)
    if "move" in verbs:
        assert v["units"]["a1"]["at"] == "North"
    if card.type == "unit":
        uid = f"{name}#1"
        ready = keyword(card.keywords, "accelerate") is not None
        assert v["units"][uid]["might"] == card.might and v["units"][uid]["exhausted"] is (not ready)
        assert g.state.units[uid].keywords == card.keywords
        for ab in card.abilities:
            if ab.trigger == "on-play" and dict(ab.effect[0][1]).get("count"):
                assert g.state.drawn.get("A", 0) == 1
    if card.type == "gear":
        gid = f"{name}#1"
        assert v["gear"][gid] == {"exhausted": False, "zone": "board"}
        g.apply(Action("activate", "A", source=gid, ability="add"), g.state.step + 1)
        assert view(g.state, every=True)["energy"]["A"] == 1


def test_a_real_card_is_usable_by_name_in_a_scenario_file(tmp_path):
    f = tmp_path / "s.yaml"
    f.write_text('name: real cards\nplayers: [A, B]\nbattlefields: [North]\n'
                 'units: [{id: s1, owner: B, at: base, card: "Shen, Kinkou"}]\n'
                 'hands: {A: [Rune Prison]}\n'
                 'steps:\n  - {do: play, player: A, card: Rune Prison, targets: {unit: s1}}\n'
                 '  - expect: {chain: [Rune Prison], units: {s1: {might: 3}}}\n', encoding="utf-8")
    assert main(["simulate", str(f)]) == 0


def test_riftsim_cards_lists_every_card_and_shows_one_by_name(capsys):
    assert main(["cards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert len(out) == len(REAL) + 1 and out[-1] == f"{len(REAL)} cards"
    assert "Rune Prison: spell, cost 2, action -- stun {unit: target}" in out
    assert main(["cards", "rune prison"]) == 0
    one = capsys.readouterr().out
    assert one.startswith("Rune Prison: spell, cost 2, action -- stun {unit: target}\n")
    assert 'in a scenario: card: "Rune Prison"' in one
    assert main(["cards", "--keyword", "backline"]) == 0
    names = [x.split(":")[0] for x in capsys.readouterr().out.splitlines()[:-1]]
    assert names and all(keyword(REAL[n].keywords, "backline") for n in names)


def test_riftsim_cards_unknown_or_ambiguous_name_is_a_one_line_error():
    r = subprocess.run([sys.executable, "-m", "simulator.cli.main", "cards", "Seal"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "names 6 cards" in r.stderr
    r = subprocess.run([sys.executable, "-m", "simulator.cli.main", "cards", "Teemo"], capture_output=True, text=True)
    assert r.returncode == 2 and "no modelled card is named 'Teemo'" in r.stderr and not r.stdout
