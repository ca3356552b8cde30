"""Verify the rules model: the declared statecharts, then a bounded exhaustive exploration of the simulator.

Part 1 (networkx, on the declarations): every state reachable from the initial state, no trap state,
the order of overlapping guarded transitions declared, hand-offs and named guards/effects resolved.

Part 2 (breadth-first over game states from starting positions, default: the positions shipped in
simulator/verify/positions/*.yaml):
invariants at every state and on every fired transition, each citing its rule; a violation prints
its shortest trace and is written as a scenario file that ``riftsim simulate`` replays. Declared
transitions that no position exercised are findings, unless the positions file lists them under
``unexercised`` with the reason.

Every search is bounded by default: states (a position's explore: max_states, 200,000), depth (200 actions)
and wall time (30 minutes a position); the output says which bound ended a search.

Exit status: 0 everything holds, 1 a finding or violation, 2 bad input, 4 everything held but a bound (states,
depth or time) ended a search before it was exhaustive, 75 a search stopped by --stop-after to be resumed.

examples:
  riftsim verify
  riftsim verify --stats --jobs 2
  riftsim verify --positions my.yaml --max-states 50000 --export space.graphml
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import yaml

from simulator.verify import graphcheck
from simulator.core.errors import ScenarioError, need
from simulator.core.files import atomic_write, check_writable
from simulator.core.text import shown
from simulator.game import shape
from simulator.game.validate import SETUP_KEYS, SetupValidator
from simulator.scenario.loader import parse, read_text, step_of
from simulator.verify.cluster import worker_start as _worker_start
from simulator.verify.explore import LOOP, Position, Result, Violation, explore, start_fingerprint

#: the default positions ship inside the package (package data, beside this module)
VERIFY_DIR = Path(__file__).resolve().parent / "positions"
DEFAULT_POSITIONS = VERIFY_DIR / "positions.yaml"
#: every positions file in simulator/verify/positions/ (duels first, then multiplayer.yaml, ...): what `riftsim verify` explores
DEFAULT_FILES = [DEFAULT_POSITIONS, *sorted(p for p in VERIFY_DIR.glob("*.yaml") if p != DEFAULT_POSITIONS)]


#: the default depth bound (actions from the start): the default positions reach 67
DEPTH = 200
#: the default time bound of one position's search, in seconds of wall time (checked between two levels)
MAX_TIME = 30 * 60
#: exit status when every check held but a bound ended a search (not exhaustive)
BOUNDED = 4


def _count(minimum: int, none: bool = False):
    def parse(text: str) -> int | None:
        if none and text.strip().lower() == "none":
            return None
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if n < minimum:
            raise argparse.ArgumentTypeError(f"{n} is below {minimum}")
        return n
    return parse


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--positions", metavar="FILE.yaml", action="append",
                   help="starting positions to explore (default: every position shipped in simulator/verify/positions/); repeatable")
    p.add_argument("--max-states", type=_count(1), metavar="N", help="stop each position's search after N distinct states")
    p.add_argument("--depth", type=_count(0, none=True), default=DEPTH, metavar="N",
                   help=f"do not expand states deeper than N actions (default: {DEPTH}; none: no depth bound)")
    p.add_argument("--max-time", type=_bound_duration, metavar="TIME",
                   help="end each position's search at the end of the first level finished after TIME of wall time "
                        "(seconds, or 90m, 2h; default: 30m, none with --checkpoint or --resume; none: no time bound)")
    p.add_argument("--turns", type=_count(0), metavar="N", help="do not expand states after N end-turns (overrides the file)")
    p.add_argument("--jobs", type=_count(1), default=min(2, os.cpu_count() or 1), metavar="N",
                   help="worker processes (default: 2; at most the cores, one for positions known to be small): "
                        "positions largest first, one each; a position larger than the others' share, or the only "
                        "one, explored by all N together")
    p.add_argument("--cluster", metavar="ADDRESS",
                   help="explore each position sharded over the workers of a Dask cluster (tcp://HOST:8786; "
                        "needs the cluster extra, docs/cluster.md)")
    p.add_argument("--shards", type=_count(1), metavar="N",
                   help="with --cluster: shards per position (default: one per cluster worker)")
    p.add_argument("--stats", action="store_true", help="print distinct states/s, bytes per visited state, times")
    p.add_argument("--no-graph", action="store_true",
                   help="skip the explored state space as a graph (SCCs, terminal states, livelocks)")
    p.add_argument("--export", metavar="FILE.graphml", help="write the explored state space as GraphML (even with --no-graph)")
    p.add_argument("--out", metavar="DIR", default="verify-counterexamples",
                   help="where violations are written as scenario files (default: verify-counterexamples/)")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True,
                   help="the work done on stderr while exploring (states, levels, states/s; a percentage and the time "
                        "left only from the positions' expected counts): one line redrawn on a terminal, otherwise a "
                        "line every --progress-every seconds (default: on)")
    p.add_argument("--progress-every", type=_progress_every, default=None, metavar="SECONDS",
                   help="when stderr is not a terminal: seconds between two progress lines (default: 30)")
    p.add_argument("--levels", action="store_true",
                   help="a line per breadth-first level on stderr (depth, states, times, peak memory): for a long search")
    p.add_argument("--checkpoint", metavar="DIR",
                   help="(one position) with --stop-after: stop between two levels once that long and write the search "
                        "to DIR, to go on with --resume DIR")
    p.add_argument("--stop-after", type=_duration, metavar="TIME",
                   help="with --checkpoint or --resume: stop at the end of the first level finished after TIME "
                        "(seconds, or 90m, 2h); exit status 75")
    p.add_argument("--resume", metavar="DIR",
                   help="go on with the search a --checkpoint run stopped (its position and options are in DIR)")
    p.add_argument("--statecharts-only", action="store_true", help="only part 1: the declared machines")
    p.add_argument("--export-fixtures", metavar="DIR",
                   help="instead of exploring, write --sample random paths of the explored space from the positions "
                        "as conformance fixtures into DIR (docs/conformance.md)")
    p.add_argument("--sample", type=_count(1), default=20, metavar="N", help="with --export-fixtures: how many paths (default: 20)")
    p.add_argument("--seed", type=_count(0), default=0, metavar="S", help="with --export-fixtures: the paths' seed (default: 0)")
    p.add_argument("--backend", choices=("compiled", "transitions"), default="compiled",
                   help="which machine backend the explored games run on")
    p.add_argument("--full-identity", action="store_true",
                   help="count what was removed from the game in a state's identity (a removed card's place and "
                        "damage, a removed player's points): the larger search, to cross-check the default one")
    p.add_argument("--symmetry", action="store_true",
                   help="hold states that differ only by a renaming of interchangeable battlefields (no abilities, "
                        "no provider) as one state, as a position's explore: {symmetry: true} does: a smaller search "
                        "with the same findings (docs/verification.md)")


# -- positions files -------------------------------------------------------------------------------

def _at_top(i: int) -> tuple:
    """Where a scenario file's only entry is (its top level)."""
    return ()


def _in_positions(i: int) -> tuple:
    """Where entry ``i`` of a positions file is."""
    return ("positions", i)


def load_positions(path: str) -> tuple[list[Position], dict]:
    """Positions and the ``unexercised`` allowance from a YAML file; a bad file raises ScenarioError.

    Read with the scenario files' bounds (:func:`~simulator.scenario.loader.read_text`, ``parse``), its shape
    checked by the positions schema (a scenario file's by the scenario schema), then each position by the one
    starting-position validator (:class:`~simulator.game.validate.SetupValidator`), every error naming FILE:LINE."""
    text = read_text(path)
    doc, lines = parse(text, path)
    scenario = isinstance(doc, dict) and "positions" not in doc and "players" in doc
    shape.check(doc, "scenario" if scenario else "positions", path, lines)
    if scenario:
        entries, root = [doc], _at_top                        # a scenario: its start
    else:
        entries, root = doc["positions"], _in_positions
    out, names = [], set()
    for i, entry in enumerate(entries):
        pv = SetupValidator(path, lines, root(i))
        if entry["name"] in names:
            pv.fail(("name",), f"duplicate position name {entry['name']}")
        names.add(entry["name"])
        out.append(_position(pv, entry))
    allowed = {(u["machine"], u["source"], u["trigger"], u["dest"], tuple(u.get("guards") or ())): u["why"]
               for u in (doc.get("unexercised") or []) if not scenario}
    return out, allowed


def _position(pv: SetupValidator, entry: dict) -> Position:
    """One checked position of a positions file, with its ``explore:`` bounds."""
    checked = pv.position({k: x for k, x in entry.items() if k in SETUP_KEYS})
    bounds = pv.opt(entry, "explore", {})
    rulings = {**checked.rulings, **pv.opt(bounds, "rulings", {})}
    setup = {k: x for k, x in entry.items() if k in SETUP_KEYS and k != "rulings"}
    if checked.setup.get("zones"):
        setup["zones"] = True                # the position models its zones (Z1)
    return Position(entry["name"], setup, bounds.get("turns", 2), bounds.get("concede", False),
                    bounds.get("max_states", 200_000), rulings, bounds.get("states", 0), bounds.get("symmetry", False))


def _export_fixtures(args: argparse.Namespace, positions: list[Position]) -> int:
    """``--export-fixtures DIR``: sampled paths of the explored space as fixtures (simulator/verify/sample.py)."""
    from simulator.verify.sample import export
    if args.resume or args.statecharts_only:
        raise ScenarioError("--export-fixtures", "samples the positions given (or the default ones): drop --resume "
                                                 "and --statecharts-only")
    for p in positions:
        p.turns = p.turns if args.turns is None else args.turns
    n = export(args.export_fixtures, positions, args.sample, args.seed, args.depth)
    print(shown(f"wrote {n} fixture(s) of random explored paths (seed {args.seed}) to {args.export_fixtures}"))
    return 0


# -- counterexamples as scenarios ------------------------------------------------------------------

def scenario_of(pos: Position, v: Violation) -> dict:
    """The violation as a scenario: the position, the shortest trace, and what the last state shows."""
    from simulator.game.engine import step
    from simulator.scenario.view import view

    g = pos.start()
    for a in v.actions:
        try:
            g = step(g, a)
        except Exception:  # noqa: BLE001 - the last action is the one that crashed the engine
            break
    seen = view(g, with_legal=False)
    doc = {"name": f"verify: {v.invariant} ({v.position})", **pos.setup}
    if pos.rulings:
        doc["rulings"] = dict(pos.rulings)
    doc["steps"] = [step_of(a) for a in v.actions]
    doc["steps"].append({"expect": {k: seen[k] for k in ("state", "turn", "focus", "priority", "chain", "players",
                                                           "winner")}})
    return doc


def write_counterexample(out: Path, pos: Position, v: Violation, n: int) -> Path:
    out.mkdir(parents=True, exist_ok=True)
    slug = "".join(c if c.isalnum() else "-" for c in f"{pos.name}-{v.invariant}").strip("-").lower()
    path = out / f"{n:02d}-{slug}.yaml"
    head = f"# {v.invariant} [{v.rule}]: {v.message}\n# shortest trace found by riftsim verify\n"
    atomic_write(path, head + yaml.safe_dump(scenario_of(pos, v), sort_keys=False, allow_unicode=True))
    return path


# -- running ---------------------------------------------------------------------------------------

def _on_level(pos: Position, levels: bool):
    """What a search calls after each level: the progress report, and with ``--levels`` a line on stderr."""
    from simulator.verify import progress

    def show(lv) -> None:
        progress.report(pos.name, lv.depth, lv.states)
        if levels:
            print(shown(f"{pos.name}: {lv.line()}"), file=sys.stderr, flush=True)
    return show


def _progress_every(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not 0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"{text} is not a positive number of seconds")
    return value


def _duration(text: str) -> float:
    """A finite, non-negative duration (``--stop-after``): ``nan``, ``inf`` and negatives are refused."""
    import math
    from simulator.verify.checkpoint import seconds
    try:
        value = seconds(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"not a finite duration: {text!r} (seconds, or 90m, 2h)")
    return value


def _bound_duration(text: str) -> float:
    """``--max-time``: a duration as ``--stop-after`` takes it, or ``none`` (no time bound: infinity)."""
    return float("inf") if text.strip().lower() == "none" else _duration(text)


def _work(job) -> Result:
    pos, max_states, depth, graph, measure, backend, export, levels, ckpt, max_seconds = job
    r = explore(pos, max_states=max_states, max_depth=depth, graph=graph, measure=measure, backend=backend,
                labels=export, on_level=_on_level(pos, levels), checkpoint=ckpt,
                stable=ckpt is not None, max_seconds=max_seconds)      # a search resumed in another process: fingerprints of every process
    return finish(pos, r, export, backend)


def finish(pos: Position, r: Result, export: bool, backend: str = "compiled") -> Result:
    """The state-space analysis where the search ran (SCCs once; examples named by their stable
    fingerprint); the graph goes back to the parent only for ``--export``."""
    if r.graph is not None:
        from simulator.verify.explore import fingerprint, replay
        from simulator.verify.stategraph import analyse
        r.analysis = a = analyse(r.graph)
        parent, via = need(r.tree, "the trace tree kept with the graph")
        for _size, v in a.livelocks + a.idle[:1]:
            r.examples[v] = fingerprint(replay(pos, parent, via, v, backend)[1])
        r.tree = None
        if not export:
            r.graph = None
    return r


def run_positions(positions: list[Position], *, jobs: int = 1, max_states: int | None = None,
                  depth: int | None = None, graph: bool = False, measure: bool = False,
                  backend: str = "compiled", progress=None, export: bool = False,
                  cluster: str | None = None, shards: int | None = None, levels: bool = False,
                  checkpoint=None, max_seconds: float | None = None) -> list[Result]:
    """Explore every position; results in the positions' order. ``progress``: a started
    :class:`~simulator.verify.progress.Progress` told when each position is done (it closes it).

    ``jobs`` processes: the positions run largest first (their ``explore: states:``) one per process, except a
    position bigger than the others' share (or the only one), which all ``jobs`` processes explore together
    (:mod:`simulator.verify.shard`). ``cluster``: every position sharded over a Dask cluster's workers.
    ``max_seconds``: each position's time bound (``Result.bound``)."""
    work = [(p, max_states, depth, graph, measure, backend, export, levels, checkpoint, max_seconds) for p in positions]
    results: list = [None] * len(work)
    try:
        if cluster:
            _on_cluster(cluster, shards, work, results, progress)
        else:
            _on_processes(positions, jobs, work, results, progress, stable=checkpoint is not None)
    finally:
        if progress is not None:
            progress.close()
    return results


def _on_cluster(cluster: str, shards: int | None, work: list, results: list, bar) -> None:
    """Every position sharded over the Dask cluster's workers (``shards`` of them, or one per worker)."""
    from simulator.verify import cluster as transport
    client = transport.connect(cluster)
    try:
        n = shards or len(client.scheduler_info()["workers"])
        stable = not transport.same_hash_seed(client)
        for i, w in enumerate(work):
            results[i] = _sharded(w, lambda make, n=n: transport.DaskActors(client, n, make), n, stable)
            _tick(bar, results[i])
    finally:
        client.close()


def _together(positions: list[Position], jobs: int) -> list[int]:
    """The positions every process explores together: the only one, or one bigger than the others' share."""
    if jobs <= 1:
        return []
    total = sum(p.states for p in positions)
    return [i for i, p in enumerate(positions) if len(positions) == 1 or (p.states and p.states * jobs > total)]


def _on_processes(positions: list[Position], jobs: int, work: list, results: list, bar, stable: bool) -> None:
    """A position bigger than the others' share (or the only one) explored by all ``jobs`` processes together;
    the others largest first, one per process."""
    together = _together(positions, jobs)
    for i in together:
        from simulator.verify.cluster import Processes
        results[i] = _sharded(work[i], lambda make, n=jobs: Processes(n, make), jobs, stable=stable)
        _tick(bar, results[i])
    rest = sorted((i for i in range(len(work)) if i not in together), key=lambda i: -positions[i].states)
    if jobs > 1 and len(rest) > 1:
        import multiprocessing as mp
        ctx = mp.get_context("fork")
        # leaving the block by any exception (Ctrl-C, SIGTERM turned into one by cli.main) terminates the workers
        with ctx.Pool(min(jobs, len(rest)), initializer=_worker_start) as pool:
            for i, r in pool.imap_unordered(_indexed, [(i, work[i]) for i in rest], chunksize=1):
                results[i] = r
                _tick(bar, r)
        return
    for i in rest:
        results[i] = _work(work[i])
        _tick(bar, results[i])


def _indexed(job):
    i, w = job
    return i, _work(w)


def _sharded(job, transport, n: int, stable: bool = False) -> Result:
    """One position explored by ``n`` shards (``transport(make)`` builds them), analysed here."""
    import functools
    from simulator.verify.explore import Shard, search
    pos, max_states, depth, graph, measure, backend, export, levels, ckpt, max_seconds = job
    make = functools.partial(Shard, pos, n, max_depth=depth, limit=max_states, graph=graph, labels=export,
                             backend=backend, stable=stable)
    pool = transport(make)
    try:
        r = search(pos, pool, limit=max_states, backend=backend, measure=measure,
                   on_level=_on_level(pos, levels), checkpoint=ckpt, max_seconds=max_seconds)
    finally:
        pool.close()
    return finish(pos, r, export, backend)


def _tick(bar, r: Result) -> None:
    if bar is not None:
        bar.done(r.position, r.states)


def state_graph(results: list[Result]):
    """The explored state spaces as one networkx DiGraph (node ids ``position:fingerprint``), for ``--export``."""
    import networkx as nx
    return nx.compose_all([need(r.graph, "the state graph asked for").to_networkx(f"{r.position}:")
                           for r in results]) if results else nx.DiGraph()


def _example(r: Result, v: int) -> str:
    return f"{r.position}:{r.examples[v]:014x}" if v in r.examples else f"{r.position}:#{v}"


def run(args: argparse.Namespace) -> int:
    import statecharts

    _check_options(args)
    ckpt, positions, allowed = _load(args)             # bad input fails before any work (exit 2)
    if args.export_fixtures:
        return _export_fixtures(args, positions)
    bad = _check_statecharts(statecharts.MACHINES)
    if args.statecharts_only:
        return 1 if bad else 0
    _apply_options(args, positions)
    graph = bool(args.export or not args.no_graph)
    max_time = _max_time(args)
    results, wall = _search(args, positions, ckpt, graph, max_time)
    if results and results[0].stopped:
        return _report_stopped(results[0])
    cut = _report_searches(args, positions, results, max_time)
    bad += _report_coverage(statecharts.MACHINES, results, allowed, bool(cut))
    bad += _report_violations(Path(args.out), positions, results)
    if graph:
        bad += _report_graph(args, results)
    if args.stats:
        _report_stats(args, results, wall)
    return 1 if bad else BOUNDED if cut else 0


def _apply_options(args: argparse.Namespace, positions: list[Position]) -> None:
    """--turns and --symmetry over what the positions file says."""
    for p in positions:
        if args.turns is not None:
            p.turns = args.turns
        p.symmetry = p.symmetry or args.symmetry


def _check_options(args: argparse.Namespace) -> None:
    """Refuse the options that do not go together."""
    from simulator.verify.checkpoint import CheckpointError
    if args.stop_after is not None and not (args.checkpoint or args.resume):
        raise CheckpointError("--stop-after needs --checkpoint DIR (or --resume DIR): a search stopped unwritten is lost")
    if args.resume and (args.positions or args.checkpoint or args.full_identity or args.symmetry):
        raise CheckpointError("--resume DIR takes its position and options from DIR: drop --positions, --checkpoint, "
                              "--full-identity and --symmetry")
    if args.full_identity and args.cluster:
        raise ScenarioError("--full-identity", "runs on this machine's processes, not with --cluster")


def _load(args: argparse.Namespace) -> tuple:
    """(the checkpoint or None, the positions, the transitions they are known not to exercise), read and checked
    before any work: the positions files or the search to resume; where --export will write."""
    if args.statecharts_only:
        return None, [], {}
    if args.resume:
        return (*_resuming(args), {})
    positions: list[Position] = []
    allowed: dict = {}
    for path in args.positions or [str(p) for p in DEFAULT_FILES]:
        ps, al = load_positions(path)
        positions += ps
        allowed.update(al)
    ckpt = _checkpointing(args, positions) if args.checkpoint else None
    if args.export:
        _check_export(args.export)
    return ckpt, positions, allowed


def _check_export(export: str) -> None:
    """Before the search: the GraphML export can be written (not a folder, a read-only file...)."""
    target = Path(export).resolve()
    if not target.parent.is_dir():
        raise ScenarioError(export, f"cannot write the GraphML export: {target.parent} is not a directory")
    try:
        check_writable(target)
    except OSError as e:
        raise ScenarioError(export, f"cannot write the GraphML export: {e.strerror or e}") from None


def _check_statecharts(machines) -> int:
    """Part 1: the declared machines on their own (graphcheck); the number of findings."""
    findings = graphcheck.check(machines)
    leaves = [leaf for m in machines for leaf in m.leaves()]
    n_states = sum(len(leaf.states) for leaf in leaves)
    n_trans = sum(len(leaf.transitions) for leaf in leaves)
    print(f"statecharts: {len(machines)} machines, {len(leaves)} leaves, {n_states} states, "
          f"{n_trans} transitions")
    for f in findings:
        print("  FINDING " + f.line())
    if not findings:
        print("  every state reachable, no trap state, order of overlapping guards declared, "
              "hand-offs and guards/effects resolved")
    return len(findings)


def _max_time(args: argparse.Namespace) -> float | None:
    """The wall-time bound of each search: --max-time (none: no bound), else MAX_TIME unless checkpointed."""
    max_time = args.max_time if args.max_time is not None else None if (args.checkpoint or args.resume) else MAX_TIME
    return None if max_time == float("inf") else max_time       # --max-time none


def _search(args: argparse.Namespace, positions: list[Position], ckpt, graph: bool,
            max_time: float | None) -> tuple[list[Result], float]:
    """Part 2: explore every position; (the results, the wall time)."""
    import time
    from simulator.core import model
    jobs = args.jobs if args.resume else _jobs(args.jobs, positions)     # a resumed search keeps its shards
    t0 = time.perf_counter()
    forget, model.FORGET_REMOVED = model.FORGET_REMOVED, not args.full_identity   # (forked workers inherit it)
    try:
        results = run_positions(positions, jobs=jobs, max_states=args.max_states, depth=args.depth,
                                graph=graph, measure=args.stats, backend=args.backend,
                                progress=_progress(args, positions), export=bool(args.export),
                                cluster=args.cluster, shards=args.shards, levels=args.levels, checkpoint=ckpt,
                                max_seconds=max_time)
    finally:
        model.FORGET_REMOVED = forget
    return results, time.perf_counter() - t0


def _report_stopped(r: Result) -> int:
    """--stop-after stopped the search: where it is written and how to go on."""
    from simulator.verify.checkpoint import STOPPED
    print(f"explore: {r.position}: stopped after level {r.depth} with {r.states:,} states "
          f"({r.seconds:,.0f} s wall, {r.cpu:,.0f} s CPU so far); the search is in {r.stopped}")
    print(f"  go on with: riftsim verify --resume {r.stopped} [--stop-after TIME]")
    return STOPPED


def _report_searches(args: argparse.Namespace, positions: list[Position], results: list[Result],
                     max_time: float | None) -> list[Result]:
    """One line per search, the totals; the searches a bound cut (returned)."""
    print(f"explore: {len(positions)} starting positions, breadth-first, invariants at every state")
    for r, p in zip(results, positions):
        print(shown(f"  {r.position}: {r.states} states, {r.edges} transitions, depth {r.depth}, "
                    f"{r.bounded} at the bound (turns {p.turns}{', concede explored' if p.concede else ''}"
                    f"{_symmetry(p)}), {r.terminal} terminal{_stopped(r, p, args.max_states, args.depth, max_time)}"))
        _note_states(args, r, p)
    print(f"  total: {sum(r.states for r in results)} distinct states, {sum(r.edges for r in results)} transitions")
    cut = [r for r in results if r.bound]
    if cut:
        print(f"  {len(cut)} of {len(results)} searches ended by a bound, not exhaustive: what was not explored "
              f"was not checked (exit status {BOUNDED} if nothing else is found)")
    return cut


def _note_states(args: argparse.Namespace, r: Result, p: Position) -> None:
    """An exhaustive search found another number of states than the positions file says."""
    if p.states and r.complete and r.states != p.states and not args.full_identity and not args.symmetry:
        print(f"    note: the positions file says {p.states} states (explore: states: schedules the largest "
              f"first; update it)")


def _report_coverage(machines, results: list[Result], allowed: dict, cut: bool) -> int:
    """Every declared transition some search fired; the number of findings (never exercised, not known)."""
    covered = set().union(*(r.coverage for r in results))
    declared = graphcheck.declared_transitions(machines)
    missing = [d for d in declared if d not in covered]
    print(f"coverage: {len(declared) - len(missing)}/{len(declared)} declared transitions exercised")
    bad = 0
    for d in missing:
        label = f"{d[0]}: {d[1]} --{d[2]}{'[' + ' & '.join(d[4]) + ']' if d[4] else ''}--> {d[3]} " \
                f"({', '.join(graphcheck.rules_of(d))})"
        if d in allowed:
            print(f"  not exercised (known: {allowed[d]}): {label}")
        elif cut:                                    # a search cut short proves nothing unreachable
            print(f"  not exercised (a search ended by a bound): {label}")
        else:
            print(f"  FINDING never exercised: {label}")
            bad += 1
    return bad


def _report_violations(out: Path, positions: list[Position], results: list[Result]) -> int:
    """Each violated invariant with its shortest trace, written as a scenario to replay; their number."""
    by_name = {p.name: p for p in positions}
    n = 0
    for v in (v for r in results for v in r.violations):
        n += 1
        print(shown(f"{'LOOP' if v.invariant == LOOP else 'VIOLATION'} {v.invariant} [{v.rule}] in "
                    f"{v.position}: {v.message}"))
        print(f"  shortest trace ({len(v.actions)} actions):")
        for k, a in enumerate(v.actions, 1):
            print(shown(f"    {k}. {a.describe()}"))
        path = write_counterexample(out, by_name[v.position], v, n)
        print(shown(f"  written to {path} (replay: riftsim simulate {path})"))
    if not n:
        print("invariants: all hold (" + "; ".join(name for name, _, _ in _invariant_names()) + ")")
    return n


def _report_graph(args: argparse.Namespace, results: list[Result]) -> int:
    """The state graph's analysis (livelocks are findings: their number), and the --export."""
    an = [(r, need(r.analysis, "the analysis of the state graph asked for")) for r in results]
    print(_graph_line([a for _, a in an]))
    livelocks = [(r, size, v) for r, a in an for size, v in a.livelocks]
    for r, size, v in livelocks:
        print(f"  FINDING livelock: {size} states that can never leave one another within a turn, none "
              f"terminal or at the bound (e.g. {_example(r, v)})")
    idle = [(r, x) for r, a in an for x in a.idle]
    if idle:
        print(f"  {len(idle)} loop(s) of end-turns where nothing else can ever happen (no units or cards left; "
              f"decks are not modelled), e.g. {_example(idle[0][0], idle[0][1][1])}")
    if args.export:
        _export_graph(args.export, results)
    return len(livelocks)


def _graph_line(an: list) -> str:
    """The state graphs' totals (their analyses ``an``)."""
    return (f"state graph: {sum(a.nodes for a in an)} nodes, {sum(a.edges for a in an)} edges, "
            f"{sum(a.sccs for a in an)} strongly connected components (largest "
            f"{max((a.largest for a in an), default=0)}), {sum(a.terminal for a in an)} terminal states, "
            f"{sum(a.sinks for a in an)} without successors (terminal or at the bound)")


def _export_graph(export: str, results: list[Result]) -> None:
    import networkx as nx
    gr = state_graph(results)
    try:
        atomic_write(export, lambda f: nx.write_graphml(gr, f))
    except OSError as e:
        raise ScenarioError(export, f"cannot write the GraphML export: {e.strerror or e}") from None
    print(f"  exported to {export}")


def _report_stats(args: argparse.Namespace, results: list[Result], wall: float) -> None:
    total = sum(r.states for r in results)
    cpu = sum(r.cpu for r in results)
    mem = sum(r.visited_bytes for r in results)
    print(f"stats: {total / max(cpu, 1e-9):,.0f} distinct states per CPU second (one core), "
          f"{total / wall:,.0f} states/s wall with {max(1, args.jobs)} jobs, "
          f"{mem / max(total, 1):.0f} bytes per visited state (visited set + trace tree), "
          f"{wall:.1f} s wall, {cpu:.1f} s CPU in the searches, peak RSS "
          f"{max((r.peak_rss for r in results), default=0) / 2 ** 20:,.0f} MB in the largest process")


def _stopped(r: Result, p: Position, max_states: int | None, depth: int | None, max_time: float | None) -> str:
    """What ended a search that a bound cut, for its line of the output (nothing for an exhaustive one)."""
    if r.bound == "states":
        return f", STOPPED by the state bound ({max_states or p.max_states:,} states; --max-states)"
    if r.bound == "depth":
        return f", STOPPED by the depth bound (depth {depth}; --depth)"
    if r.bound == "time":
        return f", STOPPED by the time bound ({max_time:g} s of wall time; --max-time)"
    return ""


#: a search of fewer states than this (the positions' ``explore: states:`` say so) is not worth a second process
SHARD_FROM = 2_000


def _jobs(asked: int, positions: list[Position]) -> int:
    """``--jobs``, capped to the cores this process may run on (more processes only share them) and to one
    process when the positions are known to be small (every ``explore: states:`` given, fewer than SHARD_FROM)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:                           # not on Linux
        cores = os.cpu_count() or 1
    sizes = [p.states for p in positions]
    small = bool(sizes) and all(sizes) and sum(sizes) < SHARD_FROM
    jobs = 1 if small else min(asked, cores)
    if jobs < asked:
        why = f"{sum(sizes)} states, known from explore: states:" if small else "the cores this machine gives riftsim"
        print(f"riftsim verify: --jobs {asked} capped to {jobs} ({why})", file=sys.stderr)
    return max(1, jobs)


def _symmetry(p: Position) -> str:
    """What ``--symmetry`` held as one on ``p``: its interchangeable battlefields, or none."""
    if not p.symmetry:
        return ""
    from simulator.verify.symmetry import interchangeable
    names = interchangeable(p.start())
    return f", battlefields {' '.join(names)} interchangeable" if names else ", no battlefields interchangeable"


def _checkpointing(args, positions: list[Position]):
    """``--checkpoint DIR``: the one position's search, written to DIR when ``--stop-after`` says."""
    from simulator.verify import checkpoint as cp
    if len(positions) != 1:
        raise cp.CheckpointError(f"--checkpoint needs exactly one position (there are {len(positions)}): "
                                 f"give --positions a file with one")
    if args.cluster or args.export:
        raise cp.CheckpointError("--checkpoint runs on this machine's processes, without --cluster or --export")
    if args.jobs > cp.MAX_SHARDS:
        raise cp.CheckpointError(f"--checkpoint takes at most --jobs {cp.MAX_SHARDS}")
    p = positions[0]
    ck = cp.Checkpoint(args.checkpoint, stop_after=args.stop_after)      # (refuses a path riftsim did not make)
    ck.meta = cp.describe(p, turns=args.turns, max_states=args.max_states, depth=args.depth, graph=not args.no_graph,
                          backend=args.backend, jobs=args.jobs, full_identity=args.full_identity,
                          symmetry=args.symmetry)
    ck.meta["start"] = start_fingerprint(ck.meta["position"], args.backend, args.full_identity)
    return ck


def _resuming(args):
    """``--resume DIR``: the checkpoint, its position; the options it was written with (they are the search's)."""
    from simulator.verify import checkpoint as cp
    ck = cp.Checkpoint(args.resume, stop_after=args.stop_after, resume=True)    # (meta.json checked field by field)
    meta = ck.meta
    q, o = meta["position"], meta["options"]
    cp.check_resumable(meta, Path(args.resume), start_fingerprint(q, o["backend"], o["full_identity"]))
    pos = Position(q["name"], q["setup"], turns=q["turns"], concede=q["concede"], max_states=q["max_states"],
                   rulings=q["rulings"], symmetry=q["symmetry"])
    args.max_states, args.depth, args.no_graph, args.backend = o["max_states"], o["depth"], not o["graph"], o["backend"]
    args.jobs, args.turns, args.export, args.cluster = meta["shards"], None, None, None
    args.full_identity = o["full_identity"]                       # the identity its states were told apart by
    return ck, [pos]


def _progress(args, positions):
    """The progress line (``simulator.verify.progress``), started; None with --no-progress."""
    from simulator.verify.progress import EVERY, Progress
    if not args.progress:
        return None
    return Progress(positions, tty=sys.stderr.isatty(), every=args.progress_every or EVERY).start()


def _invariant_names():
    from simulator.verify.explore import INVARIANTS
    return INVARIANTS + (("combat damage never with a chain", "465", None),
                         ("the combat's result, control and end wait for an empty chain", "466.2", None),
                         ("a showdown ends after a full round of focus passes", "347.2.a", None),
                         ("rune pools are empty when a Main Phase starts", "316.1", None),
                         ("a cleared Contested is re-applied where a player lacks control", "323.11.a", None))
