"""Benchmark (not a test): the search with interchangeable battlefields as one (``symmetry``) against the search
without, in one run: states, transitions, CPU seconds and CPU per explored transition, alternating rounds.

    python bench/bench_symmetry.py                     # the default verify positions, 3 rounds
    python bench/bench_symmetry.py --positions bench/positions/war-4p-3-cards-4-turns.yaml --depth 12 --rounds 2

Each round explores the positions once without and once with it (one process, no graph: the search of
``riftsim verify --jobs 1 --no-graph``); the figures are the medians of the rounds. The cost of the canonical
identity shows in the CPU per transition, the gain in the count of transitions.
"""
from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from simulator.verify import explore as ex  # noqa: E402
from simulator.verify.command import DEFAULT_FILES, load_positions  # noqa: E402


def one_round(ps, depth) -> tuple[int, int, float]:
    st = ed = 0
    t = time.process_time()
    for p in ps:
        r = ex.explore(p, graph=False, max_depth=depth)
        st, ed = st + r.states, ed + r.edges
    return st, ed, time.process_time() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", metavar="FILE.yaml", help="a positions file (default: the default verify positions)")
    ap.add_argument("--depth", type=int, help="cut every position at this depth")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    files = [args.positions] if args.positions else [str(f) for f in DEFAULT_FILES]
    ps = [dataclasses.replace(p, max_states=10 ** 9, symmetry=False) for f in files for p in load_positions(f)[0]]
    on = [dataclasses.replace(p, symmetry=True) for p in ps]
    runs: dict[str, list] = {"without": [], "with": []}
    for i in range(args.rounds):
        for label, group in (("without", ps), ("with", on)):
            st, ed, cpu = one_round(group, args.depth)
            runs[label].append((st, ed, cpu))
            print(f"round {i + 1}: {label:7} symmetry: {st:,} states, {ed:,} transitions, {cpu:.2f} s CPU = "
                  f"{cpu / ed * 1e6:.1f} us per transition", flush=True)
    med = {k: (v[0][0], v[0][1], statistics.median(c for _s, _e, c in v)) for k, v in runs.items()}
    (s0, e0, c0), (s1, e1, c1) = med["without"], med["with"]
    print(f"median over {args.rounds} round(s): states {s0:,} -> {s1:,} ({s0 / s1:.2f}x fewer), transitions "
          f"{e0:,} -> {e1:,} ({e0 / e1:.2f}x fewer), CPU {c0:.2f} -> {c1:.2f} s ({c0 / c1:.2f}x less); per "
          f"transition {c0 / e0 * 1e6:.1f} -> {c1 / e1 * 1e6:.1f} us ({c1 / e1 / (c0 / e0):.2f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
