"""The conformance protocol's two ends, as data: riftsim answering it (:class:`Reference`, what
``riftsim adapter`` runs) and the comparison of an engine's answers with a fixture (:func:`first_divergence`).

The protocol (docs/conformance.md): one JSON object per line. The driver sends ``setup`` (a fixture's
starting position), ``command`` (one neutral command) and ``observe``; the engine answers each with one
line: ``ready`` or ``done`` (with the ordered ``events``, each with its ``rules``), ``refused`` (with the
refusal's ``rules`` and ``reason``), ``position`` (``decide`` and ``observe``), or ``error``.

>>> ref = Reference()
>>> ref.handle({"type": "setup", "position": {"players": ["A", "B"], "battlefields": ["North"],
...             "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2}]}})["type"]
'ready'
>>> ref.handle({"type": "command", "command": {"player": "B", "action": "pass", "params": {}}})["type"]
'refused'
>>> ref.handle({"type": "observe"})["observe"]["priority"]
'A'
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from simulator.core.errors import IllegalAction, RiftsimError
from simulator.game.actions import budget
from simulator.scenario.fixtures import OBSERVED, WAIT, action_of, decide, event_entry, observe, position_game, rules_of
from simulator.scenario.loader import MAX_CHECKS, legal_set

#: what may be left out of a comparison (``riftsim conformance --skip``): these, and each observed key
SKIPPABLE = ("events", "decide", "refusal-rules", *OBSERVED)


class Reference:
    """riftsim as an engine of the protocol: one game at a time, set up by ``setup``."""

    def __init__(self, backend: str = "compiled") -> None:
        self.backend = backend
        self.game: Any = None
        self.validator: Any = None
        self.n = 0

    def handle(self, req: Any) -> dict:
        """The answer to one request (an ``error`` answer for anything riftsim refuses, or past
        :data:`~simulator.scenario.loader.MAX_CHECKS` candidate actions of legal listings in one answer)."""
        kind = req.get("type") if isinstance(req, dict) else None
        try:
            with budget(MAX_CHECKS):
                return self._answer(kind, req)
        except RiftsimError as e:
            return {"type": "error", "message": str(e)}

    def _answer(self, kind: Any, req: Any) -> dict:
        if kind == "setup":
            self.game = None                    # a refused position leaves no game behind
            self.game, self.validator = position_game(req.get("position"), "position", self.backend)
            self.n = 0
            return {"type": "ready", "events": [event_entry(e) for e in self.game.trace]}
        if kind not in ("command", "observe"):
            return {"type": "error", "message": f"unknown request type {kind!r} (setup, command, observe)"}
        if self.game is None:
            return {"type": "error", "message": "no game: send setup first"}
        if kind == "command":
            return self.command(req.get("command"))
        return {"type": "position", "decide": decide(self.game.state), "observe": observe(self.game.state)}

    def command(self, cmd: Any) -> dict:
        self.n += 1
        a = action_of(self.validator, cmd, self.n)
        seen = len(self.game.trace)
        try:
            self.game.apply(a, self.n)
        except IllegalAction as e:
            return {"type": "refused", "rules": rules_of(e.rule), "reason": e.reason}
        return {"type": "done", "events": [event_entry(e) for e in self.game.trace[seen:]]}


@dataclass
class Divergence:
    """Where an engine first parted from a fixture: at which command, on what, and the rules at stake."""

    fixture: str
    n: int                          # the command's number (0: the starting position)
    command: dict | None
    what: str                       # events, refused, refusal-rules, decide, observe.KEY, protocol
    expected: Any
    got: Any
    rules: list[str] = field(default_factory=list)

    def line(self) -> str:
        at = "at the start" if self.n == 0 else f"command {self.n} ({describe(self.command)})"
        rules = f" [{', '.join(self.rules)}]" if self.rules else ""
        return f"{self.fixture}: {at}: {self.what}: expected {_short(self.expected)}, got {_short(self.got)}{rules}"

    def as_dict(self) -> dict:
        return {"fixture": self.fixture, "n": self.n, "command": self.command, "what": self.what,
                "expected": self.expected, "got": self.got, "rules": self.rules}


def describe(cmd: Any) -> str:
    """A neutral command in one line: ``A move units=a1 to=North``."""
    if not isinstance(cmd, dict):
        return repr(cmd)
    params = " ".join(f"{k}={_plain(v)}" for k, v in (cmd.get("params") or {}).items())
    return " ".join(x for x in (str(cmd.get("player")), str(cmd.get("action")), params) if x)


def _plain(v: Any) -> str:
    if isinstance(v, list):
        return ",".join(map(str, v))
    if isinstance(v, dict):
        return ",".join(f"{k}:{x}" for k, x in v.items())
    return str(v)


def _short(v: Any, limit: int = 160) -> str:
    import json
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False, sort_keys=True)
    return text if len(text) <= limit else text[:limit - 3] + "..."


#: the statecharts whose events decide each observed key: a divergence on the key cites their events' rules
KEY_MACHINES = {"state": ("turn.mode", "turn.window"), "phase": ("phases",), "turn": ("phases",),
                "focus": ("focus",), "priority": ("focus", "chain"), "passed": ("focus", "chain"), "chain": ("chain",),
                "active": ("battlefield.status", "combat"), "contested": ("battlefield.status",),
                "control": ("battlefield.control",), "players": ("player",), "winner": ("player", "phases")}


def cited(entry: dict, key: str = "") -> list[str]:
    """The rule ids a fixture entry's events (or refusal) cite, each once, in order; for an observed ``key``,
    those of the events of its statecharts (:data:`KEY_MACHINES`) when there are some."""
    events = entry.get("events", [])
    mine = [e for e in events if e.get("machine") in KEY_MACHINES.get(key, ())]
    rules = [r for e in mine or events for r in e["rules"]] + entry.get("refused", {}).get("rules", [])
    return list(dict.fromkeys(rules))


def answer_problem(ans: Any, types: tuple[str, ...]) -> str:
    """Why an engine's answer is not one of ``types`` with its required fields ('' if it is)."""
    if not isinstance(ans, dict) or ans.get("type") not in types + ("error",):
        return f"expected an answer of type {' or '.join(types)}, got {_short(ans, 80)}"
    if ans["type"] == "error":
        return f"the engine reported an error: {_short(str(ans.get('message', '')), 120)}"
    need = {"done": ("events",), "ready": (), "refused": ("rules",), "position": ("decide", "observe")}[ans["type"]]
    missing = [k for k in need if k not in ans]
    if missing:
        return f"the {ans['type']} answer has no {', '.join(missing)}"
    if "events" in ans and not _event_list(ans["events"]):
        return "events must be a list of objects, each with a list of rules"
    return ""


def _event_list(events: Any) -> bool:
    """A list of objects, each with a list of rules."""
    return isinstance(events, list) and all(isinstance(e, dict) and isinstance(e.get("rules"), list) for e in events)


def compare_answer(entry: dict, ans: dict, skip: frozenset = frozenset()) -> tuple[str, Any, Any, list[str]] | None:
    """The first difference between what a command (or setup) did in the fixture and the engine's answer."""
    if "refused" in entry:
        return _compare_refusal(entry["refused"]["rules"], ans, skip)
    if ans["type"] == "refused":
        return "refused", "accepted", {"refused": ans.get("rules"), "reason": ans.get("reason")}, cited(entry)
    if "events" in skip:
        return None
    return _compare_events(entry["events"], ans.get("events", []))


def _compare_refusal(want: list[str], ans: dict, skip: frozenset) -> tuple[str, Any, Any, list[str]] | None:
    """The fixture's command was refused citing ``want``: was the engine's answer a refusal citing the same?"""
    if ans["type"] != "refused":
        return "refused", {"refused": want}, "accepted", want
    got = ans.get("rules")
    if "refusal-rules" not in skip and (not isinstance(got, list) or set(want) != set(map(str, got))):
        return "refusal-rules", want, got, want
    return None


def _compare_events(want: list[dict], got: list[dict]) -> tuple[str, Any, Any, list[str]] | None:
    """The first event whose cited rules differ (or that one side lacks)."""
    for i in range(max(len(want), len(got))):
        w = want[i] if i < len(want) else None
        g = got[i] if i < len(got) else None
        if w is None or g is None or set(w["rules"]) != set(map(str, g["rules"])):
            return (f"events[{i + 1}]", {"rules": w["rules"], "text": w["text"]} if w else "no more events",
                    {"rules": g["rules"], **({"text": g["text"]} if "text" in g else {})} if g else "no more events",
                    w["rules"] if w else list(map(str, g["rules"])) if g else [])
    return None


def compare_position(entry: dict, ans: dict, skip: frozenset = frozenset()) -> tuple[str, Any, Any, list[str]] | None:
    """The first difference between the fixture's position after a command and the engine's observation."""
    got_obs: dict = ans["observe"] if isinstance(ans.get("observe"), dict) else {}
    for k in OBSERVED:
        if k in skip:
            continue
        want, got = entry["observe"][k], got_obs.get(k, "(missing)")
        if _norm(k, want) != _norm(k, got):
            return f"observe.{k}", want, got, cited(entry, k)
    if "decide" in skip:
        return None
    return _compare_decisions(entry, ans["decide"] if isinstance(ans.get("decide"), dict) else {})


def _compare_decisions(entry: dict, got_dec: dict) -> tuple[str, Any, Any, list[str]] | None:
    """The first player whose decision (the legal actions, or waiting) differs from the fixture's."""
    for p, want in entry["decide"].items():
        got = got_dec.get(p, WAIT)
        if (want == WAIT or got == WAIT or not isinstance(got, list)) and want != got:
            return f"decide.{p}", want, got, cited(entry, "priority")
        if want != WAIT and legal_set(want) != legal_set([str(x) for x in got]):
            return f"decide.{p}", want, got, cited(entry, "priority")
    return None


def _norm(key: str, v: Any) -> Any:
    """A value compared regardless of the order of what has no order (contested, a shared win)."""
    if key in ("contested",) and isinstance(v, list):
        return sorted(map(str, v))
    if key == "winner" and isinstance(v, list):
        return sorted(map(str, v))
    return v
