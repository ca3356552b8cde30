"""A level's states packed (simulator/verify/packed.py, issue 13's memory): a packed state unpacks to the same
state (key, legal actions, successors), and a search whose large levels are packed gives exactly the search
whose states are whole: states, transitions, terminal and bounded counts, graph, shortest-trace tree and
coverage, on one shard and on two (whose rebalance sends packed states to the other shard)."""
from __future__ import annotations

import pytest

from simulator.verify import explore as ex
from simulator.verify import packed
from simulator.verify.command import DEFAULT_FILES, load_positions
from searching import searched, summary

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}


def test_a_packed_state_is_the_same_state(monkeypatch):
    monkeypatch.setattr(packed, "CHUNK", 7)
    pos = POSITIONS["war-combat-R2-defender-last-concede"]
    g = pos.start()
    mon = ex.Monitor()
    g.coverage = mon
    level = [ex.successor(g, a, mon) for a in ex.actions_of(g, True)]
    level = [ex.successor(s, a, mon) for s in level for a in ex.actions_of(s, True)]
    assert len(level) > 14                               # several chunks, the last one still open

    def seen(s):
        acts = ex.actions_of(s, True)
        return s.winner, s.key(), [a.describe() for a in acts], [ex.successor(s, a, mon).key() for a in acts]

    expected = [seen(s) for s in level]
    p = packed.Packer(g.cfg, mon)
    handles = [p.pack(s) for s in level]                 # the packer owns them now
    assert sum(c.data is not None for c in {h.chunk for h in handles}) >= 2
    for h, (winner, key, acts, succ) in zip(handles, expected):
        u = packed.unpacked(h)
        assert h.winner == winner and u.cfg is g.cfg and u.coverage is mon
        assert seen(u) == (winner, key, acts, succ)
    packed.clear_cache()


@pytest.mark.parametrize("n", [1, 2])
def test_a_search_on_packed_levels_is_the_same_search(monkeypatch, n):
    pos = POSITIONS["war-combat-R2-defender-last-concede"]

    def run():
        return summary(searched(pos, n))

    whole = run()
    monkeypatch.setattr(ex, "PACK_FROM", 20)
    monkeypatch.setattr(packed, "CHUNK", 16)
    made = []
    real = packed.Packer.pack
    monkeypatch.setattr(packed.Packer, "pack", lambda self, g: made.append(1) or real(self, g))
    assert run() == whole and whole[0] > 500
    assert len(made) > whole[0] // 2                     # most states were held packed
