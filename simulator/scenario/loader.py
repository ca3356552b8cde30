"""Scenario files (spec/scenario-format.md): load YAML with line numbers, validate, run, check.

:func:`load` reads a file into a :class:`Scenario` or raises :class:`ScenarioError`
whose message is exactly ``FILE:LINE: what is wrong`` (one line, never a traceback).
:func:`run` plays the steps through :class:`~simulator.game.engine.Game` and checks every
expectation against :func:`simulator.scenario.view.view`, returning a :class:`Result`.

Extensions to the contract (all optional): top-level ``pending: "reason"`` (the
scenario is expected to fail until an engine gap is closed), ``description`` and
``seed`` (free text), ``phase`` as an expectation key, and the unit fields
``damage``, ``controller``, ``exhausted`` and ``designation`` in ``units``
expectations.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from simulator.game.actions import Action
from simulator.core.cards import (BATTLEFIELD_TRIGGERS, CATALOGUE, CONDITIONS, ENTRY_KEYS, SPEEDS, TIMINGS,
                                  TRIGGERS, TYPES, VERBS, Card)
from simulator.core.errors import IllegalAction, RulesBug, ScenarioError
from simulator.game.setup import MODES, RULINGS, build, to_card

TOP = ("name", "mode", "players", "teams", "battlefields", "control", "score", "units", "gear", "hands",
       "cards", "rulings", "steps", "pending", "description", "seed")
ACTION_FIELDS = {
    "move": ("units", "to"),
    "play": ("card", "targets", "at"),
    "activate": ("source", "ability"),
    "pass": (),
    "choose": ("battlefield",),
    "concede": (),
    "end-turn": (),
    "invite": ("teammate",),
    "order": ("triggers",),
    "target": ("targets",),
}
ACTION_FIELDS["activate"] = ("source", "ability", "targets")
ACTION_FIELDS["choose"] = ("battlefield", "option")
REQUIRED_FIELDS = {"move": ("units", "to"), "play": ("card",), "activate": ("source", "ability"),
                   "invite": ("teammate",), "order": ("triggers",), "target": ("targets",)}
#: values an effect field may take besides a literal id: named by the player, the source, the event's place
UNIT_VALUES = ("self", "target")
PLACE_VALUES = ("here", "there", "target")
STATES = ("neutral-open", "neutral-closed", "showdown-open", "showdown-closed")
ZONES = ("board", "trash", "banished", "removed")
UNIT_FIELDS = {"at": "place", "might": int, "stunned": bool, "zone": ZONES, "damage": int,
               "controller": "player", "exhausted": bool, "designation": ("attacker", "defender", None)}
EXPECT_KEYS = ("state", "turn", "focus", "priority", "chain", "active", "staged", "contested", "controller",
               "score", "units", "legal", "players", "winner", "phase")
PHASES = ("Awaken", "Beginning", "Channel", "Draw", "Main", "Ending", "GameOver")
#: effect fields that hold a number, a place, a unit, an item, a player
NUMBER_FIELDS = ("might", "amount", "energy", "count")
PLACE_FIELDS = ("to", "at")


# -- YAML with line numbers -----------------------------------------------------------------------

Path = tuple


def parse(text: str, file: str) -> tuple[Any, dict[Path, int]]:
    """The document as plain Python values, and the line (1-based) of every path in it.

    Rejects duplicate keys and non-scalar keys, which plain ``yaml.safe_load`` lets through.
    """
    lines: dict[Path, int] = {(): 1}
    try:
        loader = yaml.SafeLoader(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None, lines
            lines[()] = node.start_mark.line + 1

            def walk(n, path: Path):
                if isinstance(n, yaml.MappingNode):
                    loader.flatten_mapping(n)
                    out = {}
                    for kn, vn in n.value:
                        line = kn.start_mark.line + 1
                        if not isinstance(kn, yaml.ScalarNode):
                            raise ScenarioError(f"{file}:{line}", "a key must be a plain word, not a list or mapping")
                        k = loader.construct_object(kn)
                        if not isinstance(k, (str, int, float, bool)) and k is not None:
                            raise ScenarioError(f"{file}:{line}", f"a key must be a plain word, not {k!r}")
                        if k in out:
                            raise ScenarioError(f"{file}:{line}", f"duplicate key {_fmt(k)}")
                        lines[path + (k,)] = line
                        out[k] = walk(vn, path + (k,))
                    return out
                if isinstance(n, yaml.SequenceNode):
                    out = []
                    for i, vn in enumerate(n.value):
                        lines[path + (i,)] = vn.start_mark.line + 1
                        out.append(walk(vn, path + (i,)))
                    return out
                return loader.construct_object(n, deep=True)

            return walk(node, ()), lines
        finally:
            loader.dispose()
    except yaml.MarkedYAMLError as e:
        mark = e.problem_mark or e.context_mark
        line = mark.line + 1 if mark else 1
        ctx = e.context or ""
        if ctx and e.context_mark and mark and e.context_mark.line != mark.line:
            ctx += f" (from line {e.context_mark.line + 1})"
        what = " ".join(str(x) for x in (ctx, e.problem) if x)
        raise ScenarioError(f"{file}:{line}", f"YAML syntax error: {what}") from None
    except yaml.YAMLError as e:
        raise ScenarioError(f"{file}:1", f"YAML error: {str(e).splitlines()[0]}") from None
    except RecursionError:
        raise ScenarioError(f"{file}:1", "the document is nested too deeply") from None


# -- the scenario -----------------------------------------------------------------------------------

@dataclass
class Step:
    number: int                 # 1-based position in ``steps``
    line: int
    action: Action | None = None
    expect: dict | None = None
    illegal: bool | str = False

    def describe(self) -> str:
        return self.action.describe() if self.action else "expect"


@dataclass
class Scenario:
    file: str
    name: str
    setup: dict
    cards: dict[str, Card]
    steps: list[Step]
    rulings: dict[str, str]
    pending: str | None = None
    where: Callable[..., str] = field(default=lambda *path: "")   # path in the file -> "FILE:LINE"

    def game(self, *, backend: str = "compiled", rulings: dict | None = None):
        from simulator.game.engine import Game
        merged = {**self.rulings, **(rulings or {})}
        return Game(build(self.setup, backend=backend, rulings=merged, cards=self.cards, where=self.where))


def load(path: str) -> Scenario:
    """Read and validate a scenario file (ScenarioError ``FILE:LINE: what`` on any problem)."""
    try:
        with open(path, "rb") as f:
            raw = f.read()
    except OSError as e:
        raise ScenarioError(f"{path}:0", f"cannot read the file: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise ScenarioError(f"{path}:{line}", "the file is not UTF-8 text") from None
    return loads(text, path)


def loads(text: str, file: str = "<scenario>") -> Scenario:
    doc, lines = parse(text, file)
    return Validator(file, lines).scenario(doc)


def check_ruling(rid: Any, value: Any, where: str) -> None:
    if rid not in RULINGS:
        raise ScenarioError(where, f"unknown ruling {_fmt(rid)}: rulings with alternatives are "
                                   + ", ".join(RULINGS))
    if value not in RULINGS[rid]:
        raise ScenarioError(where, f"ruling {rid} is {' or '.join(RULINGS[rid])}, not {_fmt(value)}")


class Validator:
    """Schema and id checks for the whole contract; every error names the line."""

    def __init__(self, file: str, lines: dict[Path, int]) -> None:
        self.file = file
        self.lines = lines
        self.players: tuple[str, ...] = ()
        self.bfs: tuple[str, ...] = ()
        self.units: set[str] = set()
        self.gear: set[str] = set()
        self.cards: dict[str, Card] = dict(CATALOGUE)
        self.later: list = []               # (card id, path, what): card ids named by effects, checked last

    # -- helpers ---------------------------------------------------------------------------
    def where(self, *path) -> str:
        path = tuple(path)
        while path not in self.lines:
            path = path[:-1]
        return f"{self.file}:{self.lines[path]}"

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
    def scenario(self, doc) -> Scenario:
        doc = self.mapping(doc, (), "a scenario", TOP, required=("name", "players", "steps"))
        name = self.text(doc["name"], ("name",), "name")
        for k in ("description", "seed"):
            if k in doc:
                self.text(doc[k], (k,), k)
        pending = self.text(doc["pending"], ("pending",), "pending") if "pending" in doc else None
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
        # cards are known now: check the units that name one, and the hands
        for key, types in (("units", ("unit",)), ("gear", ("gear",))):
            for i, e in enumerate(doc.get(key) or []):
                if "card" in e:
                    self.card_id(e["card"], (key, i, "card"), f"{key} entry {e['id']}", types)
        hands = self.mapping(doc.get("hands") or {}, ("hands",), "hands")
        for p, cards in hands.items():
            self.player(p, ("hands", p), "hands")
            for i, c in enumerate(self.seq(cards or [], ("hands", p), f"{p}'s hand")):
                self.card_id(c, ("hands", p, i), f"{p}'s hand")
        rulings = self.mapping(doc.get("rulings") or {}, ("rulings",), "rulings")
        for rid, value in rulings.items():
            check_ruling(rid, value, self.where("rulings", rid))
        steps = [self.step(s, i) for i, s in enumerate(self.seq(doc["steps"], ("steps",), "steps"))]
        setup = {k: doc[k] for k in ("mode", "players", "teams", "battlefields", "control", "score", "units",
                                     "gear", "hands") if doc.get(k) is not None}
        setup["hands"] = {p: list(c or []) for p, c in hands.items()}
        for key in ("units", "gear", "battlefields"):       # `abilities:` left empty means none
            setup[key] = [({k: x for k, x in e.items() if not (k == "abilities" and x is None)}
                           if isinstance(e, dict) else e) for e in setup.get(key) or []]
        return Scenario(self.file, name, setup, self.cards, steps, dict(rulings), pending, self.where)

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
        for i, e in enumerate(self.seq(doc.get("battlefields") or [], ("battlefields",), "battlefields")):
            path = ("battlefields", i)
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
        control = self.mapping(doc.get("control") or {}, ("control",), "control")
        for bf, p in control.items():
            self.battlefield(bf, ("control", bf), "control")
            self.player(p, ("control", bf), "control", null=True)
        score = self.mapping(doc.get("score") or {}, ("score",), "score")
        teams_given: dict = {}
        for p, n in score.items():
            self.player(p, ("score", p), "score")
            self.integer(n, ("score", p), f"{p}'s score", 0)
            team = next((tuple(t) for t in doc.get("teams") or [] if p in t), (p,))
            if team in teams_given:
                self.fail(("score", p), f"{p} and {teams_given[team]} share a team score: give it once")
            teams_given[team] = p

    def board(self, doc) -> None:
        ids: set[str] = set()
        for key in ("units", "gear"):
            fields = ("id", "owner", "controller", "at", "might", "card", "abilities", "keywords", "exhausted") \
                if key == "units" else ("id", "owner", "controller", "card", "abilities", "exhausted")
            for i, e in enumerate(self.seq(doc.get(key) or [], (key,), key)):
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
                (self.units if key == "units" else self.gear).add(uid)

    def abilities(self, v, path: Path, battlefield: bool = False) -> None:
        keys = ("name", "trigger", "activated", "effect", "static", "if", "once-per-turn", "speed", "exhaust",
                "cost", "by")
        for i, a in enumerate(self.seq(v or [], path, "abilities")):
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
            if "activated" in a or "trigger" in a:
                eff = self.seq(a.get("effect") or [], p + ("effect",), "effect")
                if "activated" in a and not eff:
                    self.fail(p + ("effect",), "an activated ability needs an effect")
            self.effect(a.get("effect"), p + ("effect",), triggered="trigger" in a)

    def keywords(self, v, path: Path) -> None:
        """``keywords: [{deathknell: [effects]}]`` (808); the other keywords are not modelled here."""
        for i, k in enumerate(self.seq(v or [], path, "keywords")):
            p = path + (i,)
            if isinstance(k, dict) and list(k) == ["deathknell"]:
                self.effect(k["deathknell"], p + ("deathknell",), triggered=True)
                continue
            name = next(iter(k)) if isinstance(k, dict) and k else k
            self.fail(p, f"unknown keyword {_fmt(name)} (keywords: {{deathknell: [effects]}})")

    def condition(self, v, path: Path) -> None:
        """A condition name, a one-key mapping ``{might-at-least: 5}``, or a list of them."""
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
            if name not in CONDITIONS:
                self.fail(cp, f"unknown condition {_fmt(name)} (conditions: {', '.join(CONDITIONS)})")
            if CONDITIONS[name]:
                if arg is None:
                    self.fail(cp, f"{name} takes a number: {{{name}: 5}}")
                self.integer(arg, cp + ((name,) if isinstance(c, dict) else ()), name, 0)
            elif isinstance(c, dict):
                self.fail(cp, f"{name} takes no value: write it as a plain name")

    def effect(self, v, path: Path, triggered: bool = False) -> None:
        for i, e in enumerate(self.seq(v or [], path, "effect")):
            p = path + (i,)
            self.mapping(e, p, "an effect")
            verbs = [k for k in e if k not in ENTRY_KEYS]
            if len(verbs) != 1:
                self.fail(p, "an effect is one verb: {verb: {field: value}} (with optional if: and may:)")
            verb = verbs[0]
            if verb not in VERBS:
                self.fail(p, f"unknown effect verb {_fmt(verb)} (verbs: {', '.join(VERBS)})")
            if "if" in e:
                self.condition(e["if"], p + ("if",))
            if "may" in e:
                self.boolean(e["may"], p + ("may",), "may")
                if e["may"] and not (triggered and i == 0):
                    self.fail(p + ("may",), "may: true is modelled on the first effect of a triggered ability "
                                            "(decided at finalization, 383.3.a) only")
            fields = self.mapping(e[verb] or {}, p + (verb,), f"{verb}'s fields", VERBS[verb])
            for f, val in fields.items():
                fp = p + (verb, f)
                if val == "target":
                    continue
                if f in NUMBER_FIELDS:
                    self.integer(val, fp, f"{verb} {f}")
                elif f in PLACE_FIELDS:
                    self.place(val, fp, f"{verb} {f}", ("here", "there"))
                elif f == "unit":
                    if val not in UNIT_VALUES:
                        self.unit_id(val, fp, f"{verb} unit", gear=verb in ("ready", "exhaust"))
                elif f == "player":
                    self.player(val, fp, f"{verb} player")
                elif f == "card":
                    self.later.append((val, fp, f"{verb} card"))    # custom cards are read after the board
                else:
                    self.text(val, fp, f"{verb} {f}")
            for f in VERBS[verb]:
                if f not in fields and f not in ("energy", "count", "at", "item", "player"):
                    self.fail(p + (verb,), f"{verb} needs {f}")

    def custom_cards(self, doc) -> None:
        cards = self.mapping(doc.get("cards") or {}, ("cards",), "cards")
        for cid, d in cards.items():
            p = ("cards", cid)
            if not isinstance(cid, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", cid):
                self.fail(p, f"card id {_fmt(cid)} must be a word (letters, digits, - _ .)")
            if cid in CATALOGUE:
                self.fail(p, f"card {cid} is already in the built-in catalogue: pick another id")
            d = self.mapping(d or {}, p, f"card {cid}", ("type", "timing", "effect", "might", "abilities", "text",
                                                         "keywords"))
            kind = self.choice(d.get("type", "spell"), p + ("type",), "type", TYPES)
            self.choice(d.get("timing", "normal"), p + ("timing",), "timing", TIMINGS)
            if "might" in d:
                self.integer(d["might"], p + ("might",), "might", 0)
            if "text" in d:
                self.text(d["text"], p + ("text",), "text")
            if kind != "spell" and d.get("effect"):
                self.fail(p + ("effect",), f"a {kind} has abilities, not an effect")
            self.abilities(d.get("abilities"), p + ("abilities",))
            self.keywords(d.get("keywords"), p + ("keywords",))
            self.cards[cid] = to_card(cid, d)
        # effects may name CARD#N units: check them once every card id is known
        for cid, d in cards.items():
            self.effect(d.get("effect"), ("cards", cid, "effect"))
        for cid, path, what in self.later:
            self.card_id(cid, path, what, ("unit", "gear"))

    # -- steps -----------------------------------------------------------------------------
    def step(self, s, i: int) -> Step:
        path = ("steps", i)
        line = self.lines.get(path, 1)
        if not isinstance(s, dict):
            self.fail(path, f"a step is a mapping with do: or expect:, not {_kind(s)}")
        if ("do" in s) == ("expect" in s):
            self.fail(path, "a step has either do: or expect:")
        if "expect" in s:
            self.mapping(s, path, "an expect step", ("expect",))
            return Step(i + 1, line, expect=self.expectation(s["expect"], path + ("expect",), i + 1))
        kind = self.choice(s["do"], path + ("do",), f"step {i + 1}'s do", tuple(ACTION_FIELDS))
        self.mapping(s, path, f"a {kind} step", ("do", "player", "illegal") + ACTION_FIELDS[kind],
                     required=("player",) + REQUIRED_FIELDS.get(kind, ()))
        tag = f"step {i + 1}"
        p = self.player(s["player"], path + ("player",), tag)
        illegal = s.get("illegal", False)
        if not isinstance(illegal, (bool, str)):
            self.fail(path + ("illegal",), f"illegal must be true or a reason text, not {_kind(illegal)}")
        a: Action
        if kind == "move":
            units = self.seq(s["units"], path + ("units",), "units")
            if not units:
                self.fail(path + ("units",), "a move names at least one unit")
            for j, u in enumerate(units):
                self.unit_id(u, path + ("units", j), f"{tag}'s units")
            a = Action("move", p, units=tuple(units), to=self.place(s["to"], path + ("to",), f"{tag}'s to"))
        elif kind == "play":
            cid = self.card_id(s["card"], path + ("card",), tag)
            card = self.cards[cid]
            targets = self.mapping(s.get("targets") or {}, path + ("targets",), "targets")
            fields = card.target_fields()
            for f, v in targets.items():
                tp = path + ("targets", f)
                if f not in fields:
                    self.fail(tp, f"{cid} takes no target {_fmt(f)}"
                                  + (f" (it takes: {', '.join(fields)})" if fields else ""))
                if f in PLACE_FIELDS:
                    self.place(v, tp, f"{tag}'s targets")
                elif f == "unit":
                    self.unit_id(v, tp, f"{tag}'s targets")
                elif f == "player":
                    self.player(v, tp, f"{tag}'s targets")
                elif f in NUMBER_FIELDS:
                    self.integer(v, tp, f"target {f}")
                else:
                    self.text(v, tp, f"target {f}")
            at = s.get("at")
            if at is not None:
                if card.type != "unit":
                    self.fail(path + ("at",), f"{cid} is a {card.type}: at: is for units")
                self.place(at, path + ("at",), f"{tag}'s at")
            ordered = tuple((f, targets[f]) for f in fields if f in targets)
            a = Action("play", p, card=cid, targets=ordered, at=at)
        elif kind == "activate":
            src = self.unit_id(s["source"], path + ("source",), f"{tag}'s source", gear=True)
            a = Action("activate", p, source=src, ability=self.text(s["ability"], path + ("ability",), "ability"),
                       targets=self.targets(s.get("targets"), path + ("targets",), tag))
        elif kind == "target":
            a = Action("target", p, targets=self.targets(s["targets"], path + ("targets",), tag))
        elif kind == "choose":
            if ("battlefield" in s) == ("option" in s):
                self.fail(path, "a choose step names either battlefield: (323.12) or option: yes | no (383.3.a)")
            if "option" in s:
                opt = s["option"]
                opt = {True: "yes", False: "no"}.get(opt, opt) if isinstance(opt, bool) else opt
                a = Action("choose", p, option=self.choice(opt, path + ("option",), "option", ("yes", "no")))
            else:
                a = Action("choose", p, battlefield=self.battlefield(s["battlefield"], path + ("battlefield",), tag))
        elif kind == "invite":
            a = Action("invite", p, teammate=self.player(s["teammate"], path + ("teammate",), f"{tag}'s teammate"))
        elif kind == "order":
            a = Action("order", p, triggers=self.trigger_labels(s["triggers"], path + ("triggers",), tag))
        else:
            a = Action(kind, p)
        return Step(i + 1, line, action=a, illegal=illegal)

    def targets(self, v, path: Path, tag: str) -> tuple:
        """An ability's ``targets:`` (checked against the ability when the step runs)."""
        targets = self.mapping(v or {}, path, "targets")
        for f, x in targets.items():
            tp = path + (f,)
            if f in PLACE_FIELDS:
                self.place(x, tp, f"{tag}'s targets")
            elif f == "unit":
                self.unit_id(x, tp, f"{tag}'s targets")
            elif f == "player":
                self.player(x, tp, f"{tag}'s targets")
            elif f in NUMBER_FIELDS:
                self.integer(x, tp, f"target {f}")
            else:
                self.text(x, tp, f"target {f}")
        return tuple(sorted(targets.items(), key=lambda kv: ("unit", "to", "at").index(kv[0])
                            if kv[0] in ("unit", "to", "at") else 9))

    def trigger_labels(self, v, path: Path, tag: str) -> tuple[str, ...]:
        """An order step's triggers: SOURCE:ABILITY labels, each once (383.3.d)."""
        labels = self.seq(v, path, f"{tag}'s triggers")
        if not labels:
            self.fail(path, "an order lists at least one trigger (SOURCE:ABILITY)")
        for j, x in enumerate(labels):
            self.text(x, path + (j,), "a trigger")
            src, _, ability = str(x).partition(":")
            if not src or not ability:
                self.fail(path + (j,), f"trigger {_fmt(x)} is not SOURCE:ABILITY (e.g. a1:brace)")
            if labels.index(x) != j:
                self.fail(path + (j,), f"trigger {_fmt(x)} is listed twice")
        return tuple(labels)

    def expectation(self, e, path: Path, number: int) -> dict:
        self.mapping(e, path, f"step {number}'s expect", EXPECT_KEYS)
        if not e:
            self.fail(path, "expect: names at least one key")
        for k, v in e.items():
            p = path + (k,)
            if k == "state":
                self.choice(v, p, "state", STATES)
            elif k == "phase":
                self.choice(v, p, "phase", PHASES)
            elif k == "turn":
                self.player(v, p, k)
            elif k in ("focus", "priority"):
                self.player(v, p, k, null=True)
            elif k == "chain":
                for j, x in enumerate(self.seq(v, p, "chain")):
                    self.text(x, p + (j,), "a chain item")
            elif k == "active":
                if v is not None:
                    self.mapping(v, p, "active", ("kind", "at", "attacker", "defender"), required=("kind", "at"))
                    self.choice(v["kind"], p + ("kind",), "kind", ("showdown", "combat"))
                    self.battlefield(v["at"], p + ("at",), "active")
                    for r in ("attacker", "defender"):
                        if r in v:
                            if v["kind"] != "combat":
                                self.fail(p + (r,), f"{r} is only for a combat")
                            self.player(v[r], p + (r,), r)
            elif k == "staged":
                for bf, kinds in self.mapping(v, p, "staged").items():
                    self.battlefield(bf, p + (bf,), "staged")
                    kinds = self.seq(kinds, p + (bf,), "staged kinds")
                    for j, x in enumerate(kinds):
                        self.choice(x, p + (bf, j), "staged", ("showdown", "combat"))
            elif k == "contested":
                for j, x in enumerate(self.seq(v, p, "contested")):
                    self.battlefield(x, p + (j,), "contested")
            elif k == "controller":
                for bf, who in self.mapping(v, p, "controller").items():
                    self.battlefield(bf, p + (bf,), "controller")
                    self.player(who, p + (bf,), "controller", null=True)
            elif k == "score":
                for who, n in self.mapping(v, p, "score").items():
                    self.player(who, p + (who,), "score")
                    self.integer(n, p + (who,), f"{who}'s score", 0)
            elif k == "units":
                for uid, fields in self.mapping(v, p, "units").items():
                    self.unit_id(uid, p + (uid,), "units")
                    self.mapping(fields, p + (uid,), f"units {uid}", tuple(UNIT_FIELDS))
                    for f, x in fields.items():
                        self.unit_field(f, x, p + (uid, f))
            elif k == "legal":
                for who, acts in self.mapping(v, p, "legal").items():
                    self.player(who, p + (who,), "legal")
                    for j, x in enumerate(self.seq(acts, p + (who,), f"legal for {who}")):
                        self.text(x, p + (who, j), "a legal action summary")
            elif k == "players":
                for j, x in enumerate(self.seq(v, p, "players")):
                    self.player(x, p + (j,), "players")
            elif k == "winner":
                if isinstance(v, list):
                    for j, x in enumerate(v):
                        self.player(x, p + (j,), "winner")
                else:
                    self.player(v, p, "winner", null=True)
        return e

    def unit_field(self, f: str, x, p: Path) -> None:
        kind = UNIT_FIELDS[f]
        if kind is int:
            self.integer(x, p, f)
        elif kind is bool:
            self.boolean(x, p, f)
        elif kind == "place":
            self.place(x, p, f)
        elif kind == "player":
            self.player(x, p, f)
        else:
            self.choice(x, p, f, kind)


# -- running ------------------------------------------------------------------------------------------

@dataclass
class Result:
    scenario: Scenario
    status: str                 # pass, fail, pending
    message: str = ""           # for fail / pending: FILE:LINE: step N: what was expected, what happened
    events: list = field(default_factory=list)
    final: dict = field(default_factory=dict)
    steps_run: int = 0
    checks: int = 0
    checked: list = field(default_factory=list)   # (step, "state showdown-open, focus A") per expectation held


def run(sc: Scenario, *, backend: str = "compiled", rulings: dict | None = None) -> Result:
    """Play every step; stop at the first that does not hold. Never raises for a valid scenario."""
    game = sc.game(backend=backend, rulings=rulings)
    failure = ""
    steps = checks = 0
    checked = []
    for st in sc.steps:
        failure = _do(game, sc, st) if st.action else _check(game, sc, st)
        if failure:
            failure = f"{sc.file}:{st.line}: step {st.number}: {failure}"
            break
        steps += 1
        if st.expect is not None:
            checks += 1
            checked.append((st.number, ", ".join(f"{k} {_fmt(v)}" for k, v in st.expect.items())))
    from simulator.scenario.view import view
    res = Result(sc, "fail" if failure else "pass", failure, list(game.trace), view(game.state), steps, checks,
                 checked)
    if sc.pending is not None:
        if failure:
            res.status = "pending"
        else:
            res.status = "fail"
            res.message = (f"{sc.where('pending')}: marked pending ({sc.pending}) but every step holds "
                           f"now: remove 'pending'")
    return res


def _do(game, sc: Scenario, st: Step) -> str:
    before = game.state.key()
    try:
        game.apply(st.action, st.number)
    except RulesBug as e:
        return f"{st.describe()} hit a gap in the rules model (please report it): {e}"
    except IllegalAction as e:
        if game.state.key() != before:     # pragma: no cover - the engine's contract
            return f"{st.describe()} was rejected but changed the state"
        if not st.illegal:
            return f"{st.describe()} is illegal: {e.reason} [{e.rule}]"
        if isinstance(st.illegal, str) and st.illegal.lower() not in e.reason.lower():
            return f"{st.describe()} was rejected as expected, but the reason {e.reason!r} does not contain {st.illegal!r}"
        from simulator.core.log import log
        game.state.step = st.number
        log(game.state, f"{st.action.player} may not {st.action.summary()}: {e.reason} (rejected as expected)",
            e.rule, st.action.player)
        return ""
    if st.illegal:
        return f"expected {st.describe()} to be rejected" + (f" ({st.illegal})" if isinstance(st.illegal, str) else "") \
            + ", but it was legal"
    return ""


def _check(game, sc: Scenario, st: Step) -> str:
    from simulator.scenario.view import view
    v = view(game.state, with_legal="legal" in st.expect)
    problems = [p for k, want in st.expect.items() for p in compare(k, want, v)]
    return "; ".join(problems)


def compare(key: str, want, v: dict) -> list[str]:
    """What differs between an expectation and the view (empty if it holds)."""
    got = v[key]
    if key in ("controller", "score"):
        return [f"expected {key} of {k} {_fmt(x)}, got {_fmt(got.get(k))}" for k, x in want.items() if got.get(k) != x]
    if key == "units":
        out = []
        for uid, fields in want.items():
            u = got.get(uid)
            if u is None:
                out.append(f"expected unit {uid}, but no such unit exists")
                continue
            out += [f"expected {uid} {f} {_fmt(x)}, got {_fmt(u[f])}" for f, x in fields.items() if u[f] != x]
        return out
    if key == "legal":
        out = []
        for p, acts in want.items():
            have = got.get(p, [])
            missing = sorted(set(acts) - set(have))
            extra = sorted(set(have) - set(acts))
            if missing or extra or len(acts) != len(set(acts)):
                out.append(f"expected legal for {p} {_fmt(sorted(acts))}, got {_fmt(have)}")
        return out
    if key == "staged":
        norm = {b: sorted(k) for b, k in want.items()}
        return [] if norm == {b: sorted(k) for b, k in got.items()} else [f"expected staged {_fmt(want)}, got {_fmt(got)}"]
    if key == "contested":
        return [] if sorted(want) == sorted(got) else [f"expected contested {_fmt(want)}, got {_fmt(got)}"]
    if key == "active" and want is not None and got is not None:
        return [] if all(got.get(k) == x for k, x in want.items()) and want["kind"] == got["kind"] \
            else [f"expected active {_fmt(want)}, got {_fmt(got)}"]
    if key == "winner" and isinstance(want, list) and isinstance(got, list):
        return [] if sorted(want) == sorted(got) else [f"expected winner {_fmt(want)}, got {_fmt(got)}"]
    return [] if want == got else [f"expected {key} {_fmt(want)}, got {_fmt(got)}"]


# -- formatting ---------------------------------------------------------------------------------------

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


def trace_line(e) -> str:
    """``STEP  text  [rule]`` (spec/scenario-format.md, Trace)."""
    return f"{e.step}  {e.event}" + (f"  [{e.rule}]" if e.rule else "")
