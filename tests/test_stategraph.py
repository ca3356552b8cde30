"""The flat state graph's analysis agrees with networkx (the oracle): SCCs, attracting components, the
livelock / idle-loop split, the counts ``riftsim verify`` prints."""
from __future__ import annotations

import random

import networkx as nx
import pytest

from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import explore
from simulator.verify.stategraph import BOUNDED, TERMINAL, StateGraph, analyse, merge


def _oracle(g: StateGraph):
    gr = g.to_networkx()
    sccs = list(nx.strongly_connected_components(gr))
    attracting = [c for c in nx.attracting_components(gr)
                  if not any(gr.nodes[v]["terminal"] or gr.nodes[v]["bounded"] for v in c)]
    turn = {(str(v), str(w)) for v, w, t in g.edges() if t}

    def passes(c):
        return any((a, b) in turn for a, b in gr.subgraph(c).edges())
    loops = sorted((len(c), min(int(v) for v in c)) for c in attracting if not passes(c))
    idle = sorted((len(c), min(int(v) for v in c)) for c in attracting if passes(c))
    return (gr.number_of_nodes(), gr.number_of_edges(), len(sccs), max(map(len, sccs)),
            sum(1 for _, d in gr.nodes(data=True) if d["terminal"]), sum(1 for v in gr if gr.out_degree(v) == 0),
            loops, idle)


def _mine(g: StateGraph):
    a = analyse(g)
    return (a.nodes, a.edges, a.sccs, a.largest, a.terminal, a.sinks, sorted(a.livelocks), sorted(a.idle))


@pytest.mark.parametrize("seed", range(30))
def test_random_graphs_agree_with_networkx(seed):
    rnd = random.Random(seed)
    n = rnd.randint(1, 40)
    g = StateGraph()
    for v in range(n):
        g.node(v, rnd.choice((0, 0, 0, TERMINAL, BOUNDED)))
        for _ in range(rnd.randint(0, 3)):
            g.edge(rnd.randrange(n), rnd.random() < 0.2)
    assert _mine(g) == _oracle(g)


POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}


@pytest.mark.parametrize("name", ["duel-two-fronts", "skirmish-focus-holder-leaves",
                                  pytest.param("duel-cards", marks=pytest.mark.slow)])
def test_explored_spaces_agree_with_networkx(name):
    """Real spaces: one with idle loops of end-turns (duel-two-fronts), one with concessions."""
    g = explore(POSITIONS[name], graph=True).graph
    assert _mine(g) == _oracle(g)


def test_merge_lays_shards_in_id_order():
    a, b = StateGraph(), StateGraph()
    a.node(0, 0)
    a.edge(1, False)
    a.edge(2, True)
    b.node(1, 0)
    b.edge(0, False)
    a.node(2, TERMINAL)
    m = merge([a, b])
    assert list(m.ids) == [0, 1, 2] and list(m.edges()) == [(0, 1, 0), (0, 2, 1), (1, 0, 0)]
    assert list(m.flags) == [0, 0, TERMINAL]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("labels", [False, True])
def test_merge_of_random_parts_is_the_graph_in_id_order(seed, labels):
    """However the nodes are spread over the shards' graphs (each part in increasing id order, as a shard adds
    them), the merge is the graph built in id order: nodes, flags, edges with their end-turn flags, labels."""
    rnd = random.Random(seed)
    n, k = rnd.randint(1, 60), rnd.randint(1, 4)
    whole, parts = StateGraph(labels), [StateGraph(labels) for _ in range(k)]
    for v in range(n):
        p = rnd.choice(parts)
        flags, attrs, name = rnd.choice((0, 0, TERMINAL, BOUNDED)), (v, "Neutral Open", "A"), rnd.getrandbits(56)
        for g in (whole, p):
            g.node(v, flags, attrs, name)
        for _ in range(rnd.randint(0, 4)):
            w, t, label = rnd.randrange(n), rnd.random() < 0.3, f"a{rnd.randrange(9)}"
            whole.edge(w, t, label)
            p.edge(w, t, label)
    m = merge(parts)
    assert list(m.ids) == list(range(n)) and m.flags == whole.flags and list(m.off) == list(whole.off)
    assert list(m.edges()) == list(whole.edges())
    assert (m.action, m.attrs, list(m.name)) == (whole.action, whole.attrs, list(whole.name))
    assert _mine(m) == _mine(whole)
