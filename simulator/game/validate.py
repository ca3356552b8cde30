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

from simulator.core.cards import (BATTLEFIELD_TRIGGERS, CATALOGUE, CONDITIONS, ENTRY_KEYS, KEYWORDS, SPEEDS, TARGET_FIELDS,
                                  TIMINGS, TRIGGERS, TYPES, VERBS, Card)
from simulator.core.errors import ScenarioError
from simulator.game.setup import MODES, RULINGS, to_card

#: the top-level keys of a starting position
SETUP_KEYS = ("mode", "players", "teams", "battlefields", "control", "score", "units", "gear", "hands",
              "cards", "rulings", "resources", "assign")
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
    """Schema and id checks for the whole contract; every error names the line."""

    def __init__(self, file: str, lines: dict[Path, int] | None = None, root: Path = ()) -> None:
        self.file = file
        self.lines: dict[Path, int] = lines if lines is not None else {(): 1}
        self.root = tuple(root)            # where the position sits in the file (a positions file's entry)
        self.players: tuple[str, ...] = ()
        self.later_cards: list = []         # (card id, path, what): card ids named by effects, checked last
        self.bfs: tuple[str, ...] = ()
        self.units: set[str] = set()
        self.gear: set[str] = set()
        self.cards: dict[str, Card] = dict(CATALOGUE)
        self.later: list = []              # (ability effect, path, triggered): ids checked once all are declared

    # -- helpers ---------------------------------------------------------------------------
    def where(self, *path) -> str:
        path = self.root + tuple(path)
        while path not in self.lines:
            path = path[:-1]
        return f"{self.file}:{self.lines[path]}"

    @staticmethod
    def opt(doc: dict, key, default):
        """``doc[key]``, or ``default`` when it is absent or null (and only then: ``0``, ``false`` and ``''``
        are values of the wrong kind, never "empty")."""
        v = doc.get(key)
        return default if v is None else v

    def fail(self, path: Path, what: str):
        raise ScenarioError(self.where(*path), what)

    def mapping(self, v, path: Path, what: str, keys: tuple | None = None, required: tuple = ()) -> dict:
        if not isinstance(v, dict):
            self.fail(path, f"{what} must be a mapping, not {_kind(v)}")
        if keys is not None:
            for k in v:
                if k not in keys:
                    self.fail(path + (k,), f"unknown key {_fmt(k)} in {what} (expected one of: {', '.join(keys)})")
        for k in required:
            if k not in v:
                self.fail(path, f"{what} needs {k!r}")
        return v

    def seq(self, v, path: Path, what: str) -> list:
        if not isinstance(v, list):
            self.fail(path, f"{what} must be a list, not {_kind(v)}")
        return v

    def text(self, v, path: Path, what: str) -> str:
        if not isinstance(v, str) or not v.strip():
            self.fail(path, f"{what} must be a non-empty text, not {_kind(v)}")
        return v

    def integer(self, v, path: Path, what: str, minimum: int | None = None) -> int:
        if not isinstance(v, int) or isinstance(v, bool):
            self.fail(path, f"{what} must be a whole number, not {_kind(v)}")
        if minimum is not None and v < minimum:
            self.fail(path, f"{what} must be at least {minimum}, not {v}")
        return v

    def boolean(self, v, path: Path, what: str) -> bool:
        if not isinstance(v, bool):
            self.fail(path, f"{what} must be true or false, not {_kind(v)}")
        return v

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
            if m and (m.group(1) == "token" or m.group(1) in self.cards):
                return v
        kind = "unit or gear" if gear else "unit"
        self.fail(path, f"unknown {kind} {_fmt(v)} in {what}")

    def card_id(self, v, path: Path, what: str, types: tuple = TYPES):
        if not isinstance(v, str) or v not in self.cards:
            self.fail(path, f"unknown card {_fmt(v)} in {what} (not in the catalogue or cards:)")
        if self.cards[v].type not in types:
            self.fail(path, f"card {v} is a {self.cards[v].type}, not a {' or '.join(types)}")
        return v

    def choice(self, v, path: Path, what: str, options):
        if v not in options:
            self.fail(path, f"{what} must be one of {', '.join(_fmt(o) for o in options)}, not {_fmt(v)}")
        return v

    # -- the document ----------------------------------------------------------------------
    def position(self, doc, keys: tuple = SETUP_KEYS, what: str = "a starting position") -> Position:
        """Check a starting position (``doc``: its keys among ``keys``) and return it ready to build."""
        doc = self.mapping(doc, (), what, keys, required=("players",))
        mode = self.choice(doc.get("mode", "duel"), ("mode",), "mode", tuple(MODES))
        players = self.seq(doc["players"], ("players",), "players")
        seen: set = set()
        for i, p in enumerate(players):
            self.text(p, ("players", i), "a player")
            if p in seen:
                self.fail(("players", i), f"duplicate player {p}")
            if p == "base":
                self.fail(("players", i), "'base' is not a player name")
            seen.add(p)
        self.players = tuple(players)
        size = MODES[mode][0]
        if len(players) != size:
            self.fail(("players",), f"mode {mode} needs {size} players, got {len(players)}")
        self.teams(doc, mode)
        self.battlefields(doc)
        self.board(doc)
        self.custom_cards(doc)
        for effect, path, triggered in self.later:  # a literal id may name any unit, gear or battlefield
            self.effect(effect, path, triggered=triggered)
        for cid, path, what in self.later_cards:     # a play/replay card may be a custom card
            self.card_id(cid, path, what, ("unit", "gear"))
        # cards are known now: check the units that name one, and the hands
        for key, types in (("units", ("unit",)), ("gear", ("gear",))):
            for i, e in enumerate(self.opt(doc, key, [])):
                if "card" in e:
                    self.card_id(e["card"], (key, i, "card"), f"{key} entry {e['id']}", types)
        hands = self.mapping(self.opt(doc, "hands", {}), ("hands",), "hands")
        for p, cards in hands.items():
            self.player(p, ("hands", p), "hands")
            self.most(cards, ("hands", p), f"{p}'s hand", MAX_HAND, "cards")
            for i, c in enumerate(self.seq([] if cards is None else cards, ("hands", p), f"{p}'s hand")):
                self.card_id(c, ("hands", p, i), f"{p}'s hand")
        self.resources(doc)
        rulings = self.mapping(self.opt(doc, "rulings", {}), ("rulings",), "rulings")
        for rid, value in rulings.items():
            check_ruling(rid, value, self.where("rulings", rid))
        setup = {k: doc[k] for k in ("mode", "players", "teams", "battlefields", "control", "score", "units",
                                     "gear", "hands", "resources", "assign") if doc.get(k) is not None}
        setup["hands"] = {p: list(c or []) for p, c in hands.items()}
        for key in ("units", "gear", "battlefields"):       # `abilities:` left empty means none
            setup[key] = [({k: x for k, x in e.items() if not (k == "abilities" and x is None)}
                           if isinstance(e, dict) else e) for e in setup.get(key) or []]
        return Position(setup, self.cards, dict(rulings))

    def teams(self, doc, mode: str) -> None:
        if mode != "magma-chamber":
            if "teams" in doc:
                self.fail(("teams",), f"teams are only for magma-chamber, not {mode}")
            return
        if "teams" not in doc:
            self.fail(("mode",), "magma-chamber needs teams: [[P, Q], [R, S]]")
        teams = self.seq(doc["teams"], ("teams",), "teams")
        if len(teams) != 2:
            self.fail(("teams",), f"magma-chamber has 2 teams, got {len(teams)}")
        placed: list[str] = []
        for i, t in enumerate(teams):
            t = self.seq(t, ("teams", i), "a team")
            if len(t) != 2:
                self.fail(("teams", i), f"a magma-chamber team has 2 players, got {len(t)}")
            for j, p in enumerate(t):
                self.player(p, ("teams", i, j), "teams")
                if p in placed:
                    self.fail(("teams", i, j), f"player {p} is in two teams")
                placed.append(p)

    def battlefields(self, doc) -> None:
        names: list[str] = []
        self.most(doc.get("battlefields"), ("battlefields",), "battlefields", MAX_BATTLEFIELDS, "entries")
        for i, e in enumerate(self.seq(self.opt(doc, "battlefields", []), ("battlefields",), "battlefields")):
            path: tuple = ("battlefields", i)
            if isinstance(e, dict):
                self.mapping(e, path, "a battlefield", ("name", "provider", "abilities"), required=("name",))
                if "provider" in e:
                    self.player(e["provider"], path + ("provider",), "provider")
                self.abilities(e.get("abilities"), path + ("abilities",), battlefield=True)
                n = e["name"]
                path = path + ("name",)
            else:
                n = e
            self.text(n, path, "a battlefield name")
            if n == "base" or n in self.players:
                self.fail(path, f"{n!r} can't name a battlefield")
            if n in names:
                self.fail(path, f"duplicate battlefield {n}")
            names.append(n)
        self.bfs = tuple(names)
        control = self.mapping(self.opt(doc, "control", {}), ("control",), "control")
        for bf, p in control.items():
            self.battlefield(bf, ("control", bf), "control")
            self.player(p, ("control", bf), "control", null=True)
        score = self.mapping(self.opt(doc, "score", {}), ("score",), "score")
        teams_given: dict = {}
        for p, n in score.items():
            self.player(p, ("score", p), "score")
            self.integer(n, ("score", p), f"{p}'s score", 0)
            team = next((tuple(t) for t in doc.get("teams") or [] if p in t), (p,))
            if team in teams_given:
                self.fail(("score", p), f"{p} and {teams_given[team]} share a team score: give it once")
            teams_given[team] = p

    def most(self, v, path: Path, what: str, limit: int, things: str) -> None:
        if isinstance(v, (list, dict)) and len(v) > limit:
            self.fail(path, f"{what} has {len(v):,} {things}: at most {limit:,}")

    def board(self, doc) -> None:
        ids: set[str] = set()
        n = sum(len(x) for x in (doc.get("units"), doc.get("gear")) if isinstance(x, list))
        if n > MAX_UNITS:
            self.fail(("units",) if "units" in doc else ("gear",),
                      f"the board has {n:,} units and gear: at most {MAX_UNITS:,}")
        for key in ("units", "gear"):
            fields = ("id", "owner", "controller", "at", "might", "card", "abilities", "keywords", "exhausted",
                      "ward") \
                if key == "units" else ("id", "owner", "controller", "card", "abilities", "exhausted")
            for i, e in enumerate(self.seq(self.opt(doc, key, []), (key,), key)):
                path = (key, i)
                self.mapping(e, path, f"a {key} entry", fields, required=("id", "owner"))
                uid = self.text(e["id"], path + ("id",), "an id")
                if uid in ids:
                    self.fail(path + ("id",), f"duplicate id {uid}")
                if "#" in uid:
                    self.fail(path + ("id",), f"id {uid} contains '#', kept for units entering play")
                ids.add(uid)
                self.player(e["owner"], path + ("owner",), f"{uid}'s owner")
                if "controller" in e:
                    self.player(e["controller"], path + ("controller",), f"{uid}'s controller")
                if "at" in e:
                    self.place(e["at"], path + ("at",), f"{uid}'s at")
                if "might" in e:
                    self.integer(e["might"], path + ("might",), f"{uid}'s might", 0)
                if key == "units" and "might" not in e and "card" not in e:
                    self.fail(path, f"unit {uid} needs might or card")
                if key == "gear" and "card" not in e and "abilities" not in e:
                    self.fail(path, f"gear {uid} needs card or abilities")
                self.abilities(e.get("abilities"), path + ("abilities",))
                self.keywords(e.get("keywords"), path + ("keywords",))
                if "exhausted" in e:
                    self.boolean(e["exhausted"], path + ("exhausted",), "exhausted")
                if "ward" in e:
                    self.boolean(e["ward"], path + ("ward",), "ward")
                (self.units if key == "units" else self.gear).add(uid)

    def keywords(self, v, path: Path) -> None:
        """``[tank, {assault: 2}]``: names from the keyword table; numbered ones take a whole number."""
        if v is None:
            return
        seen = set()
        for i, k in enumerate(self.seq(v, path, "keywords")):
            p = path + (i,)
            if isinstance(k, dict) and list(k) == ["deathknell"]:          # 808: an on-death ability
                self.effect(k["deathknell"], p + ("deathknell",), shape_only=True)
                self.later.append((k["deathknell"], p + ("deathknell",), True))
                continue
            if isinstance(k, dict):
                if len(k) != 1:
                    self.fail(p, "a keyword is a name or a one-key mapping such as {assault: 2}")
                (name, n), = k.items()
            else:
                name, n = k, None
            if not isinstance(name, str) or name not in KEYWORDS:
                self.fail(p, f"unknown keyword {_fmt(name)} (keywords: {', '.join(KEYWORDS)}, {{deathknell: [effects]}})")
            if isinstance(k, dict):
                if not KEYWORDS[name][0]:
                    self.fail(p, f"keyword {name} takes no number")
                self.integer(n, p + (name,), f"{name}", 0)
                if n > 1000:
                    self.fail(p + (name,), f"{name} must be at most 1000, not {n}")
            if name in seen:
                self.fail(p, f"keyword {name} is listed twice")
            seen.add(name)

    def resources(self, doc) -> None:
        """``resources: {A: {runes: 3, energy: 0}}`` (354, 429) and ``assign: manual | auto`` (465.2.c)."""
        if "assign" in doc:
            self.choice(doc["assign"], ("assign",), "assign", ("manual", "auto"))
        if "resources" not in doc:
            return
        res = self.mapping({} if doc["resources"] is None else doc["resources"], ("resources",), "resources")
        for p, r in res.items():
            self.player(p, ("resources", p), "resources")
            r = self.mapping({} if r is None else r, ("resources", p), f"{p}'s resources", ("runes", "energy"))
            for k, n in r.items():
                self.integer(n, ("resources", p, k), f"{p}'s {k}", 0)
                if n > 1000:
                    self.fail(("resources", p, k), f"{p}'s {k} must be at most 1000, not {n}")

    def abilities(self, v, path: Path, battlefield: bool = False) -> None:
        keys = ("name", "trigger", "activated", "effect", "static", "if", "once-per-turn", "speed", "exhaust",
                "cost", "by")
        for i, a in enumerate(self.seq([] if v is None else v, path, "abilities")):
            p = path + (i,)
            self.mapping(a, p, "an ability", keys, required=("name",))
            self.text(a["name"], p + ("name",), "an ability name")
            kinds = [k for k in ("trigger", "activated", "static") if k in a]
            if len(kinds) != 1:
                self.fail(p, f"ability {a['name']} needs exactly one of trigger, activated or static")
            if "trigger" in a:
                self.choice(a["trigger"], p + ("trigger",), "trigger",
                            BATTLEFIELD_TRIGGERS if battlefield else TRIGGERS)
            if "activated" in a and a["activated"] is not True:
                self.fail(p + ("activated",), "activated must be true")
            if "static" in a:
                if not battlefield:
                    self.fail(p + ("static",), "static abilities are for battlefields")
                s = self.mapping(a["static"], p + ("static",), "static", ("might",), required=("might",))
                self.integer(s["might"], p + ("static", "might"), "static might")
            for k, only in (("speed", "activated"), ("exhaust", "activated"), ("by", "trigger"), ("if", "trigger")):
                if k in a and only not in a:
                    self.fail(p + (k,), f"{k} is for {'activated' if only == 'activated' else 'triggered'} abilities")
            if "by" in a:
                if a.get("trigger") != "on-chosen":
                    self.fail(p + ("by",), "by is for on-chosen abilities")
                self.choice(a["by"], p + ("by",), "by", ("enemy", "friendly", "any"))
            if "speed" in a:
                self.choice(a["speed"], p + ("speed",), "speed", SPEEDS)
            for k in ("exhaust", "once-per-turn"):
                if k in a:
                    self.boolean(a[k], p + (k,), k)
            if "cost" in a:
                self.integer(a["cost"], p + ("cost",), "cost", 0)
            if "if" in a:
                self.condition(a["if"], p + ("if",))
            if "activated" in a:
                eff = self.seq(self.opt(a, "effect", []), p + ("effect",), "effect")
                if not eff:
                    self.fail(p + ("effect",), "an activated ability needs an effect")
            self.effect(a.get("effect"), p + ("effect",), shape_only=True)
            self.later.append((a.get("effect"), p + ("effect",), "trigger" in a))

    def condition(self, v, path: Path) -> None:
        """``if:``: a condition name, a one-key mapping ``{might-at-least: 5}``, or a list of them (383.2)."""
        items = v if isinstance(v, list) else [v]
        if isinstance(v, list) and not v:
            self.fail(path, "if: names at least one condition")
        for j, c in enumerate(items):
            cp = path + (j,) if isinstance(v, list) else path
            if isinstance(c, dict):
                if len(c) != 1:
                    self.fail(cp, "a condition with a value is one key: {might-at-least: 5}")
                (name, arg), = c.items()
            else:
                name, arg = c, None
            if not isinstance(name, str) or name not in CONDITIONS:
                self.fail(cp, f"unknown condition {_fmt(name)} (conditions: {', '.join(CONDITIONS)})")
            if CONDITIONS[name]:
                if arg is None:
                    self.fail(cp, f"{name} takes a number: {{{name}: 5}}")
                self.integer(arg, cp + ((name,) if isinstance(c, dict) else ()), name, 0)
            elif isinstance(c, dict):
                self.fail(cp, f"{name} takes no value: write it as a plain name")

    def effect(self, v, path: Path, shape_only: bool = False, triggered: bool = False) -> None:
        """An effect list: entries of one verb each, ``{verb: {field: value}}`` with optional ``if:`` and
        ``may:``, their values checked (with ``shape_only``, only the shape: what
        :func:`~simulator.game.setup.to_effect` needs)."""
        for i, e in enumerate(self.seq([] if v is None else v, path, "effect")):
            p = path + (i,)
            if not isinstance(e, dict):
                self.fail(p, f"an effect entry is a mapping {{verb: {{field: value}}}}, not {_kind(e)}")
            verbs = [k for k in e if k not in ENTRY_KEYS]
            if len(verbs) != 1:
                self.fail(p, f"an effect entry is one verb: {{verb: {{field: value}}}} (with optional if: and "
                             f"may:), not {len(verbs)} ({', '.join(_fmt(k) for k in verbs)}): write one entry per verb")
            verb = verbs[0]
            if verb not in VERBS:
                self.fail(p, f"unknown effect verb {_fmt(verb)} (verbs: {', '.join(VERBS)})")
            fields = self.mapping({} if e[verb] is None else e[verb], p + (verb,), f"{verb}'s fields", VERBS[verb])
            if "if" in e:
                self.condition(e["if"], p + ("if",))
            if "may" in e:
                self.boolean(e["may"], p + ("may",), "may")
            if shape_only:
                continue
            for f, val in fields.items():
                fp = p + (verb, f)
                if val == "target":
                    if f not in TARGET_FIELDS:
                        self.fail(fp, f"{verb} {f} can't be a target: a player targets a unit, a place, a chain "
                                      f"item or a player (356), not a number")
                    continue
                if f in NUMBER_FIELDS:
                    self.integer(val, fp, f"{verb} {f}", 0 if (verb, f) in NON_NEGATIVE else None)
                elif f in PLACE_FIELDS:
                    self.place(val, fp, f"{verb} {f}", PLACE_VALUES)
                elif f == "unit":
                    if val not in UNIT_VALUES:
                        self.unit_id(val, fp, f"{verb} unit", gear=verb in ("ready", "exhaust"))
                elif f == "player":
                    self.player(val, fp, f"{verb} player")
                elif f == "card":
                    self.later_cards.append((val, fp, f"{verb} card"))    # custom cards are read after the board
                elif f == "keyword":
                    self.text(val, fp, f"{verb} {f}")
                else:
                    self.text(val, fp, f"{verb} {f}")
            for f in VERBS[verb]:
                if f not in fields and f not in ("energy", "count", "at", "item", "player"):
                    self.fail(p + (verb,), f"{verb} needs {f}")

    def custom_cards(self, doc) -> None:
        cards = self.mapping(self.opt(doc, "cards", {}), ("cards",), "cards")
        self.most(cards, ("cards",), "cards", MAX_CARDS, "custom cards")
        for cid, d in cards.items():
            p = ("cards", cid)
            if not isinstance(cid, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", cid):
                self.fail(p, f"card id {_fmt(cid)} must be a word (letters, digits, - _ .)")
            if cid in CATALOGUE:
                self.fail(p, f"card {cid} is already in the built-in catalogue: pick another id")
            d = self.mapping({} if d is None else d, p, f"card {cid}", ("type", "timing", "effect", "might", "abilities",
                                                                  "text", "keywords", "friendly"))
            if "cost" in d:
                self.integer(d["cost"], p + ("cost",), "cost", 0)
            kind = self.choice(d.get("type", "spell"), p + ("type",), "type", TYPES)
            self.choice(d.get("timing", "normal"), p + ("timing",), "timing", TIMINGS)
            if "might" in d:
                self.integer(d["might"], p + ("might",), "might", 0)
            if "text" in d:
                self.text(d["text"], p + ("text",), "text")
            if "friendly" in d:
                self.boolean(d["friendly"], p + ("friendly",), "friendly")
                if "target" not in [v for e in (d.get("effect") or []) if isinstance(e, dict)
                                    for f in e.values() if isinstance(f, dict) for k, v in f.items() if k == "unit"]:
                    self.fail(p + ("friendly",), f"friendly restricts a unit target; card {cid} has no unit: target")
            if kind != "spell" and d.get("effect"):
                self.fail(p + ("effect",), f"a {kind} has abilities, not an effect")
            self.abilities(d.get("abilities"), p + ("abilities",))
            self.keywords(d.get("keywords"), p + ("keywords",))
            self.effect(d.get("effect"), p + ("effect",), shape_only=True)
            self.cards[cid] = to_card(cid, d)
        # effects may name CARD#N units: check them once every card id is known
        for cid, d in cards.items():
            self.effect(d.get("effect"), ("cards", cid, "effect"))



def _fmt(v) -> str:
    """A value as a user would write it in YAML (flow style)."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return v if v and re.fullmatch(r"[\w#.+-]+( [\w#.+-]+)*", v) else repr(v)
    if isinstance(v, dict):
        return "{" + ", ".join(f"{_fmt(k)}: {_fmt(x)}" for k, x in v.items()) + "}"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_fmt(x) for x in v) + "]"
    return str(v)


def _kind(v) -> str:
    if v is None:
        return "nothing (null)"
    if isinstance(v, bool):
        return f"true/false ({_fmt(v)})"
    if isinstance(v, (int, float)):
        return f"a number ({v})"
    if isinstance(v, str):
        return f"the text {_fmt(v)}"
    if isinstance(v, list):
        return "a list"
    if isinstance(v, dict):
        return "a mapping"
    return type(v).__name__
