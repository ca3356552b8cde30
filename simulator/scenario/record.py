"""A scenario run recorded step by step: what the viewer (``simulate --html``), the trace diagram
(``simulate --diagram``) and ``compare`` show.

:func:`record` runs a scenario with :func:`simulator.scenario.loader.run` (the same run as
``simulate``) and a :class:`~simulator.core.machines.Recording` runtime, and keeps after every step a
snapshot of the engine's own state (:func:`snapshot`): machine states, board, chain, focus, priority,
scores, legal actions. Each step also has its trace events and every declared transition it fired,
silent ones included. Everything is plain JSON data.

>>> from simulator.scenario.loader import loads
>>> rec = record(loads('''
... name: a move opens a showdown
... players: [A, B]
... battlefields: [North]
... units: [{id: a1, owner: A, at: base, might: 2}]
... steps:
...   - {do: move, player: A, units: [a1], to: North}
... '''))
>>> [s["label"] for s in rec.steps], rec.steps[1]["state"]["machines"]["turn.mode"]
(['start', 'A move a1 North'], 'Showdown')
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.core.i18n import event_json
from simulator.core.machines import Fired, Recording
from simulator.core.model import State
from simulator.core.errors import RiftsimError, need
from simulator.game.actions import choice, legal
from simulator.game.engine import Game
from simulator.scenario.loader import Result, Scenario, Step, _fmt
from simulator.scenario.loader import run as run_scenario
from simulator.scenario.view import decision, view


def machine_key(leaf: str, inst: str | None) -> str:
    """``leaf`` or ``leaf[instance]``: how the viewer and the trace diagram name a machine instance."""
    return f"{leaf}[{inst}]" if inst else leaf


def _unit(g: State, u) -> dict:
    return {"id": u.id, "controller": u.controller, "owner": u.owner, "might": g.might(u), "damage": u.damage,
            "stunned": u.stunned, "exhausted": u.exhausted, "designation": u.designation, "kind": u.kind,
            "card": u.card, "zone": u.zone, "at": u.at}


#: at most this many unit entries over all of a recording's snapshots (a hostile file stays bounded)
MAX_ENTRIES = 1_000_000


def legal_summary(g: State) -> dict[str, list[str]]:
    """Each player's legal actions as the scenario format's ``legal`` names them: one move per destination
    with every unit that may go there (any group of them may), one order per trigger that may go first."""
    return {p: sorted(dict.fromkeys(choice(a) for a in legal(g, p))) for p in g.order}


def snapshot(g: State) -> dict:
    """The position as the viewer draws it, read from the engine's state (JSON data)."""
    v = view(g, with_legal=False)
    board = [_battlefield(g, v, name, b) for name, b in g.bfs.items()]
    bases = {p: _base(g, p) for p in g.order}
    gone = [_unit(g, u) for u in g.units.values() if u.zone != "board"]
    chain = [_item(it) for it in g.chain]
    out = {
        "machines": {machine_key(leaf, inst): s for (leaf, inst), s in g.ms.items()},
        "turn_state": v["state"], "turn": g.turn, "phase": v["phase"], "focus": g.focus, "priority": g.priority,
        "chain_state": g.ms[("chain", None)], "chain": chain, "active": v["active"], "board": board,
        "bases": bases, "gone": gone, "score": v["score"], "hands": {p: list(h) for p, h in g.hands.items()},
        "players": v["players"], "winner": v["winner"], "legal": legal_summary(g),
        "decision": decision(g),      # who must decide what now (Game.decision): {kind, player, item} or None
    }
    if g.cfg.zones:                                 # the zones (Z1), where the file models them
        out["zones"] = {k: v[k] for k in ("hand", "deck", "trash", "banished")}
    return out


def _battlefield(g: State, v: dict, name: str, b) -> dict:
    return {"name": name, "controller": b.controller, "contested": name in v["contested"],
            "status": g.ms[("battlefield.status", name)], "staged": v["staged"].get(name, []),
            "active": name == g.active, "scored": g.scored.get(name),
            "units": [_unit(g, u) for u in g.units.values() if u.zone == "board" and u.at == name]}


def _base(g: State, p: str) -> list[dict]:
    return [_unit(g, u) for u in g.units.values() if u.zone == "board" and u.at == "base" and u.controller == p]


def _item(it) -> dict:
    return {"uid": it.uid, "name": it.name, "controller": it.controller, "kind": it.kind,
            "finalized": it.finalized, "source": it.source, "unordered": it.unordered,
            "targets": [[f, x] for f, x in it.targets]}


def event_data(e, lang: str = "en") -> dict:
    """A trace event as JSON data (``Event.as_dict``): its text and rules are what the viewer narrates;
    ``lang`` narrates the text from the message catalogues (simulator.core.i18n)."""
    return event_json(e, lang)


def fired_data(f: Fired, events: list) -> dict:
    idx = next((i for i, e in enumerate(events) if e is f.event), None) if f.event is not None else None
    return {"machine": f.leaf, "instance": f.inst, "key": machine_key(f.leaf, f.inst), "trigger": f.t.trigger,
            "source": f.t.source, "dest": f.t.dest, "rules": list(f.t.rules), "silent": f.event is None,
            "event": idx, "guards": list(f.t.guards), "unless": list(f.t.unless), "effects": list(f.t.effects)}


@dataclass
class Recorded:
    """A scenario as it ran: the run's :class:`Result`, each step's record, every fired transition."""

    scenario: Scenario
    result: Result
    rulings: dict
    steps: list[dict] = field(default_factory=list)
    fired: list[Fired] = field(default_factory=list)

    def as_dict(self) -> dict:
        sc = self.scenario
        return {"name": sc.name, "file": sc.file, "mode": sc.setup.get("mode", "duel"),
                "players": list(sc.setup["players"]), "rulings": {**sc.rulings, **self.rulings},
                "status": self.result.status, "message": self.result.message, "steps": self.steps}


class _Observer:
    """Keeps each step's record and the fired transitions while ``run_scenario`` runs (``file`` names the
    scenario in an error)."""

    def __init__(self, backend: str, file: str, snapshots: bool, lang: str = "en") -> None:
        self.backend, self.file, self.snapshots, self.lang = backend, file, snapshots, lang
        self.steps: list[dict] = []
        self.fired: list[Fired] = []
        self.entries = 0
        self.rt: Recording | None = None
        self.before: State | None = None
        self.seen = 0                               # trace events already recorded

    def __call__(self, st: Step | None, game: Game, failure: str) -> None:
        if st is None:
            self.rt = game.state.cfg.rt = Recording(self.backend)
            self.before = game.state
            self.steps.append({"n": 0, "line": 0, "kind": "start", "label": "start", "events": [],
                                   "fired": [], "failure": "", "state": self.snap(game.state)})
            return
        g = game.state
        seen = self.seen
        kept = len(self.fired)
        rt = need(self.rt, "the recording runtime")   # set by the first call (st is None)
        if g is self.before:                        # rejected or an expectation: nothing fired for real
            del rt.fired[kept:]
        events = g.trace[seen:]
        fired = rt.fired[kept:]
        self.fired.extend(fired)
        entry: dict[str, Any] = {"n": st.number, "line": st.line, "kind": "do" if st.action else "show" if st.show is not None else "expect",
                 "label": st.describe(), "illegal": bool(st.illegal), "events": [event_data(e, self.lang)
                                                                                     for e in events],
                 "fired": [fired_data(f, events) for f in fired], "failure": failure, "state": self.snap(g)}
        if st.expect is not None:
            entry["expect"] = [[k, _fmt(x)] for k, x in st.expect.items()]
        self.steps.append(entry)
        self.before, self.seen = g, len(g.trace)


    def snap(self, g: State) -> dict | None:
        if not self.snapshots:
            return None
        self.entries += len(g.units) + len(g.chain) + len(g.bfs) + 1
        if self.entries > MAX_ENTRIES:
            raise RiftsimError(f"{self.file}: too large to record step by step (more than "
                               f"{MAX_ENTRIES:,} units, chain items and battlefields over all its steps)")
        return snapshot(g)


def record(sc: Scenario, *, backend: str = "compiled", rulings: dict | None = None,
           snapshots: bool = True, lang: str = "en", also=None) -> Recorded:
    """Run ``sc`` (like ``simulate``) and keep every step's events and fired transitions (the events narrated in ``lang``), and with
    ``snapshots`` its position after each step (:func:`snapshot`; bounded by :data:`MAX_ENTRIES`); ``also``, if given,
    observes the same run (``simulate --html --show``)."""
    obs = _Observer(backend, sc.file, snapshots, lang)

    def both(st, game, failure: str) -> None:
        obs(st, game, failure)
        if also is not None:
            also(st, game, failure)

    result = run_scenario(sc, backend=backend, rulings=rulings, observe=both)
    return Recorded(sc, result, dict(rulings or {}), obs.steps, obs.fired)
