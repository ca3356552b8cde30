"""The real-card catalogue as data (simulator/core/data/cards/SET.yaml), and every modelled card played.

* The set files are checked by the JSON Schema of custom cards (definition ``catalogue`` of the shipped
  scenario schema), every ``unmodelled`` item names a vocabulary item, Origins has its 298 cards.
* The catalogue is read only when a name is not built in: ``riftsim --version`` and a scenario naming no
  real card never read it.
* ``riftsim cards --coverage --markdown`` is what docs/cards.md shows.
* **Every fully or partly modelled card is played** (generated, one test per card) in a small position: A
  plays it (a spell, unit or gear from the hand) with its targets chosen from ``legal``; the test checks
  what a judge checks: the card left the hand (354), is on the chain or (a unit, gear) its item resolved
  and it is on the board (359.2), and after everyone passes the chain is empty and each modelled
  instruction's result holds on the targets chosen (stun 423, buff, damage 417, kill 428, draw, counter
  425, move 446, ready 415, keywords given, tokens played 186, replay, ward R21, extra turn 734). Gear is
  then activated with an activated ability it has, and its instruction checked the same way.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.core import catalogue
from simulator.core.cards import keyword
from simulator.core.errors import ScenarioError
from simulator.game import shape
from simulator.game.actions import Action
from simulator.scenario.loader import parse
from simulator.scenario.view import view
from tests.conftest import game

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "simulator" / "core" / "data" / "cards"
MODELLED = sorted(n for n, e in catalogue.entries().items()
                  if e.card is not None and catalogue.status(e) != "none")


# -- the data ---------------------------------------------------------------------------------------------

@pytest.mark.parametrize("path", sorted(DATA.glob("*.yaml")), ids=lambda p: p.stem)
def test_each_set_file_is_checked_by_the_schema_of_custom_cards(path):
    text = path.read_text(encoding="utf-8")
    doc, lines = parse(text, str(path))
    shape.check(doc, "catalogue", str(path), lines)
    name = next(iter(doc["cards"]))
    bad = text.replace(f"\n  {name}:\n", f"\n  {name}:\n    colour: red\n", 1)
    doc, lines = parse(bad, str(path))
    with pytest.raises(ScenarioError, match=r":\d+: unknown key colour"):
        shape.check(doc, "catalogue", str(path), lines)


def test_every_unmodelled_item_names_a_vocabulary_item_and_no_card_text_is_kept():
    for e in catalogue.entries().values():
        for part in e.unmodelled.split(";"):
            if part.strip():
                catalogue.item(part)                   # raises for an unknown ID or NEW/OOS item
        assert len(e.text) <= 120, f"{e.name}: a summary is riftsim's short description, not card text"


def test_origins_has_its_298_cards_with_their_facts():
    origins = [e for e in catalogue.entries().values() if e.set == "origins"]
    assert sorted(e.number for e in origins) == list(range(1, 299))
    for e in origins:
        assert e.kind in catalogue.KINDS, e.name
        if e.kind in ("unit", "token"):
            assert e.might is not None and e.might >= 0, e.name
        if e.kind in ("unit", "spell", "gear"):
            assert e.domains and e.card is not None and e.card.cost == e.cost, e.name
        else:
            assert e.card is None, f"{e.name}: a {e.kind} is never played from a hand"
    assert catalogue.sets()["proving-grounds"]["size"] == 24
    assert len([e for e in catalogue.entries().values() if e.set == "proving-grounds"]) == 24


def test_status_full_partial_none():
    """Fully: nothing left out; partly: something modelled and something not; not: nothing modelled."""
    e = catalogue.entries()
    assert catalogue.status(e["Rune Prison"]) == "full"          # stun a unit
    assert catalogue.status(e["Mega-Mech"]) == "full"            # no text: nothing to leave out
    assert catalogue.status(e["Hextech Ray"]) == "partial"       # damage modelled, its target filter not (G2)
    assert catalogue.status(e["Stand United"]) == "partial"      # Hidden modelled, its effect not
    assert catalogue.status(e["Pouty Poro"]) == "none"           # only Deflect (out of scope)
    assert catalogue.missing(e["Pouty Poro"]) == [("OOS", "Deflect (a power cost)")]
    assert catalogue.status(e["Grove of the God-Willow"]) == "partial"   # its ability, not usable by name yet


# -- loaded lazily ----------------------------------------------------------------------------------------

def _loaded(*argv: str) -> tuple[set[str], bool]:
    """The modules one command imported, and whether it read the set files."""
    code = ("import sys\nfrom simulator.cli.main import main\ntry:\n    main(sys.argv[1:])\nexcept SystemExit:\n"
            "    pass\nc = sys.modules.get('simulator.core.catalogue')\n"
            "print(' '.join(sorted(sys.modules)), bool(c and c._load.cache_info().currsize), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, *argv], cwd=ROOT, capture_output=True, text=True, timeout=120)
    *mods, read = done.stderr.split()
    return set(mods), read == "True"


def test_the_catalogue_is_read_only_when_a_scenario_names_a_real_card():
    mods, read = _loaded("--version")
    assert "simulator.core.catalogue" not in mods and "yaml" not in mods and not read
    mods, read = _loaded("simulate", "-q", str(ROOT / "scenarios" / "seed000-showdown-on-an-empty-battlefield.yaml"))
    assert "simulator.game.engine" in mods and not read, "a scenario of built-in cards never reads the set files"
    _, read = _loaded("simulate", "-q", str(ROOT / "scenarios" / "keyword-ambush.yaml"))
    assert read, "keyword-ambush names Chakram Dancer: the set files are read"


# -- the command ------------------------------------------------------------------------------------------

def test_coverage_is_printed_and_docs_cards_md_shows_the_commands_tables(capsys):
    assert main(["cards", "--coverage"]) == 0
    out = capsys.readouterr().out
    per_set, _, _ = catalogue.coverage()
    o = per_set["origins"]
    assert any(x.split() == ['Origins', '(OGN)', '298', str(o['full']), str(o['partial']), str(o['none'])] for x in out.splitlines())
    assert main(["cards", "--coverage", "--markdown"]) == 0
    tables = capsys.readouterr().out
    doc = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    begin, end = "<!-- riftsim cards --coverage --markdown -->\n", "<!-- end -->"
    assert doc[doc.index(begin) + len(begin):doc.index(end)] == tables, \
        "docs/cards.md: paste the output of `riftsim cards --coverage --markdown` between its markers"


def test_filters_by_set_keyword_status_and_json(capsys):
    assert main(["cards", "--set", "proving-grounds", "--modelled"]) == 0
    out = capsys.readouterr().out.splitlines()
    names = [x.split(":")[0] for x in out[:-1]]
    assert names and all(catalogue.entries()[n].set == "proving-grounds" for n in names)
    assert all(catalogue.status(catalogue.entries()[n]) == "full" for n in names)
    assert out[-1] == f"{len(names)} cards"
    assert main(["cards", "--keyword", "deflect", "--unmodelled"]) == 0
    names = [x.split(":")[0] for x in capsys.readouterr().out.splitlines()[:-1]]
    assert "Pouty Poro" in names and all("deflect" in str(catalogue.entries()[n].other_keywords) for n in names)
    assert main(["cards", "--json", "Hextech Ray"]) == 0
    import json
    (card,) = json.loads(capsys.readouterr().out)
    assert card["number"] == 9 and card["status"] == "partial" and card["unmodelled"][0]["id"] == "G2"


# -- every modelled card played ---------------------------------------------------------------------------

def _pick(options: list[Action], prefer: tuple) -> Action:
    """The first option naming a preferred target (b1 for A's plays, then a1), else the first."""
    for who in prefer:
        for a in options:
            if any(v == who for _, v in a.targets):
                return a
    return options[0]


def _resolve(g, chosen: list) -> None:
    """Everyone passes; a pending decision is taken from ``legal`` (targets b1 first, a may accepted)."""
    for _ in range(60):
        s = g.state
        acts = [a for p in s.in_game() for a in g.legal_actions(p) if a.kind not in ("concede", "end-turn")]
        decide = [a for a in acts if a.kind in ("target", "choose", "order", "assign")]
        if decide:
            yes = [a for a in decide if a.option == "yes"]
            a = yes[0] if yes else _pick(decide, ("b1", "a1"))
            chosen.append(a)
        elif s.chain and s.priority:
            a = Action("pass", s.priority)
        else:
            return
        g.apply(a, s.step + 1)
    raise AssertionError("the chain did not empty within 60 steps")


def _check(entries, g, before: dict, chosen: list) -> None:
    """Each modelled instruction's result on the targets chosen for it."""
    v = view(g.state, every=True)
    targets = {f: t for a in chosen for f, t in a.targets}
    for verb, fields in entries:
        f = dict(fields)
        unit = targets.get("unit") if f.get("unit") == "target" else None
        if verb == "draw":
            assert g.state.drawn.get("A", 0) >= int(f.get("count", 1)), "A drew"
        elif verb == "counter":
            assert any(ev.event == "normal-spell is countered" for ev in g.trace), "425: the spell is countered"
        elif verb == "play-unit":
            assert any(u.id.startswith("token#") and u.zone == "board" for u in g.state.units.values()), \
                "a token unit entered the board"
        elif verb == "extra-turn":
            assert any("extra turn" in ev.event for ev in g.trace), "734: an extra turn is queued"
        if unit is None or verb in ("draw", "add", "play-unit", "extra-turn", "counter"):
            continue
        u = v["units"].get(unit)
        if verb == "stun":
            assert u["stunned"] is True, "423: the unit is stunned"
        elif verb in ("kill", "replay", "ward"):
            gone = u is None or u["zone"] != "board"
            assert gone if verb == "kill" else (not gone if verb == "ward" else True), "428: killed"
            if verb == "replay":
                assert any(x.card == g.state.units[unit].card and x.zone == "board" and x.id != unit
                           for x in g.state.units.values()), "the card is played again as a new object (124)"
        elif verb == "damage":
            assert u is None or u["zone"] != "board" or u["damage"] >= int(f["amount"]), "417: damage dealt"
        elif verb in ("buff", "en-garde") and u and u["zone"] == "board":
            assert u["might"] != before[unit], "the might changed this turn"
        elif verb == "move" and u:
            to = targets.get("to") if f.get("to") == "target" else f.get("to")
            assert u["at"] == to, "446: the unit moved"
        elif verb == "ready" and u:
            assert u["exhausted"] is False, "415: ready"
        elif verb == "give-keyword" and u:
            name = f["keyword"][0] if isinstance(f["keyword"], tuple) else f["keyword"]
            assert g.state.units[unit].kw(name) is not None, "the keyword is given this turn"


@pytest.mark.parametrize("name", MODELLED)
def test_each_modelled_card_is_played_with_targets_from_legal(name):
    e = catalogue.entries()[name]
    card = e.card
    g = game(units=[{"id": "a1", "owner": "A", "at": "base", "might": 2, "exhausted": True},
                    {"id": "b1", "owner": "B", "at": "base", "might": 5}],
             hands={"A": [name, "normal-spell"]}, resources={"A": {"runes": 30}, "B": {"runes": 0}})
    before = {"a1": 2, "b1": 5}
    if "item" in card.target_fields():                            # something to counter first
        g.apply(Action("play", "A", card="normal-spell"), g.state.step + 1)
    plays = [a for a in g.legal_actions("A") if a.kind == "play" and a.card == name and not a.hidden]
    assert plays, f"{name}: no legal play from A's hand"
    if card.type == "unit":
        plays = [a for a in plays if a.at in (None, "base")] or plays
        plays = [a for a in plays if a.accelerate == (keyword(card.keywords, "accelerate") is not None)] or plays
    play = _pick(plays, ("b1", "a1"))
    g.apply(play, g.state.step + 1)
    s = g.state
    assert name not in s.hands["A"], "354: the card left its owner's hand"
    paid = card.cost + ((keyword(card.keywords, "accelerate") or 0) if play.accelerate else 0)
    assert s.runes["A"] == 30 - paid, "354, 805: its printed energy cost (and Accelerate's) is paid from ready runes"
    on_chain = any(getattr(it, "card", None) == name for it in s.chain)
    entered = [u for u in s.units.values() if u.card == name]
    assert on_chain or entered, "354.2: the card is on the chain (or, a unit or gear, its item resolved at once)"
    chosen = [play]
    _resolve(g, chosen)
    assert not g.state.chain, "everyone passed: every item resolved"
    assert any(ev.event == f"{name} resolves" or f"{name}#1" in ev.event for ev in g.trace), "340: it resolved"
    _check(card.effect, g, before, chosen)
    if card.type in ("unit", "gear"):
        mine = [u for u in g.state.units.values() if u.card == name]
        assert len(mine) == 1 and mine[0].zone == "board", "359.2: it entered the board"
        if card.type == "unit":
            assert mine[0].might == card.might and mine[0].keywords == card.keywords
        for ab in card.abilities:
            if ab.trigger == "on-play":
                _check(ab.effect, g, before, chosen[1:])
        act = [a for a in g.legal_actions("A") if a.kind == "activate" and a.source == mine[0].id]
        if any(ab.activated for ab in card.abilities) and mine[0].zone == "board" and not mine[0].exhausted:
            assert act, f"{name}: its activated ability is legal once it entered ready"
            now = dict(view(g.state, every=True)["energy"])
            a = _pick(act, ("b1",))
            g.apply(a, g.state.step + 1)
            _resolve(g, [a])
            assert g.state.units[mine[0].id].exhausted is True, "377: exhausting it was the cost"
            ab = next(x for x in card.abilities if x.name == a.ability)
            if all(v == "add" for v, _ in ab.effect):
                assert view(g.state, every=True)["energy"]["A"] > now["A"], "429: the Add added energy"
            _check(ab.effect, g, before, [a])
