"""Mutation testing of the declarations: break one declared rule at a time and check that a test notices.

Every single-step mutation of the machines in ``statecharts/`` is generated from the data (any
:class:`statecharts.spec.Machine` and :class:`statecharts.spec.T`, so a new declaration is mutated
automatically):

* ``drop-guard G`` / ``drop-unless U``: the transition no longer requires G / no longer refuses U;
* ``drop-effect E`` / ``drop-send M:T``: the transition no longer runs effect E / hands off M:T;
* ``drop-enter E``: entering the state no longer runs its ``enter`` effect E;
* ``dest S``: the transition goes to S instead (every other state of its machine);
* ``swap``: two transitions with the same source and trigger trade places (which is tried first).

Each mutant runs in a forked child process: the child replaces the declarations in memory (the files
are never touched), imports the simulator afresh on them and runs the stages in turn until one fails:

1. ``scenarios``: every bundled scenario on the compiled backend; killed when an expectation fails
   (``expect``), the engine crashes (``crash``) or the output differs from its golden file
   (``golden``, ``tests/golden/``);
2. ``tests``: the fast unit tests of ``tests/`` (pytest in the child; not the slow checks of the file
   format, diagrams, docs and layers, nor the scenario and golden tests already run in stage 1); for each
   mutant only the tests that use what it changes (recorded once, per test, on the unmutated declarations);
3. ``verify``: ``riftsim verify`` (statechart checks, exploration with every invariant, coverage); only
   the positions whose unmutated exploration uses what the mutant changes are explored again, the others
   keep their unmutated results. A survivor is compared with the unmutated state graphs (same or different).

A mutant that survives every stage either is **equivalent** (it cannot change any behaviour; listed
with its reason in ``tests/mutation-equivalents.txt``) or shows a gap: a rule that can break without
any test noticing. The score is killed / (mutants - listed equivalents).

exit status: 0 the score reaches --goal; 1 it does not (or an equivalent is listed that was killed,
or one is listed that no longer exists); 2 bad arguments.

examples:
  riftsim mutate --list                       # every mutant's id
  nice -n 19 riftsim mutate                   # the full run (minutes: run it rarely on a shared machine)
  nice -n 19 riftsim mutate --json run.jsonl --resume   # the full run, continued where it was interrupted
  riftsim mutate --only 'chain: Finalize' --stages scenarios
  riftsim mutate --sample 10 --stages scenarios
"""
from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
import os
import select
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from statecharts.spec import Machine, T

ROOT = Path(__file__).resolve().parents[2]
EQUIVALENTS = ROOT / "tests" / "mutation-equivalents.txt"
STAGES = ("scenarios", "tests", "verify")
#: CPU seconds a stage may use in the child before the kernel stops it (a mutant may loop forever: killed,
#: "timeout"); CPU time, not wall time, so a busy machine does not turn slow runs into kills. The unmutated
#: stages take about 2 (mostly reading the files through the schema), 12 and 40 CPU seconds. The wall-clock limit is a backstop 20 times as long.
CPU_LIMIT = {"scenarios": 6, "tests": 120, "verify": 400, "coverage": 30, "tests-coverage": 300, "graph": 600}
#: test files left out of stage 2: slow checks of things no declaration changes (the file format, diagrams,
#: docs, the import layers, the schema, packaging, the browser viewer), and what stage 1 already ran (scenarios,
#: golden traces) or stage 3 runs (verify)
SLOW_TESTS = ("test_loader.py", "test_diagrams.py", "test_docs.py", "test_layers.py", "test_scenarios.py",
              "test_golden.py", "test_verify.py", "test_mutation.py", "test_packaging.py", "test_viewer.py",
              "test_schema.py", "test_standalone.py")
#: and, in the files kept, the tests that render pictures (graphviz: seconds each, no rule in them) and the
#: exhaustive exploration (what stage 3 does in full)
SLOW_KEYWORDS = "not svg and not exhaustive_exploration"
#: seconds between two progress lines while stage 2 records what each test fires (minutes in all)
RECORDING_EVERY = 10.0
#: a child's exit status when Ctrl-C interrupted it (no outcome: the run stops, nothing is recorded for it)
INTERRUPTED = 130


# -- the mutants (pure functions of the declarations) ----------------------------------------------

@dataclass(frozen=True)
class Mutant:
    """One single-step change of one leaf machine; ``id`` names it readably and stably."""

    id: str
    leaf: str
    op: str            # drop-guard, drop-unless, drop-effect, drop-send, drop-enter, dest, swap
    index: int         # the transition's position in the leaf (-1 for drop-enter)
    arg: str = ""      # the guard/effect/send/state dropped or the new destination
    other: int = -1    # swap: the other transition's position


def transition_id(leaf: Machine, i: int) -> str:
    """``leaf: source --trigger[guards & !unless]--> dest``, with ``(n)`` when that is not unique.

    >>> m = Machine("door", "", ("Shut", "Ajar"), "Shut", (T("open", "Shut", "Ajar", ("1",), guards=("key",)),
    ...                                                    T("open", "Shut", "Ajar", ("1",), guards=("key",))))
    >>> transition_id(m, 0), transition_id(m, 1)
    ('door: Shut --open[key]--> Ajar', 'door: Shut --open[key]--> Ajar (2)')
    """
    def base(t: T) -> str:
        g = [*t.guards, *("!" + u for u in t.unless)]
        return f"{leaf.name}: {t.source} --{t.trigger}{'[' + ' & '.join(g) + ']' if g else ''}--> {t.dest}"
    me = base(leaf.transitions[i])
    n = sum(1 for t in leaf.transitions[:i] if base(t) == me)
    return me + (f" ({n + 1})" if n else "")


def leaf_mutants(leaf: Machine) -> list[Mutant]:
    """Every single-step mutant of one flat machine, in declaration order.

    >>> m = Machine("door", "", ("Shut", "Ajar", "Gone"), "Shut",
    ...             (T("open", "Shut", "Ajar", ("1",), guards=("key",), effects=("creak",)),
    ...              T("open", "Shut", "Gone", ("2",))))
    >>> [f"{x.op} {x.arg}".strip() for x in leaf_mutants(m)]
    ['drop-guard key', 'drop-effect creak', 'dest Shut', 'dest Gone', 'swap', 'dest Shut', 'dest Ajar']
    """
    out: list[Mutant] = []
    ts = leaf.transitions
    for i, t in enumerate(ts):
        tid = transition_id(leaf, i)
        for op, names in (("drop-guard", t.guards), ("drop-unless", t.unless), ("drop-effect", t.effects),
                          ("drop-send", t.sends)):
            out += [Mutant(f"{tid}  {op} {n}", leaf.name, op, i, n) for n in names]
        out += [Mutant(f"{tid}  dest {s}", leaf.name, "dest", i, s) for s in leaf.states if s != t.dest]
        for j in range(i + 1, len(ts)):
            if (ts[j].source, ts[j].trigger) == (t.source, t.trigger):
                out.append(Mutant(f"{tid}  swap with  {transition_id(leaf, j)}", leaf.name, "swap", i, other=j))
    for state, effect in leaf.enter.items():
        out.append(Mutant(f"{leaf.name}: enter {state}  drop-enter {effect}", leaf.name, "drop-enter", -1, state))
    return out


def mutants(machines: tuple[Machine, ...]) -> list[Mutant]:
    """Every single-step mutant of every leaf of every machine."""
    return [mu for m in machines for leaf in m.leaves() for mu in leaf_mutants(leaf)]


def mutate_leaf(leaf: Machine, mu: Mutant) -> Machine:
    """The leaf with the mutation applied (a new object: declarations are frozen data).

    >>> m = Machine("door", "", ("Shut", "Ajar"), "Shut", (T("open", "Shut", "Ajar", ("1",), guards=("key",)),))
    >>> mutate_leaf(m, leaf_mutants(m)[0]).transitions[0].guards
    ()
    """
    ts = list(leaf.transitions)
    if mu.op == "drop-enter":
        enter = {k: v for k, v in leaf.enter.items() if k != mu.arg}
        return dataclasses.replace(leaf, enter=enter, state_docs=dict(leaf.state_docs))
    t = ts[mu.index]
    field = {"drop-guard": "guards", "drop-unless": "unless", "drop-effect": "effects", "drop-send": "sends"}.get(mu.op)
    if field:
        values = list(getattr(t, field))
        values.remove(mu.arg)
        changes: dict[str, tuple] = {field: tuple(values)}
        ts[mu.index] = dataclasses.replace(t, **changes)  # type: ignore[arg-type]  # field is one of T's tuple fields
    elif mu.op == "dest":
        ts[mu.index] = dataclasses.replace(t, dest=mu.arg)
    elif mu.op == "swap":
        ts[mu.index], ts[mu.other] = ts[mu.other], ts[mu.index]
    else:  # pragma: no cover - the operators are listed above
        raise ValueError(mu.op)
    return dataclasses.replace(leaf, transitions=tuple(ts), enter=dict(leaf.enter), state_docs=dict(leaf.state_docs))


def apply(machines: tuple[Machine, ...], mu: Mutant) -> tuple[Machine, ...]:
    """The machines with one leaf mutated (the others are the same objects)."""
    out = []
    for m in machines:
        if m.regions and any(r.name == mu.leaf for r in m.regions):
            regions = tuple(mutate_leaf(r, mu) if r.name == mu.leaf else r for r in m.regions)
            m = dataclasses.replace(m, regions=regions, enter=dict(m.enter), state_docs=dict(m.state_docs))
        elif not m.regions and m.name == mu.leaf:
            m = mutate_leaf(m, mu)
        out.append(m)
    return tuple(out)


# -- equivalent mutants ---------------------------------------------------------------------------

def load_equivalents(path: Path = EQUIVALENTS) -> dict[str, str]:
    """``id  # reason`` per line (``#`` at the start of a line is a comment)."""
    out: dict[str, str] = {}
    if not path.exists():
        return out
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        mid, sep, why = line.partition(" # ")
        if not sep or not why.strip():
            raise ValueError(f"{path.name}:{n}: expected 'MUTANT ID # reason'")
        out[mid.strip()] = why.strip()
    return out


# -- running a mutant (in a forked child) ---------------------------------------------------------

def _install(new: tuple[Machine, ...]) -> None:
    """Put the mutated declarations where the ``statecharts`` package had the originals, then forget the
    simulator's modules so that importing them again builds everything (backends, tables) from the mutant."""
    import statecharts
    old = statecharts.MACHINES
    swap = _swap_map(old, new, statecharts.LEAVES)
    keep = [old, statecharts.LEAVES]          # the originals stay alive, so no id in ``swap`` is reused
    for name, mod in list(sys.modules.items()):
        if mod is not None and (name == "statecharts" or name.startswith("statecharts.")):
            _swap_in(mod, swap)
    for name in list(sys.modules):
        if name in ("simulator", "tests", "conftest") or name.startswith(("simulator.", "tests.")):
            del sys.modules[name]
    del keep


def _swap_map(old: tuple[Machine, ...], new: tuple[Machine, ...], leaves: dict) -> dict[int, object]:
    """id of each original (the machines, their leaves, the tables of them) -> its mutated counterpart."""
    swap: dict[int, object] = {id(old): new, id(leaves): {leaf.name: leaf for m in new for leaf in m.leaves()}}
    for o, n in zip(old, new):
        swap[id(o)] = n
        for lo, ln in zip(o.leaves(), n.leaves()):
            swap[id(lo)] = ln
    return swap


def _swap_in(mod, swap: dict[int, object]) -> None:
    """Replace, in the module's globals, every object ``swap`` maps (by id), also inside a tuple, list or dict."""
    for k, v in list(vars(mod).items()):
        if id(v) in swap:
            setattr(mod, k, swap[id(v)])
        elif isinstance(v, (tuple, list)) and any(id(x) in swap for x in v):
            setattr(mod, k, type(v)(swap.get(id(x), x) for x in v))
        elif isinstance(v, dict) and any(id(x) in swap for x in v.values()):
            setattr(mod, k, {a: swap.get(id(x), x) for a, x in v.items()})


def _stage_scenarios(golden_check: bool) -> tuple[bool, str]:
    """Every bundled scenario: an expectation or a crash kills first (what the suite knew before golden traces),
    then a golden file that differs."""
    import importlib
    golden = importlib.import_module("simulator.verify.golden")
    loader = importlib.import_module("simulator.scenario.loader")
    runs = []
    for path in golden.scenario_files():
        games: list = []
        try:
            sc = loader.load(str(path))
            res = loader.run(sc, observe=lambda step, game, failure, games=games: games.append(game) if not games else None)
        except Exception as e:  # noqa: BLE001 - any crash kills the mutant
            return True, f"crash: {path.stem}: {type(e).__name__}: {e}"[:300]
        if res.status == "fail" or (sc.pending is None and res.status != "pass"):
            return True, f"expect: {path.stem}: {res.message}"[:300]
        runs.append((path, res, games[0].state if games else None))
    return _golden_differs(golden, runs) if golden_check else (False, "")


def _golden_differs(golden, runs: list[tuple]) -> tuple[bool, str]:
    """(killed, why): the first scenario whose output differs from its golden file."""
    for path, res, state in runs:
        text = golden.render_doc(golden.document(path, res, state))
        gp = golden.golden_path(path)
        if not gp.exists() or gp.read_text(encoding="utf-8") != text:
            return True, f"golden: {path.stem}"
    return False, ""


class _Watch:
    """The pytest plugin of stage 2: which test runs (``current``), which failed, progress while recording."""

    def __init__(self, wanted: set[str] | None, record: bool):
        self.wanted, self.record = wanted, record
        self.failed: list[str] = []
        self.current = ""
        self.t0 = time.monotonic()
        self.ran, self.collected, self.next_line = 0, 0, self.t0 + RECORDING_EVERY

    def pytest_runtest_logreport(self, report):
        if report.failed:
            self.failed.append(report.nodeid)

    def pytest_runtest_logstart(self, nodeid, location):     # a test's setup, call and teardown run from here
        self.current = nodeid

    def pytest_collection_modifyitems(self, session, config, items):
        if self.wanted is not None:
            items[:] = [i for i in items if i.nodeid in self.wanted]
        self.collected = len(items)

    def pytest_runtest_logfinish(self, nodeid, location):    # ... to here
        self.current = ""
        self.ran += 1
        if self.record and time.monotonic() >= self.next_line:   # alive, and how far: a line every RECORDING_EVERY s
            self.next_line = time.monotonic() + RECORDING_EVERY
            print(f"  recording: {self.ran:,}/{self.collected:,} tests run, {time.monotonic() - self.t0:.0f} s",
                  file=sys.__stderr__, flush=True)


def _test_files(wanted: set[str] | None) -> list[str]:
    """The test files of stage 2: the fast ones, or those that hold a wanted test."""
    files = [str(p) for p in sorted((ROOT / "tests").glob("test_*.py")) if p.name not in SLOW_TESTS]
    if wanted is None:
        return files
    named = {n.split("::")[0] for n in wanted}
    return [f for f in files if Path(f).relative_to(ROOT).as_posix() in named]


def _record_picks(watch: _Watch, seen: dict[str, set]) -> None:
    """Make every pick of a declared transition (silent loops included) add its record to ``seen[test]``."""
    import importlib
    machines = importlib.import_module("simulator.core.machines")
    for cls in (machines.Compiled, machines.Transitions):
        def pick(self, leaf, source, trigger, g, inst, ctx, _orig=cls.pick):
            t = _orig(self, leaf, source, trigger, g, inst, ctx)
            if t is not None:
                seen.setdefault(watch.current, set()).add((leaf, t.source, t.trigger, t.dest, t.guards))
            return t
        cls.pick = pick
    vars(machines)["_silent"] = lambda *args: False   # no compiled loop: every step goes through pick

    def init(self, *args, _orig=machines.Runtime.__init__, **kw):
        _orig(self, *args, **kw)
        self.fns = None               # not the generated code (it never calls pick): fire_ctx's generic path
    machines.Runtime.__init__ = init


def _recorded(code: int, watch: _Watch, seen: dict[str, set], output: str) -> tuple[bool, str]:
    """Stage 2 recording: (failed, the per-test record as JSON, or why it failed)."""
    if code != 0:
        tail = [ln for ln in output.splitlines() if ln.startswith("ERROR")][:1] or output.strip().splitlines()[-1:] or [""]
        return True, f"{', '.join(watch.failed[:3]) or f'pytest exit {int(code)}: {tail[0][:200]}'}"
    return False, json.dumps(_per_test(seen))


def _per_test(seen: dict[str, set]) -> dict:
    """The records (each once) and, per test and outside any, the indexes of those it fired."""
    records = sorted({r for rs in seen.values() for r in rs})
    index = {r: i for i, r in enumerate(records)}
    return {"records": [list(r[:4]) + [list(r[4])] for r in records],
            "tests": {t: sorted(index[r] for r in rs) for t, rs in seen.items() if t},
            "outside": sorted(index[r] for r in seen.get("", ()))}


def _stage_tests(record: bool = False, only_tests: tuple[str, ...] | None = None) -> tuple[bool, str]:
    """Stage 2: the fast unit tests, or only the tests ``only_tests`` names (their node ids). With ``record``, run
    every test (no ``-x``) and return, as JSON, the transitions each test fires: ``{"records": [...],
    "tests": {nodeid: [record index...]}, "outside": [record index...]}`` (``outside``: fired while no test
    ran, e.g. when a test module is imported)."""
    import io
    import contextlib
    import pytest

    wanted = set(only_tests) if only_tests is not None else None
    watch = _Watch(wanted, record)
    files = _test_files(wanted)
    if wanted is not None and not files:
        return False, ""
    os.environ["CI"] = "1"                            # the derandomized hypothesis profile (tests/conftest.py)
    seen: dict[str, set] = {}
    if record:
        _record_picks(watch, seen)
    if str(ROOT) not in sys.path:       # tests import tests.helpers: the `riftsim` script's path lacks the root
        sys.path.insert(0, str(ROOT))
    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        code = pytest.main([*([] if record else ["-x"]), "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                            "--rootdir", str(ROOT), "-k", SLOW_KEYWORDS, *files], plugins=[watch])
    if record:
        return _recorded(code, watch, seen, sink.getvalue())
    return _tests_verdict(code, watch, wanted is not None)


def _tests_verdict(code, watch, chosen: bool) -> tuple[bool, str]:
    """(killed, why) from pytest's exit ``code``: 5 (no test selected, a deselected parametrization) passes the
    chosen tests."""
    if code == 0 or (code == 5 and chosen):
        return False, ""
    return True, f"tests: {watch.failed[0] if watch.failed else f'pytest exit {int(code)}'}"


#: verify's explorations on the unmutated declarations, made by the parent before it forks the children of
#: stage 3 (:func:`verify_baseline`): {"results": {position: Result}, "digests": {position: [...]}}
_BASE: dict | None = None


def verify_baseline() -> dict:
    """Explore every default position of ``riftsim verify`` on the unmutated declarations (in this process:
    the children forked afterwards share the results) and keep them in ``_BASE``."""
    global _BASE
    from simulator.verify import command
    positions = [p for path in command.DEFAULT_FILES for p in command.load_positions(str(path))[0]]
    from simulator.verify.progress import Progress
    results = command.run_positions(positions, jobs=1, graph=True, export=True,   # export: keep the labelled graph
                                    progress=Progress(positions, tty=sys.stderr.isatty()).start())
    _BASE = {"results": {r.position: r for r in results},
             "digests": {r.position: d for r, d in zip(results, graph_digests(results))}}
    return _BASE


def positions_using(machines: tuple[Machine, ...], base: dict) -> dict[str, tuple[str, ...]]:
    """{mutant id: the verify positions whose unmutated exploration uses what it changes}. An exploration is
    deterministic, so a position that never uses the mutated transition explores exactly the same states under
    the mutant: stage 3 takes its unmutated result instead of exploring it again."""
    per_position = [(name, _usage(machines, r.coverage)) for name, r in base["results"].items()]
    return {mu.id: tuple(name for name, uses in per_position if uses(mu)) for mu in mutants(machines)}


def _stage_verify(only_positions: tuple[str, ...] | None = None) -> tuple[bool, str]:
    """Stage 3: ``riftsim verify`` (its statechart checks on the mutated declarations, then the exploration),
    exploring again only ``only_positions`` when the unmutated results are at hand (``_BASE``). A mutant it
    does not kill gets, as its ``why``, the digests of the state graphs (:func:`graph_digests`), so that a
    survivor can be compared with the unmutated declarations: a different graph shows the mutant changes what
    can happen, the same graph is evidence that it is equivalent."""
    import io
    import contextlib
    import importlib
    import tempfile

    main = importlib.import_module("simulator.cli.main")
    command = importlib.import_module("simulator.verify.command")
    explored: list = []
    digests: list = []
    orig = command.run_positions
    base = _BASE if only_positions is not None else None
    again = set(only_positions or ())

    def explore_again(p) -> bool:
        return base is None or p.name in again or p.name not in base["results"]

    def keep(positions, **kw):
        todo = [p for p in positions if explore_again(p)]
        fresh = iter(orig(todo, **{**kw, "export": True}) if todo else ())   # the labelled graphs, for the digests
        fresh_digests = []
        results = []
        for p in positions:
            if explore_again(p):
                r = next(fresh)
                fresh_digests.append(r)
                results.append(r)
                digests.append(None)
            else:
                results.append(base["results"][p.name])
                digests.append(base["digests"][p.name])
        new = iter(graph_digests(fresh_digests))
        digests[:] = [d if d is not None else next(new) for d in digests]
        explored.extend(results)
        return results
    vars(command)["run_positions"] = keep
    sink = io.StringIO()
    with tempfile.TemporaryDirectory() as tmp, contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        code = main.main(["verify", "--jobs", "1", "--out", tmp])
    if code == 0:
        return False, "graph " + json.dumps(digests)
    lines = [ln.strip() for ln in sink.getvalue().splitlines() if "FINDING" in ln or "VIOLATION" in ln or "error" in ln]
    return True, f"verify: {lines[0] if lines else f'exit {code}'}"[:300]


def graph_digests(results) -> list:
    """[position, states, edges, digest] per explored position: the digest hashes the sorted node fingerprints
    (a state's identity, ``State.key``) and labelled edges, so equal digests mean the same states were reached
    by the same actions. Each result must keep its labelled graph (explored with ``labels``, as for ``--export``):
    without one there is nothing to compare, and saying "the same graph" would be a claim on state counts only.

    >>> from simulator.verify.explore import Result
    >>> from simulator.verify.stategraph import StateGraph
    >>> g = StateGraph(labels=True); g.node(0, 0, (), 7); g.edge(1, False, "A pass"); g.node(1, 0, (), 9)
    >>> r = Result("p"); r.graph = g
    >>> d = graph_digests([r])[0]; d[0], len(d[3])
    ('p', 16)
    """
    import hashlib
    out = []
    for res in results:
        sg = res.graph
        if sg is None or not sg.labels:
            raise ValueError(f"{res.position}: no labelled state graph to digest (explore with labels)")
        name = {v: sg.name[i] for i, v in enumerate(sg.ids)}
        nodes = sorted(name.values())
        edges = sorted((name[v], sg.action[k], name[w]) for k, (v, w, _t) in enumerate(sg.edges()))
        h = hashlib.sha256(repr((nodes, edges)).encode()).hexdigest()[:16]
        out.append([res.position, res.states, res.edges, h])
    return out


def _graphs() -> list:
    """The state graphs ``riftsim verify`` explores from each of its default positions (:func:`graph_digests`)."""
    import importlib
    command = importlib.import_module("simulator.verify.command")
    explore = importlib.import_module("simulator.verify.explore")
    results = []
    for path in command.DEFAULT_FILES:
        positions, _ = command.load_positions(str(path))
        results += [explore.explore(pos, graph=True, labels=True) for pos in positions]
    return graph_digests(results)


def _child(mu: Mutant | None, stage: str, golden_check: bool, only: tuple[str, ...] | None = None) -> tuple[bool, str]:
    import statecharts
    if mu is not None:
        _install(apply(statecharts.MACHINES, mu))
    else:
        _install(statecharts.MACHINES)
    if stage == "coverage":
        return False, json.dumps(_coverage())
    if stage == "graph":
        return False, json.dumps(_graphs())
    if stage == "tests-coverage":
        return _stage_tests(record=True)
    if stage == "scenarios":
        return _stage_scenarios(golden_check)
    if stage == "tests":
        return _stage_tests(only_tests=only)
    return _stage_verify(only)


class _Child:
    """One stage of one mutant running in a forked child process."""

    def __init__(self, mu: Mutant | None, stage: str, golden_check: bool, cpu: float | None = None,
                 only: tuple[str, ...] | None = None) -> None:
        self.mu, self.stage = mu, stage
        self.cpu = CPU_LIMIT[stage] if cpu is None else cpu
        self.deadline = time.monotonic() + 20 * self.cpu
        self.used = 0.0                                  # its CPU seconds when the deadline was last checked
        self.chunks: list[bytes] = []
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:                                     # the child: never returns
            os.close(r)
            import resource
            resource.setrlimit(resource.RLIMIT_CPU, (int(self.cpu), int(self.cpu) + 1))
            # a run started in the background has SIGINT ignored, and the programs the tests start would inherit
            # that (the tests of Ctrl-C would fail): the default handler, and an interrupt gives no result
            signal.signal(signal.SIGINT, signal.default_int_handler)
            try:
                result = _child(mu, stage, golden_check, only)
            except KeyboardInterrupt:
                os._exit(INTERRUPTED)
            except BaseException as e:  # noqa: BLE001 - a mutant may break anything; it is then killed
                result = (True, f"crash: {type(e).__name__}: {e}"[:300])
            try:
                os.write(w, json.dumps(result).encode())
            finally:
                os._exit(0)
        os.close(w)
        self.pid, self.fd = pid, r

    def overdue(self) -> bool:
        """Past its wall-clock deadline and not using CPU (stuck). A child that is only starved by a busy machine
        (its CPU time still grows) gets another period: the CPU limit, not the wall clock, ends a slow mutant."""
        if time.monotonic() < self.deadline:
            return False
        used = _cpu_seconds(self.pid)
        if used is not None and used > self.used + 0.01:
            self.used = used
            self.deadline = time.monotonic() + 20 * self.cpu
            return False
        return True

    def read(self) -> bool:
        """Read what is there; True once the child has closed its end."""
        data = os.read(self.fd, 65536)
        if data:
            self.chunks.append(data)
        return not data

    def result(self, late: bool = False) -> tuple[bool, str]:
        """Reap the child (killing it first if ``late``) and return (killed, why)."""
        if late:
            os.kill(self.pid, signal.SIGKILL)
        os.close(self.fd)
        _, status = os.waitpid(self.pid, 0)
        if late:
            return True, f"timeout: {self.stage} used no CPU for {20 * self.cpu:.0f} s of wall time"
        if not self.chunks:
            if os.WIFEXITED(status) and os.WEXITSTATUS(status) == INTERRUPTED:
                raise KeyboardInterrupt             # Ctrl-C reached the child: no outcome, the run stops
            if os.WIFSIGNALED(status) and os.WTERMSIG(status) in (signal.SIGXCPU, signal.SIGKILL):
                return True, f"timeout: {self.stage} used more than {self.cpu:.0f} CPU seconds"
            return True, "crash: the child died without a result"
        killed, why = json.loads(b"".join(self.chunks))
        return bool(killed), why


def _cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) a process has used so far, from /proc (None where there is none)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            fields = f.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def run_stage(mu: Mutant | None, stage: str, *, golden_check: bool = True, timeout: float | None = None) -> tuple[bool, str]:
    """(killed, why) for one mutant and one stage, run in a forked child (``None``: the unmutated declarations)."""
    c = _Child(mu, stage, golden_check, timeout)
    while True:
        if c.overdue():
            return c.result(late=True)
        left = max(0.0, c.deadline - time.monotonic())
        ready, _, _ = select.select([c.fd], [], [], left)
        if ready and c.read():
            return c.result()


def run_mutant(mu: Mutant | None, stages=STAGES, *, golden_check: bool = True) -> tuple[bool, str]:
    """(killed, why): the first stage that kills it, or (False, '') when it survives them all."""
    for stage in stages:
        killed, why = run_stage(mu, stage, golden_check=golden_check)
        if killed:
            return True, why
    return False, ""


def run_many(ms: list[Mutant], stages=STAGES, *, golden_check: bool = True, jobs: int = 1, skip: dict | None = None,
             on_pass=None, only: dict | None = None):
    """Yield (mutant, killed, why) for every mutant, as they finish, with up to ``jobs`` children at once.

    ``skip`` maps a mutant id to stages it cannot fail (see :func:`unreached`) or already passed: they are not
    run for it. ``on_pass(mutant, stage)`` is called when a mutant survives a stage it ran (a resumable run
    records it).
    """
    todo = [(mu, 0) for mu in ms]
    todo.reverse()
    running: dict[int, tuple[_Child, int]] = {}
    try:
        yield from _loop(todo, running, stages, golden_check, jobs, skip, on_pass, only or {})
    finally:                                          # interrupted (a signal, the consumer stopped): no child is left
        for c, _ in running.values():
            c.result(late=True)


def _loop(todo, running, stages, golden_check, jobs, skip, on_pass, chosen):
    while todo or running:
        yield from _start(todo, running, stages, golden_check, jobs, skip, chosen)
        if not running:
            continue
        for fd, late in _done(running):
            c, k = running.pop(fd)
            yield from _finished(c, k, late, todo, stages, on_pass)


def _done(running: dict) -> list[tuple[int, bool]]:
    """(fd, late) of the children that finished, or ran past their deadline, while waiting for the first of them."""
    wait = max(0.0, min(c.deadline for c, _ in running.values()) - time.monotonic())
    ready, _, _ = select.select(list(running), [], [], wait)
    done = [(fd, False) for fd in ready if running[fd][0].read()]
    return done + [(fd, True) for fd, (c, _) in running.items() if fd not in ready and c.overdue()]


def _start(todo, running, stages, golden_check, jobs, skip, chosen):
    """Start children for the next (mutant, stage) to run, up to ``jobs`` at once; yield the mutants that have
    no stage left (survivors)."""
    while todo and len(running) < jobs:
        mu, k = todo.pop()
        if k == len(stages):
            yield mu, False, ""
            continue
        if skip and stages[k] in skip.get(mu.id, ()):
            todo.insert(0, (mu, k + 1))            # as if it had run and survived: next stage, breadth first
            continue
        c = _Child(mu, stages[k], golden_check, only=chosen.get((stages[k], mu.id)))
        running[c.fd] = (c, k)


def _finished(c, k, late, todo, stages, on_pass):
    """A child is done: yield its mutant if killed or past its last stage, else queue its next stage."""
    killed, why = c.result(late=late)
    if killed:
        yield c.mu, True, why
        return
    if on_pass:
        on_pass(c.mu, stages[k])
    if k + 1 == len(stages):
        yield c.mu, False, why          # survived its last stage: with what that stage said (graphs)
    else:
        todo.insert(0, (c.mu, k + 1))   # its next stage, once every mutant had this one (breadth first)


def _coverage() -> list:
    """Every declared transition the bundled scenarios fire: (leaf, source, trigger, dest, guards) records."""
    import importlib
    golden = importlib.import_module("simulator.verify.golden")
    loader = importlib.import_module("simulator.scenario.loader")
    seen: set = set()

    def watch(step, game, failure):
        if step is None:
            game.state.coverage = seen
    for path in golden.scenario_files():
        loader.run(loader.load(str(path)), observe=watch)
    return sorted([list(r[:4]) + [list(r[4])] for r in seen])


def _usage(machines: tuple[Machine, ...], fired):
    """A predicate ``uses(mutant)``: can a deterministic run that fired exactly ``fired`` (records (leaf, source,
    trigger, dest, guards)) behave differently under the mutant? A changed transition's destination, effects
    or hand-offs matter only when it fires; its guards, ``unless`` or place in the order only when its row
    (machine, source, trigger) is looked up, which fires one of the row's transitions; an ``enter`` effect
    only when a transition into that state fires."""
    fired_t = {(r[0], r[1], r[2], r[3], tuple(r[4])) for r in fired}
    rows = {(r[0], r[1], r[2]) for r in fired_t}
    dests = {(r[0], r[3]) for r in fired_t}
    leaves = {leaf.name: leaf for m in machines for leaf in m.leaves()}

    def uses(mu: Mutant) -> bool:
        if mu.op == "drop-enter":
            return (mu.leaf, mu.arg) in dests
        t = leaves[mu.leaf].transitions[mu.index]
        if mu.op in ("drop-guard", "drop-unless", "swap"):
            return (mu.leaf, t.source, t.trigger) in rows
        return (mu.leaf, t.source, t.trigger, t.dest, t.guards) in fired_t
    return uses


def unreached(machines: tuple[Machine, ...], fired, stage: str = "scenarios") -> dict[str, tuple[str, ...]]:
    """Mutant ids that ``stage`` cannot kill, as {id: (stage,)}: the bundled scenarios (and the fast tests,
    derandomized) run deterministically, so a mutant changes nothing there when what it changes is never
    used by them (see :func:`_usage`)."""
    uses = _usage(machines, fired)
    return {mu.id: (stage,) for mu in mutants(machines) if not uses(mu)}


def tests_using(machines: tuple[Machine, ...], cov: dict) -> dict[str, tuple[str, ...] | None]:
    """For stage 2: {mutant id: the node ids of the tests that use what it changes}, from the per-test record
    of ``tests-coverage``; ``None`` (every test) when something fired outside any test (at import) uses it;
    a mutant no test uses is left out (stage 2 cannot kill it). Each test is deterministic (hypothesis
    derandomized), so a test that never uses the mutated transition passes under the mutant as it did
    unmutated: running only the others can miss no kill."""
    records = cov["records"]
    outside = _usage(machines, [records[i] for i in cov["outside"]])
    per_test = [(t, _usage(machines, [records[i] for i in idx])) for t, idx in cov["tests"].items()]
    out: dict[str, tuple[str, ...] | None] = {}
    for mu in mutants(machines):
        if outside(mu):
            out[mu.id] = None
            continue
        names = tuple(t for t, uses in per_test if uses(mu))
        if names:
            out[mu.id] = names
    return out


def sample(ms: list[Mutant], n: int, skip: dict | None = None) -> list[Mutant]:
    """``n`` mutants chosen by a stable hash of their ids (the same ones while their declarations stay), one
    per operator first, leaving out the ids in ``skip``.

    >>> m = Machine("door", "", ("Shut", "Ajar", "Gone"), "Shut", (T("open", "Shut", "Ajar", ("1",), guards=("key",)),))
    >>> sorted(x.op for x in sample(leaf_mutants(m), 2))
    ['dest', 'drop-guard']
    """
    import hashlib

    pool = sorted((m for m in ms if not skip or m.id not in skip),
                  key=lambda m: hashlib.sha256(m.id.encode()).hexdigest())
    first: dict[str, Mutant] = {}
    for m in pool:
        first.setdefault(m.op, m)
    chosen = list(first.values())[:n]
    chosen += [m for m in pool if m not in chosen][:max(0, n - len(chosen))]
    return chosen


def _unmutated_graph() -> list | None:
    """Per position, the unmutated declarations' state graph in ``verify`` (None if that fails)."""
    if _BASE is not None:
        return list(_BASE["digests"].values())
    failed, why = run_stage(None, "verify")
    if failed or not why.startswith("graph "):
        return None
    return json.loads(why[len("graph "):])


def _compare_graphs(graphs: dict[str, list]) -> dict[str, str]:
    """{mutant id: '  (the same state graph ...)' or '  (a different state graph: ...)'} for the survivors of
    stage 3, against ``verify`` on the unmutated declarations (run once here)."""
    want = _unmutated_graph()
    if want is None:
        return {}
    states, edges = sum(r[1] for r in want), sum(r[2] for r in want)
    out = {}
    for mid, got in graphs.items():
        diff = _graph_diff(want, got)
        out[mid] = (f"  (a different state graph in verify: {'; '.join(diff[:3])})" if diff else
                    f"  (the same state graph in verify as unmutated: {states} states, {edges} edges)")
    return out


def _graph_diff(want: list, got: list) -> list[str]:
    """Per position whose graph differs: its states and edges, unmutated -> mutated."""
    return [f"{w[0]}: {w[1]}->{g[1]} states, {w[2]}->{g[2]} edges" for w, g in zip(want, got) if w != g]


def same_graph(ms: list[Mutant], equivalents: dict[str, str]) -> int:
    """``--same-graph``: exit 0 when every mutant explores the same state graph as the unmutated declarations."""
    failed, base = run_stage(None, "graph")
    if failed:
        print(f"riftsim mutate: the unmutated exploration fails ({base[:200]})", file=sys.stderr)
        return 1
    want = json.loads(base)
    states, edges = sum(r[1] for r in want), sum(r[2] for r in want)
    print(f"unmutated: {len(want)} positions, {states} states, {edges} edges", flush=True)
    differ = sum(_graph_differs(mu, want, equivalents) for mu in ms)
    return 1 if differ else 0


def _graph_differs(mu: Mutant, want: list, equivalents: dict[str, str]) -> bool:
    """Explore ``mu``'s state graph, print how it compares with the unmutated one (``want``); True if it differs."""
    dead, got = run_stage(mu, "graph")
    if dead:
        print(f"DIFFERENT {mu.id}: the exploration fails ({got[:200]})", flush=True)
        return True
    diff = _graph_diff(want, json.loads(got))
    states, edges = sum(r[1] for r in want), sum(r[2] for r in want)
    tag = "  (listed as equivalent)" if mu.id in equivalents else ""
    print(f"DIFFERENT {mu.id}{tag}: {'; '.join(diff)}" if diff else
          f"same      {mu.id}{tag}: the same {states} states and {edges} edges", flush=True)
    return bool(diff)


# -- a resumable run: the JSON lines file --------------------------------------------------------

def _commit() -> str:
    """The checkout's commit (``+`` when files differ from it), or '' outside git."""
    import subprocess
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
    return head + ("+" if dirty else "")


def read_run(path: Path, header: dict) -> tuple[dict[str, tuple[bool, str]], dict[str, tuple[str, ...]]]:
    """What a run recorded in ``path`` (JSON lines): ({id: (killed, why)}, {id: stages it survived}).

    A ``{"run": ...}`` line starts each (resumed) run; they must have used the same stages and golden setting
    as ``header`` (otherwise an outcome there would not be the outcome here). A last line cut short by an
    interruption is ignored.

    >>> import tempfile
    >>> f = Path(tempfile.mkdtemp()) / "r.jsonl"
    >>> _ = f.write_text('{"run": {"stages": ["scenarios"], "golden": true}}\\n{"id": "a", "passed": "scenarios"}\\n'
    ...                  '{"id": "b", "killed": true, "why": "expect: x"}\\n{"id": "c", "kil')
    >>> read_run(f, {"stages": ["scenarios"], "golden": True})
    ({'b': (True, 'expect: x')}, {'a': ('scenarios',)})
    """
    done: dict[str, tuple[bool, str]] = {}
    passed: dict[str, tuple[str, ...]] = {}
    if not path.exists():
        return done, passed
    lines = path.read_text(encoding="utf-8").splitlines()
    for n, line in enumerate(lines, 1):
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            if n == len(lines):
                break
            raise ValueError(f"{path}:{n}: not a JSON line") from None
        if "run" in rec:
            _same_options(rec["run"], header, f"{path}:{n}")
        elif "passed" in rec:
            passed[rec["id"]] = passed.get(rec["id"], ()) + (rec["passed"],)
        elif "killed" in rec:
            done[rec["id"]] = (bool(rec["killed"]), rec.get("why", ""))
    return done, passed


def _same_options(was: dict, header: dict, where: str) -> None:
    """A resumed run must use the stages and golden setting of the run it resumes."""
    if (was.get("stages"), was.get("golden")) != (header["stages"], header["golden"]):
        raise ValueError(f"{where}: recorded with stages {','.join(was.get('stages') or [])}"
                         f"{'' if was.get('golden') else ' and --no-golden'}: run it with the same options")


# -- the command ----------------------------------------------------------------------------------

#: the stages of ``--sample N`` unless ``--stages`` says otherwise: seconds a mutant
QUICK = ("scenarios",)


def _missing(stages: tuple[str, ...]) -> str:
    """Why ``stages`` cannot run here ('' when they can): the scenarios and tests stages run the project's
    ``scenarios/``, ``tests/golden/`` and ``tests/``, which a clone has and an installed riftsim does not."""
    need = {"scenarios": ROOT / "scenarios", "tests": ROOT / "tests"}
    gone = [f"{st} ({need[st]})" for st in stages if st in need and not need[st].is_dir()]
    if not gone:
        return ""
    return (f"stage {', '.join(gone)} runs the project's own scenarios and tests, which an installed riftsim does "
            f"not have: run riftsim mutate in a clone (pip install -e . there), or choose --stages verify")


def _see_why(stage: str, kind: str, name: str) -> str:
    """The command that shows why ``name`` (a test, a golden file or a scenario) fails."""
    if stage.startswith("tests"):
        return f"python -m pytest {name}" if "::" in name else "python -m pytest -x -q tests/"
    if kind == "golden":
        return f"riftsim approve --check {name}"
    return f"riftsim simulate scenarios/{name}.yaml" if name and " " not in name else "riftsim simulate scenarios/"


def _unmutated_failure(stage: str, why: str, stages: tuple[str, ...]) -> str:
    """The message when a stage fails on the unmutated declarations: nothing can be measured; what to do.

    >>> print(_unmutated_failure("tests-coverage", "tests/test_a.py::test_b, tests/test_c.py::test_d", QUICK))
    stage 'tests' already fails on the unmutated declarations (tests/test_a.py::test_b, tests/test_c.py::test_d), so no \
mutant can be measured by it: the suite fails here, whatever the mutants. See why with: python -m pytest \
tests/test_a.py::test_b; fix it, or leave the stage out: --stages scenarios
    """
    kind, _, what = why.partition(": ") if why.startswith(("tests: ", "expect: ", "golden: ", "crash: ")) else ("", "", why)
    name = what.split(", ")[0].split(": ")[0]
    see = _see_why(stage, kind, name)
    stage = "tests" if stage.startswith("tests") else stage
    others = [st for st in stages if st != stage]
    skip = f", or leave the stage out: --stages {','.join(others)}" if others else ""
    return (f"stage '{stage}' already fails on the unmutated declarations ({what[:300]}), so no mutant can be "
            f"measured by it: the suite fails here, whatever the mutants. See why with: {see}; fix it{skip}")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--list", action="store_true", help="print every mutant's id and stop")
    p.add_argument("--only", metavar="TEXT", action="append", help="only mutants whose id contains TEXT; repeatable")
    p.add_argument("--ids", metavar="FILE", help="only the mutants whose ids are listed in FILE, one a line")
    p.add_argument("--sample", type=int, metavar="N",
                   help="only N mutants, chosen by a stable hash of their ids (one per operator first)")
    p.add_argument("--stages", default=None,
                   help=f"comma-separated stages to run, in order (default: {','.join(STAGES)}; with --sample only "
                        f"scenarios, the quick one: the slow stages are asked for, e.g. --stages {','.join(STAGES)})")
    p.add_argument("--no-golden", action="store_true",
                   help="stage 'scenarios' ignores the golden files (the score the suite had before them)")
    p.add_argument("--jobs", type=int, default=1, metavar="N",
                   help="children at once (default 1: the machine is shared; each child is one mutant's stage)")
    p.add_argument("--goal", type=float, default=98.0, help="the score to reach, in percent (default: 98)")
    p.add_argument("--json", metavar="FILE",
                   help="also write every mutant's outcome (and each stage it survived) as JSON lines to FILE")
    p.add_argument("--same-graph", action="store_true",
                   help="instead of the stages: for each mutant selected, say whether the state graph verify explores "
                        "(every default position) is the same as with the unmutated declarations: evidence for a "
                        "mutant listed as equivalent (slow: one exploration per mutant)")
    p.add_argument("--resume", action="store_true",
                   help="continue the run recorded in --json FILE: a mutant with an outcome there is not run "
                        "again, a stage it survived there is skipped; new records are appended")
    p.add_argument("--retry-survivors", action="store_true",
                   help="with --resume: run the first stage again for the mutants recorded there as survivors or "
                        "not finished (after a new scenario or golden file); the later stages they survived stay "
                        "skipped")


class _Refused(Exception):
    """``riftsim mutate`` refuses to go on: the one-line reason (printed after the command's name), the exit
    status (2 bad arguments, 1 the unmutated declarations already fail a stage)."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def _stages(args: argparse.Namespace) -> tuple[tuple[str, ...], bool]:
    """(the stages asked for, whether they are the quick default of ``--sample``)."""
    quick = args.stages is None and bool(args.sample)
    stages = QUICK if quick else tuple(s.strip() for s in (args.stages or ",".join(STAGES)).split(",") if s.strip())
    bad = [s for s in stages if s not in STAGES]
    if bad or not stages:
        raise _Refused(f"unknown stage {bad[0] if bad else '(none)'}: choose from {', '.join(STAGES)}")
    return stages, quick


def _check_options(args: argparse.Namespace, stages: tuple[str, ...], quick: bool) -> None:
    """Refuse what cannot run here before any work; say what ``--sample`` leaves out."""
    if args.json:         # a log written as it goes (not atomic): a regular file, a FIFO or a character device
        from simulator.core.files import target
        target(args.json)                        # (a folder, a block device...: refused in one line, before any work)
    missing = _missing(stages) if not args.list else ""
    if missing:
        raise _Refused(missing)
    if quick and not args.same_graph and not args.list:
        print(f"--sample: stage {QUICK[0]} only (seconds a mutant); the slow stages are asked for: "
              f"--stages {','.join(STAGES)}", flush=True)


def _equivalents() -> dict[str, str]:
    try:
        return load_equivalents()
    except ValueError as e:
        raise _Refused(str(e)) from None


def _selected(args: argparse.Namespace, ms: list[Mutant]) -> list[Mutant]:
    """The mutants ``--only``, ``--ids`` and ``--sample`` choose, in that order."""
    if args.only:
        ms = [m for m in ms if any(o in m.id for o in args.only)]
    if args.ids:
        from simulator.scenario.loader import read_text     # a regular UTF-8 file of bounded size, or one line
        wanted = set(read_text(args.ids).splitlines())
        ms = [m for m in ms if m.id in wanted]
    return sample(ms, args.sample) if args.sample else ms


def _list(ms: list[Mutant], equivalents: dict[str, str]) -> int:
    """``--list``: every chosen mutant's id, with the reason of a listed equivalent."""
    for m in ms:
        print(m.id + (f"  # equivalent: {equivalents[m.id]}" if m.id in equivalents else ""))
    print(f"{len(ms)} mutants", file=sys.stderr)
    return 0


def _resumed(args: argparse.Namespace, header: dict) -> tuple[dict, dict, dict]:
    """What ``--resume`` reads back from ``--json FILE``: (outcomes, stages survived, what the survivors that
    ``--retry-survivors`` runs again had recorded); all empty for a fresh run."""
    if not args.resume:
        if args.retry_survivors:
            raise _Refused("--retry-survivors needs --resume")
        return {}, {}, {}
    if not args.json:
        raise _Refused("--resume needs --json FILE (the run to continue)")
    try:
        done, passed = read_run(Path(args.json), header)
    except (OSError, ValueError) as e:
        raise _Refused(f"cannot resume: {e}") from None
    return _retried(done, passed, header["stages"][0]) if args.retry_survivors else (done, passed, {})


def _retried(done: dict, passed: dict, first: str) -> tuple[dict, dict, dict]:
    """``--retry-survivors``: the survivors and the unfinished mutants run stage 1 again (new scenarios and
    golden files); the later stages they survived stay skipped, and a survivor keeps what its last stage
    recorded."""
    again = {mid for mid, (dead, _) in done.items() if not dead} | (set(passed) - set(done))
    kept = {mid: done[mid][1] for mid in again if mid in done}
    done = {mid: r for mid, r in done.items() if mid not in again}
    passed = {mid: tuple(st for st in sts if st != first) for mid, sts in passed.items()}
    return done, passed, kept


def _all_past(ms: list[Mutant], stage: str, done: dict, passed: dict) -> bool:
    """A resumed run: every mutant has an outcome or is past ``stage``."""
    return all(m.id in done or stage in passed.get(m.id, ()) for m in ms)


def _plan(stages: tuple[str, ...], ms: list[Mutant], everything: list[Mutant], done: dict,
          passed: dict) -> tuple[dict, dict]:
    """(skip, only) for :func:`run_many`: the stages each mutant cannot fail (it changes nothing they use, or
    it already survived them) and, per (stage, mutant), the tests or positions that stage runs again."""
    skip: dict = dict(passed)
    only: dict = {}
    for stage, cov in (("scenarios", "coverage"), ("tests", "tests-coverage")):
        if stage in stages and not _all_past(ms, stage, done, passed):
            _skip_unused(stage, cov, stages, ms, everything, skip, only)
    if "verify" in stages and not _all_past(ms, "verify", done, passed):
        _verify_only(ms, only)
    return skip, only


def _skip_unused(stage: str, cov: str, stages: tuple[str, ...], ms: list[Mutant], everything: list[Mutant],
                 skip: dict, only: dict) -> None:
    """Record, on the unmutated declarations, what ``stage`` fires; skip it for the mutants that change none of
    it (and, for stage 'tests', choose per mutant the tests that use what it changes)."""
    import statecharts
    if stage == "tests":
        print("stage 'tests': recording, on the unmutated declarations, what each fast test fires (once; "
              "minutes) ...", flush=True)
    failed, fired = run_stage(None, cov)
    if failed:
        raise _Refused(_unmutated_failure(stage, fired, stages), 1)
    only_tests = None
    if stage == "scenarios":
        never = unreached(statecharts.MACHINES, json.loads(fired), stage)
    else:
        only_tests = tests_using(statecharts.MACHINES, json.loads(fired))
        only.update({("tests", mid): names for mid, names in only_tests.items()})
        never = {m.id: (stage,) for m in everything if m.id not in only_tests}
    for mid, st in never.items():
        skip[mid] = skip.get(mid, ()) + st
    n_skip = sum(1 for m in ms if stage in skip.get(m.id, ()))
    print(f"{len(ms)} mutants; {n_skip} change nothing stage '{stage}' uses (skipped for them)", flush=True)
    if only_tests is not None:
        _say_tests_run(ms, only_tests)


def _say_tests_run(ms: list[Mutant], only_tests: dict) -> None:
    sizes = sorted(-1 if (names := only_tests[m.id]) is None else len(names) for m in ms if m.id in only_tests)
    if sizes:
        print(f"stage 'tests' runs, for each of the others, only the tests that use what it changes "
              f"(median {sizes[len(sizes) // 2]} tests)", flush=True)


def _verify_only(ms: list[Mutant], only: dict) -> None:
    """Stage 'verify' explores again, per mutant, only the positions whose unmutated search uses what it changes."""
    import statecharts
    print("stage 'verify': exploring verify's positions on the unmutated declarations once ...", flush=True)
    base = verify_baseline()
    using = positions_using(statecharts.MACHINES, base)
    only.update({("verify", mid): names for mid, names in using.items()})
    sizes = sorted(len(using[m.id]) for m in ms)
    print(f"stage 'verify' explores again, for each mutant, only the positions that use what it changes "
          f"(median {sizes[len(sizes) // 2]} of {len(base['results'])}); the others keep their unmutated "
          f"results", flush=True)


class _Log:
    """The ``--json`` log: JSON lines written (and flushed) as the run goes; nothing without ``--json``."""

    def __init__(self, path: str | None, append: bool):
        self.file = open(path, "a" if append else "w", encoding="utf-8") if path else None

    def write(self, record: dict) -> None:
        if self.file:
            self.file.write(json.dumps(record) + "\n")
            self.file.flush()

    def passed(self, mu: Mutant, stage: str) -> None:
        self.write({"id": mu.id, "passed": stage})

    def close(self) -> None:
        if self.file:
            self.file.close()


@dataclass
class _Outcomes:
    """The mutants' outcomes, as they come: killed or survived, listed as equivalent or not."""
    killed: list = dataclasses.field(default_factory=list)        # [(mutant, why)]
    eq_killed: list = dataclasses.field(default_factory=list)     # [(mutant, why)]
    survived: list = dataclasses.field(default_factory=list)
    eq_survived: list = dataclasses.field(default_factory=list)
    by_stage: dict = dataclasses.field(default_factory=dict)      # {stage: mutants it killed}
    graphs: dict = dataclasses.field(default_factory=dict)        # {survivor: its state graphs in verify}

    def add(self, mu: Mutant, dead: bool, why: str, eq: str | None) -> None:
        if dead:
            (self.eq_killed if eq else self.killed).append((mu, why))
            stage = why.split(":")[0]
            self.by_stage[stage] = self.by_stage.get(stage, 0) + 1
            return
        (self.eq_survived if eq else self.survived).append(mu)
        if why.startswith("graph "):
            self.graphs[mu.id] = json.loads(why[len("graph "):])


def _outcome_line(n: int, total: int, mu: Mutant, dead: bool, why: str, eq: str | None) -> str:
    mark = "killed  " if dead else ("equiv.  " if eq else "SURVIVED")
    return f"[{n}/{total}] {mark} {mu.id}" + (f"  <- {why}" if dead else f"  ({eq[:80]})" if eq else "")


def _execute(args: argparse.Namespace, header: dict, stages: tuple[str, ...], ms: list[Mutant], resumed: tuple,
             plan: tuple[dict, dict], equivalents: dict[str, str]) -> _Outcomes:
    """Run the mutants not done yet (the recorded outcomes first), print and log each outcome."""
    done, passed, kept = resumed
    skip, only = plan
    recorded = [(m, *done[m.id]) for m in ms if m.id in done]
    if args.resume:
        print(f"resuming {args.json}: {len(recorded)} of {len(ms)} mutants have an outcome there, "
              f"{sum(1 for m in ms if m.id in passed and m.id not in done)} more passed some stages", flush=True)
    log = _Log(args.json, args.resume)
    log.write({"run": header})
    fresh = run_many([m for m in ms if m.id not in done], stages, golden_check=not args.no_golden, jobs=args.jobs,
                     skip=skip, on_pass=log.passed, only=only)
    outcomes = _Outcomes()
    try:
        for n, (mu, dead, why) in enumerate(itertools.chain(recorded, fresh), 1):
            eq = equivalents.get(mu.id)
            if not dead and not why:
                why = kept.get(mu.id, "")             # every stage skipped: what its last run recorded
            outcomes.add(mu, dead, why, eq)
            print(_outcome_line(n, len(ms), mu, dead, why, eq), flush=True)
            if mu.id not in done:
                log.write({"id": mu.id, "killed": dead, "why": why, "equivalent": eq})
    finally:
        fresh.close()                                 # kills the children still running when interrupted
        log.close()
    return outcomes


def _report(o: _Outcomes, ms: list[Mutant], stale: list[str], stages: tuple[str, ...], args: argparse.Namespace,
            wall: float) -> int:
    """The survivors, the equivalents to delist, the score; the exit status."""
    order = {m.id: i for i, m in enumerate(ms)}
    o.survived.sort(key=lambda m: order[m.id])
    considered = len(ms) - len(o.eq_survived)
    score = 100.0 * len(o.killed) / considered if considered else 100.0
    print()
    _list_survivors(o, stale)
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(o.by_stage.items()))
    print(f"mutants: {len(ms)}; killed {len(o.killed) + len(o.eq_killed)} ({kinds}); equivalent (listed, survived) "
          f"{len(o.eq_survived)}; survived {len(o.survived)}")
    print(f"mutation score: {len(o.killed)}/{considered} = {score:.1f}% of the non-equivalent mutants killed "
          f"(goal {args.goal:g}%; stages {','.join(stages)}{'; golden files ignored' if args.no_golden else ''}; "
          f"{wall:.0f} s)")
    partial = bool(args.only or args.sample or args.ids)
    return 0 if score >= args.goal and not o.eq_killed and not (stale and not partial) else 1


def _list_survivors(o: _Outcomes, stale: list[str]) -> None:
    """Each survivor (with its state graph compared, after stage 3), and the list's entries to delete."""
    same = _compare_graphs(o.graphs) if o.graphs else {}
    for mu in o.survived:
        print(f"SURVIVED {mu.id}{same.get(mu.id, '')}")
    for mu in o.eq_survived:
        if mu.id in same:
            print(f"equivalent {mu.id}{same[mu.id]}")
    for mu, why in o.eq_killed:
        print(f"LISTED AS EQUIVALENT BUT KILLED ({why}): {mu.id}: remove it from {EQUIVALENTS.name}")
    for s in stale:
        print(f"LISTED AS EQUIVALENT BUT NO SUCH MUTANT: {s}: remove it from {EQUIVALENTS.name}")


def run(args: argparse.Namespace) -> int:
    try:
        return _run(args)
    except _Refused as e:
        print(f"riftsim mutate: {e}", file=sys.stderr)
        return e.code


def _run(args: argparse.Namespace) -> int:
    import statecharts

    stages, quick = _stages(args)
    _check_options(args, stages, quick)
    everything = mutants(statecharts.MACHINES)
    equivalents = _equivalents()
    ms = _selected(args, everything)
    if args.list:
        return _list(ms, equivalents)
    if args.same_graph:
        return same_graph(ms, equivalents)
    stale = sorted(set(equivalents) - {m.id for m in everything})
    header = {"stages": list(stages), "golden": not args.no_golden, "commit": _commit()}
    done, passed, kept = _resumed(args, header)
    t0 = time.perf_counter()
    base_killed, why = run_mutant(None, stages[:1], golden_check=not args.no_golden)
    if base_killed:
        raise _Refused(_unmutated_failure(stages[0], why, stages), 1)
    plan = _plan(stages, ms, everything, done, passed)
    outcomes = _execute(args, header, stages, ms, (done, passed, kept), plan, equivalents)
    return _report(outcomes, ms, stale, stages, args, time.perf_counter() - t0)
