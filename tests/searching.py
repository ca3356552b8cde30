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
