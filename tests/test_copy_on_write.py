"""Copy-on-write units (``State.clone`` shares them; ``State.edit`` copies one before it is written).

A successor must never change the state it was computed from, and a unit's cached key must always be its
key: checked on every successor of the first states of every default verify position (the same
``successor`` the explorer runs), so a write that bypasses ``edit`` shows here.
"""
from __future__ import annotations

from collections import deque

import pytest

from simulator.core.model import Unit
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import Monitor, actions_of, fast_fingerprint, successor

FIELDS = tuple(n for n in Unit.__slots__ if n != "k")
POSITIONS = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]


def snapshot(g) -> tuple:
    """Every field of every unit and battlefield, read directly (not through the cached keys)."""
    return (tuple((uid, tuple(getattr(u, n) for n in FIELDS)) for uid, u in g.units.items()),
            tuple(b.key() for b in g.bfs.values()), g.key())


def fresh_key(u: Unit) -> tuple:
    u2 = u.clone()
    u2.k = None
    return u2.key()


@pytest.mark.parametrize("pos", POSITIONS, ids=[p.name for p in POSITIONS])
def test_successors_leave_their_parent_unchanged(pos):
    mon = Monitor()
    start = pos.start()
    start.coverage = mon
    queue, seen, done = deque([start]), {fast_fingerprint(start)}, 0
    while queue and done < 150:
        g = queue.popleft()
        done += 1
        for a in actions_of(g, pos.concede):
            before = snapshot(g)
            n = successor(g, a, mon)
            assert snapshot(g) == before, f"{pos.name}: {a.describe()} changed the state it was computed from"
            for u in n.units.values():
                assert u.key() == fresh_key(u), f"{pos.name}: {a.describe()}: {u.id}'s cached key is stale"
            f = fast_fingerprint(n)
            if f not in seen and n.winner is None:
                seen.add(f)
                queue.append(n)


def test_edit_copies_a_shared_unit_once():
    g = POSITIONS[0].start()
    uid = next(iter(g.units))
    h = g.clone()
    w = h.edit(h.units[uid])
    assert w is not g.units[uid] and h.units[uid] is w          # copied: the parent keeps its own
    assert h.edit(g.units[uid]) is w                             # by id: a stale reference finds the copy
    w.damage = 1
    assert g.units[uid].damage == 0 and h.units[uid].key() != g.units[uid].key()
