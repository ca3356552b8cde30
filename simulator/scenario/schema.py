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
from typing import Any

from simulator.core import cards as cardlib
from simulator.core.catalogue import every
from simulator.game.action_kinds import KINDS
from simulator.game.decision import RANK
from simulator.game.setup import MODES, RULINGS
from simulator.game.validate import (MAX_BATTLEFIELDS, MAX_CARDS, MAX_HAND, MAX_ZONE, NON_NEGATIVE, NUMBER_FIELDS,
                                     OPTIONAL_FIELDS, SETUP_KEYS)
from simulator.game import start as midtiming
from simulator.scenario import loader, provenance

DIALECT = "https://json-schema.org/draft/2020-12/schema"
FILES = {"scenario": "scenario.schema.json", "positions": "positions.schema.json", "fixture": "fixture.schema.json"}

#: C0 and C1 control characters (newline, escape, NUL, ...) and the Unicode direction marks, overrides and
#: isolates: a name holding one would print forged lines or reordered text in the trace (refused at load)
OTHER_CONTROLS = "\\u007f-\\u009f\\u061c\\u200e\\u200f\\u202a-\\u202e\\u2066-\\u2069"
CONTROLS = "\\u0000-\\u001f" + OTHER_CONTROLS
PRINTABLE: dict[str, Any] = {"pattern": f"^[^{CONTROLS}]*$", "x-messages": {
    "pattern": "{what} contains a control character or a direction override ({value}): ids, names and texts "
               "that riftsim prints may not"}}
#: free text printed nowhere, or as a block (description, a card's text): new lines and tabs are allowed
FREE = {"type": "string", "minLength": 1, "pattern": "^[^\\u0000-\\u0008\\u000b-\\u001f" + OTHER_CONTROLS + "]*$",
        "x-messages": {"pattern": "{what} contains a control character or a direction override ({value}): only "
                                  "new lines and tabs are allowed in it"}}
WORD = {"type": "string", "minLength": 1, **PRINTABLE}
TEXT = WORD
WHOLE = {"type": "integer", "minimum": 0}
REF = lambda name: {"$ref": f"#/$defs/{name}"}  # noqa: E731
#: words effects give a meaning (a unit, a place): no player, battlefield, unit or gear may be called so
RESERVED = ("self", "target", "here", "there", "base")
NAME = {**WORD, "not": {"enum": list(RESERVED)}, "x-messages": {**PRINTABLE["x-messages"],
    "not": "{value} is a reserved word (self, target, here, there and base stand for a unit or a place in "
           "effects and moves): it can't be an id or a name"}}


def or_null(shape: dict) -> dict:
    """``shape``, or null: a key left empty means none (``abilities:`` with nothing after it).

    The null is added to the shape's own ``type`` rather than as an ``anyOf`` alternative: every other
    keyword only applies to its kind of value, so null passes them, and an editor's raw error then points
    at the wrong key inside (``$.units[0]: 'mihgt' was unexpected``), not at the whole value ("is not of
    type 'null'").

    >>> or_null({"type": "array", "items": {}})
    {'type': ['array', 'null'], 'items': {}}
    """
    if isinstance(shape.get("type"), str):
        return {**shape, "type": [shape["type"], "null"]}
    return {"anyOf": [shape, {"type": "null"}]}


def never(why: str) -> dict:
    """A key that may not be given here, and why (the value never takes effect)."""
    return {"not": {}, "x-messages": {"not": why}}


def _obj(props: dict, required: tuple = (), description: str = "", extra: bool = False) -> dict:
    out = {"type": "object", "properties": props, "additionalProperties": extra}
    if required:
        out["required"] = list(required)
    if description:
        out["description"] = description
    return out


def word_or_mapping(words: list, mappings: list, unknown: str) -> dict:
    """A name from ``words``, or one of ``mappings``: chosen by the value's kind with if/then (not an anyOf of
    the three), so an editor's raw error on a misspelled name is that name against the list of names."""
    return {"if": {"type": "string"}, "then": {"enum": words, "x-messages": {"enum": unknown}},
            "else": {"anyOf": mappings, "x-messages": {"anyOf": unknown}}}


def one_or_list(one: dict, **kw) -> dict:
    """``one``, or a list of them: chosen by the value's kind (if/then), so an editor's error is about the
    entry, not "is not of type 'array'"."""
    return {"if": {"type": "array"}, "then": _list(one, **kw), "else": one}


def _list(item: dict, **kw) -> dict:
    return {"type": "array", "items": item, **kw}


#: unit and gear entries of the starting position (their keys are the loader's)
UNIT_ENTRY = {
    "id": {**NAME, "allOf": [{"pattern": "^[^#]+$", "x-messages": {
        "pattern": "id {value} contains '#', kept for units entering play"}}],
           "description": "the unit's id ('#' is kept for units entering play)"},
    "owner": {**WORD, "description": "a player"},
    "controller": {**WORD, "description": "a player (default: the owner)"},
    "at": {**WORD, "description": "base (its controller's base, the default) or a battlefield name"},
    "might": WHOLE,
    "card": {**WORD, "description": "a unit or gear card (built-in or custom) it is made from"},
    "abilities": or_null(_list(REF("ability"))),
    "keywords": or_null(_list(REF("keyword"))),
    "exhausted": {"type": "boolean"},
    "ward": {"type": "boolean", "description": "the next time it would die, instead it is healed, exhausted and "
             "recalled (a replaced death, R21)"},
    "damage": {**WHOLE, "description": "damage marked on it (lethal only with a start: block, whose step 0 cleans up)"},
    "stunned": {"type": "boolean", "description": "stunned: it deals no combat damage (423)"},
    "buff": {"type": "integer", "description": "might added this turn"},
    "designation": {"enum": ["attacker", "defender"], "description": "in a start: combat, its side (default: its "
                    "controller's)"},
}


#: verbs that act on exactly one of these fields (Z3: a unit on the board, or a card in a zone)
ONE_OF = {"banish": ("unit", "gear", "card"), "return": ("unit", "gear", "card"), "kill": ("unit", "gear")}
#: fields of these verbs that may be left out (Z3: a discard or recycle of a card, or of count cards)
LEFT_OUT = {"discard": ("card",), "recycle": ("card", "from")}


def _verb(verb: str, fields: tuple) -> dict:
    """One effect verb's fields: numbers are never targets (356), places and units are words."""
    props: dict[str, dict] = {}
    for f in fields:
        if f in NUMBER_FIELDS:
            props[f] = {"type": "integer", "description": "a number (never a target: 356)", "x-messages": {
                "type": "{what} must be a whole number, not {kind}: a number can't be a target (a player targets a "
                        "unit, a place, a chain item or a player, 356)"}}
            if (verb, f) in NON_NEGATIVE:
                props[f]["minimum"] = 0
        elif verb == "give-keyword" and f == "keyword":
            props[f] = _given_keyword()
        else:
            props[f] = WORD
    if verb == "recycle":
        props["from"] = {"enum": ["trash", "hand"], "default": "trash", "description": "the zone recycled from"}
    needed = [f for f in fields if f not in OPTIONAL_FIELDS and f not in ONE_OF.get(verb, ()) + LEFT_OUT.get(verb, ())]
    out = _obj(props, tuple(needed), f"{verb}: {', '.join(fields) or 'no fields'}")
    out["title"] = f"{verb}'s fields"
    out["x-messages"] = {"required": f"{verb} needs {{missing}}"}
    if verb in ONE_OF:
        out["oneOf"] = [{"required": [f]} for f in ONE_OF[verb]]
        out["x-messages"]["oneOf"] = f"{verb} names exactly one of {' or '.join(ONE_OF[verb])}"
    return out if needed or verb in ONE_OF else {**out, "type": ["object", "null"]}


def _effect() -> dict:
    """One effect entry: exactly one verb (its fields checked by ``properties``), optional ``if:`` and ``may:``."""
    verbs = {verb: _verb(verb, fields) for verb, fields in cardlib.VERBS.items()}
    given = lambda k: {"required": [k]}  # noqa: E731
    neither = {"not": {"anyOf": [given("if"), given("may")]}}
    return {"type": "object", "title": "an effect entry",
            "properties": {**verbs, "if": REF("condition"),
                           "may": {"type": "boolean", "description": "optional: on a triggered ability's first entry "
                                   "decided at finalization (383.3.a), else as the entry executes (383.3.a.3)"}},
            "propertyNames": {"enum": [*verbs, "if", "may"], "x-messages": {
                "enum": f"unknown effect verb {{value}} (verbs: {', '.join(verbs)})"}},
            "anyOf": [{**neither, "minProperties": 1, "maxProperties": 1},            # one key: the verb
                      {**given("if"), "not": given("may"), "minProperties": 2, "maxProperties": 2},
                      {**given("may"), "not": given("if"), "minProperties": 2, "maxProperties": 2},
                      {"required": ["if", "may"], "minProperties": 3, "maxProperties": 3}],
            "x-messages": {
                "type": "an effect entry is a mapping {{verb: {{field: value}}}}, not {kind}",
                "anyOf": "an effect entry is one verb: {{verb: {{field: value}}}} (with optional if: and may:): "
                         "write one entry per verb"},
            "description": "one effect: {VERB: {FIELD: VALUE}} with optional if: and may:; a value is a literal, "
                           "target, self, here or there"}


def _ability(battlefield: bool) -> dict:
    """A unit's or gear's ability (triggered or activated), or a battlefield's (triggered or static)."""
    kinds = ("trigger", "static") if battlefield else ("trigger", "activated", "static")
    props = {
        "name": TEXT,
        "trigger": {"enum": list(cardlib.BATTLEFIELD_TRIGGERS if battlefield else cardlib.TRIGGERS)},
        "activated": {"const": True},
        "static": {**_obj({"might": {"type": "integer"}}, ("might",)), "title": "static"},
        "effect": or_null(_list(REF("effect"))),
        "if": REF("condition"),
        "once-per-turn": {"type": "boolean"},
        "speed": {"enum": list(cardlib.SPEEDS), "default": "normal"},
        "exhaust": {"type": "boolean", "description": "exhausting the source is its cost (377)"},
        "cost": WHOLE,
        "by": {"enum": ["enemy", "friendly", "any"], "description": "on-chosen: who chooses it"},
    }
    if battlefield:
        for k in ("activated", "speed", "exhaust", "cost"):
            props[k] = never("a battlefield's abilities are triggered or static: nothing activates a battlefield "
                             "(`activate` names a unit or gear), so " + ("an activated ability" if k == "activated"
                                                                          else f"{k}") + " could never take effect")
    else:
        props["static"] = {**_obj({"may-play-from": {"enum": ["trash"]}}, ("may-play-from",)), "title": "static",
                           "description": "a permission: its controller may play their own cards from their trash "
                                          "(Z4)"}
    out = _obj(props, ("name",), "a triggered (trigger:), activated (activated: true) or static (battlefields) ability")
    out["title"] = "an ability"
    out["dependentRequired"] = {k: [only] for k, only in (("speed", "activated"), ("exhaust", "activated"),
                                                          ("by", "trigger"), ("if", "trigger")) if k in props}
    out["allOf"] = [
        {"oneOf": [{"required": [k]} for k in kinds], "x-messages": {
            "oneOf": f"{{what}} needs exactly one of {' or '.join(kinds)}"}},
        {"if": {"required": ["by"]}, "then": {"properties": {"trigger": {"const": "on-chosen", "x-messages": {
            "const": "by is for on-chosen abilities"}}}}},
        {"if": {"required": ["activated"]}, "then": {
            "required": ["effect"], "properties": {"effect": {"type": "array", "minItems": 1, "x-messages": {
                "type": "an activated ability needs an effect", "minItems": "an activated ability needs an effect"}}},
            "x-messages": {"required": "an activated ability needs an effect"}}},
    ]
    return out


def _card() -> dict:
    """A custom card; what a type can't use is refused (it would never take effect)."""
    spell = {"anyOf": [{"not": {"required": ["type"]}}, {"properties": {"type": {"const": "spell"}}}]}
    card = _obj({
        "type": {"enum": list(cardlib.TYPES)},
        "timing": {"enum": list(cardlib.TIMINGS)},
        "effect": or_null(_list(REF("effect"))),
        "might": WHOLE,
        "abilities": or_null(_list(REF("ability"))),
        "keywords": or_null(_list(REF("keyword"))),
        "text": FREE,
        "friendly": {"type": "boolean", "description": "its unit: target must be friendly (356)"},
        "cost": WHOLE,
        "play-from-trash": {**or_null(_obj({"energy": WHOLE})), "description": "it may be played from its owner's "
                            "trash, for this cost instead of its own (Z4)"},
    }, description="a custom card")
    card["allOf"] = [
        {"if": spell, "then": {"properties": {"keywords": {"items": {"const": "hidden", "x-messages": {
            "const": "a spell's only keyword is hidden (811): {value} is for units (a spell never is on the board, "
                     "and Deathknell triggers on a unit's death, 808)"}}}}}},
        {"if": {"required": ["type"], "properties": {"type": {"const": "gear"}}},
         "then": {"properties": {"might": never("gear has no might: only units have might (a gear's might could "
                                                "never take effect)")}}},
        {"if": {"required": ["type"], "properties": {"type": {"enum": ["unit", "gear"]}}},
         "then": {"properties": {"effect": never("a unit or gear has abilities, not an effect (effect: is a "
                                                 "spell's)")}}},
    ]
    return card


def _catalogue() -> dict:
    """A set file of the real-card catalogue (simulator/core/data/cards/): its ``set:`` and its cards, each a
    custom card (the same keys, the same checks) with the printed card's facts and what its model leaves out."""
    card = _card()
    facts = {
        "number": {**WHOLE, "description": "the collector number in its set"},
        "kind": {"enum": ["token", "legend", "battlefield", "rune"],
                 "description": "what it is when it is not a main-deck unit, spell or gear (never played from a hand)"},
        "domains": _list({"enum": ["fury", "calm", "mind", "body", "chaos", "order"]}),
        "power": {**WHOLE, "description": "the power cost (not modelled: power is out of scope)"},
        "other-keywords": _list({"anyOf": [WORD, {"type": "object", "maxProperties": 1}]},
                                description="printed keywords riftsim does not model"),
        "unmodelled": {**FREE, "description": "what the model leaves out: `ID item` entries separated by `;`"},
        "rulings": _list(FREE, description="the card's per-card rulings, one line each in riftsim's words"),
        "battlefield-abilities": or_null(_list(REF("battlefield_ability"))),
    }
    card["properties"] = {**card["properties"], **facts}
    card["description"] = "a real card: a custom card's keys, with its printed facts"
    meta = _obj({"id": WORD, "code": WORD, "name": TEXT, "size": WHOLE}, ("id", "name"), "the set")
    return _obj({"set": meta, "cards": {"type": "object", "additionalProperties": card}}, ("set", "cards"),
                "a set file of the real-card catalogue")


def _keyword() -> dict:
    plain = [k for k, (numbered, _, _) in cardlib.KEYWORDS.items() if not numbered]
    numbered = [k for k, (n, _, _) in cardlib.KEYWORDS.items() if n]
    deathknell = _obj({"deathknell": _list(REF("effect"))}, ("deathknell",), "deathknell: an on-death ability (808)")
    words = f"a keyword ({', '.join(plain)}), a numbered one as {{NAME: N}} ({', '.join(numbered)}), " \
            "or {deathknell: [effects]} (808)"
    return {**word_or_mapping(list(cardlib.KEYWORDS), [deathknell, _numbered()],
                              f"unknown keyword {{value}} (keywords: {', '.join(cardlib.KEYWORDS)}, "
                              "{{deathknell: [effects]}})"), "description": words}


def _numbered() -> dict:
    """A numbered keyword with its value: {assault: 3} (807, 814)."""
    numbered = [k for k, (n, _, _) in cardlib.KEYWORDS.items() if n]
    return {"type": "object", "minProperties": 1, "maxProperties": 1,
            "properties": {k: {"type": "integer", "minimum": 0, "maximum": 1000} for k in numbered},
            "additionalProperties": False,
            "propertyNames": {"enum": list(cardlib.KEYWORDS), "x-messages": {
                "enum": f"unknown keyword {{value}} (keywords: {', '.join(cardlib.KEYWORDS)})"}},
            "x-messages": {"additionalProperties": f"keyword {{key}} takes no number (numbered keywords: "
                                                   f"{', '.join(numbered)})",
                           "maxProperties": "a keyword is a name or a one-key mapping such as {{assault: 2}}"}}


def _given_keyword() -> dict:
    """give-keyword's keyword: a name, or a numbered one with its value (the default is 1; 807.2, 814.2)."""
    numbered = [k for k, (n, _, _) in cardlib.KEYWORDS.items() if n]
    return {**word_or_mapping(list(cardlib.KEYWORDS), [_numbered()],
                              f"unknown keyword {{value}} (keywords: {', '.join(cardlib.KEYWORDS)})"),
            "title": "a keyword",
            "description": f"give-keyword's keyword: a name, or a numbered one as {{NAME: N}} ({', '.join(numbered)}; "
                           f"the default is 1); Assault and Shield add up with the unit's own (807.2, 814.2)"}


def defs() -> dict:
    one = word_or_mapping([c for c, n in cardlib.CONDITIONS.items() if not n],
                          [{**_obj({c: WHOLE for c, n in cardlib.CONDITIONS.items() if n},
                                   description="{might-at-least: N}"), "minProperties": 1, "maxProperties": 1}],
                          f"unknown condition {{value}} (conditions: {', '.join(cardlib.CONDITIONS)})")
    condition = {**one_or_list(one, minItems=1),
                 "description": "a condition, or a list of them that must all hold (383.2)"}
    bf_entry = _obj({"name": NAME, "provider": WORD, "abilities": or_null(_list(REF("battlefield_ability")))}, ("name",))
    battlefield = {"anyOf": [NAME, {**bf_entry, "title": "a battlefield"}]}
    cards = {"type": ["object", "null"], "maxProperties": MAX_CARDS,
             "x-messages": {"maxProperties": f"cards has {{count:,}} custom cards: at most {MAX_CARDS:,}"},
             "propertyNames": {"pattern": "^[A-Za-z0-9][A-Za-z0-9_.-]*$", "not": {"enum": sorted(every())},
                               "x-messages": {"pattern": "card id {value} must be a word (letters, digits, - _ .)",
                                              "not": "card {value} is already in the built-in catalogue: pick "
                                                     "another id"}},
             "additionalProperties": or_null(_card())}
    rulings = {**or_null(_obj({rid: {"enum": list(values)} for rid, values in RULINGS.items()})), "x-messages": {
        "additionalProperties": f"unknown ruling {{key}}: rulings with alternatives are {', '.join(RULINGS)}"}}
    players = {**_list(NAME, minItems=2, maxItems=max(n for n, _ in MODES.values()), uniqueItems=True),
               "x-messages": {"uniqueItems": "duplicate player {twice}"}}
    unit = {**_obj(UNIT_ENTRY, ("id", "owner")), "title": "a units entry",
            "anyOf": [{"required": ["might"]}, {"required": ["card"]}],
            "x-messages": {"anyOf": "a unit needs might or card"}}
    gear = {**_obj({k: v for k, v in UNIT_ENTRY.items() if k not in ("at", "might", "ward", "keywords", "damage",
                                                                     "stunned", "buff", "designation")},
                   ("id", "owner")), "title": "a gear entry",
            "anyOf": [{"required": ["card"]}, {"required": ["abilities"]}],
            "x-messages": {"anyOf": "gear needs card or abilities"}}
    return {
        "word": WORD,
        "trigger": {"enum": list(cardlib.TRIGGERS)},
        "effect": _effect(),
        "condition": condition,
        "ability": _ability(battlefield=False),
        "battlefield_ability": _ability(battlefield=True),
        "keyword": _keyword(),
        "battlefield": battlefield,
        "unit": unit,
        "gear": gear,
        "card_id": {"anyOf": [{"enum": sorted(every())}, WORD],
                    "description": "a built-in card id, or a custom card declared under cards:"},
        "zone_entry": {"if": {"type": "object"},
                       "then": {**_obj({"id": UNIT_ENTRY["id"], "card": WORD}, ("id", "card")),
                                "title": "a named card"},
                       "else": REF("card_id"),
                       "description": "a card in a zone: a card id (card: a blank card), or {id: ID, card: CARD} "
                                      "naming that card ID (Z1)"},
        "players": players,
        "rulings": rulings,
        "cards": cards,
        "catalogue": _catalogue(),
        "nullable_word": or_null(WORD),
    }


def setup_props() -> dict:
    """The starting-position keys shared by scenario files and verify positions."""
    shapes = {
        "name": TEXT,
        "mode": {"enum": list(MODES), "default": "duel"},
        "players": REF("players"),
        "teams": {**_list({**_list(WORD, minItems=2, maxItems=2), "x-messages": {
            "minItems": "a magma-chamber team has 2 players, got {count}",
            "maxItems": "a magma-chamber team has 2 players, got {count}"}}, minItems=2, maxItems=2), "x-messages": {
            "minItems": "magma-chamber has 2 teams, got {count}", "maxItems": "magma-chamber has 2 teams, got {count}"}},
        "battlefields": or_null(_list(REF("battlefield"), maxItems=MAX_BATTLEFIELDS)),
        "control": or_null({"type": "object", "additionalProperties": REF("nullable_word")}),
        "score": or_null({"type": "object", "additionalProperties": WHOLE}),
        "units": or_null(_list(REF("unit"))),
        "gear": or_null(_list(REF("gear"))),
        "hands": or_null({"type": "object",
                          "additionalProperties": or_null({**_list(REF("zone_entry"), maxItems=MAX_HAND), "x-messages": {
                              "maxItems": f"{{what}} has {{count:,}} cards: at most {MAX_HAND:,}"}})}),
        "decks": or_null({"type": "object", "additionalProperties": {
            "if": {"type": "integer"}, "then": {**WHOLE, "maximum": MAX_ZONE},
            "else": _obj({"count": {**WHOLE, "maximum": MAX_ZONE}, "top": or_null(_list(REF("zone_entry")))},
                         ("count",))},
            "description": "per player: the Main Deck, a count of cards, or {count: N, top: [...]} naming the top "
                           "ones (top first; the count includes them); the rest are blank cards (Z1). A player "
                           "without an entry has an endless deck"}),
        "trash": or_null({"type": "object", "additionalProperties": or_null(_list(REF("zone_entry"),
                                                                                  maxItems=MAX_ZONE)),
                          "description": "per player: the cards in the trash, in the order they arrived (Z1)"}),
        "banished": or_null({"type": "object", "additionalProperties": or_null(_list(REF("zone_entry"),
                                                                                     maxItems=MAX_ZONE)),
                             "description": "per player: the banished cards (Z1)"}),
        "cards": REF("cards"),
        "rulings": REF("rulings"),
        "resources": {"type": "object", "additionalProperties": or_null(
            _obj({"runes": {"type": "integer", "minimum": 0, "maximum": 1000},
                  "energy": {"type": "integer", "minimum": 0, "maximum": 1000}})),
                      "description": "per player: ready runes and the energy pool (costs are paid only with it)"},
        "assign": {"enum": ["manual", "auto"], "default": "auto",
                   "description": "manual: players assign their combat damage with assign steps (465.2.c)"},
        "start": _start(),
    }
    return {"name": TEXT, **{k: shapes.get(k, {}) for k in SETUP_KEYS}}


def _start() -> dict:
    """A position that starts mid-timing (format version 3, M1): every key optional."""
    player_list = _list(WORD, uniqueItems=True)
    targets = {"type": "object", "additionalProperties": {"type": ["string", "integer"], **PRINTABLE}}
    item = _obj({"card": REF("card_id"), "ability": TEXT, "source": WORD, "controller": WORD, "owner": WORD,
                 "pending": {"type": "boolean", "description": "true: pending (329.2); default: finalized"},
                 "targets": targets, "at": WORD, "there": WORD, "here": WORD},
                description="a chain item: a card (card:, controller:) or an ability (ability:, source:)")
    item["title"] = "a chain item"
    item["oneOf"] = [{"required": ["card", "controller"], "not": {"required": ["ability"]}},
                     {"required": ["ability", "source"], "not": {"required": ["card"]}}]
    item["x-messages"] = {"oneOf": "a chain item is a card {{card: ID, controller: P}} or an ability "
                                   "{{ability: NAME, source: ID}}"}
    out = _obj({
        "turn": WORD,
        "phase": {"enum": list(midtiming.PHASES), "default": midtiming.PHASES[0]},
        "scored": {"type": "object", "additionalProperties": _list(WORD)},
        "contested": {"type": "object", "additionalProperties": WORD},
        "combat": _obj({"at": WORD, "attacker": WORD, "defender": WORD}, ("at", "attacker", "defender")),
        "showdown": _obj({"at": WORD, "by": WORD}, ("at", "by")),
        "chain": _list(item, maxItems=64),
        "priority": REF("nullable_word"),
        "focus": REF("nullable_word"),
        "passed": player_list,
    }, description="a position that starts mid-timing: turn, phase, scores this turn, Contested battlefields, an "
                   "active showdown or combat, the chain, priority, focus and who has passed (step 0 settles it)")
    out["title"] = "a start"
    return or_null(out)


#: what a starting position's keys say together: teams exactly in magma-chamber (489)
SETUP_RULES = [
    {"if": {"required": ["mode"], "properties": {"mode": {"const": "magma-chamber"}}},
     "then": {"required": ["teams"], "x-messages": {"required": "magma-chamber needs teams: [[P, Q], [R, S]]"}},
     "else": {"properties": {"teams": never("teams are only for magma-chamber")}}},
]


def setup_schema() -> dict:
    """A starting position alone (``Game.from_setup``): the setup keys, no name."""
    props = setup_props()
    del props["name"]
    return {**_obj(props, ("players",)), "title": "a starting position", "allOf": SETUP_RULES}


def _action(kind: str) -> dict:
    shapes = {"units": _list(WORD, minItems=1) | {"x-messages": {"minItems": "a move names at least one unit"}},
              "to": WORD, "card": WORD,
              "at": WORD, "source": WORD, "ability": TEXT, "battlefield": WORD, "teammate": WORD,
              "option": {"enum": ["yes", "no", True, False], "description": "a may's decision (383.3.a)"},
              "triggers": _list({**TEXT, "allOf": [{"pattern": "^[^:]+:.+$", "x-messages": {
                  "pattern": "trigger {value} is not SOURCE:ABILITY (e.g. a1:brace)"}}]}, minItems=1, uniqueItems=True)
              | {"x-messages": {"uniqueItems": "trigger {twice} is listed twice",
                                "minItems": "an order lists at least one trigger (SOURCE:ABILITY)"}},
              "accelerate": {"type": "boolean"}, "from": {"enum": ["hand", "hidden", "trash"], "default": "hand"},
              "damage": {"type": "object", "additionalProperties": WHOLE, "maxProperties": 64,
                         "x-messages": {"maxProperties": "an assignment names at most 64 units"}},
              "targets": {"type": "object", "additionalProperties": {"type": ["string", "integer"], **PRINTABLE}}}
    props = {"do": {"const": kind}, "player": WORD,
             "illegal": {"type": ["boolean", "string"], "minLength": 1, "pattern": PRINTABLE["pattern"], "x-messages": {
                 **PRINTABLE["x-messages"], "type": "illegal must be true, false or a reason text, not {kind}",
                 "minLength": "illegal must be true, false or a reason text, not {kind}"},
                         "description": "the action must be rejected (and the reason contain this text)"}}
    for f, _ in KINDS[kind].params:
        props[f] = shapes.get(f, {})
    out = _obj(props, ("do", "player") + KINDS[kind].needs)
    if kind == "choose":
        out["oneOf"] = [{"required": ["battlefield"]}, {"required": ["option"]}, {"required": ["card"]}]
        out["x-messages"] = {"oneOf": "a choose step names one of battlefield: (323.12), option: yes | no (383.3.a) "
                                      "or card: (the card to discard, 422)"}
    return out


def _step() -> dict:
    """A step: ``expect:``, or ``do:`` with the fields of that action (chosen by ``do``)."""
    kinds = list(KINDS)
    given = lambda k: {"required": [k]}  # noqa: E731
    # discriminated by its first key (if/then, never oneOf over whole steps): a second one of do:, expect:
    # or show: is then an unknown key of that kind of step, which an editor names ('expect' was unexpected)
    return {"type": "object", "title": "a step",
            "properties": {"do": {"enum": kinds}, "expect": {}, "show": {}},
            "allOf": [{"anyOf": [{"required": ["do"]}, {"required": ["expect"]}, {"required": ["show"]}],
                       "x-messages": {"anyOf": "a step has one of do:, expect: or show:"}},
                      {"if": {"required": ["expect"], "not": given("do")},
                       "then": {**_obj({"expect": REF("expectation")}, ("expect",)), "title": "an expect step"}},
                      {"if": {"required": ["show"], "not": {"anyOf": [given("do"), given("expect")]}},
                       "then": {**_show(), "title": "a show step"}}]
            + [{"if": {"required": ["do"], "properties": {"do": {"const": k}}}, "then": _action(k)} for k in kinds]}


def _fields(table: dict) -> dict:
    """The JSON Schema of a units or gear expectation's fields, from the loader's table of their kinds."""
    out: dict[str, object] = {}
    for f, kind in table.items():
        if kind is int:
            out[f] = {"type": "integer"}
        elif kind is bool:
            out[f] = {"type": "boolean"}
        elif isinstance(kind, tuple):
            out[f] = {"enum": list(kind)}
        else:
            out[f] = WORD
    return out


def _chain_entry() -> dict:
    """A chain expectation's entry in detail (X4): only the fields given are compared."""
    one_or_more = {"if": {"type": "array"}, "then": _list(WORD), "else": WORD}
    return {**_obj({"name": TEXT, "controller": WORD, "pending": {"type": "boolean"},
                    "targets": {"type": "object", "additionalProperties": one_or_more}, "source": WORD},
                   description="a chain item: the fields given are compared"), "title": "a chain entry"}


def _event_entry() -> dict:
    """An ``events:`` entry: a text, or ``{text, rule}`` (the line must cite that rule or a sub-rule)."""
    return {"if": {"type": "string"}, "then": TEXT,
            "else": {**_obj({"text": TEXT, "rule": TEXT}, ("text",)), "title": "an event"}}


def _expectation() -> dict:
    kinds = {"enum": ["showdown", "combat"]}
    unit_fields = _fields(loader.UNIT_FIELDS)
    shapes = {
        "state": {"enum": list(loader.STATES)},
        "phase": {"enum": list(loader.PHASES)},
        "turn": WORD,
        "focus": REF("nullable_word"),
        "priority": REF("nullable_word"),
        "chain": _list({"if": {"type": "string"}, "then": TEXT, "else": _chain_entry()}),
        "active": or_null(_obj({"kind": kinds, "at": WORD, "attacker": WORD, "defender": WORD}, ("kind", "at"))),
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
        "hidden": {"type": "object", "additionalProperties": or_null(_list(REF("card_id")))},
        "gear": {"type": "object", "additionalProperties": _obj(_fields(loader.GEAR_FIELDS))},
        "passed": {**_list(WORD, uniqueItems=True), "description": "who has passed in the current round, in order"},
        "events": {**_list(_event_entry()), "description": "an ordered subsequence of the trace lines since the "
                   "previous expectation"},
        "no-events": {**_list(TEXT), "description": "texts no trace line since the previous expectation contains"},
        "decision": or_null(_obj({"kind": {"enum": list(RANK)}, "player": WORD, "item": TEXT}, ("kind",),
                                 "who must decide what now (null: the game is over)")),
        **{z: {"type": "object", "additionalProperties": _zone_expectation()} for z in ("hand", "trash", "banished")},
        "deck": {"type": "object", "additionalProperties": {
            "if": {"type": "integer"}, "then": WHOLE,
            "else": _obj({"count": WHOLE, "top": _list(WORD)}, ("count",))}},
    }
    return {"type": "object", "minProperties": 1, "additionalProperties": False, "title": "an expectation",
            "x-messages": {"minProperties": "expect: names at least one key"},
            "properties": {k: shapes.get(k, {}) for k in loader.EXPECT_KEYS}}


def _zone_expectation() -> dict:
    """A hand, trash or banishment expected (Z6): a list of entries (exactly, as a multiset), or {count, has, lacks}."""
    return {"if": {"type": "array"}, "then": _list(WORD),
            "else": {**_obj({"count": WHOLE, "has": _list(WORD), "lacks": _list(WORD)}), "minProperties": 1}}


def _show() -> dict:
    """A show: step: the keys whose values it prints (never checked), or all."""
    known = f"known: {', '.join(loader.SHOW_KEYS)}, or all"
    some = {**_list({"enum": list(loader.SHOW_KEYS), "x-messages": {"enum": f"show: unknown key {{value}} ({known})"}},
                    minItems=1), "x-messages": {"minItems": "show: names at least one key, or all"}}
    keys = word_or_mapping(["all"], [some], "show: takes a list of keys or all, not {kind} (e.g. show: [{value}])")
    return _obj({"show": keys}, ("show",), "print these keys' values in the trace instead of checking them")


def scenario_schema() -> dict:
    """The JSON Schema of a scenario file."""
    props = setup_props()
    props.update({
        "steps": _list(REF("step")),
        "pending": TEXT, "description": FREE, "seed": TEXT,
        **provenance.header_shapes(TEXT, FREE),
    })
    d = defs()
    d["expectation"] = _expectation()
    d["step"] = _step()
    return {
        "$schema": DIALECT,
        "$id": "https://riftsim.invalid/schemas/scenario.schema.json",
        "title": "riftsim scenario",
        "x-name": "a scenario",
        "description": "A starting position and steps (docs/scenario-format.md)",
        "type": "object",
        "required": ["name", "players", "steps"],
        "properties": {k: props.get(k, {}) for k in loader.TOP},
        "allOf": SETUP_RULES,
        "additionalProperties": False,
        "$defs": d,
    }


def dumps(schema: dict) -> str:
    return json.dumps(schema, indent=1, ensure_ascii=False) + "\n"


def shipped(kind: str) -> str:
    """The schema file shipped in the package (what editors are pointed at)."""
    return resources.files("simulator.scenario").joinpath("schemas", FILES[kind]).read_text(encoding="utf-8")
