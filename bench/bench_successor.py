"""Benchmark (not a test): what one explored successor costs, per action kind, and what a memo of it could save.

    python bench/bench_successor.py --hits                      # hit rates and cost split, default positions + 4p cut
    python bench/bench_successor.py --hits --depth 10 --caps 4096 65536
    git worktree add --detach /tmp/before COMMIT
    python bench/bench_successor.py --against /tmp/before --rounds 3 --depth 10    # same-run before/after, 4p cut

``--hits`` explores the default ``riftsim verify`` positions and the 4-player bench position
(``bench/positions/war-4p-3-cards-4-turns.yaml``) cut at ``--depth``, computing each successor as the explorer does
(clone, ``perform``, ``settle``) with timers between the parts, and prints per action kind: the successors, how many
reach a *pre-settle* state (after ``perform``, before ``settle``) whose identity an earlier successor of the same
search already reached (the hit rate of a memo of ``settle``, unbounded and bounded to ``--caps`` entries), how many
settles leave the state's key unchanged, and the microseconds of each part (wall clock with timers: only the
shares are meaningful on a loaded machine). The identity is ``State.key()`` plus every slot ``key()`` leaves out
that may differ between two states with one key (the step's bookkeeping: ``dirty``, ``special``, ``uid``, ...)
and the monitor's step-local state: what a memo of ``settle`` would have to be keyed by.

``--memo`` times, in one process, alternating rounds, the 4p cut explored with and without a prototype memo of
``settle`` for concede successors (unbounded, keyed by that identity, giving back the stored successor and the
monitor findings its settle made): what the hit rate buys once the identity is paid for on every concede.

``--against DIR`` times, in alternating rounds, each in a fresh process, this checkout and the one in DIR on the 4p
cut (``explore`` at ``--depth``, one core, no graph): states, transitions and CPU microseconds per transition, and
the median ratio; then the same for the concede successors alone (a fixed set of (state, concede) pairs taken at
``--pairs-depth``, each successor computed ``--reps`` times, the best kept).
"""
from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
BIG = HERE / "positions" / "war-4p-3-cards-4-turns.yaml"

#: State slots that ``State.key()`` leaves out and that may differ between two states with one key while a step
#: is being computed (bookkeeping read by the schedule and the cleanup); cfg and coverage are one per search,
#: trace and step only matter with events on (off in the explorer), hk/uk/sk/left/own are caches of the rest
EXTRA = ("dirty", "special", "focus_due", "changed", "recalled", "uid", "counters", "drawn", "energy", "runes",
         "arrivals", "batch")


def identity(n, mon) -> tuple:
    """The pre-settle identity: the key, the slots it leaves out, the chain items' uids, the monitor's step state."""
    extra = []
    for s in EXTRA:
        v = getattr(n, s)
        extra.append(tuple(v.items()) if isinstance(v, dict) else tuple(v) if isinstance(v, list) else v)
    return (n.key(), tuple(extra), tuple([i.uid for i in n.chain]), frozenset(mon.cleared), mon.main_started)


def hits(positions, depth, caps) -> None:
    from simulator.game import engine
    from simulator.verify import explore as ex
    tot: Counter = Counter()
    hit: Counter = Counter()
    noop: Counter = Counter()
    capped: Counter = Counter()
    tm: Counter = Counter()
    gens: dict[int, list[dict]] = {c: [{}, {}] for c in caps}
    first: set = set()
    pc = time.perf_counter
    orig = ex.successor

    def timed(g, a, mon):
        t0 = pc()
        n = g.clone()
        mon.start(n, g.ms)
        t1 = pc()
        try:
            engine.perform(n, a)
            t2 = pc()
            k = identity(n, mon)
            t3 = pc()
            engine.settle(n)
            t4 = pc()
        finally:
            mon.g = None
        mon.after(n)
        t5 = pc()
        ex.fast_fingerprint(n)
        t6 = pc()
        kind = a.kind
        tot[kind] += 1
        if k in first:
            hit[kind] += 1
        else:
            first.add(k)
        for c, (new, old) in gens.items():          # a two-generation memo of c entries at most
            if k in new or k in old:
                capped[c, kind] += 1
            new[k] = True
            if len(new) >= c // 2:
                gens[c] = [{}, new]
        noop[kind] += k[0] == n.key()
        for part, t in (("clone", t1 - t0), ("perform", t2 - t1), ("identity", t3 - t2), ("settle", t4 - t3),
                        ("fingerprint", t6 - t5)):
            tm[kind, part] += t
        return n

    ex.successor = timed
    try:
        for p in positions:
            first.clear()
            for c in caps:
                gens[c] = [{}, {}]
            ex.explore(p, max_depth=depth)
    finally:
        ex.successor = orig
    parts = ("clone", "perform", "identity", "settle", "fingerprint")
    print("| kind | successors | pre-settle seen | " + " | ".join(f"cap {c}" for c in caps) +
          " | settle keeps the key | " + " | ".join(f"us {p}" for p in parts) + " |")
    print("| --- " * (5 + len(caps) + len(parts)) + "|")
    for kind in sorted(tot, key=lambda k: -tot[k]):
        t = tot[kind]
        print(f"| {kind} | {t:,} | {hit[kind] / t:.1%} | " + " | ".join(f"{capped[c, kind] / t:.1%}" for c in caps) +
              f" | {noop[kind] / t:.1%} | " + " | ".join(f"{tm[kind, p] / t * 1e6:.1f}" for p in parts) + " |")
    T = sum(tot.values())
    print(f"all: {T:,} successors, pre-settle seen {sum(hit.values()) / T:.1%}, " +
          ", ".join(f"cap {c} {sum(v for (cc, _k), v in capped.items() if cc == c) / T:.1%}" for c in caps))


RUN = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from simulator.verify import explore as ex
from simulator.verify.command import load_positions
from simulator.game import engine
pos = load_positions(sys.argv[2])[0][0]
depth, pairs_depth, reps = int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
r = ex.explore(pos, max_depth=depth)
out = [r.states, r.edges, r.cpu]
pairs = []
orig = ex.successor
def grab(g, a, mon):
    if a.kind == "concede":
        pairs.append((g, a))
    return orig(g, a, mon)
ex.successor = grab
ex.explore(pos, max_depth=pairs_depth)
ex.successor = orig
mon = ex.Monitor()
for g, a in pairs:
    g.coverage = mon
best = None
for _ in range(reps):
    c0 = time.process_time()
    for g, a in pairs:
        ex.fast_fingerprint(ex.successor(g, a, mon))
    c = time.process_time() - c0
    best = c if best is None else min(best, c)
out += [len(pairs), best]
print(json.dumps(out))
"""


def run(path: str, depth: int, pairs_depth: int, reps: int) -> list:
    out = subprocess.run([sys.executable, "-c", RUN, path, str(BIG), str(depth), str(pairs_depth), str(reps)],
                         check=True, capture_output=True, text=True, cwd=path).stdout
    return json.loads(out.splitlines()[-1])


def against(args) -> None:
    here = str(HERE.parent)
    per: dict[str, list[float]] = {here: [], args.against: []}
    conc: dict[str, list[float]] = {here: [], args.against: []}
    counts = {}
    for i in range(args.rounds):
        for path in (args.against, here):
            st, ed, cpu, npairs, best = run(path, args.depth, args.pairs_depth, args.reps)
            counts.setdefault(path, (st, ed))
            per[path].append(cpu / ed * 1e6)
            conc[path].append(best / npairs * 1e6)
            print(f"round {i + 1}: {path}: {st:,} states, {ed:,} transitions, {cpu:.2f} s CPU = "
                  f"{cpu / ed * 1e6:.1f} us per transition; {npairs:,} concede successors (depth "
                  f"{args.pairs_depth}): {best / npairs * 1e6:.1f} us each (best of {args.reps})", flush=True)
    b, a = statistics.median(per[args.against]), statistics.median(per[here])
    cb, ca = statistics.median(conc[args.against]), statistics.median(conc[here])
    same = counts[args.against] == counts[here]
    print(f"\n| 4p cut at depth {args.depth} ({counts[here][0]:,} states, {counts[here][1]:,} transitions"
          f"{'' if same else ': NOT the same state space'}) | us CPU per transition | us CPU per concede successor |")
    print("| --- | --- | --- |")
    print(f"| {args.against} | {b:.1f} | {cb:.1f} |")
    print(f"| this checkout | {a:.1f} | {ca:.1f} |")
    print(f"(medians of {args.rounds} round(s): {b / a:.2f}x cheaper per transition, {cb / ca:.2f}x per concede "
          f"successor)")


def memo(args) -> None:
    from simulator.game import engine
    from simulator.verify import explore as ex
    from simulator.verify.command import load_positions
    pos = load_positions(str(BIG))[0][0]
    orig = ex.successor
    table: dict = {}
    hit = [0]

    def memoised(g, a, mon):
        if a.kind != "concede" or mon.found:
            return orig(g, a, mon)
        n = g.clone()
        mon.start(n, g.ms)
        try:
            engine.perform(n, a)
            k = identity(n, mon)
            v = table.get(k)
            if v is not None and v[0].cfg is n.cfg:
                hit[0] += 1
                mon.found.extend(v[1])
                mon.main_started, mon.cleared = False, set()
                return v[0]
            f0 = len(mon.found)
            engine.settle(n)
        finally:
            mon.g = None
        mon.after(n)
        table[k] = (n, tuple(mon.found[f0:]))
        return n

    us: dict[bool, list[float]] = {False: [], True: []}
    try:
        for i in range(args.rounds):
            for on in (False, True):
                ex.successor = memoised if on else orig
                table.clear()
                hit[0] = 0
                r = ex.explore(pos, max_depth=args.depth)
                us[on].append(r.cpu / r.edges * 1e6)
                print(f"round {i + 1}: {'memo   ' if on else 'no memo'} {r.states:,} states, {r.edges:,} transitions, "
                      f"{r.cpu:.2f} s CPU = {us[on][-1]:.1f} us per transition; memo hits {hit[0]:,}", flush=True)
    finally:
        ex.successor = orig
    a, b = statistics.median(us[False]), statistics.median(us[True])
    print(f"median: no memo {a:.1f} us, memo {b:.1f} us per transition: {a / b:.2f}x")


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hits", action="store_true", help="hit rates of a settle memo and the cost split, per kind")
    ap.add_argument("--depth", type=int, default=10, help="the 4p position's depth bound (default 10)")
    ap.add_argument("--caps", type=int, nargs="*", default=[4096, 16384, 65536], help="bounded memo sizes")
    ap.add_argument("--against", metavar="DIR", help="time this checkout and the one in DIR on the 4p cut")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pairs-depth", type=int, default=8, help="where the concede pairs are taken (default 8)")
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--memo", action="store_true", help="the 4p cut with and without a prototype settle memo")
    args = ap.parse_args(argv)
    if not (args.hits or args.against or args.memo):
        args.hits = True
    if args.hits or args.memo:
        sys.path.insert(0, str(HERE.parent))
    if args.memo:
        memo(args)
    if args.hits:
        from simulator.verify.command import DEFAULT_FILES, load_positions
        defaults = [p for f in DEFAULT_FILES for p in load_positions(str(f))[0]]
        print(f"default verify positions ({len(defaults)}):")
        hits(defaults, None, args.caps)
        print(f"\n4-player position cut at depth {args.depth}:")
        hits(load_positions(str(BIG))[0], args.depth, args.caps)
    if args.against:
        against(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
