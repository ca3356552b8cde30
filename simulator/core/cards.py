"""Cards: the built-in catalogue and the effect vocabulary (spec/scenario-format.md).

An effect is a tuple ``(verb, ((field, value), ...))``; a value is a literal id,
``here``, ``self`` or ``target`` (named by the player in the action's targets).
"""
from __future__ import annotations

from dataclasses import dataclass

from simulator.core.model import Ability

#: verb -> the fields it takes (and whether a field names a unit, a place, ...)
VERBS: dict[str, tuple[str, ...]] = {
    "move": ("unit", "to"),
    "recall": ("unit",),
    "stun": ("unit",),
    "buff": ("unit", "might"),
    "en-garde": ("unit",),
    "damage": ("unit", "amount"),
    "kill": ("unit", "gear"),
    "play-unit": ("might", "at"),
    "add": ("energy",),
    "counter": ("item",),
    "draw": ("count", "player"),
    "extra-turn": ("player",),
    "play": ("card", "at"),
    "banish": ("unit", "gear", "card"),
    "return": ("unit", "gear", "card"),
    "discard": ("count", "player", "card"),
    "recycle": ("card", "count", "from", "player"),
    "replay": ("unit", "at"),
    "ready": ("unit",),
    "exhaust": ("unit",),
    "give-keyword": ("unit", "keyword"),
    "ward": ("unit",),
}
#: fields of an effect entry that are not the verb's: its own condition and whether it is optional
ENTRY_KEYS = ("if", "may")
TRIGGERS = ("on-play", "on-arrive", "on-attack", "on-defend", "on-any-attack", "on-conquer", "on-hold",
            "on-move", "on-death", "on-showdown-start", "on-combat-end", "on-turn-start", "on-turn-end",
            "on-spell", "on-spell-mine", "on-chosen")
#: triggers a battlefield's abilities may have
BATTLEFIELD_TRIGGERS = ("on-conquer", "on-hold", "on-attack", "on-defend", "on-showdown-start", "on-combat-end",
                        "on-turn-start", "on-turn-end", "on-spell", "on-spell-mine")
#: condition name -> whether it takes a number (`{might-at-least: 5}`)
CONDITIONS = {"alone-here": False, "enemy-alone-here": False, "at-battlefield": False, "controls-here": False,
              "your-turn": False, "not-your-turn": False, "in-combat": False, "not-damaged-this-turn": False,
              "might-at-least": True}
SPEEDS = ("normal", "action", "reaction")
#: the fields a card may leave to the player as ``target`` (356): units, places, chain items, players
TARGET_FIELDS = ("unit", "to", "at", "item", "player", "card", "gear")
TIMINGS = ("normal", "action", "reaction")
TYPES = ("spell", "unit", "gear")
#: keyword -> (takes a number, its default, the rule); see simulator/rules/keywords.py for what each does
KEYWORDS: dict[str, tuple[bool, int | None, str]] = {
    "tank": (False, None, "815"),
    "backline": (False, None, "826"),
    "ganking": (False, None, "810"),
    "accelerate": (True, 1, "805"),
    "assault": (True, 1, "807"),
    "shield": (True, 1, "814"),
    "ambush": (False, None, "822"),
    "hidden": (False, None, "811"),
}


def keyword(keywords: tuple, name: str):
    """The value of keyword ``name`` in a ``((name, value), ...)`` tuple: None if absent.

    >>> keyword((("tank", None), ("assault", 2)), "assault")
    2
    >>> keyword((("tank", None),), "tank") is not None, keyword((), "tank")
    (True, None)
    """
    for k, v in keywords:
        if k == name:
            return True if v is None else v
    return None


@dataclass(frozen=True)
class Card:
    id: str
    type: str                     # spell, unit, gear
    timing: str = "normal"        # normal, action, reaction
    effect: tuple = ()
    might: int = 0
    abilities: tuple = ()
    text: str = ""
    friendly: bool = False        # its unit target must be friendly (the player's or a teammate's)
    cost: int = 0                 # energy (354); paid only in a game with resources:
    keywords: tuple = ()          # ((name, value), ...), names from KEYWORDS
    name: str = ""                # the printed name of a real card ("" for the built-in test cards)
    unmodelled: str = ""          # what of the real card this model leaves out
    trash_cost: int | None = None  # play-from-trash: it may be played from its owner's trash for this cost (Z4)

    def target_fields(self) -> tuple[str, ...]:
        """The fields the player names in ``targets`` when playing it, in order."""
        out: list[str] = []
        for _, fields in self.effect:
            for f, v in fields:
                if v == "target" and f not in out:
                    out.append(f)
        return tuple(out)


def effect(*steps: tuple) -> tuple:
    return tuple((verb, tuple(fields.items())) for verb, fields in steps)


def _catalogue() -> dict[str, Card]:
    cards = {
        "rune-prison": Card("rune-prison", "spell", "action", effect(("stun", {"unit": "target"})),
                            text="Action: stun a unit (it deals no combat damage this turn)."),
        "en-garde": Card("en-garde", "spell", "reaction", effect(("en-garde", {"unit": "target"})), friendly=True,
                         text="Reaction: a friendly unit gets +1 might this turn, +1 more if it is the only "
                              "unit you control there."),
        "action-spell": Card("action-spell", "spell", "action", text="Action, no effect."),
        "reaction-spell": Card("reaction-spell", "spell", "reaction", text="Reaction, no effect."),
        "normal-spell": Card("normal-spell", "spell", "normal", text="No timing keyword, no effect."),
        "move-spell": Card("move-spell", "spell", "action", effect(("move", {"unit": "target", "to": "target"})),
                           text="Action: move a unit, any player's, to a battlefield (or to its base)."),
        "add-gear": Card("add-gear", "gear", "normal",
                         abilities=(Ability("add", activated=True, effect=effect(("add", {"energy": 1})), speed="reaction",
                                            exhaust=True),),
                         text="Gear. Exhaust: add 1 energy (Reaction; resolves at once)."),
    }
    for n in range(1, 10):
        cards[f"unit-{n}"] = Card(f"unit-{n}", "unit", "normal", might=n, text=f"Unit, might {n}.")
        cards[f"action-unit-{n}"] = Card(f"action-unit-{n}", "unit", "action", might=n,
                                         text=f"Unit with Action, might {n}.")
    return cards


def keyword_abilities(keywords) -> tuple:
    """808: ``{deathknell: [effects]}`` is an on-death ability named deathknell."""
    out = []
    for k in keywords or []:
        if isinstance(k, dict) and "deathknell" in k:
            out.append(Ability("deathknell", "on-death", effect=to_effect(k["deathknell"])))
    return tuple(out)


def to_condition(v) -> tuple:
    """``if:``: a name, a one-key mapping ``{might-at-least: 5}``, or a list of them (all must hold)."""
    if v is None:
        return ()
    items = v if isinstance(v, list) else [v]
    out = []
    for c in items:
        if isinstance(c, dict):
            (name, arg), = c.items()
            out.append((name, arg))
        else:
            out.append((c, None))
    return tuple(out)


def _keyword(v) -> tuple:
    """give-keyword's ``keyword``, ``assault`` or ``{assault: 3}``, as ``("assault", 1)`` or ``("assault", 3)``:
    a numbered keyword without its number has its default (1); ``("tank", None)`` for the others. (The
    validator refuses a bad one, naming its line; custom cards are built before that check.)"""
    if isinstance(v, str):
        return (v, KEYWORDS[v][1] if v in KEYWORDS else None)
    return next(iter(v.items())) if isinstance(v, dict) and len(v) == 1 else v


def to_effect(steps) -> tuple:
    """``[{verb: {field: value}, if: ..., may: true}, ...]`` -> ``((verb, ((field, value), ...)), ...)``; an
    entry's ``if`` and ``may`` become its fields ``("if", condition)`` and ``("may", True)``."""
    out = []
    for s in steps or []:
        verb = next(k for k in s if k not in ("if", "may"))
        fields = tuple((f, _keyword(v) if f == "keyword" else v) for f, v in (s[verb] or {}).items())
        if "if" in s:
            fields += (("if", to_condition(s["if"])),)
        if s.get("may"):
            fields += (("may", True),)
        out.append((verb, fields))
    return tuple(out)


def to_ability(a: dict) -> Ability:
    static = (a.get("static") or {}).get("might", 0)
    return Ability(a["name"], a.get("trigger"), bool(a.get("activated")), to_effect(a.get("effect")), static,
                   condition=to_condition(a.get("if")), once=bool(a.get("once-per-turn")),
                   speed=a.get("speed", "normal"), exhaust=bool(a.get("exhaust")), by=a.get("by", "any"),
                   cost=int(a.get("cost", 0)), play_from=(a.get("static") or {}).get("may-play-from", ""))


def to_card(cid: str, d: dict, name: str = "", unmodelled: str = "") -> Card:
    """A card from its mapping (a custom card's, or a catalogue entry's with its printed ``name``)."""
    abilities = tuple(to_ability(a) for a in d.get("abilities", []) or []) + keyword_abilities(d.get("keywords"))
    return Card(cid, d.get("type", "spell"), d.get("timing", "normal"), to_effect(d.get("effect")),
                int(d.get("might", 0)), abilities, d.get("text", ""), bool(d.get("friendly", False)),
                cost=int(d.get("cost", 0)), keywords=to_keywords(d.get("keywords")), name=name,
                unmodelled=unmodelled,
                trash_cost=None if "play-from-trash" not in d else int((d["play-from-trash"] or {}).get("energy", 0)))


def to_keywords(v) -> tuple:
    """``[tank, {assault: 2}]`` as ``(("tank", None), ("assault", 2))`` (numbered keywords get their default)."""
    out = []
    for k in v or ():
        if isinstance(k, dict):
            (name, n), = k.items()
            if name == "deathknell":          # an on-death ability (808), made by setup.keyword_abilities
                continue
        else:
            name, n = k, KEYWORDS[k][1]
        out.append((name, n))
    return tuple(out)


BUILT_IN: dict[str, Card] = _catalogue()
