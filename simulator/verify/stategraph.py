"""The explored state space in flat arrays, and its analysis: strongly connected components computed once.

Node ``i`` is the ``i``-th state a search discovered; its successors are ``dst[off[i]:off[i + 1]]`` (each
distinct successor once, as in a ``networkx.DiGraph``), with a flag per edge saying whether an ``end-turn``
action leads there. A node costs about 20 bytes and an edge 9, where a ``networkx.DiGraph`` of the same space
costs about 800 bytes a state. Labels (the action of each edge, the turn state of each node, a stable
blake2b fingerprint as the node's name) are kept only for ``--export``, which builds the networkx graph from
the arrays. networkx remains the oracle: tests/test_stategraph.py checks :func:`analyse` against
``networkx.strongly_connected_components`` and ``attracting_components``.

A sharded search (:mod:`simulator.verify.shard`) keeps one ``StateGraph`` per shard, local node ``i`` of
shard ``s`` of ``n`` being global node ``i * n + s``; :func:`merge` lays them into one.
"""
from __future__ import annotations

from array import array
from collections import deque
from itertools import accumulate, chain
from operator import sub
from dataclasses import dataclass, field

TERMINAL, BOUNDED = 1, 2


class StateGraph:
    """Nodes and edges of one explored position (``labels``: keep what ``--export`` writes).

    Nodes are added in increasing id order, each followed by its edges; a search adds a node when it takes the
    state from its queue (and the states left in the queue at a stop, at the end)."""

    def __init__(self, labels: bool = False) -> None:
        self.ids = array("q")             # node -> its id (0, 1, 2... in a one-core search)
        self.flags = bytearray()          # node -> TERMINAL | BOUNDED
        self.off = array("q")             # node -> its first edge
        self.dst = array("q")             # edge -> successor id
        self.turn = bytearray()           # edge -> 1 if an end-turn action leads there
        self.labels = labels
        self.action: list[str] = []       # edge -> action (labels only)
        self.attrs: list[tuple] = []      # node -> (depth, turn state, turn player) (labels only)
        self.name = array("Q")            # node -> blake2b fingerprint (labels only)
        self._open: dict[int, int] = {}   # successors of the last node -> edge index

    def __len__(self) -> int:
        return len(self.flags)

    def node(self, v: int, flags: int, attrs: tuple = (), name: int = 0) -> None:
        """Add node ``v``; the edges added next are its edges."""
        self.ids.append(v)
        self.flags.append(flags)
        self.off.append(len(self.dst))
        self._open = {}
        if self.labels:
            self.attrs.append(attrs)
            self.name.append(name)

    def edge(self, w: int, end_turn: bool, label: str = "") -> None:
        """An edge from the last node to ``w`` (a repeated successor is one edge, as in a DiGraph)."""
        k = self._open.get(w)
        if k is None:
            self._open[w] = len(self.dst)
            self.dst.append(w)
            self.turn.append(end_turn)
            if self.labels:
                self.action.append(label)
        else:
            self.turn[k] |= end_turn
            if self.labels:
                self.action[k] = label          # the last label, as networkx's add_edge keeps

    def truncate(self, nodes: int) -> None:
        """Drop every node from the ``nodes``-th on, and their edges (a search cut back to a violation)."""
        if nodes >= len(self):
            return
        e = self.off[nodes]
        for a in (self.ids, self.flags, self.off, self.name if self.labels else None):
            if a is not None:
                del a[nodes:]
        del self.dst[e:], self.turn[e:]
        if self.labels:
            del self.attrs[nodes:], self.action[e:]
        self._open = {}

    def span(self, i: int) -> range:
        return range(self.off[i], self.off[i + 1] if i + 1 < len(self.off) else len(self.dst))

    def edges(self):
        """(v, w, end_turn) for every edge."""
        for i, v in enumerate(self.ids):
            for k in self.span(i):
                yield v, self.dst[k], self.turn[k]

    def nbytes(self) -> int:
        """Bytes held by the arrays (not the export labels)."""
        return len(self.flags) + 8 * (len(self.ids) + len(self.off) + len(self.dst)) + len(self.turn)

    def to_networkx(self, prefix: str = ""):
        """The graph as a networkx DiGraph, nodes named ``prefix`` + the stable fingerprint (``--export``)."""
        import networkx as nx
        gr = nx.DiGraph()
        name = {v: f"{prefix}{self.name[i]:014x}" if self.labels else f"{prefix}{v}" for i, v in enumerate(self.ids)}
        for i, v in enumerate(self.ids):
            fl = self.flags[i]
            a = dict(zip(("depth", "state", "turn"), self.attrs[i])) if self.labels else {}
            gr.add_node(name[v], terminal=bool(fl & TERMINAL), bounded=bool(fl & BOUNDED), **a)
        for k, (v, w, _t) in enumerate(self.edges()):
            gr.add_edge(name[v], name[w], **({"action": self.action[k]} if self.labels else {}))
        return gr


def merge(parts: list[StateGraph]) -> StateGraph:
    """One graph, nodes in id order, from the shards' graphs (between them they hold ids 0..N-1 once each).

    >>> a, b = StateGraph(), StateGraph()
    >>> a.node(0, 0); a.edge(1, False); b.node(1, TERMINAL)
    >>> m = merge([b, a])
    >>> list(m.ids), list(m.edges())
    ([0, 1], [(0, 1, 0)])
    """
    if len(parts) == 1 and parts[0].ids == array("q", range(len(parts[0]))):
        return parts[0]
    total = sum(len(p) for p in parts)
    labels = parts[0].labels
    lo, hi = array("q", bytes(8 * total)), array("q", bytes(8 * total))   # node -> its edges in the parts' dst
    flags = bytearray(total)
    dst, turn, action = array("q"), bytearray(), []                        # the parts' edges, one after another
    attrs: list = [()] * total if labels else []
    name = array("Q", bytes(8 * total)) if labels else array("Q")
    for p in parts:                      # scattered by node id at C speed (a loop per node costs 3x more)
        base = len(dst)
        ends = p.off[1:]
        ends.append(len(p.dst))
        deque(map(lo.__setitem__, p.ids, map(base.__add__, p.off)), maxlen=0)
        deque(map(hi.__setitem__, p.ids, map(base.__add__, ends)), maxlen=0)
        deque(map(flags.__setitem__, p.ids, p.flags), maxlen=0)
        dst.extend(p.dst)
        turn.extend(p.turn)
        if labels:
            deque(map(attrs.__setitem__, p.ids, p.attrs), maxlen=0)
            deque(map(name.__setitem__, p.ids, p.name), maxlen=0)
            action.extend(p.action)
    edges = list(chain.from_iterable(map(range, lo, hi)))                 # every edge, in node id order
    out = StateGraph(labels=labels)
    out.ids, out.flags = array("q", range(total)), flags
    out.off = array("q", accumulate(map(sub, hi, lo), initial=0))
    out.off.pop()
    out.dst = array("q", map(dst.__getitem__, edges))
    out.turn = bytearray(map(turn.__getitem__, edges))
    if labels:
        out.attrs, out.name, out.action = attrs, name, list(map(action.__getitem__, edges))
    return out


def components(n: int, off, dst) -> tuple[array, int]:
    """Strongly connected components (iterative Tarjan): ``comp[v]`` per node and their number; components
    are numbered sinks first (reverse topological order); ``off`` has ``n + 1`` entries.

    >>> comp, k = components(3, array("q", [0, 1, 2, 3]), array("q", [1, 0, 2]))
    >>> k, comp[0] == comp[1], comp[2] == comp[0]
    (2, True, False)
    """
    unset = -1
    index = array("q", [unset]) * n
    low = array("q", [0]) * n
    comp = array("q", [unset]) * n
    onstack = bytearray(n)
    stack: list[int] = []
    counter = ncomp = 0
    for root in range(n):
        if index[root] != unset:
            continue
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        onstack[root] = 1
        work = [(root, off[root])]
        while work:
            v, i = work[-1]
            end = off[v + 1]
            while i < end:
                w = dst[i]
                i += 1
                if index[w] == unset:
                    if off[w] == off[w + 1]:     # a state without successors: its own component, done at once
                        index[w] = low[w] = counter       # (as the loop below would, a step later)
                        counter += 1
                        comp[w] = ncomp
                        ncomp += 1
                        continue
                    work[-1] = (v, i)
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    onstack[w] = 1
                    work.append((w, off[w]))
                    break
                if onstack[w] and index[w] < low[v]:
                    low[v] = index[w]
            else:
                work.pop()
                if low[v] == index[v]:
                    while True:
                        w = stack.pop()
                        onstack[w] = 0
                        comp[w] = ncomp
                        if w == v:
                            break
                    ncomp += 1
                if work:
                    u = work[-1][0]
                    if low[v] < low[u]:
                        low[u] = low[v]
    return comp, ncomp


@dataclass
class Analysis:
    """What ``riftsim verify`` reports about one explored state space."""

    nodes: int = 0
    edges: int = 0                     # distinct (state, successor) pairs
    sccs: int = 0
    largest: int = 0
    terminal: int = 0
    sinks: int = 0                     # states without successors (terminal or at the bound)
    livelocks: list = field(default_factory=list)   # [(size, example node)]: loops within a turn, no way out
    idle: list = field(default_factory=list)        # [(size, example node)]: loops of end-turns, no way out


def analyse(g: StateGraph) -> Analysis:
    """The SCCs (once), then the attracting components: those with no terminal or bounded state are
    livelocks when no end-turn passes inside them, idle loops (turns passing on an empty board) otherwise.

    >>> g = StateGraph()
    >>> g.node(0, 0); g.edge(1, False); g.edge(2, False)
    >>> g.node(1, TERMINAL); g.node(2, 0); g.edge(3, False)
    >>> g.node(3, 0); g.edge(2, False)
    >>> a = analyse(g)
    >>> a.sccs, a.largest, a.livelocks
    (3, 2, [(2, 2)])
    """
    g = merge([g])                     # nodes 0..n-1 in order
    n = len(g)
    off, dst, turn, flags = array("q", g.off), g.dst, g.turn, g.flags
    off.append(len(dst))
    comp, k = components(n, off, dst)
    size = array("q", [0]) * k
    leaves = bytearray(k)              # an edge leaves the component
    stops = bytearray(k)               # a terminal or bounded state inside
    turns = bytearray(k)               # an end-turn edge inside
    first = array("q", [n]) * k        # smallest node
    out = Analysis(nodes=n, edges=len(dst), sccs=k)
    for v in range(n):
        c = comp[v]
        size[c] += 1
        if v < first[c]:
            first[c] = v
        if flags[v]:
            stops[c] = 1
            if flags[v] & TERMINAL:
                out.terminal += 1
        if off[v] == off[v + 1]:
            out.sinks += 1
        for e in range(off[v], off[v + 1]):
            if comp[dst[e]] != c:
                leaves[c] = 1
            elif turn[e]:
                turns[c] = 1
    out.largest = max(size, default=0)
    for c in range(k):
        if not leaves[c] and not stops[c]:
            (out.idle if turns[c] else out.livelocks).append((size[c], first[c]))
    out.livelocks.sort(key=lambda x: x[1])
    out.idle.sort(key=lambda x: x[1])
    return out
