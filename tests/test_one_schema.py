"""One definition of the file's structure (issue 28 item 7): the JSON Schema, and a loader that cannot drift from it.

* every bundled scenario, every verify positions file and every YAML example in docs/ validates against the
  shipped schema, and the complete ones load (the fragments are checked against the schema's definition of
  what they are: steps, abilities, cards, ...);
* documents generated from the schema's definitions (hypothesis-jsonschema) are never refused by the loader
  for their structure (an unknown key, a wrong kind of value): only for what a schema can't say (an id that
  is not declared, a rule's refusal);
* a custom card with ``cost:`` runs in a file with ``resources:`` (it was refused as an unknown key).
"""
from __future__ import annotations

import copy
import json
import re
from functools import lru_cache
from pathlib import Path

import jsonschema
import pytest
import yaml
from hypothesis import HealthCheck, assume, given, settings
from hypothesis_jsonschema import from_schema

from simulator.core.errors import ScenarioError
from simulator.game import shape
from simulator.scenario import loader
from simulator.verify.command import DEFAULT_FILES, load_positions

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = json.loads(shape.shipped("scenario"))
#: what a loader refusal says when it is about structure, which only the schema may decide
STRUCTURAL = re.compile(r"unknown key|must be a (mapping|list|whole number|non-empty)|must be one of|needs '|"
                        r"must be true|is not allowed")


def docs_examples() -> list[tuple[str, int, str]]:
    """(page, line, text) of every ```yaml block in docs/ and the README."""
    out = []
    for page in [*sorted((ROOT / "docs").glob("*.md")), ROOT / "README.md"]:
        text = page.read_text(encoding="utf-8")
        for m in re.finditer(r"```yaml\n(.*?)```", text, re.S):
            out.append((page.name, text[:m.start()].count("\n") + 2, m.group(1)))
    return out


def definition(doc) -> str:
    """Which part of the format a docs example (or one entry of a list example) is: its schema definition."""
    if isinstance(doc, dict) and "positions" in doc:
        return "positions"
    if isinstance(doc, dict) and {"name", "players", "steps"} <= set(doc):
        return "scenario"
    if isinstance(doc, dict) and set(doc) <= set(loader.TOP):
        return "top-level keys"
    if isinstance(doc, dict) and ("do" in doc or "expect" in doc):
        return "step"
    if isinstance(doc, dict) and "name" in doc:
        return "ability"
    return "cards"


def check_against(ref: str, value) -> list[str]:
    if ref in ("scenario", "positions"):
        schema = json.loads(shape.shipped(ref))
    elif ref == "top-level keys":
        schema = {k: v for k, v in SCHEMA.items() if k not in ("required", "allOf")}
    else:
        schema = {"$schema": SCHEMA["$schema"], "$defs": SCHEMA["$defs"], "$ref": f"#/$defs/{ref}"}
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in jsonschema.Draft202012Validator(schema).iter_errors(value)]


@pytest.mark.parametrize("page, line, text", docs_examples(), ids=lambda x: str(x)[:40])
def test_every_yaml_example_in_the_docs_validates_and_complete_ones_load(page, line, text):
    doc = yaml.safe_load(text)
    where = f"docs/{page}:{line}"
    for x in doc if isinstance(doc, list) else [doc]:
        kind = definition(x)
        assert check_against(kind, x) == [], f"{where}: the {kind} example does not match the schema"
    kind = definition(doc)
    if kind == "scenario":
        loader.loads(text, where)                     # the whole contract: ids, rules
    elif kind == "positions":
        path = ROOT / "build-docs-positions.yaml"
        try:
            path.write_text(text, encoding="utf-8")
            assert load_positions(str(path))[0]
        finally:
            path.unlink()


@pytest.mark.parametrize("path", sorted((ROOT / "scenarios").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_bundled_scenario_passes_the_schema_and_the_loader(path):
    doc, lines = loader.parse(path.read_text(encoding="utf-8"), str(path))
    shape.check(doc, "scenario", str(path), lines)
    loader.load(str(path))


@pytest.mark.parametrize("path", DEFAULT_FILES, ids=lambda p: p.name)
def test_every_positions_file_passes_the_schema_and_the_loader(path):
    doc, lines = loader.parse(path.read_text(encoding="utf-8"), str(path))
    shape.check(doc, "positions", str(path), lines)
    assert load_positions(str(path))[0]


# -- drift: what the schema admits, the loader reads -------------------------------------------------------

#: a valid value for each definition a generated part refers to, so that each definition is generated alone
#: (generating the whole schema at once takes minutes)
SAMPLES = {"effect": {"draw": {"count": 1}}, "condition": "your-turn", "keyword": "tank", "card_id": "unit-1",
           "ability": {"name": "n", "trigger": "on-play", "effect": []},
           "battlefield_ability": {"name": "n", "trigger": "on-hold", "effect": []},
           "word": "A", "nullable_word": None, "trigger": "on-play"}
SKELETON = {"name": "drift", "players": ["A", "B"], "battlefields": ["North", "South"],
            "units": [{"id": "a1", "owner": "A", "might": 1}], "steps": []}


def standalone(ref: str) -> dict:
    """The definition ``ref`` with every reference to another definition replaced by a valid sample."""
    def swap(x):
        if isinstance(x, dict):
            if set(x) == {"$ref"}:
                return {"const": SAMPLES[x["$ref"].rsplit("/", 1)[1]]}
            return {k: swap(v) for k, v in x.items() if k != "x-messages"}
        if isinstance(x, list):
            return [swap(v) for v in x]
        return x
    body = SCHEMA["$defs"]["cards"]["additionalProperties"] if ref == "card" else SCHEMA["$defs"][ref]
    return swap(copy.deepcopy(body))


#: where a generated value goes in a scenario
PLACES = {
    "card": lambda v: {"cards": {"x": v}},
    "unit": lambda v: {"units": [v]},
    "gear": lambda v: {"gear": [v]},
    "ability": lambda v: {"units": [{**SKELETON["units"][0], "abilities": [v]}]},
    "battlefield_ability": lambda v: {"battlefields": ["North", {"name": "South", "abilities": [v]}]},
    "effect": lambda v: {"cards": {"x": {"effect": [v]}}},
    "keyword": lambda v: {"cards": {"x": {"type": "unit", "keywords": [v]}}},
    "condition": lambda v: {"units": [{**SKELETON["units"][0], "abilities": [
        {"name": "n", "trigger": "on-play", "if": v, "effect": []}]}]},
}


@lru_cache(maxsize=None)
def strategy(ref: str):
    return from_schema(standalone(ref))


@pytest.mark.parametrize("ref", list(PLACES))
def test_what_the_schema_admits_is_never_refused_for_its_structure(ref):
    @settings(max_examples=25, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy(ref))
    def admitted(value):
        doc = {**SKELETON, **PLACES[ref](value)}
        assume(not list(shape.validator("scenario").iter_errors(doc)))     # the part fits this file
        text = yaml.safe_dump(doc, allow_unicode=True)
        try:
            loader.run(loader.loads(text, "generated.yaml"))
        except ScenarioError as e:
            assert not STRUCTURAL.search(e.what), f"the loader refused what the schema admits: {e}\n{text}"
    admitted()


def test_a_custom_card_with_a_cost_runs_with_resources():
    """354: the card's cost is paid from the energy pool: with 3 it is played and the pool is empty, with 2 it
    is refused and nothing changed. (``cost:`` was refused as an unknown key in a card.)"""
    text = """\
name: cost
players: [A, B]
resources: {A: {runes: 0, energy: ENERGY}, B: {runes: 0, energy: 0}}
hands: {A: [raider]}
cards:
  raider: {type: unit, might: 2, cost: 3, keywords: [ganking]}
steps:
  - {do: play, player: A, card: raider, at: base}
  - expect: {energy: {A: 0}, units: {"raider#1": {zone: board, at: base}}}
"""
    assert loader.run(loader.loads(text.replace("ENERGY", "3"))).status == "pass"
    res = loader.run(loader.loads(text.replace("ENERGY", "2")))
    assert res.status == "fail" and "raider costs 3 energy; A has 2 in the pool" in res.message
    assert res.state.energy["A"] == 2 and res.state.hands["A"] == ["raider"]


@pytest.mark.parametrize("text, line, why", [
    ("name: t\nplayers: [A, B]\nsteps: []\ncolour: red\n", 4,
     "unknown key colour in a scenario (expected one of: name, mode, players, teams, battlefields, control, score, "
     "units, gear, hands, cards, rulings, resources, assign, start, decks, trash, banished, steps, pending, "
     "description, seed, rules, rules-version, source, audit)"),
    ("name: t\nplayers: [A, B]\nsteps:\n  - {do: pass, player: A, speed: 3}\n", 4,
     "unknown key speed in a pass step (expected one of: do, player, illegal)"),
    ("name: t\nplayers: [A, B]\nunits: [{id: a1, owner: A, might: two}]\nsteps: []\n", 3,
     "a1's might must be a whole number, not the text two"),
    ("name: t\nplayers: [A, B]\ncards:\n  x: {effect: [{teleport: {unit: target}}]}\nsteps: []\n", 4,
     "unknown effect verb teleport (verbs: move, recall, stun, buff, en-garde, damage, kill, play-unit, add, "
     "counter, draw, extra-turn, play, banish, return, discard, recycle, replay, ready, exhaust, give-keyword, ward)"),
    ("name: t\nplayers: [A, B]\ncards:\n  x: {effect: [{buff: {unit: target, might: target}}]}\nsteps: []\n", 4,
     "buff might must be a whole number, not the text target: a number can't be a target (a player targets a "
     "unit, a place, a chain item or a player, 356)"),
    ("name: t\nplayers: [A, B]\ncards:\n  x:\n    effect:\n      - {move: {unit: a1, to: North}, stun: {unit: a1}}\n"
     "steps: []\n", 6, "an effect entry is one verb: {verb: {field: value}} (with optional if: and may:): write one "
                       "entry per verb"),
    ("name: t\nplayers: [A, B]\nunits: [{id: a1, owner: A, abilities: [{name: x, trigger: on-play}]}]\nsteps: []\n",
     3, "a unit needs might or card"),
    ("name: t\nplayers: [A, B]\nunits:\n  - {id: a1, owner: A, might: 1, abilities: [{name: x, trigger: on-plya}]}\n"
     "steps: []\n", 4, "x's trigger must be one of on-play, on-arrive, on-attack, on-defend, on-any-attack, "
                       "on-conquer, on-hold, on-move, on-death, on-showdown-start, on-combat-end, on-turn-start, "
                       "on-turn-end, on-spell, on-spell-mine, on-chosen, not on-plya"),
    ("name: t\nplayers: [A, B]\nsteps:\n  - {do: order, player: A, triggers: [a1:x, a1:x]}\n", 4,
     "trigger 'a1:x' is listed twice"),
    ("name: t\nplayers: [A, B]\ncards:\n  rune-prison: {type: spell}\nsteps: []\n", 4,
     "card rune-prison is already in the built-in catalogue: pick another id"),
    ("name: t\nplayers: [A, B]\nsteps:\n  - {do: choose, player: A}\n", 4,
     "a choose step names one of battlefield: (323.12), option: yes | no (383.3.a) or card: (the card to discard, 422)"),
])
def test_schema_errors_are_worded_for_a_user_with_their_line(text, line, why):
    with pytest.raises(ScenarioError) as e:
        loader.loads(text, "f.yaml")
    assert str(e.value) == f"f.yaml:{line}: {why}"


def test_positions_files_refuse_junk_keys_by_the_same_schema(tmp_path):
    f = tmp_path / "p.yaml"
    f.write_text("positions:\n  - name: x\n    players: [A, B]\n    steps: []\n", encoding="utf-8")
    with pytest.raises(ScenarioError) as e:
        load_positions(str(f))
    assert str(e.value) == (f"{f}:4: unknown key steps in a position (expected one of: name, mode, players, teams, "
                            "battlefields, control, score, units, gear, hands, cards, rulings, resources, assign, "
                            "start, decks, trash, banished, explore)")
    f.write_text("positions:\n  - name: x\n    players: [A, B]\n    explore: {turns: 1, depth: 3}\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match=r":4: unknown key depth in explore \(expected one of: turns, concede, "):
        load_positions(str(f))


def test_the_version_does_not_import_jsonschema():
    """Validators are compiled when a file is first read: a command that reads none never imports jsonschema."""
    import subprocess
    import sys
    code = ("import sys\nfrom simulator.cli.main import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
            "print('jsonschema' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.splitlines()[-1] == "False"
