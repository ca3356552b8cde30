"""Copy-on-write units and hands (``State.clone`` shares them; ``State.edit`` copies a unit before it is
written, ``State.set_hand`` replaces a hand).

A successor must never change the state it was computed from, and a unit's cached key must always be its
key (and the hands' cached key theirs): checked on every successor of the first states of every default verify position (the same
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
    """Every field of every unit and battlefield, and every hand, read directly (not through the cached keys)."""
    return (tuple((uid, tuple(getattr(u, n) for n in FIELDS)) for uid, u in g.units.items()),
            tuple(b.key() for b in g.bfs.values()), tuple((p, tuple(h)) for p, h in g.hands.items()), g.key())


def fresh_key(u: Unit) -> tuple:
    u2 = u.clone()
    u2.k = None
    return u2.key()


def uncached_key(g) -> tuple:
    """``g.key()`` computed from scratch: no cached unit key, no cached units, hands or score part."""
    c = g.clone()
    c.units = {uid: u.clone() for uid, u in c.units.items()}
    for u in c.units.values():
        u.k = None
    c.hk = c.uk = c.sk = None
    return c.key()


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
            assert n.key() == uncached_key(n), \
                f"{pos.name}: {a.describe()}: a cached part of the state's key is stale (units changed without " \
                "edit, a hand without set_hand, the score without add_score)"
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


def test_set_hand_leaves_the_parent_hand_alone():
    g = POSITIONS[0].start()
    p = g.order[0]
    g.set_hand(p, ["x", "a"])
    assert g.hands_key()[0] == (p, ("a", "x"))
    h = g.clone()
    h.set_hand(p, [])
    assert g.hands[p] == ["x", "a"] and g.hands_key()[0] == (p, ("a", "x")) and h.hands_key()[0] == (p, ())
