"""Random legal walks from every verify position (issue 11): a property test over the whole engine.

From each starting position of ``verify/*.yaml`` hypothesis walks the game by picking among the legal
actions (a compact move, 144, by picking a random non-empty group of its units) and, at every step, also
tries an action that is not legal (a candidate the rules refuse now, or one of a shape ``legal_actions()``
never produces). It checks:

* every legal action applies (no IllegalAction, no engine error);
* every illegal one raises IllegalAction naming a rule and leaves ``key()`` and the trace unchanged;
* no deadlock: until the game is over, some player still in it can do more than concede;
* replaying the accepted actions from the start gives the identical trace and position (determinism).

A few hundred examples run in the suite (derandomized in CI by conftest's profile, like the other property
tests); ``RIFTSIM_WALKS=N`` runs N examples per position family instead, e.g. ``RIFTSIM_WALKS=20000``.
"""
from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simulator.core.errors import IllegalAction
from simulator.game.actions import Action, candidates
from simulator.game.engine import Game
from simulator.verify.command import DEFAULT_FILES, load_positions

POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]
EXAMPLES = int(os.environ.get("RIFTSIM_WALKS", "300"))


def start(pos) -> Game:
    g = Game(pos.start())
    g.state.events_on = True                 # the explorer's start turns the trace off: a walk wants it
    return g


def malformed(g: Game, n: int) -> Action:
    """An action of a shape legal_actions() never produces (check_shape refuses it whatever the moment)."""
    p = g.state.order[n % len(g.state.order)]
    unit = next(iter(g.state.units), "u")
    bf = next(iter(g.state.bfs), "base")
    return [
        Action("pass", p, to=bf),
        Action("move", p, units=(unit, unit), to=bf),
        Action("move", p, units=[unit], to=bf),                   # a list, not a tuple
        Action("play", p, card="action-spell", at=bf),
        Action("play", p, card="rune-prison", targets=(("unit", unit), ("unit", unit))),
        Action("play", p, card="rune-prison", targets=(("unit", unit), ("junk", "x"))),
        Action("end-turn", p, teammate=p),
        Action("nap", p),
    ][n % 8]


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, len(POSITIONS) - 1), st.lists(st.integers(0, 1 << 30), min_size=1, max_size=30))
def test_random_legal_walks_from_every_verify_position(which, picks):
    pos = POSITIONS[which]
    g = start(pos)
    accepted: list[Action] = []
    for n in picks:
        if g.is_terminal():
            break
        players = list(g.state.in_game())
        acts = [a for a in g.legal_actions() if a.kind != "concede"]
        assert acts, f"{pos.name}: deadlock after {[a.describe() for a in accepted]}: nobody can do more than concede"
        # an illegal action: refused with a rule, nothing changed
        if n % 2:
            bad = malformed(g, n >> 1)
        else:
            legal_now = set(g.legal_actions(moves="all"))
            others = [a for p in players for a in candidates(g.state, p) if a not in legal_now]
            bad = others[(n >> 1) % len(others)] if others else malformed(g, n >> 1)
        key, trace = g.key(), list(g.trace)
        try:
            g.apply(bad)
        except IllegalAction as e:
            assert e.rule, bad
            assert g.key() == key and list(g.trace) == trace, bad
        else:
            raise AssertionError(f"{pos.name}: {bad} was accepted but legal_actions() never lists it")
        # a legal action: it applies (a compact move as a random group of its units)
        a = acts[n % len(acts)]
        if a.kind == "move" and len(a.units) > 1:
            mask = (n >> 8) % ((1 << len(a.units)) - 1) + 1
            a = Action("move", a.player, units=tuple(u for i, u in enumerate(a.units) if mask >> i & 1), to=a.to)
        g.apply(a, len(accepted) + 1)
        accepted.append(a)
    again = start(pos)
    for i, a in enumerate(accepted, 1):
        again.apply(a, i)
    assert [e.as_dict() for e in again.trace] == [e.as_dict() for e in g.trace]
    assert again.key() == g.key()
