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

import os
import stat
from dataclasses import dataclass, field
from typing import Any, Callable

import yaml

from statecharts.turn import TURN_STATES
from statecharts.states import Phase

from simulator.game.action_kinds import KINDS, Action, build as build_action
from simulator.game.action_kinds import step_of as step_of      # the file form of an action, for the loader's users
from simulator.game.actions import budget
from simulator.game.decision import Decision
from simulator.core.cards import Card
from simulator.core.i18n import narrate
from simulator.core.errors import IllegalAction, Loop, RulesBug, ScenarioError, TooCostly, need
from simulator.game import loops, shape
from simulator.game.setup import build
from simulator.game import start as midtiming
from simulator.game.shape import kind as _kind
from simulator.scenario import provenance
from simulator.game.validate import NUMBER_FIELDS, PLACE_FIELDS, SETUP_KEYS, Path, SetupValidator, _fmt

TOP = ("name", *SETUP_KEYS, "steps", "pending", "description", "seed", *provenance.KEYS)
STATES = TURN_STATES
ZONES = ("board", "hand", "deck", "trash", "banished", "chain", "removed")
UNIT_FIELDS = {"at": "place", "might": int, "stunned": bool, "zone": ZONES, "damage": int,
               "controller": "player", "exhausted": bool, "designation": ("attacker", "defender", None),
               "ward": bool, "owner": "player"}
#: the fields of a ``gear:`` expectation (X5): where it is (``base``: its controller's), who controls it, its zone
GEAR_FIELDS = {"exhausted": bool, "at": "place", "controller": "player", "zone": ZONES}
_SHOWN = ("state", "turn", "focus", "priority", "chain", "active", "staged", "contested", "controller",
          "score", "units", "legal", "players", "winner", "phase", "energy", "runes", "hidden", "gear",
          "hand", "deck", "trash", "banished")
#: the expectation keys: the position's (also shown), then who has passed (X1), the trace lines (X2) and who must decide what (X3)
EXPECT_KEYS = _SHOWN + ("passed", "events", "no-events", "decision")
#: what a ``show:`` step may name (``all``: every one): the position's keys, and two that are only shown
SHOW_KEYS = _SHOWN + ("passed", "decision")
#: the zone expectation keys (Z6)
ZONE_EXPECT = {"hand", "deck", "trash", "banished"}
PHASES = (Phase.Awaken, Phase.BeginningStep, Phase.Beginning, Phase.Channel, Phase.Draw, Phase.Main, Phase.Ending,
          Phase.GameOver)


# -- YAML with line numbers, at a bounded cost ---------------------------------------------------------

#: Bounds on what a file may cost before it is refused (a clear FILE:LINE error, exit 2): its size in bytes,
#: its values once aliases are expanded (a 1 KB "billion laughs" file would otherwise grow to gigabytes),
#: its nesting (the C parser recurses per level) and the length of a number (Python refuses to print an int
#: of more than 4300 digits).  A bundled scenario is a few KB, 6 levels deep, with a few hundred values.
MAX_BYTES = 4_000_000
MAX_VALUES = 200_000
MAX_DEPTH = 64
MAX_NUMBER = 40
#: candidate actions that the ``legal`` expectations of one run may check in all (a few seconds' work)
MAX_CHECKS = 250_000
#: units, chain items and battlefields that the ``show:`` steps of one run may print in all
MAX_SHOWN = 1_000_000
#: libyaml's parser when PyYAML has it (20x faster on a large file; same nodes, same line marks)
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_NUMERIC = ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float")
MERGE = "tag:yaml.org,2002:merge"


def read_text(path: str) -> str:
    """A file's text: refused unless it is a regular file of at most :data:`MAX_BYTES` UTF-8 bytes.

    Opened without blocking, so a FIFO with no writer is refused rather than waited on forever, and
    ``/dev/zero`` is refused rather than read until memory runs out."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except (OSError, ValueError) as e:
        raise ScenarioError(f"{path}:0", f"cannot read the file: {getattr(e, 'strerror', None) or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a directory" if stat.S_ISDIR(st.st_mode) else "a FIFO" if stat.S_ISFIFO(st.st_mode) \
                else "a device" if stat.S_ISCHR(st.st_mode) or stat.S_ISBLK(st.st_mode) else "not a regular file"
            raise ScenarioError(f"{path}:0", f"cannot read the file: it is {kind}, not a regular file")
        chunks, size = [], 0
        while size <= MAX_BYTES:
            b = os.read(fd, min(1 << 20, MAX_BYTES + 1 - size))
            if not b:
                break
            chunks.append(b)
            size += len(b)
    except OSError as e:
        raise ScenarioError(f"{path}:0", f"cannot read the file: {e.strerror or e}") from None
    finally:
        os.close(fd)
    raw = b"".join(chunks)
    if len(raw) > MAX_BYTES:
        raise ScenarioError(f"{path}:0", f"the file is larger than {MAX_BYTES:,} bytes: refused")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[:e.start].count(b"\n") + 1
        raise ScenarioError(f"{path}:{line}", "the file is not UTF-8 text") from None


def _precheck(text: str, file: str) -> None:
    """Refuse, from the event stream alone (no tree built), a document too deep or too large once its
    aliases are expanded: each alias counts the values of what it repeats."""
    depth = count = 0
    sizes: dict[str, int] = {}
    open_: list[tuple[str | None, int]] = []
    for ev in yaml.parse(text, Loader=LOADER):
        if isinstance(ev, yaml.AliasEvent):
            count += sizes.get(ev.anchor, 1)
        elif isinstance(ev, yaml.ScalarEvent):
            count += 1
            if ev.anchor:
                sizes[ev.anchor] = 1
        elif isinstance(ev, yaml.CollectionStartEvent):
            count += 1
            depth += 1
            open_.append((ev.anchor, count))
            if depth > MAX_DEPTH:
                raise ScenarioError(f"{file}:{ev.start_mark.line + 1}", f"the document is nested more than "
                                                                        f"{MAX_DEPTH} levels deep")
        elif isinstance(ev, yaml.CollectionEndEvent):
            depth -= 1
            anchor, first = open_.pop()
            if anchor:
                sizes[anchor] = count - first + 1
        else:
            continue
        if count > MAX_VALUES:
            raise ScenarioError(f"{file}:{ev.start_mark.line + 1}", f"the document holds more than {MAX_VALUES:,} "
                                                                    f"values (an alias counts as all it repeats): refused")


def parse(text: str, file: str) -> tuple[Any, dict[Path, int]]:
    """The document as plain Python values, and the line (1-based) of every path in it.

    Rejects duplicate keys and non-scalar keys, which plain ``yaml.safe_load`` lets through, and anything
    beyond the bounds above (:data:`MAX_VALUES`, :data:`MAX_DEPTH`, :data:`MAX_NUMBER`).
    """
    lines: dict[Path, int] = {(): 1}
    try:
        _precheck(text, file)
        loader = LOADER(text)
        try:
            node = loader.get_single_node()
            if node is None:
                return None, lines
            lines[()] = node.start_mark.line + 1

            flat: set[int] = set()

            def walk(n, path: Path):
                if isinstance(n, yaml.MappingNode):
                    if id(n) not in flat:                   # a key written twice (a merged key may be overridden)
                        written: set = set()
                        for kn, _ in n.value:
                            if kn.tag != MERGE:
                                k = key(kn)
                                if k in written:
                                    raise ScenarioError(f"{file}:{kn.start_mark.line + 1}", f"duplicate key {_fmt(k)}")
                                written.add(k)
                        loader.flatten_mapping(n)           # YAML's merge key: merged keys first, then the own ones
                        flat.add(id(n))
                    out = {}
                    for kn, vn in n.value:                  # the last of a key wins: the mapping's own over a merged
                        k = key(kn)
                        lines[path + (k,)] = kn.start_mark.line + 1
                        out[k] = walk(vn, path + (k,))
                    return out
                if isinstance(n, yaml.SequenceNode):
                    seq = []
                    for i, vn in enumerate(n.value):
                        lines[path + (i,)] = vn.start_mark.line + 1
                        seq.append(walk(vn, path + (i,)))
                    return seq
                return scalar(n)

            def key(kn):
                line = kn.start_mark.line + 1
                if not isinstance(kn, yaml.ScalarNode):
                    raise ScenarioError(f"{file}:{line}", "a key must be a plain word, not a list or mapping")
                k = scalar(kn)
                if not isinstance(k, (str, int, float, bool)) and k is not None:
                    raise ScenarioError(f"{file}:{line}", f"a key must be a plain word, not {k!r}")
                return k

            def scalar(n):
                if n.tag in _NUMERIC and len(n.value) > MAX_NUMBER:
                    raise ScenarioError(f"{file}:{n.start_mark.line + 1}",
                                        f"a number of {len(n.value):,} characters (at most {MAX_NUMBER})")
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
    except (RecursionError, ValueError, OverflowError) as e:     # pragma: no cover - bounded by _precheck
        raise ScenarioError(f"{file}:1", f"the document can't be read ({type(e).__name__})") from None


# -- the scenario -----------------------------------------------------------------------------------

@dataclass
class Step:
    number: int                 # 1-based position in ``steps``
    line: int
    action: Action | None = None
    expect: dict | None = None
    illegal: bool | str = False
    show: tuple[str, ...] | None = None     # a show: step prints these keys' values, never fails

    def describe(self) -> str:
        return self.action.describe() if self.action else "show" if self.show is not None else "expect"


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
    provenance: dict = field(default_factory=dict)                # rules, rules-version, source, audit (P1)

    def game(self, *, backend: str = "compiled", rulings: dict | None = None, step0: bool = True):
        """The game at the start; with a ``start:`` block, after its step 0 (M2: the schedule settles as after an
        action) unless ``step0`` is false (:func:`run` settles it once its observer is in place)."""
        from simulator.game.engine import Game, settle
        merged = {**self.rulings, **(rulings or {})}
        g = build(self.setup, backend=backend, rulings=merged, cards=self.cards, where=self.where)
        if midtiming.begin(g, self.setup, self.where) and step0:
            settle(g)
        return Game(g)


def load(path: str) -> Scenario:
    """Read and validate a scenario file (ScenarioError ``FILE:LINE: what`` on any problem)."""
    return loads(read_text(path), path)


def loads(text: str, file: str = "<scenario>") -> Scenario:
    doc, lines = parse(text, file)
    shape.check(doc, "scenario", file, lines)
    sc = Validator(file, lines).scenario(doc)
    if sc.setup.get("start") is not None:
        sc.game()                       # a start whose pending targets are illegal is refused now, as a file error
    return sc


class Validator(SetupValidator):
    """A scenario file whose shape the schema has checked: its starting position (:class:`SetupValidator`),
    then the ids its steps and expectations name."""

    def scenario(self, doc) -> Scenario:
        self.decks = set(doc.get("decks") or ())
        pos = self.position({k: v for k, v in doc.items() if k in SETUP_KEYS})
        steps = [self.step(s, i) for i, s in enumerate(doc["steps"])]
        if any(st.expect and ZONE_EXPECT & set(st.expect) or st.action and st.action.origin == "trash"
               for st in steps):
            pos.setup["zones"] = True                # asking about the zones, or playing from one: Z1
        header = provenance.check(doc, self.fail)
        return Scenario(self.file, doc["name"], pos.setup, pos.cards, steps, pos.rulings, doc.get("pending"), self.where,
                        header)

    # -- steps -----------------------------------------------------------------------------
    def step(self, s: dict, i: int) -> Step:
        path = ("steps", i)
        line = self.lines.get(path, 1)
        if "show" in s:                              # a question, never checked: its keys' values are printed
            return Step(i + 1, line, show=SHOW_KEYS if s["show"] == "all" else tuple(dict.fromkeys(s["show"])))
        if "expect" in s:
            return Step(i + 1, line, expect=self.expectation(s["expect"], path + ("expect",)))
        kind, tag = s["do"], f"step {i + 1}"
        p = self.player(s["player"], path + ("player",), tag)
        if kind == "play":
            a = self.play(s, path, p, tag)
        else:
            params = {f: s[f] for f, _ in KINDS[kind].params if s.get(f) is not None}
            for f, value_kind in KINDS[kind].params:
                if f in params:
                    self.param(value_kind, params[f], path + (f,), tag, f)
            a = build_action(kind, p, params)
        return Step(i + 1, line, action=a, illegal=s.get("illegal", False))

    def param(self, value_kind: str, v, path: Path, tag: str, name: str) -> None:
        """One parameter of an action step: the ids it names are declared (by the kind of its value)."""
        what = f"{tag}'s {name}" if value_kind not in ("card", "targets") else tag
        if value_kind == "units":
            for j, u in enumerate(v):
                self.unit_id(u, path + (j,), what)
        elif value_kind == "place":
            self.place(v, path, what)
        elif value_kind == "source":
            self.unit_id(v, path, what, gear=True)
        elif value_kind == "battlefield":
            self.battlefield(v, path, what)
        elif value_kind == "player":
            self.player(v, path, what)
        elif value_kind == "card":
            self.play_card(v, path, what)
        elif value_kind == "damage":
            for uid in v:
                self.unit_id(uid, path + (uid,), what)
        elif value_kind == "targets":
            for f, x in v.items():
                self.target_value(f, x, path + (f,), what)

    def play(self, s: dict, path: Path, p: str, tag: str) -> Action:
        """A play step: the card is declared, its targets are the fields its effect leaves to the player."""
        cid = self.play_card(s["card"], path + ("card",), tag)
        card = self.card_named(cid)
        targets = self.opt(s, "targets", {})
        fields = card.target_fields()
        for f, v in targets.items():
            tp = path + ("targets", f)
            if f not in fields:
                self.fail(tp, f"{cid} takes no target {_fmt(f)}" + (f" (it takes: {', '.join(fields)})" if fields else ""))
            self.target_value(f, v, tp, tag)
        at = s.get("at")
        hidden = s.get("from") == "hidden"
        if at is not None:
            if card.type != "unit" and not hidden:
                self.fail(path + ("at",), f"{cid} is a {card.type}: at: is for units (or from: hidden)")
            self.place(at, path + ("at",), f"{tag}'s at")
            if hidden and at not in self.bfs:
                self.fail(path + ("at",), f"a hidden card is played from a battlefield, not {_fmt(at)}")
        return build_action("play", p, {**s, "card": cid, "targets": targets}, {cid: card})

    def play_card(self, v, path: Path, tag: str) -> str:
        """The card a play or hide step names: a card, or the id of a card outside the board (a zone entry's, a
        unit's or gear's, Z1)."""
        if isinstance(v, str) and (v in self.zone_ids or v in self.units or v in self.gear):
            return v
        if isinstance(v, str) and v not in self.cards and "#" in v:
            return self.unit_id(v, path, tag, gear=True)
        return self.card_id(v, path, tag)

    def card_named(self, cid: str) -> Card:
        """The card of a play step's card or id: a declared id's card, a unit's card, or an anonymous unit card."""
        name = self.zone_ids.get(cid) or self.unit_cards.get(cid) or (cid.split("#")[0] if "#" in cid else cid)
        if name in self.cards:
            return self.cards[name]
        return Card(name, "gear" if name in self.gear else "unit")

    def target_value(self, f: str, v, path: tuple, tag: str) -> None:
        """One target's value, checked by the kind of its field (a place, a unit, a player, a number)."""
        if f in PLACE_FIELDS:
            self.place(v, path, f"{tag}'s targets")
        elif f == "unit":
            self.unit_id(v, path, f"{tag}'s targets")
        elif f == "gear":
            self.unit_id(v, path, f"{tag}'s targets", gear=True)
        elif f == "player":
            self.player(v, path, f"{tag}'s targets")
        elif f in NUMBER_FIELDS and not isinstance(v, int):
            self.fail(path, f"target {f} must be a whole number, not {_kind(v)}")

    def expectation(self, e: dict, path: Path) -> dict:
        """The ids an expectation names: players, battlefields, units, gear, cards."""
        for k, v in e.items():
            p = path + (k,)
            if k == "turn":
                self.player(v, p, k)
            elif k in ("focus", "priority"):
                self.player(v, p, k, null=True)
            elif k == "decision" and v is not None and "player" in v:
                self.player(v["player"], p + ("player",), k)
            elif k == "active" and v is not None:
                self.battlefield(v["at"], p + ("at",), "active")
                for r in ("attacker", "defender"):
                    if r in v:
                        if v["kind"] != "combat":
                            self.fail(p + (r,), f"{r} is only for a combat")
                        self.player(v[r], p + (r,), r)
            elif k in ("staged", "hidden", "contested", "controller", "score", "units", "legal", "players", "energy",
                       "runes", "gear", "winner", "passed"):
                self.named(k, v, p)
            elif k == "chain":
                for j, x in enumerate(v):
                    if isinstance(x, dict) and "controller" in x:
                        self.player(x["controller"], p + (j, "controller"), "chain controller")
            elif k in ZONE_EXPECT:
                self.zone_expectation(k, v, p)
        return e

    def zone_expectation(self, k: str, v: dict, p: Path) -> None:
        """Z6: players named; a deck asked about is modelled; its ``top`` is no longer than its ``count``."""
        for who, x in v.items():
            self.player(who, p + (who,), k)
            if k != "deck":
                continue
            if who not in self.decks:
                self.fail(p + (who,), f"{who}'s deck is endless: give {who} a decks: entry")
            if isinstance(x, dict) and len(x.get("top", [])) > x["count"]:
                self.fail(p + (who, "top"), f"{who}'s deck: top names {len(x['top'])} cards, more than its count "
                                            f"{x['count']}")

    def named(self, k: str, v, p: Path) -> None:
        """The keys and values of one expectation key that must be declared ids."""
        if k in ("staged", "hidden", "controller"):
            for bf, x in v.items():
                self.battlefield(bf, p + (bf,), k)
                if k == "controller":
                    self.player(x, p + (bf,), k, null=True)
                elif k == "hidden":
                    for j, c in enumerate(x or []):
                        self.card_id(c, p + (bf, j), k)
        elif k in ("contested", "players", "passed"):
            for j, x in enumerate(v):
                (self.battlefield if k == "contested" else self.player)(x, p + (j,), k)
        elif k in ("score", "legal", "energy", "runes"):
            for who in v:
                self.player(who, p + (who,), k)
        elif k in ("units", "gear"):
            self.named_units(k, v, p)
        elif k == "winner":
            for j, x in enumerate(v if isinstance(v, list) else [v]):
                self.player(x, p + (j,) if isinstance(v, list) else p, k, null=True)

    def named_units(self, k: str, v: dict, p: Path) -> None:
        """An expectation's units (or gear): declared ids, and the places and players their fields name."""
        for uid, fields in v.items():
            self.unit_id(uid, p + (uid,), k, gear=k == "gear")
            kinds = GEAR_FIELDS if k == "gear" else UNIT_FIELDS
            for f, x in fields.items():
                if kinds.get(f) == "place":
                    self.place(x, p + (uid, f), f)
                elif kinds.get(f) == "player":
                    self.player(x, p + (uid, f), f)


# -- running ------------------------------------------------------------------------------------------

@dataclass
class Result:
    scenario: Scenario
    status: str                 # pass, fail, pending
    message: str = ""           # for fail / pending: FILE:LINE: step N: what was expected, what happened
    events: list = field(default_factory=list)
    state: Any = None           # the final position (a State)
    steps_run: int = 0
    checks: int = 0
    checked: list = field(default_factory=list)   # (step, "state showdown-open, focus A") per expectation held
    shown: list = field(default_factory=list)     # (step, {key: value}) per show: step
    _final: dict | None = field(default=None, repr=False)

    @property
    def final(self) -> dict:
        """The final position as expectation keys, ``legal`` included: computed when first asked for
        (``simulate --json``), never for a plain run; ScenarioError past :data:`MAX_CHECKS`."""
        if self._final is None:
            from simulator.scenario.view import view
            try:
                with budget(MAX_CHECKS):
                    self._final = view(self.state) if self.state is not None else {}
            except TooCostly:
                raise ScenarioError(f"{self.scenario.file}:0", f"the final position's legal actions need more "
                                                               f"than {MAX_CHECKS:,} candidate checks: refused") from None
        return self._final


def run(sc: Scenario, *, backend: str = "compiled", rulings: dict | None = None, observe=None) -> Result:
    """Play every step; stop at the first that does not hold. Never raises for a valid scenario.

    ``observe(step, game, failure)``, if given, is called with ``step`` None before the first step (it
    may replace the game's runtime, e.g. by a recording one), then after every step that ran, with the
    game as the engine left it and the step's failure ('' when it held): ``simulator.scenario.record``.
    """
    game = sc.game(backend=backend, rulings=rulings, step0=False)
    if observe is not None:
        observe(None, game, "")             # the position as written; step 0's lines come with step 1's
    if sc.setup.get("start") is not None:
        from simulator.game.engine import settle
        game.state = game.state.clone()     # step 0 (M2), as an action's successor, under the observer's runtime
        settle(game.state)
    failure = ""
    steps = checks = 0
    checked: list[tuple[int, str]] = []
    shown: list[tuple[int, dict]] = []
    watch, last = loops.Watch(), 0
    since = 0                           # the trace lines an events: expectation reads start here (X2)
    with budget(MAX_CHECKS):            # the whole run's legal listings together (hostile input)
        for st in sc.steps:
            try:
                if st.action and not st.illegal:
                    watch.before(game.state, last)
                failure = _do(game, sc, st) if st.action else _show(game, sc, st, shown) if st.show else \
                    _check(game, sc, st, since)
                if st.expect is not None:
                    since = len(game.state.trace)
                if st.action and not st.illegal and not failure:
                    failure, last = watch.after(game.state, st.number, st.describe()), st.number
            except TooCostly:
                raise ScenarioError(f"{sc.file}:{st.line}", f"step {st.number}: the scenario's legal actions "
                                    f"need more than {MAX_CHECKS:,} candidate checks in all: refused") from None
            if not _step_done(sc, st, game, failure, observe, checked):
                failure = f"{sc.file}:{st.line}: step {st.number}: {failure}"
                break
            steps += 1
            checks += st.expect is not None
    res = Result(sc, "fail" if failure else "pass", failure, list(game.trace), game.state, steps, checks, checked, shown)
    if sc.pending is not None:
        if failure:
            res.status = "pending"
        else:
            res.status = "fail"
            res.message = (f"{sc.where('pending')}: marked pending ({sc.pending}) but every step holds "
                           f"now: remove 'pending'")
    return res


def _step_done(sc: Scenario, st: Step, game, failure: str, observe, checked: list) -> bool:
    """After a step: tell the observer; False if it failed; an expectation that held is recorded."""
    if observe is not None:
        observe(st, game, failure)
    if failure:
        return False
    if st.expect is not None:
        checked.append((st.number, ", ".join(f"{k} {_fmt(v)}" for k, v in st.expect.items())))
    return True


def _do(game, sc: Scenario, st: Step) -> str:
    action = need(st.action, "the step's action")
    before = game.state.key()
    try:
        game.apply(st.action, st.number)
    except Loop as e:
        return f"{st.describe()} starts a loop no player decision can end: {e}"
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
        log(game.state, "{player} may not {action}: {reason} (rejected as expected)", e.rule, action.player,
            action=action.summary(), reason=e.reason)
        return ""
    if st.illegal:
        return f"expected {st.describe()} to be rejected" + (f" ({st.illegal})" if isinstance(st.illegal, str) else "") \
            + ", but it was legal"
    return ""


def _show(game, sc: Scenario, st: Step, shown: list) -> str:
    """A show: step: the values of its keys, kept to be printed; it never fails. Their size is bounded
    (:data:`MAX_SHOWN`; units are never removed from the position, so each earlier show was at most as large)."""
    from simulator.scenario.view import position
    g = game.state
    if (len(shown) + 1) * (len(g.units) + len(g.chain) + len(g.bfs) + 1) > MAX_SHOWN:
        raise ScenarioError(f"{sc.file}:{st.line}", f"step {st.number}: the show: steps would print more than "
                                                    f"{MAX_SHOWN:,} units, chain items and battlefields in all: refused")
    shown.append((st.number, position(game.state, need(st.show, "the step's keys"))))
    return ""


def _check(game, sc: Scenario, st: Step, since: int = 0) -> str:
    """An expectation step: every key given compared with the position (and ``events`` with the trace lines
    written since index ``since``: since the previous expectation, X2)."""
    from simulator.scenario.view import chain_items, passed_now, view
    expect = need(st.expect, "the step's expectations")
    g = game.state
    v = view(g, with_legal="legal" in expect, every=True)
    v["passed"] = passed_now(g)
    v["chain-items"] = chain_items(g)
    v["events"] = v["no-events"] = g.trace[since:]
    problems = [p for k, want in expect.items() if k != "decision" for p in compare(k, want, v)]
    if "decision" in expect:
        problems += compare_decision(expect["decision"], game.decision())
    return "; ".join(problems)


def compare_decision(want: dict | None, d: Decision | None) -> list[str]:
    """``decision:`` (who must decide what now: :func:`simulator.game.decision.decision`): the kind, the
    player and the item given must be the decision due; ``null``: nobody decides, the game is over."""
    got = d.data() if d is not None else None
    if want is None or got is None:
        return [] if want == got else [f"expected decision {_fmt(want)}, got {_fmt(got)}"]
    wrong = [k for k, x in want.items() if got.get(k) != x]
    return [f"expected decision {_fmt(want)}, got {_fmt({k: x for k, x in got.items() if x is not None})}"] if wrong else []


# -- comparing an expectation key with the position: one small function per key -------------------------------

def _exact(key: str, want, got, v: dict) -> list[str]:
    return [] if want == got else [f"expected {key} {_fmt(want)}, got {_fmt(got)}"]


def _per_key(key: str, want: dict, got: dict, v: dict) -> list[str]:
    """``controller``, ``score``, ``energy``, ``runes``: only the battlefields or players listed."""
    return [f"expected {key} of {k} {_fmt(x)}, got {_fmt(got.get(k))}" for k, x in want.items() if got.get(k) != x]


def _as_set(key: str, want, got, v: dict) -> list[str]:
    """``contested`` (and ``winner`` as a team): the same members in any order."""
    if isinstance(want, list) and isinstance(got, list):
        return [] if sorted(want) == sorted(got) else [f"expected {key} {_fmt(want)}, got {_fmt(got)}"]
    return _exact(key, want, got, v)


def _legal(key: str, want: dict, got: dict, v: dict) -> list[str]:
    out = []
    for p, acts in want.items():
        have = got.get(p, [])
        if legal_set(acts) != legal_set(have) or len(acts) != len(set(acts)):
            out.append(f"expected legal for {p} {_fmt(sorted(acts))}, got {_fmt(have)}")
    return out


def _hidden(key: str, want: dict, got: dict, v: dict) -> list[str]:
    norm = {b: sorted(c or []) for b, c in want.items() if c}
    return [] if norm == got else [f"expected hidden {_fmt(want)}, got {_fmt(got)}"]


def _staged(key: str, want: dict, got: dict, v: dict) -> list[str]:
    norm = {b: sorted(k) for b, k in want.items()}
    return [] if norm == {b: sorted(k) for b, k in got.items()} else [f"expected staged {_fmt(want)}, got {_fmt(got)}"]


def _active(key: str, want, got, v: dict) -> list[str]:
    if want is None or got is None:
        return _exact(key, want, got, v)
    return [] if all(got.get(k) == x for k, x in want.items()) and want["kind"] == got["kind"] \
        else [f"expected active {_fmt(want)}, got {_fmt(got)}"]


def _units(key: str, want: dict, got: dict, v: dict) -> list[str]:
    return _objects("unit", "", want, got)


def _gear(key: str, want: dict, got: dict, v: dict) -> list[str]:
    return _objects("gear", "gear ", want, got)


def _chain(key: str, want: list, got, v: dict) -> list[str]:
    """Names in order (version 2), or mappings comparing only the fields given (X4); always the whole chain."""
    items = v["chain-items"]
    if len(want) == len(items) and all(_item_matches(w, it) for w, it in zip(want, items)):
        return []
    if all(isinstance(w, str) for w in want):
        return [f"expected chain {_fmt(want)}, got {_fmt(got)}"]
    return [f"expected chain {_fmt(want)}, got {_fmt(items)}"]


def _item_matches(want, item: dict) -> bool:
    if isinstance(want, str):
        return want == item["name"]
    return all(item.get(f) == x if f != "targets" else all(item["targets"].get(k) == t for k, t in x.items())
               for f, x in want.items())


def _events(key: str, want: list, lines: list, v: dict) -> list[str]:
    """An ordered subsequence of the trace lines since the previous expectation (X2): each entry found after the
    line the entry before it matched; a text matches case-insensitively within the line's English text, and
    ``{text, rule}`` also needs the line to cite that rule or a sub-rule of it."""
    at = 0
    for w in want:
        found = next((i for i in range(at, len(lines)) if _line_matches(w, lines[i])), None)
        if found is None:
            where = f'after "{lines[at - 1].event}" (line {at} of {len(lines)})' if at else \
                f"in the {len(lines)} line{'s' if len(lines) != 1 else ''} since the previous expectation"
            return [f"expected events in order {_quoted(want)}: {_quoted([w])[1:-1]} not found {where}"]
        at = found + 1
    return []


def _no_events(key: str, want: list, lines: list, v: dict) -> list[str]:
    return [f'expected no event containing {_quoted([w])[1:-1]}, got "{e.event}" (line {i + 1} of {len(lines)})'
            for w in want for i, e in enumerate(lines) if _line_matches(w, e)][:1]


def _line_matches(w, e) -> bool:
    text, rule = (w, None) if isinstance(w, str) else (w["text"], w.get("rule"))
    if text.lower() not in e.event.lower():
        return False
    return rule is None or any(r == rule or r.startswith(rule + ".") for r in (x.strip() for x in (e.rule or "").split(",")))


def _quoted(entries: list) -> str:
    return "[" + ", ".join(f'"{w}"' if isinstance(w, str) else f'{{text: "{w["text"]}", rule: {w.get("rule")}}}'
                           for w in entries) + "]"


def _zones_differ(key: str, want: dict, got: dict, v: dict) -> list[str]:
    """What differs between a zone expectation and the view (Z6), one message per player."""
    names = v.get("_names", {})
    return [f"expected {key} of {p} {_fmt(w)}, got {_fmt(got.get(p))}" for p, w in want.items()
            if not zone_holds(key, w, got.get(p), names)]


def zone_holds(key: str, want, got, names: dict) -> bool:
    """Z6: whether a player's zone holds as expected. ``names``: each card's card name. An entry matches a card
    whose id is that entry, else one whose card name is that entry (``card``: a blank card); each entry matches a
    different card. A list is compared as a multiset, exactly; ``count`` is the number of cards; ``has``: each
    entry is matched; ``lacks``: no card matches; a deck's ``top``: the named cards on top, in order."""
    if got is None:
        return False
    if key == "deck":
        want = {"count": want} if isinstance(want, int) else want
        top = got["top"]
        return got["count"] == want["count"] and len(want.get("top", [])) <= len(top) and all(
            w == c or names.get(c) == w for w, c in zip(want.get("top", []), top))
    if isinstance(want, list):
        missing, rest = _match(want, got, names)
        return not missing and not rest
    return (want.get("count", len(got)) == len(got) and not _match(want.get("has", []), got, names)[0]
            and not any(w == c or names.get(c) == w for w in want.get("lacks", []) for c in got))


def _match(want: list, have: list, names: dict) -> tuple[list, list]:
    """(the entries matched to no card, the cards no entry matched): ids first, then card names."""
    rest = list(have)
    by_name = []
    for w in want:
        if w in rest:
            rest.remove(w)
        else:
            by_name.append(w)
    missing = []
    for w in by_name:
        hit = next((c for c in rest if names.get(c, c) == w), None)
        if hit is None:
            missing.append(w)
        else:
            rest.remove(hit)
    return missing, rest


#: how each expectation key is compared with the position (the view's value of that key); any key not listed
#: is compared exactly. ``compare(key, want, view)`` looks the key up here.
COMPARE: dict[str, Callable[[str, Any, Any, dict], list[str]]] = {
    "controller": _per_key, "score": _per_key, "energy": _per_key, "runes": _per_key,
    "units": _units, "gear": _gear, "legal": _legal, "hidden": _hidden, "staged": _staged,
    "contested": _as_set, "winner": _as_set, "active": _active, "chain": _chain,
    "events": _events, "no-events": _no_events,
    "hand": _zones_differ, "deck": _zones_differ, "trash": _zones_differ, "banished": _zones_differ,
}


def compare(key: str, want, v: dict) -> list[str]:
    """What differs between an expectation and the view (empty if it holds)."""
    return COMPARE.get(key, _exact)(key, want, v[key], v)


def _objects(kind: str, prefix: str, want: dict, got: dict) -> list[str]:
    """What differs between expected unit or gear fields and the view's (``units:`` and ``gear:``)."""
    out = []
    for oid, fields in want.items():
        o = got.get(oid)
        if o is None:
            out.append(f"expected {kind} {oid}, but no such {kind} exists")
            continue
        out += [f"expected {prefix}{oid} {f} {_fmt(x)}, got {_fmt(o.get(f, False))}" for f, x in fields.items()
                if o.get(f, False) != x]                # only ward may be absent (no ward: false)
    return out


def trace_line(e, lang: str = "en") -> str:
    """``STEP  text  [rule]`` (docs/scenarios.md, Reading the trace); the text narrated in ``lang``."""
    text = e.event if lang == "en" else narrate(e, lang)
    return f"{e.step}  {text}" + (f"  [{e.rule}]" if e.rule else "")


def legal_set(entries) -> set:
    """A ``legal`` list as a set, standard moves merged per destination: ``move a1 a2 North`` (the compact
    form: any of a1, a2, in any group) equals the older per-group listing ``move a1 North``,
    ``move a2 North``, ``move a1 a2 North``, whose union of units it is; ``order a1:x`` (a1:x may be placed
    first) equals the older listing of every full order, by the trigger each places first.

    >>> legal_set(["pass", "move a1 North", "move a2 North", "move a1 a2 North"]) == legal_set(["move a2 a1 North", "pass"])
    True
    """
    out: set = set()
    moves: dict[str, set] = {}
    for x in entries:
        w = x.split()
        if len(w) >= 3 and w[0] == "move":
            moves.setdefault(w[-1], set()).update(w[1:-1])
        elif len(w) >= 2 and w[0] == "order":
            out.add(("order", w[1]))          # an older file's full order: what it places first
        else:
            out.add(x)
    return out | {("move", d, frozenset(u)) for d, u in moves.items()}
