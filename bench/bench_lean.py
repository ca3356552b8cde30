"""Benchmark (not a test): riftsim's cost per explored transition as a ratio to the lean baseline's, in one run.

    python bench/bench_lean.py                 # 3 rounds, median ratio (about 2 minutes on a quiet machine)
    python bench/bench_lean.py --rounds 1 --lean 3 1 --concede
    python bench/bench_lean.py --profile       # plus a cProfile of one riftsim round (top functions)
    git worktree add /tmp/before COMMIT && python bench/bench_lean.py --against /tmp/before   # before/after

riftsim side: ``explore`` of every default ``riftsim verify`` position (simulator/verify/positions/*.yaml)
in this process, without the state graph (``riftsim verify --jobs 1 --no-graph``'s search). Baseline side:
``bench/lean_bfs.py`` (a copy of ../shared/bench/lean_bfs.py: a hand-written BFS over a simpler version of
the same timing model, states as flat tuples), default ``4 1 --concede`` as its README measures it. Both
are timed in CPU seconds (``time.process_time``) and compared per explored transition (edge: one successor
computed), the two measurements alternating round by round so a change of load on the shared machine hits
both; the median of the rounds' ratios is the figure. Issue 13's target: <= 3x.

``--against DIR`` also explores the same positions with the riftsim checkout in DIR (an older commit, in a
fresh process each round, in the same rounds): a before/after table in one run. An older checkout that counts
everything removed from the game in a state's identity (before 652.3's short identity) explores a larger space:
``--full-identity`` makes this checkout search that space too, so the two are compared per transition on the same
transitions.

Also printed: transitions per CPU second, and the cost per *declared* transition fired (every transition
of a ``statecharts/`` machine the engine fires while exploring, counted in a separate untimed pass).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import lean_bfs  # noqa: E402

from simulator.verify import explore as ex  # noqa: E402
from simulator.verify.command import DEFAULT_FILES, load_positions  # noqa: E402


def positions(names: list[str] | None = None) -> list:
    out = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]
    return [p for p in out if names is None or p.name in names]


def riftsim_round(ps) -> tuple[int, int, float]:
    """(states, edges, CPU seconds of the searches) over ``ps``."""
    states = edges = 0
    cpu = 0.0
    for p in ps:
        r = ex.explore(p)
        states += r.states
        edges += r.edges
        cpu += r.cpu
    return states, edges, cpu


AGAINST = """
import json, sys
sys.path.insert(0, sys.argv[1])
from simulator.verify.explore import explore
from simulator.verify.command import DEFAULT_FILES, load_positions
if sys.argv[2] == "names":
    print(json.dumps([p.name for f in DEFAULT_FILES for p in load_positions(str(f))[0]]))
    sys.exit(0)
names = set(json.loads(sys.argv[2]))
st = ed = 0
cpu = 0.0
for f in DEFAULT_FILES:
    for p in load_positions(str(f))[0]:
        if p.name in names:
            r = explore(p)
            st, ed, cpu = st + r.states, ed + r.edges, cpu + r.cpu
print(json.dumps([st, ed, cpu]))
"""


def _against(path: str, arg: str):
    import json
    import subprocess
    out = subprocess.run([sys.executable, "-c", AGAINST, path, arg], check=True, capture_output=True, text=True,
                         cwd=path).stdout
    return json.loads(out.splitlines()[-1])


def against_round(path: str, ps) -> tuple[int, int, float]:
    """(states, edges, CPU seconds) of the same positions explored by the riftsim checkout at ``path``."""
    import json
    st, ed, cpu = _against(path, json.dumps([p.name for p in ps]))
    return st, ed, cpu


def lean_round(args) -> tuple[int, int, float]:
    n, k = args.lean
    st, ed, _te, _bo, cpu, v = lean_bfs.explore(n, k, 1, 2, 2, args.lean_concede, 10 ** 8)
    assert not v, "the lean baseline found violations"
    return st, ed, cpu


class Counting(ex.Monitor):
    """The explorer's monitor, counting every declared transition fired (the generated cleanup loop asks for
    a recorder per leaf: the counting one)."""

    def __init__(self) -> None:
        super().__init__()
        self.fired = 0

    def add(self, rec: tuple) -> None:
        self.fired += 1
        super().add(rec)

    def recorder(self, leaf: str):
        return self.add


def declared_fired(ps) -> int:
    """Declared transitions fired while exploring ``ps`` (an untimed pass with a counting monitor)."""
    made: list[Counting] = []

    class Made(Counting):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    saved = ex.Monitor
    ex.Monitor = Made                      # explore() builds its monitor by this name
    try:
        for p in ps:
            ex.explore(p)
    finally:
        ex.Monitor = saved
    return sum(m.fired for m in made)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds; the median ratio is reported")
    ap.add_argument("--lean", type=int, nargs=2, default=(4, 1), metavar=("N", "K"),
                    help="the baseline's players and cards each (default 4 1)")
    ap.add_argument("--no-lean-concede", dest="lean_concede", action="store_false",
                    help="explore the baseline without concede (default: with, as its README measures it)")
    ap.add_argument("--positions", nargs="*", metavar="NAME", help="only these verify positions")
    ap.add_argument("--against", metavar="DIR", help="also time the riftsim checkout in DIR (before/after)")
    ap.add_argument("--profile", action="store_true", help="print a cProfile of one riftsim round")
    ap.add_argument("--top", type=int, default=30)
    ap.add_argument("--full-identity", action="store_true",
                    help="this checkout counts everything removed from the game in a state's identity (the larger "
                         "state space of before 652.3's short identity: per transition on the same space as an older "
                         "--against checkout)")
    args = ap.parse_args(argv)
    if args.full_identity:
        from simulator.core import model
        model.FORGET_REMOVED = False
    ps = positions(args.positions)
    if args.against:                       # only the positions both checkouts have: the same state space
        theirs = set(_against(args.against, "names"))
        left = [p.name for p in ps if p.name not in theirs]
        ps = [p for p in ps if p.name in theirs]
        if left:
            print(f"{args.against} lacks {len(left)} position(s): compared on the other {len(ps)}")
    ratios, rift_us, lean_us, old_ratios, old_us = [], [], [], [], []
    for i in range(args.rounds):
        rs, re_, rc = riftsim_round(ps)
        ls, le, lc = lean_round(args)
        r_edge, l_edge = rc / re_, lc / le
        ratios.append(r_edge / l_edge)
        rift_us.append(r_edge * 1e6)
        lean_us.append(l_edge * 1e6)
        print(f"round {i + 1}: riftsim {rs:,} states, {re_:,} transitions, {rc:.2f} s CPU = {r_edge * 1e6:.1f} us "
              f"per transition ({re_ / rc:,.0f}/s); lean {ls:,} states, {le:,} edges, {lc:.2f} s CPU = "
              f"{l_edge * 1e6:.2f} us per edge ({le / lc:,.0f}/s); ratio {r_edge / l_edge:.2f}x", flush=True)
        if args.against:
            os_, oe, oc = against_round(args.against, ps)
            o_edge = oc / oe
            old_ratios.append(o_edge / (lc / le))
            old_us.append(o_edge * 1e6)
            print(f"round {i + 1}: {args.against}: {os_:,} states, {oe:,} transitions, {oc:.2f} s CPU = "
                  f"{o_edge * 1e6:.1f} us per transition ({oe / oc:,.0f}/s); ratio {old_ratios[-1]:.2f}x"
                  + ("" if (os_, oe) == (rs, re_) else "  (NOT the same state space)"), flush=True)
    fired = declared_fired(ps)
    med = statistics.median(ratios)
    us = statistics.median(rift_us)
    print(f"declared transitions fired while exploring: {fired:,} ({fired / re_:.2f} per explored transition); "
          f"{us * re_ / fired:.2f} us CPU per declared transition fired")
    print(f"median over {args.rounds} round(s): riftsim {us:.1f} us per explored transition "
          f"({1e6 / us:,.0f} per CPU second), lean {statistics.median(lean_us):.2f} us: "
          f"ratio {med:.2f}x (issue 13 target <= 3x: {'met' if med <= 3 else 'NOT met'})")
    if args.against:
        o = statistics.median(old_us)
        per = re_ / fired                  # the same declared transitions fire on both (the same state space)
        print(f"\n| riftsim | us CPU per explored transition | transitions per CPU second | us per declared "
              f"transition fired | ratio to lean |\n| --- | --- | --- | --- | --- |\n"
              f"| {args.against} | {o:.1f} | {1e6 / o:,.0f} | {o * per:.2f} | {statistics.median(old_ratios):.2f}x |\n"
              f"| this checkout | {us:.1f} | {1e6 / us:,.0f} | {us * per:.2f} | {med:.2f}x |\n"
              f"(medians of {args.rounds} round(s); lean {statistics.median(lean_us):.2f} us per edge; "
              f"{o / us:.2f}x faster per transition)")
    if args.profile:
        import cProfile
        import pstats
        pr = cProfile.Profile()
        t = time.process_time()
        pr.enable()
        riftsim_round(ps)
        pr.disable()
        print(f"profiled round: {time.process_time() - t:.1f} s CPU (with the profiler's overhead)")
        pstats.Stats(pr).sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
