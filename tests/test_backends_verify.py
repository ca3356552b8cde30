"""The backends prove the declarations: the compiled table and the real ``transitions`` machines (parallel regions
as parallel states) agree on the states the default verify positions reach.

Fast suite: the first states of every default position (breadth first): the same state graph (every state, every
edge, every declared transition exercised) and, on a sample, the same successor and trace lines for every legal
action. ``RIFTSIM_DIFF_ALL=1`` compares the whole explored space of every position (minutes).
"""
from __future__ import annotations

import copy
import os

import pytest

from simulator.core.machines import Runtime
from simulator.game import engine
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import actions_of, explore

# exhaustive (both backends compared on every explored state): .ci/run's slow step
pytestmark = pytest.mark.slow

ALL = os.environ.get("RIFTSIM_DIFF_ALL") == "1"
POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]
FAST_STATES = 120


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_both_backends_explore_the_same_state_graph(pos):
    bound = None if ALL else min(FAST_STATES, pos.max_states)
    a = explore(pos, max_states=bound, graph=True, labels=True, backend="compiled")
    b = explore(pos, max_states=bound, graph=True, labels=True, backend="transitions")
    assert a.graph is not None and b.graph is not None
    assert (a.states, a.edges, a.terminal) == (b.states, b.edges, b.terminal)
    assert list(a.graph.name) == list(b.graph.name)              # the same states (stable fingerprints)...
    assert list(a.graph.edges()) == list(b.graph.edges())        # ...joined by the same edges
    assert a.graph.action == b.graph.action
    assert a.coverage == b.coverage
    assert [v.message for v in a.violations] == [v.message for v in b.violations]


def _on(g, rt):
    n = g.clone()
    n.cfg = copy.copy(g.cfg)
    n.cfg.rt = rt
    return n


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_every_action_of_the_first_states_gives_the_same_successor_and_trace(pos):
    """Traces on (the verifier explores without them): the same state and the same trace events, transition
    by transition, for every legal action of the first states breadth first."""
    transitions = Runtime("transitions")
    start = pos.start()
    start.events_on = True
    queue, seen, n = [start], {start.key()}, 0
    limit = 2000 if ALL else 20
    while queue and (limit is None or n < limit):
        g = queue.pop(0)
        n += 1
        for a in actions_of(g, pos.concede):
            x = engine.step(g, a)
            y = engine.step(_on(g, transitions), a)
            assert x.key() == y.key(), a.describe()
            assert x.trace == y.trace, a.describe()
            if x.key() not in seen and x.winner is None:
                seen.add(x.key())
                queue.append(x)
    assert n > 0
