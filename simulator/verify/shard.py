"""One position explored by several workers: hash-partitioned visited sets, breadth first, level by level.

Shard ``s`` of ``n`` owns the states whose fingerprint ``f`` has ``f % n == s``: it alone holds them in its
visited set. A level goes:

1. **expand**: every shard takes the states of its frontier in id order, checks the invariants, computes every
   successor and sends each successor's fingerprint with its *order* ``(parent id, action index)`` to the
   owner (a fingerprint once per shard and level; the successor stays where it was computed);
2. **resolve**: each owner drops what it has seen and, for each new fingerprint, keeps the smallest order;
3. **assign**: the coordinator merges the owners' winning orders; a new state's id is the next free id plus
   its rank among them. That is the id the one-core search (:func:`~simulator.verify.explore.explore`) gives it:
   the one-core search discovers a level's states in exactly this order, first discovery = smallest order, so
   the node ids, the shortest-trace tree, the end-turn counts and the counterexamples are the one-core ones;
4. **settle**: each shard learns the ids of its successors (the graph's edges) and keeps the successors it
   won as its next frontier; the coordinator moves states from the fullest frontier to the emptiest when they
   differ by more than an eighth (the only states that travel between workers).

The coordinator keeps the shortest-trace tree (two arrays from the merged orders) to replay counterexamples.
A violation stops the search as the one-core search does, after the first violating state: the shards roll
back what they did past it (counts, graph, successors), so the figures are the one-core ones; only the
coverage set may hold a few more transitions (those fired past the violating state). A ``max_states`` bound
is checked at the start of each level (the one-core search checks it at each state): a search stopped by its
bound may differ from the one-core one, a complete search never does.

Transports (:mod:`simulator.verify.cluster`): shards in this process (tests), forked processes (``--jobs``),
Dask actors on a cluster (``--cluster``).
"""
from __future__ import annotations

import gc
import pickle
import time
from array import array
from bisect import bisect_left

from simulator.verify.compact import Collapser
from simulator.verify.explore import (Monitor, Position, Result, Violation, actions_of, fast_fingerprint,
                                      fingerprint, node_attrs, replay, state_findings, try_successor)
from simulator.verify.stategraph import BOUNDED, TERMINAL, StateGraph

BITS = 16                 # an order is parent id << BITS | action index (the trace tree's via is 16 bits too)


def stable_fingerprint(g) -> int:
    """blake2b: the same in every process (workers whose Python hash seeds differ)."""
    return fingerprint(g)


class Shard:
    """One worker's part of a sharded search (every method's arguments and result are picklable)."""

    def __init__(self, pos: Position, n: int, me: int, *, max_depth: int | None = None, limit: int | None = None,
                 graph: bool = False, labels: bool = False, backend: str = "compiled", keep_going: bool = False,
                 stable: bool = False) -> None:
        self.pos, self.n, self.me = pos, n, me
        self.max_depth, self.limit = max_depth, limit or pos.max_states
        self.labels, self.backend, self.keep_going = labels, backend, keep_going
        self.fp = stable_fingerprint if stable else fast_fingerprint
        self.mon = Monitor()
        self.start = pos.start(backend)
        self.start.coverage = self.mon
        self.cfg = self.start.cfg
        self.seen: dict[int, int] = {}
        self.frontier: list[tuple] = []          # (state, id, depth, turns), by id
        self.leftover: list[tuple] = []          # states never expanded (a violation stopped the search)
        self.sg = StateGraph(labels) if graph else None
        self.compact = Collapser()
        self.edges = self.terminal = self.bounded = 0
        self.cpu = 0.0
        self.depth = 0                           # the frontier's depth (a level's states all have it)
        self._level()

    def _level(self) -> None:
        self.out = [(array("Q"), array("Q")) for _ in range(self.n)]   # per owner: fingerprints, orders
        self.pending: dict[int, int] = {}        # fingerprint -> placeholder
        self.owner = bytearray()                 # placeholder -> owner
        self.entry = array("l")                  # placeholder -> entry in the owner's outbox
        self.cands: list = []                    # placeholder -> successor (its containers shared: compact.py)
        self.turns = array("H")                  # placeholder -> end-turns on its shortest path
        self.log: list[tuple] = []               # per state expanded this level: what to roll back to
        self.best: dict[int, int] = {}           # (owner) new fingerprint -> smallest order
        self.level_edges = len(self.sg.dst) if self.sg is not None else 0   # edges before this level
        self.inbox: list = []

    # -- the level's steps ---------------------------------------------------------------------------
    def seed(self) -> int:
        f = self.fp(self.start)
        if f % self.n == self.me:
            self.seen[f] = 0
            self.frontier = [(self.start, 0, 0, 0)]
        return len(self.frontier)

    def expand(self, seen_total: int) -> list[tuple]:
        """Step 1 on the frontier; the findings: (state id, action index or -1, n, name, rule, message, action)."""
        c0 = time.process_time()
        try:
            return self._expand(seen_total)
        finally:
            self.cpu += time.process_time() - c0

    def _expand(self, seen_total: int) -> list[tuple]:
        pos, sg, mon, fp, n, me, labels = self.pos, self.sg, self.mon, self.fp, self.n, self.me, self.labels
        seen, pending, collapse = self.seen, self.pending, self.compact.collapse
        found: list[tuple] = []
        stop_all = seen_total >= self.limit
        for i, (g, v, depth, turns) in enumerate(self.frontier):
            if found and not self.keep_going:
                self.leftover = self.frontier[i:]           # past this shard's first violating state
                break
            self.log.append((v, i, self.edges, self.terminal, self.bounded, len(sg) if sg is not None else 0,
                             [len(o[0]) for o in self.out], len(self.cands)))
            acts = actions_of(g, pos.concede)
            for j, (name, rule, msg) in enumerate(state_findings(g, acts)):
                found.append((v, -1, j, name, rule, msg, None))
            terminal = g.winner is not None
            stop = turns >= pos.turns or (self.max_depth is not None and depth >= self.max_depth) or stop_all
            if sg is not None:
                sg.node(v, TERMINAL if terminal else BOUNDED if stop else 0,
                        node_attrs(g, depth) if labels else (), fingerprint(g) if labels else 0)
            if terminal:
                self.terminal += 1
                continue
            if stop:
                self.bounded += 1
                continue
            for k, a in enumerate(acts):
                s, f = try_successor(g, a, mon)
                self.edges += 1
                if f:
                    found.append((v, k, 0, *f, a))
                if s is None:
                    continue
                h = fp(s)
                end = a.kind == "end-turn"
                d = h % n
                if d == me:
                    old = seen.get(h)
                    if old is not None:          # seen in an earlier level: its id is known here
                        if sg is not None:
                            sg.edge(old, end, a.describe() if labels else "")
                        continue
                ph = pending.get(h)
                if ph is None:
                    ph = pending[h] = len(self.cands)
                    fps, orders = self.out[d]
                    self.owner.append(d)
                    self.entry.append(len(fps))
                    fps.append(h)
                    orders.append(v << BITS | k)
                    self.cands.append(collapse(s))
                    self.turns.append(turns + end)
                if sg is not None:
                    sg.edge(-1 - ph, end, a.describe() if labels else "")
        return found

    def cut(self, last: int) -> None:
        """The search stops after state ``last`` (the first violating one): undo everything past it."""
        for entry in self.log:
            if entry[0] > last:
                _v, i, self.edges, self.terminal, self.bounded, nodes, lens, ncands = entry
                self.leftover = self.frontier[i:]
                if self.sg is not None:
                    self.sg.truncate(nodes)
                for (fps, orders), m in zip(self.out, lens):
                    del fps[m:], orders[m:]
                del self.cands[ncands:], self.owner[ncands:], self.entry[ncands:], self.turns[ncands:]
                self.pending = {h: ph for h, ph in self.pending.items() if ph < ncands}
                break

    def outbox(self) -> list[bytes]:
        return [fps.tobytes() + orders.tobytes() for fps, orders in self.out]

    def resolve(self, inbox: list[bytes]) -> bytes:
        """Step 2 (as owner): the smallest order of each new fingerprint, sorted."""
        seen, best = self.seen, self.best
        self.inbox = []
        for data in inbox:
            a = array("Q", data)
            half = len(a) // 2
            fps, orders = a[:half], a[half:]
            self.inbox.append((fps, orders))
            for h, o in zip(fps, orders):
                if h not in seen:
                    b = best.get(h)
                    if b is None or o < b:
                        best[h] = o
        return array("Q", sorted(best.values())).tobytes()

    def assign(self, merged: bytes, base: int) -> list[bytes]:
        """Step 3 (as owner): the new states' ids; per sender, each entry's id, negated for the winner."""
        order = array("Q", merged)
        seen, best = self.seen, self.best
        for h, o in best.items():
            seen[h] = base + bisect_left(order, o)
        out = []
        for fps, orders in self.inbox:
            ids = array("q")
            for h, o in zip(fps, orders):
                v = seen[h]
                ids.append(-1 - v if best.get(h) == o else v)
            out.append(ids.tobytes())
        return out

    def settle(self, replies: list[bytes]) -> int:
        """Step 4: the ids of this shard's successors; the ones it won are its next frontier."""
        ids = [array("q", r) for r in replies]
        count = len(self.cands)
        resolved = array("q", [0]) * count
        won = bytearray(count)
        for ph, d, e in zip(range(count), self.owner, self.entry):
            v = ids[d][e]
            if v < 0:
                v, won[ph] = -1 - v, 1
            resolved[ph] = v
        if self.sg is not None:
            dst = self.sg.dst
            for e in range(self.level_edges, len(dst)):
                w = dst[e]
                if w < 0:
                    dst[e] = resolved[-1 - w]
        depth = self.depth + 1
        self.frontier = sorted(((s, resolved[ph], depth, t) for ph, s, t in zip(range(count), self.cands, self.turns)
                                if won[ph]), key=lambda x: x[1])
        self.depth = depth
        self.compact.clear()
        self._level()
        return len(self.frontier)

    # -- moving states between shards ----------------------------------------------------------------
    def give(self, count: int) -> bytes:
        """``count`` states of the frontier, evenly spread over it, for another shard."""
        step = len(self.frontier) / count
        pick = {int(i * step) for i in range(count)}
        gone = [x for i, x in enumerate(self.frontier) if i in pick]
        self.frontier = [x for i, x in enumerate(self.frontier) if i not in pick]
        for g, *_ in gone:
            g.cfg = g.coverage = None                # the worker's own: not sent
        return pickle.dumps(gone, protocol=pickle.HIGHEST_PROTOCOL)

    def take(self, data: bytes) -> int:
        got = pickle.loads(data)
        for g, *_ in got:
            g.cfg, g.coverage = self.cfg, self.mon
            self.compact.collapse(g)
        self.frontier = sorted(self.frontier + got, key=lambda x: x[1])
        return len(self.frontier)

    def finish(self) -> dict:
        """The shard's figures; the states never expanded are at the bound (as the one-core search counts)."""
        rest = self.leftover + self.frontier
        if self.sg is not None:
            for g, v, depth, _t in rest:
                self.sg.node(v, TERMINAL if g.winner is not None else BOUNDED,
                             node_attrs(g, depth) if self.labels else (), fingerprint(g) if self.labels else 0)
        out = {"rest": len(rest), "edges": self.edges, "terminal": self.terminal, "bounded": self.bounded + len(rest),
               "coverage": set(self.mon.seen), "graph": self.sg, "cpu": self.cpu, "owned": len(self.seen),
               "bytes": _dict_bytes(self.seen) + (self.sg.nbytes() if self.sg is not None else 0)}
        self.seen, self.frontier, self.leftover, self.cands = {}, [], [], []     # freed before the graph is sent
        return out



def hash_probe() -> int:
    """This process's hash of a fixed key-like tuple: workers agree on fast fingerprints (Python's hash of
    ``State.key()``) only if theirs are equal: the same string hash seed (PYTHONHASHSEED), and, before
    Python 3.12, the same address of None (whose hash is its address): forked workers, not spawned ones."""
    return hash(("riftsim fingerprint probe", None, 1, (2, "x")))


def _dict_bytes(d: dict) -> int:
    import sys
    return sys.getsizeof(d) + sum(sys.getsizeof(k) + sys.getsizeof(v) for k, v in d.items())


def search(pos: Position, pool, *, limit: int | None = None,
           keep_going: bool = False, backend: str = "compiled", rebalance: bool = True) -> Result:
    """Breadth-first exploration of ``pos`` by the shards of ``pool`` (a transport of
    :mod:`simulator.verify.cluster` whose shards are built): the one-core :func:`explore`'s result."""
    gc_was = gc.isenabled()
    gc.disable()                   # as in the one-core search: millions of long-lived objects, no cycles
    try:
        return _search(pos, pool, limit, keep_going, backend, rebalance)
    finally:
        if gc_was:
            gc.enable()


def _search(pos, pool, limit, keep_going, backend, rebalance) -> Result:
    res = Result(pos.name)
    n = pool.n
    limit = limit or pos.max_states
    t0 = time.perf_counter()
    sizes = pool.call_all("seed")
    parent, via = array("l", [-1]), array("H", [0])
    base = 1
    kinds: set[str] = set()
    level = 0
    while sum(sizes):
        res.depth = level
        found = sorted(x for part in pool.call_all("expand", base) for x in part)
        last = None
        for v, _k, _j, name, rule, msg, a in found:
            if last is not None and v != last:
                break
            if name in kinds:
                continue
            kinds.add(name)
            trace = replay(pos, parent, via, v, backend)[0] + ([a] if a is not None else [])
            res.violations.append(Violation(name, rule, msg, pos.name, trace, level + (a is not None)))
            if not keep_going:
                last = v
        if last is not None:
            pool.call_all("cut", last)
        boxes = pool.call_all("outbox")
        best = pool.call_each("resolve", [[boxes[s][d] for s in range(n)] for d in range(n)])
        merged = array("Q")
        for b in best:
            merged.extend(array("Q", b))
        merged = array("Q", sorted(merged))
        replies = pool.call_all("assign", merged.tobytes(), base)
        sizes = pool.call_each("settle", [[replies[d][s] for d in range(n)] for s in range(n)])
        parent.extend(o >> BITS for o in merged)
        via.extend(o & ((1 << BITS) - 1) for o in merged)
        base += len(merged)
        level += 1
        if last is not None:
            break
        if base >= limit and sum(sizes):
            res.complete = False
        if rebalance and n > 1:
            sizes = _rebalance(pool, sizes)
    parts = pool.call_all("finish")
    if res.violations and not keep_going and sum(p["rest"] for p in parts):
        res.complete = False                      # as the one-core search: stopped with states still queued
    res.states = base
    res.edges = sum(p["edges"] for p in parts)
    res.terminal = sum(p["terminal"] for p in parts)
    res.bounded = sum(p["bounded"] for p in parts)
    res.coverage = set().union(*(p["coverage"] for p in parts))
    res.cpu = sum(p["cpu"] for p in parts)
    res.seconds = time.perf_counter() - t0
    res.visited_bytes = sum(p["bytes"] for p in parts) + 10 * len(parent)
    if parts[0]["graph"] is not None:
        from simulator.verify.stategraph import merge
        res.graph = merge([p["graph"] for p in parts])
        res.tree = (parent, via)
    return res


def _rebalance(pool, sizes: list[int]) -> list[int]:
    """Move states from the fullest frontier to the emptiest until they differ by at most an eighth."""
    sizes = list(sizes)
    while True:
        hi = max(range(len(sizes)), key=sizes.__getitem__)
        lo = min(range(len(sizes)), key=sizes.__getitem__)
        gap = sizes[hi] - sizes[lo]
        if gap <= max(8, sizes[hi] // 8):
            return sizes
        count = gap // 2
        data = pool.call_one(hi, "give", count)
        sizes[lo] = pool.call_one(lo, "take", data)
        sizes[hi] -= count
