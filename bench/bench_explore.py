"""Benchmark of the verifier's exploration (not a test): one core vs both cores on one position, a Dask
cluster, and peak bytes per state with the graph on. Ratios are measured in one run.

    python bench/bench_explore.py                      # the largest default position: 1 core, 2 shards
    python bench/bench_explore.py --position NAME --memory
    python bench/bench_explore.py --cluster local      # also a local two-worker Dask cluster (cluster extra)
    python bench/bench_explore.py --cluster tcp://HOST:8786

Targets (issue 13): two shards >= 1.7x one core on a large position; <= 1 KB peak per state with the graph.
"""
from __future__ import annotations

import argparse
import functools
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.verify.cluster import DaskActors, Processes, same_hash_seed  # noqa: E402
from simulator.verify.command import DEFAULT_FILES, finish, load_positions  # noqa: E402
from simulator.verify.explore import explore  # noqa: E402
from simulator.verify.shard import Shard, search  # noqa: E402


def sharded(pos, transport, n, graph=True, stable=False):
    pool = transport(functools.partial(Shard, pos, n, graph=graph, stable=stable))
    try:
        return search(pos, pool)
    finally:
        pool.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--position", default="skirmish-conversion-after-the-contester-left")
    ap.add_argument("--positions", help="a positions file (default: the shipped ones)")
    ap.add_argument("--memory", action="store_true", help="peak bytes per state (tracemalloc: slow)")
    ap.add_argument("--cluster", help="'local' (a two-worker LocalCluster on loopback) or a scheduler address")
    args = ap.parse_args()
    files = [args.positions] if args.positions else [str(f) for f in DEFAULT_FILES]
    pos = {p.name: p for f in files for p in load_positions(f)[0]}[args.position]

    t0 = time.perf_counter()
    one = finish(pos, explore(pos, graph=True), False)
    w1 = time.perf_counter() - t0
    print(f"{pos.name}: {one.states} states, {one.edges} transitions")
    print(f"one core: {w1:.1f} s wall ({one.states / w1:,.0f} states/s)")
    t0 = time.perf_counter()
    two = finish(pos, sharded(pos, lambda make: Processes(2, make), 2), False)
    w2 = time.perf_counter() - t0
    assert (two.states, two.edges) == (one.states, one.edges)
    print(f"two shards (processes): {w2:.1f} s wall = {w1 / w2:.2f}x one core (target >= 1.7x); "
          f"shard CPU {two.cpu:.1f} s")
    if args.cluster:
        import distributed
        lc = distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1",
                                      dashboard_address=None) if args.cluster == "local" else None
        with distributed.Client(lc or args.cluster) as client:
            n = len(client.scheduler_info()["workers"])
            stable = not same_hash_seed(client)
            t0 = time.perf_counter()
            r = sharded(pos, lambda make: DaskActors(client, n, make), n, stable=stable)
            wd = time.perf_counter() - t0
        if lc is not None:
            lc.close()
        assert (r.states, r.edges) == (one.states, one.edges)
        print(f"Dask cluster, {n} workers ({'blake2b' if stable else 'fast'} fingerprints): {wd:.1f} s wall = "
              f"{w1 / wd:.2f}x one core")
    if args.memory:
        tracemalloc.start()
        r = finish(pos, explore(pos, graph=True), False)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        print(f"peak with the graph on (search + analysis, tracemalloc): {peak / r.states:.0f} bytes per state "
              f"(target <= 1024)")
    import resource
    print(f"ru_maxrss of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
