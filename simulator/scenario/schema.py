"""The JSON Schema of the scenario format and of verify positions files, built from the loader's vocabulary.

The schema is not written by hand: every list of names in it (top-level keys, actions and their
fields, expectation keys, effect verbs and their fields, triggers, timings, card types, modes,
rulings, built-in cards) is read from the constants the loader validates with
(:mod:`simulator.scenario.loader`, :mod:`simulator.core.cards`), so a key added there is in the
schema too. The shipped copies (``simulator/scenario/schemas/*.json``, read with
``importlib.resources``) are regenerated with ``riftsim schema --write`` and a test fails when they
are stale.

Extending it: a new top-level key goes into ``loader.TOP`` and, when its value has a shape worth
checking, into :data:`TOP_SHAPES`; a new field of a unit entry into :data:`UNIT_ENTRY` ... Keys that
this module does not know get the permissive shape ``{}`` (anything), never a silent rejection.

>>> s = scenario_schema()
>>> s["required"]
['name', 'players', 'steps']
>>> "on-play" in s["$defs"]["trigger"]["enum"]
True
"""
from __future__ import annotations

import json
from importlib import resources

from simulator.core import cards as cardlib
from simulator.game.setup import MODES, RULINGS
from simulator.game.validate import SETUP_KEYS
from simulator.scenario import loader

DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILES = {"scenario": "scenario.schema.json", "positions": "positions.schema.json"}

WORD = {"type": "string", "minLength": 1}
TEXT = {"type": "string", "minLength": 1}
WHOLE = {"type": "integer", "minimum": 0}
REF = lambda name: {"$ref": f"#/$defs/{name}"}  # noqa: E731


def _obj(props: dict, required: tuple = (), description: str = "", extra: bool = False) -> dict:
    out = {"type": "object", "properties": props, "additionalProperties": extra}
    if required:
        out["required"] = list(required)
    if description:
        out["description"] = description
    return out


def _list(item: dict, **kw) -> dict:
    return {"type": "array", "items": item, **kw}


#: unit and gear entries of the starting position (their keys are the loader's)
UNIT_ENTRY = {
    "id": {**WORD, "pattern": "^[^#]+$", "description": "the unit's id ('#' is kept for units entering play)"},
    "owner": {**WORD, "description": "a player"},
    "controller": {**WORD, "description": "a player (default: the owner)"},
    "at": {**WORD, "description": "base (its controller's base, the default) or a battlefield name"},
    "might": WHOLE,
    "card": {**WORD, "description": "a unit or gear card (built-in or custom) it is made from"},
    "abilities": _list(REF("ability")),
    "keywords": _list(REF("keyword")),
    "exhausted": {"type": "boolean"},
    "ward": {"type": "boolean", "description": "the next time it would die, instead it is healed, exhausted and "
             "recalled (a replaced death, R21)"},
}


def defs() -> dict:
    verbs = {}
    for verb, fields in cardlib.VERBS.items():
        props: dict[str, object] = {}
        for f in fields:
            if f in loader.NUMBER_FIELDS:
                props[f] = {"type": "integer", "description": "a number (never a target: 356)"}
            elif f == "keyword":
                props[f] = REF("given_keyword")
            else:
                props[f] = WORD
        verbs[verb] = _obj(props, description=f"{verb}: {', '.join(fields) or 'no fields'}")
        verbs[verb] = {"anyOf": [verbs[verb], {"type": "null"}]}
    effect = {"type": "object", "minProperties": 1, "maxProperties": 3,
              "properties": {**verbs, "if": REF("condition"),
                             "may": {"type": "boolean", "description": "optional: on a triggered ability's first entry decided at finalization (383.3.a), else as the entry executes (383.3.a.3)"}},
              "additionalProperties": False,
              "description": "one effect: {VERB: {FIELD: VALUE}} with optional if: and may:; a value is a literal, "
                             "target, self, here or there"}
    one = {"anyOf": [{"enum": [c for c, n in cardlib.CONDITIONS.items() if not n]},
                     _obj({c: WHOLE for c, n in cardlib.CONDITIONS.items() if n}, description="{might-at-least: N}")]}
    condition = {"anyOf": [one, _list(one, minItems=1)],
                 "description": "a condition, or a list of them that must all hold (383.2)"}
    ability = _obj({
        "name": TEXT,
        "trigger": REF("trigger"),
        "activated": {"const": True},
        "static": _obj({"might": {"type": "integer"}}, ("might",)),
        "effect": _list(REF("effect")),
        "if": REF("condition"),
        "once-per-turn": {"type": "boolean"},
        "speed": {"enum": list(cardlib.SPEEDS), "default": "normal"},
        "exhaust": {"type": "boolean", "description": "exhausting the source is its cost (377)"},
        "cost": WHOLE,
        "by": {"enum": ["enemy", "friendly", "any"], "description": "on-chosen: who chooses it"},
    }, ("name",), "a triggered (trigger:), activated (activated: true) or static (battlefields) ability")
    keyword = _obj({"deathknell": _list(REF("effect"))}, ("deathknell",), "deathknell: an on-death ability (808)")
    ability["oneOf"] = [{"required": [k]} for k in ("trigger", "activated", "static")]
    battlefield = {"anyOf": [WORD, _obj({"name": WORD, "provider": WORD, "abilities": _list(REF("ability"))},
                                        ("name",))]}
    card = _obj({
        "type": {"enum": list(cardlib.TYPES)},
        "timing": {"enum": list(cardlib.TIMINGS)},
        "effect": _list(REF("effect")),
        "might": WHOLE,
        "abilities": _list(REF("ability")),
        "keywords": _list(REF("keyword")),
        "text": TEXT,
        "friendly": {"type": "boolean", "description": "its unit: target must be friendly (356)"},
        "cost": WHOLE,
    }, description="a custom card")
    cards = {"type": "object", "propertyNames": {"pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$",
                                                  "not": {"enum": sorted(cardlib.CATALOGUE)}},
             "additionalProperties": {"anyOf": [card, {"type": "null"}]}}
    rulings = _obj({rid: {"enum": list(values)} for rid, values in RULINGS.items()})
    players = _list(WORD, minItems=2, maxItems=max(n for n, _ in MODES.values()), uniqueItems=True)
    plain = [k for k, (numbered, _, _) in cardlib.KEYWORDS.items() if not numbered]
    numbered = [k for k, (n, _, _) in cardlib.KEYWORDS.items() if n]
    deathknell = keyword
    with_number = {"type": "object", "minProperties": 1, "maxProperties": 1,
                   "properties": {k: {"type": "integer", "minimum": 0, "maximum": 1000} for k in numbered},
                   "additionalProperties": False}
    given_keyword = {"anyOf": [{"enum": list(cardlib.KEYWORDS)}, with_number],
                     "description": f"give-keyword's keyword: a name, or a numbered one as {{NAME: N}} "
                                    f"({', '.join(numbered)}; the default is 1); Assault and Shield add up "
                                    f"with the unit's own (807.2, 814.2)"}
    keyword = {"anyOf": [{"enum": list(cardlib.KEYWORDS)}, deathknell, with_number],
               "description": f"a keyword ({', '.join(plain)}), a numbered one as {{NAME: N}} "
                              f"({', '.join(numbered)}), or {{deathknell: [effects]}} (808)"}
    return {
        "word": WORD,
        "trigger": {"enum": list(cardlib.TRIGGERS)},
        "effect": effect,
        "condition": condition,
        "ability": ability,
        "keyword": keyword,
        "given_keyword": given_keyword,
        "battlefield": battlefield,
        "unit": _obj(UNIT_ENTRY, ("id", "owner")),
        "gear": _obj({k: v for k, v in UNIT_ENTRY.items() if k not in ("at", "might", "ward")}, ("id", "owner")),
        "card_id": {"anyOf": [{"enum": sorted(cardlib.CATALOGUE)}, WORD],
                    "description": "a built-in card id, or a custom card declared under cards:"},
        "players": players,
        "rulings": rulings,
        "cards": cards,
        "nullable_word": {"anyOf": [WORD, {"type": "null"}]},
    }


def setup_props() -> dict:
    """The starting-position keys shared by scenario files and verify positions."""
    shapes = {
        "name": TEXT,
        "mode": {"enum": list(MODES), "default": "duel"},
        "players": REF("players"),
        "teams": _list(_list(WORD, minItems=2, maxItems=2), minItems=2, maxItems=2),
        "battlefields": _list(REF("battlefield")),
        "control": {"type": "object", "additionalProperties": REF("nullable_word")},
        "score": {"type": "object", "additionalProperties": WHOLE},
        "units": {"anyOf": [_list(REF("unit")), {"type": "null"}]},
        "gear": {"anyOf": [_list(REF("gear")), {"type": "null"}]},
        "hands": {"type": "object",
                  "additionalProperties": {"anyOf": [_list(REF("card_id")), {"type": "null"}]}},
        "cards": REF("cards"),
        "rulings": REF("rulings"),
        "resources": {"type": "object", "additionalProperties": {"anyOf": [
            _obj({"runes": {"type": "integer", "minimum": 0, "maximum": 1000},
                  "energy": {"type": "integer", "minimum": 0, "maximum": 1000}}), {"type": "null"}]},
                      "description": "per player: ready runes and the energy pool (costs are paid only with it)"},
        "assign": {"enum": ["manual", "auto"], "default": "auto",
                   "description": "manual: players assign their combat damage with assign steps (465.2.c)"},
    }
    return {"name": TEXT, **{k: shapes.get(k, {}) for k in SETUP_KEYS}}


def _action(kind: str) -> dict:
    shapes = {"units": _list(WORD, minItems=1), "to": WORD, "card": REF("card_id"),
              "targets": {"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
              "at": WORD, "source": WORD, "ability": TEXT, "battlefield": WORD, "teammate": WORD,
              "option": {"enum": ["yes", "no", True, False], "description": "a may's decision (383.3.a)"},
              "triggers": _list({"type": "string", "pattern": "^[^:]+:.+$"}, minItems=1, uniqueItems=True),
              "accelerate": {"type": "boolean"}, "from": {"enum": ["hand", "hidden"], "default": "hand"},
              "damage": {"type": "object", "additionalProperties": WHOLE, "maxProperties": 64}}
    props = {"do": {"const": kind}, "player": WORD,
             "illegal": {"type": ["boolean", "string"],
                         "description": "the action must be rejected (and the reason contain this text)"}}
    for f in loader.ACTION_FIELDS[kind]:
        props[f] = shapes.get(f, {})
    return _obj(props, ("do", "player") + loader.REQUIRED_FIELDS.get(kind, ()))


def _expectation() -> dict:
    kinds = {"enum": ["showdown", "combat"]}
    unit_fields: dict[str, object] = {}
    for f, kind in loader.UNIT_FIELDS.items():
        if kind is int:
            unit_fields[f] = {"type": "integer"}
        elif kind is bool:
            unit_fields[f] = {"type": "boolean"}
        elif isinstance(kind, tuple):
            unit_fields[f] = {"enum": list(kind)}
        else:
            unit_fields[f] = WORD
    shapes = {
        "state": {"enum": list(loader.STATES)},
        "phase": {"enum": list(loader.PHASES)},
        "turn": WORD,
        "focus": REF("nullable_word"),
        "priority": REF("nullable_word"),
        "chain": _list(TEXT),
        "active": {"anyOf": [{"type": "null"},
                             _obj({"kind": kinds, "at": WORD, "attacker": WORD, "defender": WORD}, ("kind", "at"))]},
        "staged": {"type": "object", "additionalProperties": _list(kinds)},
        "contested": _list(WORD),
        "controller": {"type": "object", "additionalProperties": REF("nullable_word")},
        "score": {"type": "object", "additionalProperties": WHOLE},
        "units": {"type": "object", "additionalProperties": _obj(unit_fields)},
        "legal": {"type": "object", "additionalProperties": _list(TEXT)},
        "players": _list(WORD),
        "winner": {"anyOf": [{"type": "null"}, WORD, _list(WORD)]},
        "energy": {"type": "object", "additionalProperties": WHOLE},
        "runes": {"type": "object", "additionalProperties": WHOLE},
        "hidden": {"type": "object", "additionalProperties": {"anyOf": [_list(REF("card_id")), {"type": "null"}]}},
        "gear": {"type": "object", "additionalProperties": _obj({"exhausted": {"type": "boolean"}})},
    }
    return {"type": "object", "minProperties": 1, "additionalProperties": False,
            "properties": {k: shapes.get(k, {}) for k in loader.EXPECT_KEYS}}


def _show() -> dict:
    """A show: step: the keys whose values it prints (never checked), or all."""
    keys = {"anyOf": [{"const": "all"}, _list({"enum": list(loader.SHOW_KEYS)}, minItems=1)]}
    return _obj({"show": keys}, ("show",), "print these keys' values in the trace instead of checking them")


def scenario_schema() -> dict:
    """The JSON Schema of a scenario file."""
    props = setup_props()
    props.update({
        "steps": _list(REF("step")),
        "pending": TEXT, "description": TEXT, "seed": TEXT,
    })
    d = defs()
    d["expectation"] = _expectation()
    d["step"] = {"anyOf": [_obj({"expect": REF("expectation")}, ("expect",))]
                    + [_action(k) for k in loader.ACTION_FIELDS] + [_show()]}
    return {
        "$schema": DIALECT,
        "$id": "https://riftsim.invalid/schemas/scenario.schema.json",
        "title": "riftsim scenario",
        "description": "A starting position and steps (docs/scenario-format.md)",
        "type": "object",
        "required": ["name", "players", "steps"],
        "properties": {k: props.get(k, {}) for k in loader.TOP},
        "additionalProperties": False,
        "$defs": d,
    }


def dumps(schema: dict) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


def shipped(kind: str) -> str:
    """The schema file shipped in the package (what editors are pointed at)."""
    return resources.files("simulator.scenario").joinpath("schemas", FILES[kind]).read_text(encoding="utf-8")
