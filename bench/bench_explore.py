"""Benchmark of the verifier's exploration (not a test): distinct states per second and bytes per state.

Every figure is also given as a ratio to a bare ``transitions`` trigger measured in the same run
(a flat two-state ``transitions.Machine``, ``model.go()``), so results compare across machines.

    python bench/bench_explore.py            # default positions, one process, then both cores
    python bench/bench_explore.py --profile  # plus the top cProfile entries of one search

Targets (issue 6): >= 50,000 distinct states/s on one core, <= 200 bytes per visited state,
both cores used, the default ``riftsim verify`` under 60 s.
"""
from __future__ import annotations

import argparse
import gc
import sys
import time
import tracemalloc
from array import array
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.verify.explore import explore, fast_fingerprint  # noqa: E402
from simulator.verify.command import DEFAULT_POSITIONS, load_positions, run_positions  # noqa: E402


def bare_trigger_seconds(n: int = 100_000) -> float:
    """CPU seconds per trigger of a bare flat ``transitions`` machine (best of 5)."""
    from transitions import Machine

    class M:
        pass

    m = M()
    Machine(model=m, states=["a", "b"], transitions=[["go", "a", "b"], ["go", "b", "a"]], initial="a",
            auto_transitions=False)
    best = float("inf")
    for _ in range(5):
        t = time.process_time()
        for _ in range(n):
            m.go()
        best = min(best, time.process_time() - t)
    return best / n


def visited_bytes_tracemalloc(positions) -> tuple[int, int]:
    """Bytes the visited structures take, measured with tracemalloc: the fingerprints of every state
    of the positions rebuilt into a fresh set + the three trace-tree arrays."""
    fps = []
    for p in positions:
        r = explore(p, graph=True)                     # the nodes of the graph are the visited states
        fps += [f & ((1 << 56) - 1) for f in r.graph[0]]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    seen = set()
    a, b, c = array("Q"), array("l"), array("H")
    for f in fps:
        seen.add(int(f) + 0)                           # a fresh int object, as in the search
        a.append(f)
        b.append(0)
        c.append(0)
    used = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    return used, len(fps)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--profile", action="store_true")
    args = ap.parse_args()
    positions, _ = load_positions(str(DEFAULT_POSITIONS))

    trig = bare_trigger_seconds()
    print(f"bare transitions trigger: {trig * 1e6:.2f} us CPU ({1 / trig:,.0f} triggers/s)")

    cpu = states = 0
    t0 = time.perf_counter()
    for p in positions:
        r = explore(p)
        cpu += r.cpu
        states += r.states
    wall1 = time.perf_counter() - t0
    rate = states / cpu
    print(f"one process: {states} distinct states, {cpu:.1f} s CPU, {wall1:.1f} s wall: "
          f"{rate:,.0f} states per CPU second = {rate * trig:.3f} x the bare trigger rate "
          f"(one state costs {1 / (rate * trig):.1f} bare triggers); target 50,000/s = {50_000 * trig:.2f} x")

    t0 = time.perf_counter()
    rs = run_positions(positions, jobs=2, measure=True)
    wall2 = time.perf_counter() - t0
    per_state = sum(r.visited_bytes for r in rs) / sum(r.states for r in rs)
    print(f"two processes: {wall2:.1f} s wall ({wall1 / wall2:.2f}x the one-process wall time)")
    used, n = visited_bytes_tracemalloc(positions)
    print(f"bytes per visited state: {per_state:.0f} (sys.getsizeof accounting), {used / n:.0f} (tracemalloc of "
          f"{n} fingerprints in a fresh set + trace arrays); target <= 200")
    fp_t = time.process_time()
    g = positions[0].start()
    for _ in range(10_000):
        fast_fingerprint(g)
    fp_t = (time.process_time() - fp_t) / 10_000
    print(f"fingerprint of one state: {fp_t * 1e6:.1f} us = {fp_t / trig:.2f} bare triggers")

    if args.profile:
        import cProfile
        import pstats
        pr = cProfile.Profile()
        pr.enable()
        for p in positions:
            explore(p)
        pr.disable()
        pstats.Stats(pr).sort_stats("tottime").print_stats(15)
        pstats.Stats(pr).sort_stats("cumtime").print_stats(20)
    return 0


if __name__ == "__main__":
    sys.exit(main())
