"""The real-card catalogue (simulator/core/data/cards/): its first 50 cards by printed name, each played once.

Every modelled card is played by tests/test_cards_catalogue.py; here: the cards are usable by name in a
scenario file, and ``riftsim cards`` lists and shows them.
"""
from __future__ import annotations

import subprocess
import sys


from simulator.cli.main import main
from simulator.core import catalogue
from simulator.core.cards import KEYWORDS, keyword

REAL = catalogue.real()
#: the cards of the first catalogue (scenarios name them); tests/test_cards_catalogue.py plays every modelled card
NAMES = sorted(n for n in REAL if catalogue.entries()[n].set == "unsorted" or n in (
    "Rune Prison", "Discipline", "Disintegrate", "Consult the Past", "Confront", "Defy", "Charm", "Call to Glory",
    "Blast of Power", "Shen, Kinkou", "Sett, Kingpin", "Caitlyn, Patrolling", "Blitzcrank, Impassive",
    "Commander Ledros", "Blazing Scorcher", "Daring Poro", "Blastcone Fae", "Shipyard Skulker", "Seal of Focus",
    "Seal of Discord", "Seal of Insight", "Seal of Rage", "Seal of Strength", "Seal of Unity"))


def test_the_catalogue_has_its_first_cards_each_with_facts_and_a_modelled_effect():
    assert len(NAMES) == 53 and len(REAL) >= 250
    for name, c in REAL.items():
        assert c.name == name == c.id and c.type in ("spell", "unit", "gear")
        assert c.cost >= 0 and all(k in KEYWORDS for k, _ in c.keywords)
    for name in NAMES:
        c = REAL[name]
        assert c.effect or c.abilities or c.keywords or (c.type == "unit" and c.might >= 0), name
    kinds = {k for c in REAL.values() for k, _ in c.keywords}
    assert kinds == set(KEYWORDS), f"every keyword has a real card: missing {set(KEYWORDS) - kinds}"


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
    every = len(catalogue.entries())
    assert len(out) == every + 1 and out[-1] == f"{every} cards"
    assert "Rune Prison: spell, cost 2, action -- stun {unit: target}" in out
    assert "Pouty Poro: unit, cost 2, might 2 -- no effect [not modelled]" in out
    assert main(["cards", "rune prison"]) == 0
    one = capsys.readouterr().out
    assert one.startswith("Rune Prison: spell, cost 2, action -- stun {unit: target}\n")
    assert 'in a scenario: card: "Rune Prison"' in one and "card: Origins OGN-050; calm; power 1" in one
    assert main(["cards", "--keyword", "backline"]) == 0
    names = [x.split(":")[0] for x in capsys.readouterr().out.splitlines()[:-1]]
    assert names and all(keyword(REAL[n].keywords, "backline") for n in names)


def test_riftsim_cards_unknown_or_ambiguous_name_is_a_one_line_error():
    r = subprocess.run([sys.executable, "-m", "simulator.cli.main", "cards", "Seal"], capture_output=True, text=True)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "names 6 cards" in r.stderr
    r = subprocess.run([sys.executable, "-m", "simulator.cli.main", "cards", "Zed"], capture_output=True, text=True)
    assert r.returncode == 2 and "no card riftsim knows is named 'Zed'" in r.stderr and not r.stdout
