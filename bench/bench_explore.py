"""Benchmark of the verifier's exploration (not a test): one core vs both cores on one position, a Dask
cluster, and peak bytes per state with the graph on. Ratios are measured in one run.

    python bench/bench_explore.py                      # the largest default position: 1 core vs 2 shards, 3 rounds
    python bench/bench_explore.py --positions bench/positions/war-4p-3-cards-4-turns.yaml --depth 13
    python bench/bench_explore.py --position NAME --memory
    python bench/bench_explore.py --cluster local      # also a local two-worker Dask cluster (cluster extra)
    python bench/bench_explore.py --cluster tcp://HOST:8786

Each round explores the position with the graph on, analysed as ``riftsim verify`` does (finish: the SCCs, the
examples), once on one core and once with two shards in two forked processes, alternately; the figure is
the median of the rounds' wall-time ratios (the machine is shared: the load average is printed with it).
On a loaded machine wall time says little, so it also prints the ratio by CPU time: one core's CPU over the
two-shard search's critical path (per level the busier shard's CPU, summed, plus the coordinator's own CPU
and the serial analysis): the wall-time ratio an otherwise idle machine would show if the two cores did
not slow each other down (shared caches; the shards' total CPU over one core's says how much they do).
Each round also measures the machine's own ceiling for two cores: two copies of the one-core search run at
once in two forked processes (no exchange, no imbalance, nothing shared but the machine); ``2 x`` one copy's
wall time alone over the pair's is the most any split of the work in two could give on this machine now (shared
caches and memory bandwidth, other load, the hypervisor's scheduling of its two vCPUs), and the two-shard figure
over it is the sharding's own efficiency.
``--depth`` cuts a position too big for a benchmark at a depth (the same cut for both: a depth bound, unlike a
state bound, gives the one-core result on any number of shards).

Targets (issue 13): two shards >= 1.7x one core on one position; <= 1 KB peak per state with the graph.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import os
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.verify.cluster import DaskActors, Processes, same_hash_seed  # noqa: E402
from simulator.verify.command import DEFAULT_FILES, finish, load_positions  # noqa: E402
from simulator.verify.explore import Shard, explore, search  # noqa: E402


class Timed(Shard):
    """A shard that keeps the CPU time of its work per level (what the critical path below adds up)."""

    def __init__(self, *a, **kw) -> None:
        super().__init__(*a, **kw)
        self.lcpu: list[float] = [0.0]

    def levels(self) -> list[float]:
        return self.lcpu


def _timed(name):
    def call(self, *args):
        c0 = time.process_time()
        try:
            return getattr(Shard, name)(self, *args)
        finally:
            self.lcpu[-1] += time.process_time() - c0
            if name in ("settle", "advance"):
                self.lcpu.append(0.0)
    return call


for _name in ("expand", "cut", "outbox", "resolve", "assign", "settle", "advance", "give", "take", "finish"):
    setattr(Timed, _name, _timed(_name))


def sharded(pos, transport, n, graph=True, stable=False, depth=None, timed=None):
    """The search by ``n`` shards; ``timed``: a list that gets the critical path's CPU seconds (per level the
    busiest shard's CPU, summed, plus the coordinator's own CPU), the coordinator's own CPU seconds, and the
    levels' imbalance (the critical path's shard CPU over the mean shard's)."""
    pool = transport(functools.partial(Timed if timed is not None else Shard, pos, n, graph=graph, stable=stable,
                                       max_depth=depth))
    try:
        c0 = time.process_time()
        r = search(pos, pool)
        own = time.process_time() - c0
        if timed is not None:
            per = pool.call_all("levels")
            busiest = sum(max(x) for x in zip(*per))
            timed += [busiest + own, own, busiest / (sum(map(sum, per)) / n), sum(map(sum, per))]
        return r
    finally:
        pool.close()


def _copy(pos, depth) -> None:
    finish(pos, explore(pos, graph=True, max_depth=depth), False)
    os._exit(0)


def pair(pos, depth) -> float:
    """Wall seconds of two copies of the one-core search running at once, each in a forked process."""
    t0 = time.perf_counter()
    pids = []
    for _ in range(2):
        pid = os.fork()
        if pid == 0:
            try:
                _copy(pos, depth)
            finally:
                os._exit(1)
        pids.append(pid)
    for pid in pids:
        _, status = os.waitpid(pid, 0)
        if status:
            raise SystemExit(f"a copy of the search failed (status {status})")
    return time.perf_counter() - t0


def load() -> str:
    return "load average " + " ".join(f"{x:.2f}" for x in os.getloadavg())


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--position", default="skirmish-conversion-after-the-contester-left")
    ap.add_argument("--positions", help="a positions file (default: the shipped ones; its first position unless --position)")
    ap.add_argument("--depth", type=int, help="do not expand states deeper than this (a cut of a large position)")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--memory", action="store_true", help="peak bytes per state (tracemalloc: slow)")
    ap.add_argument("--cluster", help="'local' (a two-worker LocalCluster on loopback) or a scheduler address")
    args = ap.parse_args()
    files = [args.positions] if args.positions else [str(f) for f in DEFAULT_FILES]
    every = {p.name: p for f in files for p in load_positions(f)[0]}
    pos = every.get(args.position) or (next(iter(every.values())) if args.positions else None)
    if pos is None:
        ap.error(f"no position {args.position}")
    if args.depth is not None:       # a depth cut, not the position's state bound (which a single core checks at
        pos = dataclasses.replace(pos, max_states=10 ** 12)   # each state, shards once a level: not the same cut)

    print(f"{load()} (before)")
    ratios, cpus, ceilings = [], [], []
    for rnd in range(1, args.rounds + 1):
        t0, c0 = time.perf_counter(), time.process_time()
        one = finish(pos, explore(pos, graph=True, max_depth=args.depth), False)
        w1, c1 = time.perf_counter() - t0, time.process_time() - c0
        t0 = time.perf_counter()
        crit: list[float] = []
        two = sharded(pos, lambda make: Processes(2, make), 2, depth=args.depth, timed=crit)
        c0 = time.process_time()
        two = finish(pos, two, False)
        c2 = time.process_time() - c0
        crit[0] += c2                                  # the analysis, serial in this process
        w2 = time.perf_counter() - t0
        assert (two.states, two.edges, two.depth) == (one.states, one.edges, one.depth)
        assert (two.analysis.sccs, two.analysis.edges) == (one.analysis.sccs, one.analysis.edges)
        ratios.append(w1 / w2)
        cpus.append((c1, crit[3], crit[0]))     # every shard method's CPU, not only expand's
        wp = pair(pos, args.depth)
        ceilings.append(2 * w1 / wp)
        print(f"round {rnd}: one core {w1:.2f} s wall ({c1:.2f} s CPU), two shards {w2:.2f} s wall "
              f"({crit[3]:.2f} s CPU in the shards, critical path {crit[0]:.2f} s CPU: coordinator {crit[1]:.2f} s, "
              f"analysis {c2:.2f} s, levels' imbalance {100 * (crit[2] - 1):.1f}%) = {w1 / w2:.2f}x wall, "
              f"{c1 / crit[0]:.2f}x by CPU; two copies at once {wp:.2f} s wall: ceiling {2 * w1 / wp:.2f}x; {load()}",
              flush=True)
    print(f"{pos.name}{f' (depth {args.depth})' if args.depth is not None else ''}: {one.states:,} states, "
          f"{one.edges:,} transitions, depth {one.depth}")
    print(f"two shards (processes): median {statistics.median(ratios):.2f}x one core's wall time "
          f"(target >= 1.7x; rounds {', '.join(f'{r:.2f}' for r in ratios)}); by CPU time, one core's CPU / the "
          f"critical path's: median {statistics.median(a / c for a, _b, c in cpus):.2f}x (what a machine without "
          f"other load would show, less the two cores slowing each other); shards' CPU / one core's "
          f"{statistics.median(b / a for a, b, _c in cpus):.2f}")
    print(f"the machine's ceiling for two cores (two copies of the one-core search at once, 2 x one alone / the pair): "
          f"median {statistics.median(ceilings):.2f}x (rounds {', '.join(f'{c:.2f}' for c in ceilings)}); two shards "
          f"reach {statistics.median(r / c for r, c in zip(ratios, ceilings)):.0%} of it (median of the rounds)")
    if args.cluster:
        import distributed
        lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                      dashboard_address=None) if args.cluster == "local" else None
        with distributed.Client(lc or args.cluster) as client:
            n = len(client.scheduler_info()["workers"])
            stable = not same_hash_seed(client)
            t0 = time.perf_counter()
            r = sharded(pos, lambda make: DaskActors(client, n, make), n, stable=stable, depth=args.depth)
            wd = time.perf_counter() - t0
        if lc is not None:
            lc.close()
        assert (r.states, r.edges) == (one.states, one.edges)
        print(f"Dask cluster, {n} workers ({'blake2b' if stable else 'fast'} fingerprints): {wd:.1f} s wall = "
              f"{w1 / wd:.2f}x one core")
    if args.memory:
        tracemalloc.start()
        r = finish(pos, explore(pos, graph=True, max_depth=args.depth), False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"peak with the graph on (search + analysis, tracemalloc, one core): {peak / r.states:.0f} bytes per "
              f"state (target <= 1024)")
    print(f"peak RSS: this process {one.peak_rss / 2 ** 20:.0f} MB; largest shard {two.peak_rss / 2 ** 20:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
