"""The JSON Schema shipped in the package (docs/scenario-format.md, Editor support).

Every bundled scenario and every default verify positions file validates against it (checked with the loader in
tests/test_one_schema.py); it rejects
what the loader rejects for shape (an unknown key, a misspelled verb or trigger); the shipped copies
are what the loader's vocabulary generates (a key added to the loader is in the schema too).
"""
from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from simulator.cli import schema as schema_cmd
from simulator.scenario import schema

ROOT = Path(__file__).resolve().parents[1]
HOW = ("the vocabulary changed but the shipped schema did not: run `riftsim schema --write` and commit "
       "simulator/scenario/schemas/*.json; a new key whose value has a shape goes into "
       "simulator/scenario/schema.py (scenario files) or simulator/verify/schema.py (positions files)")


@functools.lru_cache(maxsize=None)
def validator(kind: str) -> jsonschema.Draft202012Validator:
    s = json.loads(schema.shipped(kind))
    jsonschema.Draft202012Validator.check_schema(s)
    return jsonschema.Draft202012Validator(s)


def problems(kind: str, doc) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path)) or '(top)'}: {e.message}"
            for e in validator(kind).iter_errors(doc)]


def test_the_shipped_schemas_are_what_the_vocabulary_generates():
    for kind, text in schema_cmd.generated().items():
        assert schema.shipped(kind) == text, f"{schema.FILES[kind]} is stale: {HOW}"


def reference_examples() -> list[str]:
    """The complete scenarios (name, players and steps) among the reference page's YAML blocks."""
    text = (ROOT / "docs" / "scenario-format.md").read_text(encoding="utf-8")
    blocks = [b.split("```")[0] for b in text.split("```yaml\n")[1:]]
    return [b for b in blocks if isinstance(d := yaml.safe_load(b), dict) and {"name", "players", "steps"} <= set(d)]


def test_every_complete_example_in_the_reference_validates_and_runs():
    """What docs/scenario-format.md shows is a scenario that holds, not a sketch."""
    from simulator.scenario.loader import loads, run
    examples = reference_examples()
    assert len(examples) >= 2
    for text in examples:
        assert problems("scenario", yaml.safe_load(text)) == []
        res = run(loads(text, "docs/scenario-format.md"))
        assert res.status == "pass", res.message


BASE = yaml.safe_load((ROOT / "scenarios" / "custom-cards-triggers-and-end-of-turn.yaml").read_text())


@pytest.mark.parametrize("path, value, why", [
    (("colour",), "red", "an unknown top-level key"),
    (("units", 0, "mite"), 2, "a misspelled unit field"),
    (("cards", "herald", "abilities", 0, "trigger"), "on-plya", "a misspelled trigger"),
    (("cards", "herald", "type"), "creature", "an unknown card type"),
    (("battlefields", 0, "abilities", 0, "effect", 0), {"drawx": {"count": 1}}, "an unknown effect verb"),
    (("battlefields", 0, "abilities", 0, "effect", 0), {"draw": {"cuont": 1}}, "an unknown verb field"),
    (("steps", 0, "do"), "attack", "an unknown action"),
    (("steps", 1, "expect", "state"), "neutral", "an unknown turn state"),
    (("steps", 1, "expect", "colour"), "red", "an unknown expectation key"),
    (("mode",), "melee", "an unknown mode"),
    (("rulings",), {"R1": "sideways"}, "an unknown ruling alternative"),
    (("cards", "rune-prison"), {"type": "spell"}, "a custom card reusing a built-in id"),
])
def test_the_schema_rejects_what_the_loader_rejects(path, value, why):
    doc = copy.deepcopy(BASE)
    target = doc
    for k in path[:-1]:
        target = target[k]
    target[path[-1]] = value
    assert problems("scenario", doc), f"the schema accepts {why}"
    from simulator.core.errors import ScenarioError
    from simulator.scenario.loader import loads
    with pytest.raises(ScenarioError):
        loads(yaml.safe_dump(doc), "mutated.yaml")


def test_riftsim_schema_prints_the_shipped_schema(capsys):
    from simulator.cli.main import main
    assert main(["schema"]) == 0
    assert capsys.readouterr().out == schema.shipped("scenario")
    assert main(["schema", "--positions"]) == 0
    assert capsys.readouterr().out == schema.shipped("positions")
    assert main(["schema", "--check"]) == 0


#: the pages that document the format's vocabulary: this reference, and the pages of newer features
VOCABULARY_PAGES = ("scenario-format.md", "abilities.md", "keywords-and-resources.md")


def test_the_reference_documents_every_word_of_the_vocabulary():
    """Every key, action, expectation, verb, trigger and built-in card the loader accepts is documented."""
    from simulator.core import cards
    from simulator.scenario import loader
    from simulator.game.action_kinds import KINDS
    text = "\n".join((ROOT / "docs" / p).read_text(encoding="utf-8") for p in VOCABULARY_PAGES
                     if (ROOT / "docs" / p).is_file())
    import re
    # unit-1 .. unit-9 and action-unit-1 .. action-unit-9 are documented as families
    catalogue = sorted({re.sub(r"-[1-9]$", "-1", c) for c in cards.BUILT_IN})    # the real ones: docs/cards.md
    words = {
        "top-level key": loader.TOP, "action": tuple(KINDS), "expectation key": loader.EXPECT_KEYS,
        "unit field": tuple(loader.UNIT_FIELDS), "effect verb": tuple(cards.VERBS), "trigger": cards.TRIGGERS,
        "timing": cards.TIMINGS, "card type": cards.TYPES, "state": loader.STATES, "phase": loader.PHASES,
        "built-in card": tuple(catalogue),
    }
    missing = [f"{kind} {w!r}" for kind, ws in words.items() for w in ws
               if not re.search(rf"`{re.escape(w)}`|\b{re.escape(w)}:", text)]
    assert not missing, ("undocumented vocabulary: " + ", ".join(missing)
                         + ": describe each, with an example, in docs/scenario-format.md (or the page of the "
                           "feature that added it: " + ", ".join(f"docs/{p}" for p in VOCABULARY_PAGES[1:]) + ")")
