"""Shared helpers for the rules tests: build a game, act with a one-line DSL, check what a judge checks.

* ``game(setup=None, cards=None, rulings=None, backend="compiled", **setup_keys)``: a
  :class:`simulator.game.engine.Game` from the scenario format's starting position (default: duel, players
  A and B, battlefields North and South); ``cards`` adds custom cards (scenario vocabulary dicts).
* ``do(g, "A move a1 North", "B pass", ...)``: apply actions, numbered as steps; an illegal one fails
  the test with the engine's reason.
* ``illegal(g, "B move b1 North", "showdown")``: the action is rejected, the reason contains the text,
  and the position (``state.key()``) and the trace are exactly as before.
* ``expect(g, state=..., focus=..., ...)``: the scenario format's expectation keys over
  :func:`simulator.scenario.view.view`; ``controller``, ``score`` and ``units`` compare only the entries given,
  ``legal`` compares each listed player's actions exactly, ``decision`` the fields given of ``Game.decision()``.
* ``events(g)`` / ``lines(g)``: the trace as ``(step, event, rule)`` / event texts.
"""
from __future__ import annotations

import os

import pytest
from hypothesis import settings

from simulator.core.catalogue import every
from simulator.core.errors import IllegalAction
from simulator.game.action_kinds import Action, read
from simulator.game.engine import Game
from simulator.core.cards import to_card
from simulator.game.setup import build
from simulator.scenario.view import view

# CI runs the property tests derandomized (the same examples every run); locally they explore.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

DEFAULT = {"players": ["A", "B"], "battlefields": ["North", "South"]}


def game(setup: dict | None = None, *, cards: dict | None = None, rulings: dict | None = None,
         backend: str = "compiled", **keys) -> Game:
    """A game in the first player's Main Phase, Neutral Open (the scenario format's starting position)."""
    s = dict(DEFAULT)
    s.update(setup or {})
    s.update(keys)
    deck = every()
    for cid, d in (cards or {}).items():
        deck[cid] = to_card(cid, d)
    return Game(build(s, backend=backend, rulings=rulings, cards=deck))


def parse(g: Game, text: str) -> Action:
    """``"A move a1 a2 North"``, ``"A play rune-prison unit=b1"``, ``"A play unit-2 at=North"``, ``"A choose yes"``,
    ``"A order a1:brace a2:guard"``: the text form of ``riftsim play`` (one parser: ``action_kinds.read``)."""
    return read(text, g.state.cfg.cards)


def do(g: Game, *texts: str) -> Game:
    """Apply each action in turn (a step number each); fail with the engine's reason if one is illegal."""
    for text in texts:
        a = parse(g, text)
        try:
            g.apply(a, g.state.step + 1)
        except IllegalAction as e:  # pragma: no cover - only on a failing test
            pytest.fail(f"{text!r} was rejected: {e}")
    return g


def illegal(g: Game, text: str, reason: str = "", rule: str | None = None) -> IllegalAction:
    """The action is rejected (with ``reason`` in its message) and the position is left exactly as it was."""
    before_key, before_trace = g.state.key(), list(g.state.trace)
    before_view = view(g.state)
    with pytest.raises(IllegalAction) as info:
        g.apply(parse(g, text), g.state.step + 1)
    assert reason.lower() in str(info.value).lower(), f"{text!r}: {info.value}"
    if rule is not None:
        assert rule in info.value.rule, f"{text!r}: cites {info.value.rule}, expected {rule}"
    assert g.state.key() == before_key, f"{text!r} changed the position although it was rejected"
    assert list(g.state.trace) == before_trace
    assert view(g.state) == before_view
    return info.value


PARTIAL = ("controller", "score", "units")


def expect(g: Game, **keys) -> dict:
    """Every key given must match the view of the current position (scenario-format semantics)."""
    v = view(g.state, with_legal="legal" in keys)
    d = g.decision()
    v["decision"] = d.data() if d is not None else None       # who must decide what now (Game.decision)
    problems = []
    for k, want in keys.items():
        have = v[k]
        if k == "decision" and want is not None and have is not None:
            have = {f: have.get(f) for f in want}
        if k in PARTIAL:
            for name, w in want.items():
                h = have.get(name)
                if isinstance(w, dict):
                    h = {f: (h or {}).get(f) for f in w}
                if h != w:
                    problems.append(f"{k}[{name}]: expected {w!r}, got {h!r}")
        elif k == "legal":
            for p, acts in want.items():
                if sorted(have[p]) != sorted(acts):
                    problems.append(f"legal[{p}]: expected {sorted(acts)!r}, got {have[p]!r}")
        elif have != want:
            problems.append(f"{k}: expected {want!r}, got {have!r}")
    if problems:
        pytest.fail("; ".join(problems) + "\n" + "\n".join(lines(g, with_rules=True)[-25:]))
    return v


def events(g: Game, since: int = 0) -> list[tuple[int, str, str]]:
    return [(e.step, e.event, e.rule) for e in g.trace[since:]]


def lines(g: Game, since: int = 0, *, with_rules: bool = False, step: int | None = None) -> list[str]:
    return [f"{e.event}  [{e.rule}]" if with_rules else e.event for e in g.trace[since:]
            if step is None or e.step == step]


def rules_of(g: Game, text: str) -> str:
    """The rule cited by the (first) trace line containing ``text``."""
    for e in g.trace:
        if text in e.event:
            return e.rule
    pytest.fail(f"no trace line contains {text!r}:\n" + "\n".join(lines(g)))


def index_of(g: Game, text: str, since: int = 0) -> int:
    for i, e in enumerate(g.trace[since:], since):
        if text in e.event:
            return i
    pytest.fail(f"no trace line contains {text!r}:\n" + "\n".join(lines(g, since)))


@pytest.fixture(params=["compiled", "transitions"])
def backend(request) -> str:
    """Both backends pick the same declared transitions (a test taking this runs on each)."""
    return request.param


# -- every refusal the tests produce cites declared rules (statecharts/citations.py, timing tables, ...) ----------
_REFUSED: dict[str, str] = {}        # rule text -> one reason that cited it
_init = IllegalAction.__init__


def _recording_init(self, reason: str, rule: str) -> None:
    _REFUSED.setdefault(rule, reason)
    _init(self, reason, rule)


IllegalAction.__init__ = _recording_init      # type: ignore[method-assign]


def pytest_sessionfinish(session, exitstatus):
    """Fails the run if a refusal raised during it cites a rule id that no declaration cites."""
    from simulator.cli.rules import declared

    have = declared()
    bad = sorted(f"[{rule}] ({reason})" for rule, reason in _REFUSED.items()
                 if any(r.strip() and r.strip() not in have for r in rule.split(",")))
    session.config._refusals_seen = len(_REFUSED)
    if bad:
        tr = session.config.pluginmanager.get_plugin("terminalreporter")
        if tr is not None:
            tr.write_line("refusals citing undeclared rule ids (declare them in statecharts/citations.py):", red=True)
            for line in bad:
                tr.write_line("  " + line, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
