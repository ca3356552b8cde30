"""The visited set as flat arrays (simulator/verify/visited.py, issue 13's memory target): the table answers as
a dict would, and a search whose visited sets move into tables early gives exactly the same result (states,
transitions, graph, shortest-trace tree) on one shard and two, with and without the graph."""
from __future__ import annotations

import random

import pytest

from simulator.verify import explore as ex
from simulator.verify import visited
from simulator.verify.command import DEFAULT_FILES, load_positions
from searching import searched, summary
from simulator.verify.visited import FlatTable, compacted

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}


@pytest.mark.parametrize("ids", [True, False])
def test_the_table_answers_as_a_dict(ids):
    rng = random.Random(13)
    t, d = FlatTable(ids=ids), {}
    keys = [rng.getrandbits(60) for _ in range(20_000)] + [0, (1 << 60) - 1]
    for i, h in enumerate(keys):
        t[h] = i
        d[h] = i
    for h in keys[:500]:                       # overwriting keeps one entry
        t[h] = d[h] = d[h] + 1
    assert len(t) == len(d)
    assert t.limit < len(t.keys) and len(t) <= t.limit     # it grew, and stays at most 5/8 full
    for h in keys:
        assert t.get(h) == (d[h] if ids else 0) and h in t
    for _ in range(2_000):
        h = rng.getrandbits(60)
        assert (t.get(h) is None) == (h not in d)
    assert sorted(t.items()) == sorted((h, v if ids else 0) for h, v in d.items())
    assert t.nbytes() <= 8 * (2 if ids else 1) * 4 * len(t)     # about 13 bytes an entry without ids, 26 with


def test_compacted_moves_only_a_large_set(monkeypatch):
    small = {1: 0, 2: 1}
    assert compacted(small) is small
    monkeypatch.setattr(visited, "FLAT_FROM", 2)
    t = compacted(small)
    assert isinstance(t, FlatTable) and t.get(1) == 0 and t.get(2) == 1 and compacted(t) is t


@pytest.mark.parametrize("graph", [True, False])
@pytest.mark.parametrize("n", [1, 2])
def test_a_search_on_tables_is_the_same_search(monkeypatch, n, graph):
    """The visited sets become tables after the first levels (FLAT_FROM lowered): the same states, transitions,
    terminal and bounded counts, graph and shortest-trace tree as on dicts."""
    pos = POSITIONS["war-combat-R2-defender-last-concede"]

    def run():
        return summary(searched(pos, n, graph=graph), graph)

    on_dicts = run()
    monkeypatch.setattr(visited, "FLAT_FROM", 50)
    made = []
    monkeypatch.setattr(ex, "compacted", lambda seen, ids=True: made.append(compacted(seen, ids)) or made[-1])
    on_tables = run()
    assert on_tables == on_dicts and on_dicts[0] > 500
    assert any(isinstance(t, FlatTable) and (t.vals is not None) == graph for t in made)
