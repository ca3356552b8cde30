"""Conformance fixtures: a scenario (or any list of actions from a starting position) as engine-neutral JSON.

A fixture (docs/conformance.md) holds the starting position (the scenario format's setup keys), the
command log in a neutral vocabulary, and after each command what riftsim did: the ordered events with
their rule ids, who must decide what (each player's legal actions, or ``"wait"``) and the observable
position. A refused command records the refusal's rule ids and that nothing changed. Any engine that
speaks the protocol (:mod:`simulator.scenario.conformance`) can be checked against it.

:func:`from_scenario` records a scenario file through :func:`simulator.scenario.loader.run` (the runner
``simulate`` uses, with an observer); :func:`from_actions` records actions played from a position (the
random paths ``verify --export-fixtures`` samples). :func:`command_of` and :func:`action_of` translate
between riftsim's actions and the neutral commands.

>>> command_of(Action("move", "A", units=("a1",), to="North"))
{'player': 'A', 'action': 'move', 'params': {'units': ['a1'], 'to': 'North'}}
>>> rules_of("190.3.a.1, 450, R6")
['190.3.a.1', '450', 'R6']
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from simulator.core.errors import IllegalAction, ScenarioError
from simulator.core.model import State
from simulator.game.actions import Action
from simulator.game import shape
from simulator.game.engine import Game, settle
from simulator.game import start as midtiming
from simulator.game.setup import build
from simulator.game.validate import SETUP_KEYS
from simulator.scenario.loader import Step, Validator, load, parse, read_text, run, step_of
from simulator.scenario.record import legal_summary
from simulator.scenario.view import view

#: the fixture format's name and version: a reader refuses a format it does not know
FORMAT = "riftsim-fixture/1"
#: the rules the fixtures are written from (the Core Rules' version)
RULES_VERSION = "1.4"
#: what a player with no legal action is told (it waits for another player's decision)
WAIT = "wait"
#: the observable keys of a position, in the order fixtures list them
OBSERVED = ("state", "turn", "phase", "focus", "priority", "passed", "chain", "active", "contested", "control",
            "score", "units", "players", "winner")
SCHEMA_FILE = "fixture.schema.json"


def rules_of(text: str) -> list[str]:
    """A citation (``"348.2.a, 190.3.b, R6"``) as a list of rule ids."""
    return [r.strip() for r in text.split(",") if r.strip()]


def observe(g: State) -> dict:
    """The position's observable parts (:data:`OBSERVED`): the scenario format's expectation keys, with
    ``control`` for ``controller`` and ``passed`` (who passed priority, 339, and focus, 347.2, in succession)."""
    v = view(g, with_legal=False)
    v["control"] = v.pop("controller")
    v["passed"] = {"priority": list(g.passed), "focus": list(g.focus_passed)}
    return {k: v[k] for k in OBSERVED}


def decide(g: State) -> dict:
    """Who must decide what: each player's legal actions (the ``legal`` summaries), or ``"wait"``."""
    return {p: acts or WAIT for p, acts in legal_summary(g).items()}


def event_entry(e) -> dict:
    """A trace event: who, the rules it applies, riftsim's text, and (informative) the statechart it changed."""
    d = {"player": e.player, "rules": rules_of(e.rule), "text": e.event}
    if e.machine:
        d["machine"] = e.machine
    return d


def command_of(a: Action) -> dict:
    """An action as a neutral command: ``player``, ``action`` and its ``params`` (the scenario step's fields)."""
    d = step_of(a)
    return {"player": d.pop("player"), "action": d.pop("do"), "params": d}


def action_of(v: Validator, cmd: Any, n: int) -> Action:
    """A neutral command as an action, checked like a scenario step (ScenarioError, one line, if malformed)."""
    if not isinstance(cmd, dict) or not isinstance(cmd.get("params", {}), dict):
        raise ScenarioError(f"command {n}", "a command is an object with player, action and params")
    step = {"do": cmd.get("action"), "player": cmd.get("player"), **cmd.get("params", {})}
    shape.check(step, "step", f"command {n}")     # the scenario schema's step: the one structural check
    st = v.step(step, n - 1)
    if st.action is None:                       # pragma: no cover - a do: step always has its action
        raise ScenarioError(f"command {n}", "not an action")
    return st.action


def position_game(position: Any, where: str = "position", backend: str = "compiled") -> tuple[Game, Validator]:
    """A game from a fixture's starting position, and the validator that checks commands against it."""
    v = Validator(where, {(): 1})
    shape.check(position, "setup", where)        # the one structural check (the scenario schema's setup part)
    pos = v.position(position)
    g = build(pos.setup, backend=backend, rulings=pos.rulings, cards=pos.cards)
    if midtiming.begin(g, pos.setup):              # a start mid-timing: its step 0 settles it (M2)
        settle(g)
    return Game(g), v


class _Recorder:
    """Builds a fixture's command entries as the position changes."""

    def __init__(self, g: State) -> None:
        self.seen = len(g.trace)
        self.initial = {"events": [event_entry(e) for e in g.trace], "decide": decide(g), "observe": observe(g)}
        self.commands: list[dict] = []

    def done(self, a: Action, g: State, refusal: IllegalAction | None, step: int | None = None) -> None:
        entry: dict = {"n": len(self.commands) + 1}
        if step is not None:
            entry["step"] = step
        entry["command"] = command_of(a)
        if refusal is not None:
            entry["refused"] = {"rules": rules_of(refusal.rule), "reason": refusal.reason}
            entry["changed"] = False
            entry["events"] = []
        else:
            entry["events"] = [event_entry(e) for e in g.trace[self.seen:]]
        self.seen = len(g.trace)
        entry["decide"] = decide(g)
        entry["observe"] = observe(g)
        self.commands.append(entry)


def document(name: str, position: dict, rec: _Recorder, provenance: dict) -> dict:
    cited = sorted({r for c in [rec.initial, *rec.commands] for e in c["events"] for r in e["rules"]}
                   | {r for c in rec.commands for r in c.get("refused", {}).get("rules", [])}, key=_rule_key)
    return {"format": FORMAT, "rules_version": RULES_VERSION, "name": name,
            "provenance": {**provenance, "rules": cited}, "position": position,
            "initial": rec.initial, "commands": rec.commands}


def _rule_key(r: str) -> tuple:
    return tuple((0, int(x), "") if x.isdigit() else (1, 0, x) for x in r.split("."))


def starting_position(path: str) -> dict:
    """A scenario file's starting position: its setup keys as written (plain JSON data)."""
    doc, _ = parse(read_text(path), path)
    return {k: doc[k] for k in SETUP_KEYS if k in doc}


def from_scenario(path: str, label: str | None = None) -> dict:
    """The fixture of one scenario file (ScenarioError if it is invalid, fails or is pending)."""
    sc = load(path)
    if sc.pending is not None:
        raise ScenarioError(f"{path}:0", f"the scenario is pending ({sc.pending}): riftsim is known to be wrong "
                                         f"there, so it is no fixture")
    position = starting_position(path)
    rec: list[_Recorder] = []

    def watch(st: Step | None, game: Game, failure: str) -> None:
        if st is None:                          # the start; a start mid-timing as after its step 0 (M2), which
            settled = position_game(position, path)[0].state if "start" in position else game.state
            rec.append(_Recorder(settled))      # is what an engine's setup answers
        elif st.action is not None and not failure:
            refusal = None
            if st.illegal:                      # the runner logged the expected refusal: not an event
                e = game.state.trace.pop()
                refusal = IllegalAction(dict(e.values).get("reason", e.event), e.rule)
            rec[0].done(st.action, game.state, refusal, st.number)

    res = run(sc, observe=watch)
    if res.status != "pass":
        raise ScenarioError(f"{path}:0", f"the scenario does not pass, so it is no fixture: {res.message}")
    prov = {"source": label or path, "scenario": sc.name}
    desc = _description(path)
    if desc:
        prov["description"] = desc
    return document(Path(path).stem, position, rec[0], prov)


def _description(path: str) -> str:
    doc, _ = parse(read_text(path), path)
    return " ".join(str(doc.get(k, "")).strip() for k in ("description", "seed") if doc.get(k)).strip()


def from_actions(name: str, position: dict, actions: list[Action], provenance: dict) -> dict:
    """The fixture of ``actions`` played from ``position`` (a refused action is recorded as refused)."""
    game, _ = position_game(position, name)
    rec = _Recorder(game.state)
    for a in actions:
        try:
            game.apply(a, len(rec.commands) + 1)
        except IllegalAction as e:
            rec.done(a, game.state, e)
            continue
        rec.done(a, game.state, None)
    return document(name, position, rec, provenance)


def dumps(fixture: dict) -> str:
    """A fixture as text: JSON, one key per line at the top, deterministic (same fixture, same bytes)."""
    return json.dumps(fixture, indent=1, ensure_ascii=False) + "\n"


def shipped_schema() -> str:
    """The fixture JSON Schema shipped in the package (``riftsim export --schema``)."""
    return resources.files("simulator.scenario").joinpath("schemas", SCHEMA_FILE).read_text(encoding="utf-8")


def check_format(doc: Any, file: str, text: str = "") -> dict:
    """A fixture read back: ScenarioError ``FILE:LINE: what`` unless it is valid against the fixture JSON Schema
    (the one structural check, as for scenario files; ``text``, the file's text, gives the line)."""
    lines: dict[tuple, int] = {(): 1}
    if text:
        try:
            lines = parse(text, file)[1]
        except ScenarioError:
            pass
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:    # the version first: another one is not broken
        got = doc.get("format") if isinstance(doc, dict) else type(doc).__name__
        raise ScenarioError(f"{file}:{lines.get(('format',), 1)}", f"not a fixture of format {FORMAT} (format: {got!r})")
    shape.check(doc, "fixture", file, lines)
    return doc


def fixture_schema() -> dict:
    """The JSON Schema of a fixture (what ``riftsim export --schema`` prints)."""
    word = {"type": "string", "minLength": 1}
    player = {"type": ["string", "null"]}
    rules = {"type": "array", "items": word, "description": "rule ids of the Core Rules (and rulings R1..)"}
    event = {"type": "object", "required": ["player", "rules", "text"], "additionalProperties": False,
             "properties": {"player": player, "rules": rules,
                            "text": {"type": "string", "description": "riftsim's narration (informative)"},
                            "machine": {**word, "description": "riftsim's statechart it changed (informative)"}}}
    decide_ = {"type": "object", "description": "per player: the legal actions, or \"wait\"",
               "additionalProperties": {"oneOf": [{"const": WAIT}, {"type": "array", "items": word, "minItems": 1}]}}
    unit = {"type": "object", "required": ["at", "might", "stunned", "zone", "damage", "controller", "exhausted",
                                           "designation"],
            "properties": {"at": {"type": ["string", "null"]}, "might": {"type": "integer"},
                           "stunned": {"type": "boolean"}, "zone": word, "damage": {"type": "integer", "minimum": 0},
                           "controller": player, "exhausted": {"type": "boolean"},
                           "designation": {"enum": ["attacker", "defender", None]}, "ward": {"type": "boolean"}},
            "additionalProperties": False}
    obs = {"type": "object", "required": list(OBSERVED), "additionalProperties": False, "properties": {
        "state": word, "turn": word, "phase": word, "focus": player, "priority": player,
        "passed": {"type": "object", "required": ["priority", "focus"], "additionalProperties": False,
                   "properties": {"priority": {"type": "array", "items": word},
                                  "focus": {"type": "array", "items": word}}},
        "chain": {"type": "array", "items": word},
        "active": {"oneOf": [{"type": "null"}, {"type": "object", "required": ["kind", "at"], "properties": {
            "kind": {"enum": ["showdown", "combat"]}, "at": word, "attacker": player, "defender": player},
            "additionalProperties": False}]},
        "contested": {"type": "array", "items": word},
        "control": {"type": "object", "additionalProperties": player},
        "score": {"type": "object", "additionalProperties": {"type": "integer"}},
        "units": {"type": "object", "additionalProperties": unit},
        "players": {"type": "array", "items": word},
        "winner": {"oneOf": [player, {"type": "array", "items": word}]}}}
    command = {"type": "object", "required": ["player", "action", "params"], "additionalProperties": False,
               "properties": {"player": word, "action": {"enum": ["move", "play", "activate", "pass", "choose",
                                                                  "concede", "end-turn", "invite", "order", "target",
                                                                  "assign", "hide"]},
                              "params": {"type": "object", "description": "the scenario step's fields (docs/scenarios.md)"}}}
    after = {"events": {"type": "array", "items": event}, "decide": decide_, "observe": obs}
    entry = {"type": "object", "required": ["n", "command", "events", "decide", "observe"],
             "additionalProperties": False,
             "properties": {"n": {"type": "integer", "minimum": 1}, "step": {"type": "integer", "minimum": 1},
                            "command": command, "changed": {"const": False},
                            "refused": {"type": "object", "required": ["rules", "reason"],
                                        "additionalProperties": False,
                                        "properties": {"rules": rules, "reason": {"type": "string"}}}, **after},
             "dependentRequired": {"refused": ["changed"]}}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://riftsim.invalid/schemas/fixture.schema.json",
        "title": "riftsim conformance fixture",
        "description": "A starting position, a command log and what the rules make of each command (docs/conformance.md)",
        "type": "object",
        "required": ["format", "rules_version", "name", "provenance", "position", "initial", "commands"],
        "additionalProperties": False,
        "properties": {
            "format": {"const": FORMAT}, "rules_version": {"const": RULES_VERSION}, "name": word,
            "provenance": {"type": "object", "required": ["source", "rules"], "properties": {
                "source": word, "scenario": word, "description": {"type": "string"}, "rules": rules,
                "seed": {"type": "integer"}, "path": {"type": "integer"}}, "additionalProperties": False},
            "position": {"type": "object", "required": ["players"],
                         "description": "the scenario format's setup keys (docs/scenarios.md)",
                         "propertyNames": {"enum": list(SETUP_KEYS)}},
            "initial": {"type": "object", "required": list(after), "additionalProperties": False, "properties": after},
            "commands": {"type": "array", "items": entry},
        },
    }


def schema_text() -> str:
    return json.dumps(fixture_schema(), indent=1, ensure_ascii=False) + "\n"

