"""One position's breadth-first search on ``n`` shards in this process, and what two searches must agree on
(tests of the search's storage: visited tables, packed levels, checkpoints)."""
from __future__ import annotations

import functools

from simulator.verify import explore as ex
from simulator.verify.cluster import InProcess


def searched(pos, n: int, checkpoint=None, graph: bool = True):
    """The search's Result; a checkpointed one fingerprints states alike in every process (stable)."""
    pool = InProcess(n, functools.partial(ex.Shard, pos, n, graph=graph, stable=checkpoint is not None))
    try:
        return ex.search(pos, pool, checkpoint=checkpoint)
    finally:
        pool.close()


def summary(r, graph: bool = True) -> tuple:
    """States, transitions, terminal and bounded counts, completeness, depth, coverage, violations with their
    shortest traces, and with the graph its edges and the shortest-trace tree."""
    return (r.states, r.edges, r.terminal, r.bounded, r.complete, r.depth, sorted(r.coverage, key=repr),
            [(v.invariant, [a.describe() for a in v.actions]) for v in r.violations],
            [(v, w) for v, w, _t in r.graph.edges()] if graph else None,
            (list(r.tree[0]), list(r.tree[1])) if graph else None)


def everything(pos, depth, n: int) -> tuple:
    """Everything a search decides, ``keep_going`` (one shard: the one-core explore; several in this process):
    counts, graph, shortest-trace tree, coverage and the violations with their shortest traces (what two ways
    of computing the same successors must agree on)."""
    if n == 1:
        r = ex.explore(pos, graph=True, max_depth=depth, keep_going=True)
    else:
        pool = InProcess(n, functools.partial(ex.Shard, pos, n, graph=True, max_depth=depth, keep_going=True))
        try:
            r = ex.search(pos, pool, keep_going=True)
        finally:
            pool.close()
    return (r.states, r.edges, r.terminal, r.bounded, r.depth, r.complete, list(r.graph.edges()),
            list(r.tree[0]), list(r.tree[1]), sorted(r.coverage),
            [(v.invariant, v.rule, v.message, [a.describe() for a in v.actions]) for v in r.violations])


def bisimulation(pos, cls, label, move, *, depth: int | None = None, what: str = "their class",
                 unordered: bool = False) -> tuple[int, int, int]:
    """Every state of ``pos``'s search with the full identity (``State.key()``; breadth first, the explorer's turn
    and depth bounds), asserting on the way that the states ``cls(state)`` makes one have the same
    ``label(state, actions)`` and, when expanded, the same ``move(action, successor or None, finding or None)`` for
    their actions (in order, or as a multiset when ``unordered``). The number of states, of classes, of the largest
    class."""
    from collections import Counter, deque
    start = pos.start()
    mon = ex.Monitor()
    start.coverage = mon
    seen = {start.key(): (0, 0)}             # full identity -> (depth, end-turns on its shortest path)
    queue = deque([start])
    sig: dict = {}                           # class -> the first member's label and expansion
    size: Counter = Counter()
    while queue:
        g = queue.popleft()
        d, turns = seen[g.key()]
        acts = ex.actions_of(g, pos.concede)
        c = cls(g)
        size[c] += 1
        moves = None                         # not expanded: only its own outcome is compared
        if g.winner is None and turns < pos.turns and (depth is None or d < depth):
            moves = []
            for a in acts:
                s, f = ex.try_successor(g, a, mon)
                moves.append(move(a, s, f))
                if s is not None and s.key() not in seen:
                    seen[s.key()] = (d + 1, turns + (a.kind == "end-turn"))
                    queue.append(s)
            moves = Counter(moves) if unordered else tuple(moves)
        mine = (label(g, acts), moves)
        first = sig.setdefault(c, mine)
        assert first[0] == mine[0], f"{pos.name}: states one by {what} differ in findings or winner: {first[0]} / {mine[0]}"
        if first[1] is None:
            sig[c] = (first[0], mine[1])
        elif mine[1] is not None:
            assert first[1] == mine[1], f"{pos.name}: states one by {what} differ in their successors"
    return len(seen), len(sig), max(size.values())
