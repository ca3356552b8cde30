"""The explorer's successor function is ``engine.step`` without its second ``check`` (issue 13): every action
the explorer lists is one ``check`` accepts (103, 410: legal actions are accepted), and the successor is the
state ``engine.step`` computes, on the first states of every default verify position (breadth first)."""
from __future__ import annotations

import pytest

from simulator.game import engine
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import Monitor, actions_of, successor

POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]
STATES = 60


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_listed_actions_are_accepted_and_successor_is_step(pos):
    start = pos.start()
    start.coverage = mon = Monitor()
    queue, seen, n, checked = [start], {start.key()}, 0, 0
    while queue and n < STATES:
        g = queue.pop(0)
        n += 1
        for a in actions_of(g, pos.concede):
            engine.check(g, a)                       # raises IllegalAction if a listed action is refused
            x = successor(g, a, mon)
            assert x.key() == engine.step(g, a).key(), a.describe()
            checked += 1
            if x.key() not in seen and x.winner is None:
                seen.add(x.key())
                queue.append(x)
    assert checked > 0 and not mon.found, mon.found
