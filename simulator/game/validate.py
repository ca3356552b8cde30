"""Validating a starting position (spec/scenario-format.md, "Starting position"): one validator below
the engine for scenario files, ``verify --positions`` files and :meth:`Game.from_setup
<simulator.game.engine.Game.from_setup>`.

:class:`SetupValidator` checks a document already read into plain values (with the line of every path,
when it came from a file) and raises :class:`~simulator.core.errors.ScenarioError` whose message is
``FILE:LINE: what is wrong``; :meth:`SetupValidator.position` returns what :func:`~simulator.game.setup.build`
takes.  The scenario layer adds steps and expectations on top of it.

>>> SetupValidator("setup").position({"players": ["A", "B"], "units": [{"id": "a1", "owner": "C", "might": 1}]})
Traceback (most recent call last):
...
simulator.core.errors.ScenarioError: setup:1: unknown player C in a1's owner (players: A, B)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from statecharts.citations import cite

from simulator.core.cards import ENTRY_KEYS, TARGET_FIELDS, TYPES, Card
from simulator.core.catalogue import Cards
from simulator.core.errors import ScenarioError
from simulator.core.cards import to_card
from simulator.game.setup import MODES, RULINGS
from simulator.game import start as midtiming
from simulator.game.shape import fmt as _fmt

#: the top-level keys of a starting position
SETUP_KEYS = ("mode", "players", "teams", "battlefields", "control", "score", "units", "gear", "hands",
              "cards", "rulings", "resources", "assign", "start", "decks", "trash", "banished")
#: the zone keys of a starting position (Z1): a file with any of them models its zones
ZONE_KEYS = ("decks", "trash", "banished")
#: effect verbs that only exist where zones are modelled (Z3): a file using one models its zones
ZONE_VERBS = ("return", "discard", "recycle")
#: effect fields that hold a number, a place, a unit, an item, a player
NUMBER_FIELDS = ("might", "amount", "energy", "count")
PLACE_FIELDS = ("to", "at")
#: values an effect field may take besides a literal id (and ``target``): the source, the event's place
UNIT_VALUES = ("self",)
PLACE_VALUES = ("here", "there")
#: number fields that can't be negative (a buff's might may be)
NON_NEGATIVE = {("play-unit", "might"), ("damage", "amount"), ("add", "energy"), ("draw", "count")}
#: effect fields that may be left out (a default applies)
OPTIONAL_FIELDS = ("energy", "count", "at", "item", "player")

Path = tuple

#: How large a starting position may be (far beyond a real game: a few battlefields, a few dozen units), so
#: that no position can make a step or a ``legal`` listing cost more than a fraction of a second.
MAX_UNITS = 64               # units and gear on the board
MAX_BATTLEFIELDS = 16
MAX_HAND = 100               # cards in one player's hand
MAX_CARDS = 256              # custom cards
MAX_ZONE = 100               # cards in one zone of one player (a deck's count included)
MAX_ZONE_CARDS = 1_000       # cards in all the zones of a file


@dataclass
class Position:
    """A validated starting position: what :func:`~simulator.game.setup.build` takes."""
    setup: dict
    cards: dict[str, Card]
    rulings: dict[str, str]


def check_ruling(rid: Any, value: Any, where: str) -> None:
    if rid not in RULINGS:
        raise ScenarioError(where, f"unknown ruling {_fmt(rid)}: rulings with alternatives are "
                                   + ", ".join(RULINGS))
    if value not in RULINGS[rid]:
        raise ScenarioError(where, f"ruling {rid} is {' or '.join(RULINGS[rid])}, not {_fmt(value)}")


class SetupValidator:
    """What a schema can't say about a starting position: that the ids it names are declared, and the refusals
    the rules make. The document's shape was checked first (:mod:`simulator.game.shape`), so the code reads
    it as the schema says it is; every error names the line."""

    def __init__(self, file: str, lines: dict[Path, int] | None = None, root: Path = ()) -> None:
        self.file = file
        self.lines: dict[Path, int] = lines if lines is not None else {(): 1}
        self.root = tuple(root)            # where the position sits in the file (a positions file's entry)
        self.players: tuple[str, ...] = ()
        self.later_cards: list = []         # (card id, path, what): card ids named by effects, checked last
        self.bfs: tuple[str, ...] = ()
        self.units: set[str] = set()
        self.gear: set[str] = set()
        self.cards: dict[str, Card] = Cards()
        self.later: list = []              # (ability effect, path): ids checked once all are declared
        self.zone_ids: dict[str, str] = {}  # ids declared in zones (Z1) -> their card
        self.unit_cards: dict[str, str | None] = {}   # board ids -> their card (None: an anonymous card)
        self.zone_verbs = False            # an effect uses a verb of Z3 (the file then models its zones)

    # -- helpers ---------------------------------------------------------------------------
    def where(self, *path) -> str:
        path = self.root + tuple(path)
        while path not in self.lines:
            path = path[:-1]
        return f"{self.file}:{self.lines[path]}"

    @staticmethod
    def opt(doc: dict, key, default):
        """``doc[key]``, or ``default`` when it is absent or null (the schema lets an empty key mean none)."""
        v = doc.get(key)
        return default if v is None else v

    def fail(self, path: Path, what: str):
        raise ScenarioError(self.where(*path), what)

    def player(self, v, path: Path, what: str = "player", null: bool = False):
        if v is None and null:
            return None
        if not isinstance(v, str) or v not in self.players:
            self.fail(path, f"unknown player {_fmt(v)} in {what} (players: {', '.join(self.players)})")
        return v

    def battlefield(self, v, path: Path, what: str = "battlefield"):
        if not isinstance(v, str) or v not in self.bfs:
            self.fail(path, f"unknown battlefield {_fmt(v)} in {what} (battlefields: {', '.join(self.bfs) or 'none'})")
        return v

    def place(self, v, path: Path, what: str, extra: tuple = ()):
        if isinstance(v, str) and (v == "base" or v in self.bfs or v in extra):
            return v
        self.fail(path, f"unknown place {_fmt(v)} in {what} (base or a battlefield: {', '.join(self.bfs) or 'none'})")

    def unit_id(self, v, path: Path, what: str, gear: bool = False):
        """A unit on the board at the start, or one that enters play later (``CARD#N``, ``token#N``)."""
        if isinstance(v, str):
            if v in self.units or (gear and v in self.gear):
                return v
            m = re.fullmatch(r"(.+)#[1-9][0-9]*", v)
            if m and (m.group(1) == "token" or m.group(1) in self.cards or m.group(1) in self.unit_cards):
                return v
        kind = "unit or gear" if gear else "unit"
        self.fail(path, f"unknown {kind} {_fmt(v)} in {what}")

    def entry_id(self, v, path: Path, what: str):
        """A card outside the board, named by an id (a zone entry's, a unit's or gear's) or by its card name."""
        if isinstance(v, str) and (v in self.zone_ids or v in self.units or v in self.gear or v == "card"):
            return v
        return self.card_id(v, path, what)

    def card_id(self, v, path: Path, what: str, types: tuple = TYPES):
        if not isinstance(v, str) or v not in self.cards:
            self.fail(path, f"unknown card {_fmt(v)} in {what} (not in the catalogue or cards:)")
        if self.cards[v].type not in types:
            self.fail(path, f"card {v} is a {self.cards[v].type}, not a {' or '.join(types)}")
        return v

    # -- the document ----------------------------------------------------------------------
    def position(self, doc: dict) -> Position:
        """Check a starting position whose shape the schema has checked, and return it ready to build."""
        self.seats(doc)
        self.battlefields(doc)
        self.board(doc)
        self.custom_cards(doc)
        self.zones(doc)
        self.deferred(doc)
        hands = self.opt(doc, "hands", {})
        for p in self.opt(doc, "resources", {}):
            self.player(p, ("resources", p), "resources")
        rulings = self.opt(doc, "rulings", {})
        self.lethal(doc)
        midtiming.check(self, doc)                 # a start mid-timing (M1): refused if the rules make it impossible
        setup = {k: doc[k] for k in ("mode", "players", "teams", "battlefields", "control", "score", "units",
                                     "gear", "hands", "resources", "assign", "start", *ZONE_KEYS)
                 if doc.get(k) is not None}
        setup["hands"] = {p: list(c or []) for p, c in hands.items()}
        setup["zones"] = any(k in doc for k in ZONE_KEYS) or self.zone_verbs
        for key in ("units", "gear", "battlefields"):       # `abilities:` left empty means none
            setup[key] = [({k: x for k, x in e.items() if not (k == "abilities" and x is None)}
                           if isinstance(e, dict) else e) for e in setup.get(key) or []]
        return Position(setup, self.cards, dict(rulings))

    def seats(self, doc: dict) -> None:
        """The players, as many as the mode seats, each in at most one team."""
        mode = doc.get("mode", "duel")
        self.players = tuple(doc["players"])
        size = MODES[mode][0]
        if len(self.players) != size:
            self.fail(("players",), f"mode {mode} needs {size} players, got {len(self.players)}")
        for t_i, team in enumerate(doc.get("teams") or []):
            for j, p in enumerate(team):
                self.player(p, ("teams", t_i, j), "teams")
                if any(p in other for other in doc["teams"][:t_i]) or p in team[:j]:
                    self.fail(("teams", t_i, j), f"player {p} is in two teams")

    def deferred(self, doc: dict) -> None:
        """What could be checked only once every unit, gear, battlefield and card is declared."""
        for effect, path in self.later:          # a literal id may name any unit, gear or battlefield
            self.effect(effect, path)
        for cid, path, what in self.later_cards:     # a play/replay card may be a custom card
            self.card_id(cid, path, what, ("unit", "gear"))
        for key, types in (("units", ("unit",)), ("gear", ("gear",))):   # cards are known now
            for i, e in enumerate(self.opt(doc, key, [])):
                if "card" in e:
                    self.card_id(e["card"], (key, i, "card"), f"{key} entry {e['id']}", types)

    def zones(self, doc) -> None:
        """Z1: each zone key names players; an entry is a card id or ``{id, card}``; an id is declared once in all
        the zones and the board; a deck's ``count`` is at least its ``top`` list; the zones are bounded."""
        total = 0
        for key in ("hands", *ZONE_KEYS):
            for p, v in self.opt(doc, key, {}).items():
                self.player(p, (key, p), key)
                what = f"{p}'s {'hand' if key == 'hands' else 'deck' if key == 'decks' else key}"
                if key == "decks":
                    count, top, path = self.deck(v, (key, p), what)
                else:
                    top, path = v or [], (key, p)
                    count = len(top)
                if count > MAX_ZONE:
                    self.fail((key, p), f"{what} has {count:,} cards: at most {MAX_ZONE:,}")
                total += count
                for i, e in enumerate(top):
                    self.zone_entry(e, path + (i,), what)
        if total > MAX_ZONE_CARDS:
            self.fail(("decks",) if "decks" in doc else ("hands",), f"the zones hold {total:,} cards in all: "
                                                                      f"at most {MAX_ZONE_CARDS:,}")

    def deck(self, v, path: Path, what: str) -> tuple[int, list, Path]:
        """A deck: a count, or ``{count, top}`` whose count includes the named cards."""
        if isinstance(v, int):
            return v, [], path
        top = v.get("top") or []
        if v["count"] < len(top):
            self.fail(path + ("count",), f"{what}: count {v['count']} is smaller than its top list ({len(top)} cards)")
        return v["count"], top, path + ("top",)

    def zone_entry(self, e, path: Path, what: str) -> None:
        """A zone entry: a card (``card``: a blank card), or ``{id, card}`` with an id declared nowhere else."""
        if isinstance(e, dict):
            if e["id"] in self.units or e["id"] in self.gear or e["id"] in self.zone_ids or e["id"] in self.cards:
                self.fail(path + ("id",), f"duplicate id {e['id']}")
            self.zone_ids[e["id"]] = e["card"]
            if e["card"] != "card":
                self.card_id(e["card"], path + ("card",), what)
        elif e != "card":
            self.card_id(e, path, what)

    def battlefields(self, doc) -> None:
        names: list[str] = []
        for i, e in enumerate(self.opt(doc, "battlefields", [])):
            path: tuple = ("battlefields", i)
            if isinstance(e, dict):
                if "provider" in e:
                    self.player(e["provider"], path + ("provider",), "provider")
                self.abilities(e.get("abilities"), path + ("abilities",))
                n = e["name"]
                path = path + ("name",)
            else:
                n = e
            if n in self.players:
                self.fail(path, f"{n!r} can't name a battlefield: it is a player's name")
            if n in names:
                self.fail(path, f"duplicate battlefield {n}")
            names.append(n)
        self.bfs = tuple(names)
        for bf, p in self.opt(doc, "control", {}).items():
            self.battlefield(bf, ("control", bf), "control")
            self.player(p, ("control", bf), "control", null=True)
        self.scores(doc)

    def scores(self, doc) -> None:
        """Points at the start: a player's or, in magma-chamber, a team's, given once; nobody has won yet
        (a start where someone has would end the game at the first cleanup, before anyone acts)."""
        teams_given: dict = {}
        score = self.opt(doc, "score", {})
        for p in score:
            self.player(p, ("score", p), "score")
            team = next((tuple(t) for t in doc.get("teams") or [] if p in t), (p,))
            if team in teams_given:
                self.fail(("score", p), f"{p} and {teams_given[team]} share a team score: give it once")
            teams_given[team] = p
        victory = MODES[doc.get("mode", "duel")][1]
        for p, n in score.items():
            if n >= victory and all(n > m for q, m in score.items() if q != p):
                self.fail(("score", p), f"{p} starts with {n} points, at least the victory score ({victory}) and "
                                        f"more than every opponent: the game would be over before anyone acts "
                                        f"[{cite('validate.won-at-the-start')}]")

    def board(self, doc) -> None:
        ids: set[str] = set()
        n = sum(len(x) for x in (doc.get("units"), doc.get("gear")) if isinstance(x, list))
        if n > MAX_UNITS:
            self.fail(("units",) if "units" in doc else ("gear",),
                      f"the board has {n:,} units and gear: at most {MAX_UNITS:,}")
        for key in ("units", "gear"):
            for i, e in enumerate(self.opt(doc, key, [])):
                path = (key, i)
                uid = e["id"]
                if uid in ids:
                    self.fail(path + ("id",), f"duplicate id {uid}")
                ids.add(uid)
                self.player(e["owner"], path + ("owner",), f"{uid}'s owner")
                if "controller" in e:
                    self.player(e["controller"], path + ("controller",), f"{uid}'s controller")
                if "at" in e:
                    self.place(e["at"], path + ("at",), f"{uid}'s at")
                self.abilities(e.get("abilities"), path + ("abilities",))
                self.keywords(e.get("keywords"), path + ("keywords",))
                (self.units if key == "units" else self.gear).add(uid)
                self.unit_cards[uid] = e.get("card")

    def lethal(self, doc) -> None:
        """A unit starting with lethal damage needs a ``start:``, whose step 0 runs the cleanup that kills it."""
        if doc.get("start") is not None:
            return
        for i, e in enumerate(self.opt(doc, "units", [])):
            might = e.get("might", self.cards[e["card"]].might if e.get("card") in self.cards else 0)
            if e.get("damage", 0) and e["damage"] >= might + e.get("buff", 0):
                self.fail(("units", i, "damage"), f"{e['id']} starts with lethal damage: add a start: block, whose "
                                                  f"step 0 runs the cleanup [{cite('validate.lethal-at-the-start')}]")

    def keywords(self, v, path: Path) -> None:
        """``[tank, {assault: 2}]``: each keyword once; a Deathknell's effects are checked with the abilities'."""
        seen = set()
        for i, k in enumerate(v or []):
            if isinstance(k, dict) and list(k) == ["deathknell"]:          # 808: an on-death ability
                self.later.append((k["deathknell"], path + (i, "deathknell")))
                continue
            name = next(iter(k)) if isinstance(k, dict) else k
            if name in seen:
                self.fail(path + (i,), f"keyword {name} is listed twice")
            seen.add(name)

    def abilities(self, v, path: Path) -> None:
        """Abilities: two activated abilities of one source may not share a name (``activate`` names one by its
        name, so the second could never be activated); their effects are checked once every id is declared."""
        activated: set = set()
        for i, a in enumerate(v or []):
            if a.get("activated"):
                if a["name"] in activated:
                    self.fail(path + (i, "name"), f"two activated abilities are named {_fmt(a['name'])}: "
                                                  f"an activate step names one by its name, so the second could "
                                                  f"never be activated [{cite('validate.activated-names')}]")
                activated.add(a["name"])
            self.later.append((a.get("effect"), path + (i, "effect")))

    def effect(self, v, path: Path) -> None:
        """An effect list's values: a target only where a player can target (356), the ids it names declared."""
        for i, e in enumerate(v or []):
            p = path + (i,)
            verb = next(k for k in e if k not in ENTRY_KEYS)
            self.zone_verbs = self.zone_verbs or verb in ZONE_VERBS or (verb == "banish" and "card" in (e[verb] or {}))
            for f, val in (e[verb] or {}).items():
                self.effect_field(verb, f, val, p + (verb, f))

    def effect_field(self, verb: str, f: str, val, fp: Path) -> None:
        """One field of an effect entry: a target only where a player can target (356), the id it names declared."""
        if val == "target":
            if f not in TARGET_FIELDS:
                self.fail(fp, f"{verb} {f} can't be a target: a player targets a unit, a place, a chain "
                              f"item or a player (356), not a {f}")
        elif f in PLACE_FIELDS:
            self.place(val, fp, f"{verb} {f}", PLACE_VALUES)
        elif f == "unit" and val not in UNIT_VALUES:
            self.unit_id(val, fp, f"{verb} unit", gear=verb in ("ready", "exhaust"))
        elif f == "gear" and val not in UNIT_VALUES:
            self.unit_id(val, fp, f"{verb} gear", gear=True)
        elif f == "player":
            self.player(val, fp, f"{verb} player")
        elif f == "card" and verb in (*ZONE_VERBS, "banish"):
            self.entry_id(val, fp, f"{verb} card")
        elif f == "card":
            self.later_cards.append((val, fp, f"{verb} card"))    # custom cards are read after the board

    def custom_cards(self, doc) -> None:
        cards = self.opt(doc, "cards", {})
        for cid, d in cards.items():
            p = ("cards", cid)
            if cid == "card":
                self.fail(p, "card is the name of a blank card (a card whose face does not matter): give the "
                             "card another id")
            d = d or {}
            if "friendly" in d and "target" not in [v for e in (d.get("effect") or []) for f in e.values()
                                                    if isinstance(f, dict) for k, v in f.items() if k == "unit"]:
                self.fail(p + ("friendly",), f"friendly restricts a unit target; card {cid} has no unit: target")
            self.abilities(d.get("abilities"), p + ("abilities",))
            self.keywords(d.get("keywords"), p + ("keywords",))
            self.later.append((d.get("effect"), p + ("effect",)))
            self.cards[cid] = to_card(cid, d)
