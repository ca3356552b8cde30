"""The real Riftbound cards: one YAML file per set (``simulator/core/data/cards/SET.yaml``), read on first need.

Each entry records facts of a printed card (its set and collector number, type, domains, energy and power
cost, might, timing, keywords) and riftsim's own model of it in the effect vocabulary (never the card's
text). What the model leaves out is ``unmodelled``: items ``ID what`` separated by ``;``, where ID is a
section of the format's version 3 specification (``G1``, ``Z3``...), ``NEW`` (no vocabulary item yet) or
``OOS`` (deliberately out of scope: power, Buff counters...). From these a card is **fully** modelled
(nothing left out), **partly** (something modelled, something not) or **not** modelled, and
:func:`coverage` counts them per set and counts the missing items (docs/cards.md).

>>> item("G2 target filter: a unit at a battlefield")
('G2', 'filters')
>>> item("NEW channel a rune (a Deathknell)")
('NEW', 'channel runes')
>>> status(entries()["Rune Prison"]), status(entries()["Hextech Ray"]), status(entries()["Pouty Poro"])
('full', 'partial', 'none')
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import lru_cache

from simulator.core.cards import BUILT_IN, Ability, Card, to_ability, to_card, to_keywords

#: the version 3 specification's items a card may need (docs/cards.md names them)
SPEC = {
    "G1": "selectors", "G2": "filters", "G3": "amounts and look-back", "G4": "conditions",
    "G5": "linked instructions", "G6": "target rechecks", "G7": "heal, kill gear",
    "C1": "costs beyond energy", "C2": "triggered abilities' costs", "C3": "Add during a payment",
    "C4": "payments within instructions", "C5": "optional additional costs", "C6": "discounts and cost changes",
    "I1": "cards played by an instruction", "I2": "for-each-player", "I3": "play prohibitions",
    "T1": "new trigger events", "T2": "the Nth time", "T3": "extra triggers", "T4": "reflexive triggers",
    "T5": "delayed abilities", "T6": "chains outside the Main Phase",
    "K1": "Repeat", "K2": "Flow", "K3": "Empower", "K4": "equipment", "K5": "statics of units and gear",
    "K6": "control changes", "K7": "split damage", "K8": "skipping the Draw Phase",
    "K9": "battlefield abilities of the acting player", "K10": "Hidden limits, hidden gear",
    "R1": "replacement effects", "R2": "ordering replacements", "R3": "combat assignment with replacements",
    "Z1": "zones: deck, hand, trash", "Z2": "drawing from the deck, revealing", "Z3": "zone verbs: return, "
    "discard, recycle, banish cards", "Z4": "playing from the trash", "Z5": "tokens off the board",
    "Z6": "zone expectations",
}
#: NEW (no vocabulary item yet) and OOS (out of scope) items: how an item's text begins -> its name
OTHER = {
    "NEW": {"Legion": "Legion", "Temporary": "Temporary", "channel": "channel runes", "ready runes": "ready runes",
            "recycle a rune": "recycle runes", "a minimum of 1 might": "a minimum of 1 might",
            "legends": "legends (the Legend Zone)", "battlefield cards by name": "battlefield cards by name",
            "bonus damage": "bonus damage", "score a point": "score a point by an effect",
            "winning by an effect": "win by an effect", "a change of the points": "victory score changes",
            "permission to play": "play location permissions", "modes": "modal choices",
            "Gold tokens": "Gold tokens", "double a unit's might": "doubling might",
            "gaining other objects' abilities": "gaining other objects' abilities",
            "the Champion Zone": "the Champion Zone", "a 'this combat' duration": "a 'this combat' duration",
            "the extra hold effects": "extra hold effects",
            "effects at its battlefield": "effects that don't trigger at a battlefield"},
    "OOS": {"power": "power and domains", "domains": "power and domains", "spending power": "power and domains",
            "the Add is": "power and domains", "Buff counters": "Buff counters", "Deflect": "Deflect (a power cost)",
            "Vision": "Vision", "Predict": "Predict", "XP": "XP and Level", "Level": "XP and Level",
            "a might that becomes": "might that becomes another's", "activating a named": "activating a named "
            "triggered ability"},
}
STATUSES = ("full", "partial", "none")
#: a card's kind: its type, or what it is when it is no main-deck card (never played from a hand)
KINDS = ("unit", "spell", "gear", "token", "legend", "battlefield", "rune")


@dataclass(frozen=True)
class Entry:
    """One printed card: facts, and riftsim's model (``card``: playable by name; ``battlefield``: abilities)."""
    name: str
    set: str
    number: int | None
    kind: str
    domains: tuple = ()
    cost: int = 0
    power: int = 0
    might: int | None = None
    timing: str = "normal"
    keywords: tuple = ()
    other_keywords: tuple = ()
    text: str = ""
    unmodelled: str = ""
    rulings: tuple = ()
    card: Card | None = None
    battlefield: tuple = ()


def item(text: str) -> tuple[str, str]:
    """``(ID, name)`` of one ``unmodelled`` item; ValueError for an ID or a NEW/OOS item not declared above."""
    ident, _, rest = text.strip().partition(" ")
    if ident in SPEC:
        return ident, SPEC[ident]
    for prefix, name in OTHER.get(ident, {}).items():
        if rest.startswith(prefix):
            return ident, name
    raise ValueError(f"unknown unmodelled item {text.strip()!r} (an ID of {', '.join(SPEC)}, NEW or OOS)")


def missing(e: Entry) -> list[tuple[str, str]]:
    """The items the model of ``e`` leaves out, each once, in order."""
    out: list[tuple[str, str]] = []
    for part in e.unmodelled.split(";"):
        if part.strip() and item(part) not in out:
            out.append(item(part))
    return out


def status(e: Entry) -> str:
    """``full`` (nothing timing-relevant left out), ``partial`` (some ability modelled) or ``none``."""
    if not missing(e):
        return "full"
    modelled = bool(e.card and (e.card.effect or e.card.abilities or e.card.keywords)) or bool(e.battlefield)
    return "partial" if modelled else "none"


def _entry(name: str, set_id: str, d: dict) -> Entry:
    kind = d.get("kind") or d.get("type", "spell")
    playable = d.get("type") in ("unit", "spell", "gear") and kind not in ("token",)
    card = to_card(name, d, name, d.get("unmodelled", "")) if playable else None
    return Entry(name, set_id, d.get("number"), kind, tuple(d.get("domains") or ()), int(d.get("cost") or 0),
                 int(d.get("power") or 0), d.get("might"), d.get("timing", "normal"), to_keywords(d.get("keywords")),
                 tuple(str(k) for k in d.get("other-keywords") or ()), d.get("text", ""), d.get("unmodelled", ""),
                 tuple(d.get("rulings") or ()), card,
                 tuple(to_ability(a) for a in d.get("battlefield-abilities") or ()))


def files() -> list:
    """The set files, in catalogue order (the sets by name; cards whose set is not recorded last)."""
    from importlib.resources import files as package_files
    folder = package_files("simulator.core").joinpath("data", "cards")
    found = [f for f in folder.iterdir() if f.name.endswith(".yaml")]
    return sorted(found, key=lambda f: (f.name == "unsorted.yaml", f.name))


def documents() -> list[tuple[str, dict]]:
    """``(file name, document)`` of every set file, read with libyaml when present (same values, faster)."""
    import yaml
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [(f.name, yaml.load(f.read_text(encoding="utf-8"), Loader=loader)) for f in files()]


@lru_cache(maxsize=1)
def _load() -> tuple[dict, dict]:
    sets: dict[str, dict] = {}
    out: dict[str, Entry] = {}
    for fname, doc in documents():
        meta = doc["set"]
        sets[meta["id"]] = meta
        for name, d in (doc.get("cards") or {}).items():
            if name in out:
                raise ValueError(f"{fname}: card {name!r} is also in set {out[name].set}")
            out[name] = _entry(name, meta["id"], d or {})
    return sets, out


def sets() -> dict[str, dict]:
    """Set id -> its ``set:`` mapping (id, name, code, size), in catalogue order."""
    return _load()[0]


def entries() -> dict[str, Entry]:
    """Printed name -> :class:`Entry`, every set."""
    return _load()[1]


def real() -> dict[str, Card]:
    """The cards a scenario may name (units, spells and gear, by printed name)."""
    return {name: e.card for name, e in entries().items() if e.card is not None}


def every() -> dict[str, Card]:
    """Every card riftsim knows by id: the built-in test cards and the real ones (read now)."""
    return {**BUILT_IN, **real()}


class Cards(dict):
    """Card id -> :class:`Card`: the built-in test cards and a file's custom cards, and the real catalogue
    only once a name is not found among them: a scenario that names no real card never reads the set files
    (the catalogue does not slow ``riftsim simulate`` or ``--version``)."""

    def __init__(self, *args) -> None:
        super().__init__(BUILT_IN, *args)

    def _real(self, key) -> bool:
        """Add the real cards (never replacing an id already here) if ``key`` may be one of them."""
        if isinstance(key, str) and not dict.__contains__(self, key):
            for k, c in real().items():
                self.setdefault(k, c)
        return dict.__contains__(self, key)

    def __missing__(self, key):
        if self._real(key):
            return dict.__getitem__(self, key)
        raise KeyError(key)

    def __contains__(self, key) -> bool:
        return dict.__contains__(self, key) or self._real(key)

    def get(self, key, default=None):
        return self[key] if key in self else default


def coverage() -> tuple[dict[str, Counter], Counter, Counter]:
    """Per set, how many cards are full/partial/none; how many cards need each missing item; and how many
    cards each item alone would make fully modelled (those that need only it)."""
    per_set: dict[str, Counter] = {s: Counter() for s in sets()}
    needed: Counter = Counter()
    alone: Counter = Counter()
    for e in entries().values():
        per_set[e.set][status(e)] += 1
        items = missing(e)
        needed.update(items)
        if len(items) == 1:
            alone.update(items)
    return per_set, needed, alone


__all__ = ["Ability", "Cards", "Entry", "KINDS", "OTHER", "SPEC", "STATUSES", "coverage", "entries", "every", "item", "missing",
           "real", "sets", "status"]
