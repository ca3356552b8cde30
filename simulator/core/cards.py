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


def _real_cards() -> dict[str, Card]:
    """The real Riftbound cards (simulator/core/data/cards.yaml, read with importlib.resources)."""
    from importlib.resources import files

    import yaml
    from simulator.core.model import Ability
    text = files("simulator.core").joinpath("data/cards.yaml").read_text(encoding="utf-8")
    doc = yaml.load(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))   # libyaml: 8x faster, same values
    out = {}
    for name, d in doc.items():
        abilities = tuple(Ability(a["name"], a.get("trigger"), bool(a.get("activated")), effect(*(
            tuple(e.items())[0] for e in a.get("effect") or ())), speed=a.get("speed", "normal"),
            exhaust=bool(a.get("exhaust"))) for a in d.get("abilities") or ())
        out[name] = Card(name, d["type"], d.get("timing", "normal"),
                         effect(*(tuple(e.items())[0] for e in d.get("effect") or ())),
                         int(d.get("might") or 0), abilities, d.get("text", ""), bool(d.get("friendly")),
                         int(d.get("cost") or 0), to_keywords(d.get("keywords")), name, d.get("unmodelled", ""))
    return out


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


CATALOGUE: dict[str, Card] = _catalogue()
REAL: dict[str, Card] = _real_cards()
CATALOGUE.update(REAL)
