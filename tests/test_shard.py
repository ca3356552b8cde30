"""The sharded search (simulator/verify/shard.py, issue 13): one position explored by several workers with
hash-partitioned visited sets, level by level, gives exactly the one-core search's result: the same states
(node ids), transitions, graph, shortest-trace tree, coverage, and the same violations with the same shortest
counterexamples (313.2, 347.2.a broken on purpose). The one-core search is the same loop with one shard, so
both are also checked against a plain breadth-first search written here (:func:`reference`)."""
from __future__ import annotations

import functools

import pytest

from fixtures import broken_rule
from simulator.core import registry
from simulator.rules import install
from simulator.verify import command as verify
from simulator.verify.cluster import InProcess, Processes
from simulator.verify.command import DEFAULT_FILES, load_positions
from simulator.verify.explore import Monitor, Position, actions_of, explore, fast_fingerprint, successor
from simulator.verify.explore import Shard, search

# exhaustive (sharded searches in processes and on a cluster, compared with one core): .ci/run's slow step
pytestmark = pytest.mark.slow

POSITIONS = {p.name: p for f in DEFAULT_FILES for p in load_positions(str(f))[0]}
install()          # the real guards and effects first: the broken ones the tests patch in then stay
DUEL = {"players": ["A", "B"], "battlefields": ["North", "South"],
        "units": [{"id": "a1", "owner": "A", "at": "base", "might": 2},
                  {"id": "b1", "owner": "B", "at": "base", "might": 1}]}


def sharded(pos, n, transport=InProcess, **kw):
    pool = transport(n, functools.partial(Shard, pos, n, graph=True, **kw))
    try:
        return search(pos, pool, limit=kw.get("limit"), keep_going=kw.get("keep_going", False))
    finally:
        pool.close()


def reference(pos):
    """A plain FIFO breadth-first search over the same successors, no invariants: (states, transitions,
    terminal, bounded, edges (v, w) in discovery order, parent and action index of every state)."""
    from collections import deque
    mon = Monitor()
    start = pos.start()
    start.coverage = mon
    ids = {fast_fingerprint(start): 0}
    parent, via, edges = [-1], [0], []
    queue = deque([(start, 0, 0)])
    transitions = terminal = bounded = 0
    while queue:
        g, v, turns = queue.popleft()
        if g.winner is not None:
            terminal += 1
            continue
        if turns >= pos.turns:
            bounded += 1
            continue
        succ = {}
        for k, a in enumerate(actions_of(g, pos.concede)):
            n = successor(g, a, mon)
            transitions += 1
            f = fast_fingerprint(n)
            if f not in ids:
                ids[f] = len(parent)
                parent.append(v)
                via.append(k)
                queue.append((n, ids[f], turns + (a.kind == "end-turn")))
            succ.setdefault(ids[f], None)
        edges += [(v, w) for w in succ]
    return len(ids), transitions, terminal, bounded, edges, parent, via


@pytest.mark.parametrize("name", ["duel-two-fronts", "war-combat-R2-defender-last-concede", "magma-chamber-concede"])
@pytest.mark.parametrize("n", [1, 2])
def test_the_search_is_a_plain_breadth_first_search(name, n):
    """One shard (the one-core explore) and two: the states, transitions, graph and shortest-trace tree of a
    plain breadth-first search (first discovery names a state)."""
    pos = POSITIONS[name]
    r = explore(pos, graph=True) if n == 1 else sharded(pos, n)
    states, transitions, terminal, bounded, edges, parent, via = reference(pos)
    assert (r.states, r.edges, r.terminal, r.bounded, r.complete) == (states, transitions, terminal, bounded, True)
    assert [(v, w) for v, w, _t in r.graph.edges()] == edges
    assert list(r.tree[0]) == parent and list(r.tree[1]) == via


def figures(r):
    return (r.states, r.edges, r.terminal, r.bounded, r.depth, r.complete)


def same(a, b):
    assert figures(a) == figures(b)
    assert a.coverage <= b.coverage and (a.violations or a.coverage == b.coverage)
    assert list(a.graph.edges()) == list(b.graph.edges()) and a.graph.flags == b.graph.flags
    assert list(a.tree[0]) == list(b.tree[0]) and list(a.tree[1]) == list(b.tree[1])
    assert [(v.invariant, v.rule, v.message, [x.describe() for x in v.actions], v.depth) for v in a.violations] == \
        [(v.invariant, v.rule, v.message, [x.describe() for x in v.actions], v.depth) for v in b.violations]


@pytest.mark.parametrize("name", ["duel-two-fronts", "skirmish-focus-holder-leaves",
                                  "war-combat-R2-defender-last-concede", "duel-action-reaction",
                                  "magma-chamber-concede"])
@pytest.mark.parametrize("n", [2, 3])
def test_sharded_search_is_the_one_core_search(name, n):
    pos = POSITIONS[name]
    same(explore(pos, graph=True), sharded(pos, n))


def test_sharded_search_in_processes_is_the_one_core_search():
    """Two forked workers (what --jobs 2 runs for a single large position): the same result."""
    pos = POSITIONS["skirmish-focus-holder-leaves"]
    same(explore(pos, graph=True), sharded(pos, 2, Processes))


@pytest.mark.parametrize("n", [1, 2, 3])
@pytest.mark.parametrize("keep_going", [False, True])
def test_broken_focus_rule_gives_the_same_violations_and_counts(monkeypatch, n, keep_going):
    """313.2 broken: the sharded search stops where the one-core search stops (after the first violating
    state), with the same counts and the same shortest traces."""
    monkeypatch.setitem(registry.EFFECTS, "focus_to_next", broken_rule.focus_moves_priority_stays)
    pos = Position("duel", DUEL, turns=2)
    depth = 8 if keep_going else None              # the broken rule makes the space unbounded: keep_going bounded
    a = explore(pos, graph=True, keep_going=keep_going, max_depth=depth)
    b = sharded(pos, n, keep_going=keep_going, max_depth=depth)
    assert a.violations and any(v.invariant == "Showdown Open: the focus holder has priority" for v in b.violations)
    same(a, b)


def test_broken_focus_round_is_caught_by_the_monitor_in_every_shard(monkeypatch):
    """347.2.a broken: a transition monitor's finding, same trace (A move a1 North, A pass)."""
    monkeypatch.setitem(registry.GUARDS, "all_passed_focus", broken_rule.one_pass_ends_showdown)
    pos = Position("duel", DUEL, turns=1)
    a, b = explore(pos, graph=True), sharded(pos, 2)
    same(a, b)
    v = next(v for v in b.violations if v.invariant == "a showdown ends after a full round of focus passes")
    assert [x.describe() for x in v.actions] == ["A move a1 North", "A pass"]


def test_a_state_bound_stops_at_a_level():
    """max_states is checked per level: the search stops incomplete, every discovered state a node."""
    r = sharded(POSITIONS["duel-two-fronts"], 2, limit=300)
    assert not r.complete and r.states >= 300 and list(r.graph.ids) == sorted(r.graph.ids)
    assert len(r.graph) == r.states


def test_jobs_share_a_single_position(capsys):
    """--jobs 2 on one position explores it with both workers: the figures of --jobs 1."""
    pos = [POSITIONS["skirmish-focus-holder-leaves"]]
    a, = verify.run_positions(pos, jobs=1, graph=True)
    b, = verify.run_positions(pos, jobs=2, graph=True)
    assert figures(a) == figures(b) and a.coverage == b.coverage
    assert (a.analysis.sccs, a.analysis.edges, a.analysis.sinks) == (b.analysis.sccs, b.analysis.edges, b.analysis.sinks)


def test_positions_run_largest_first_results_in_file_order():
    ps = [Position("small", DUEL, turns=1, states=10), Position("big", DUEL, turns=2, states=99)]
    rs = verify.run_positions(ps, jobs=2)
    assert [r.position for r in rs] == ["small", "big"]
    assert [r.states for r in rs] == [r.states for r in verify.run_positions(ps, jobs=1)]


def test_sharded_search_on_a_local_two_worker_dask_cluster():
    """--cluster: the same sharded search as Dask actors on a local cluster of two worker processes
    (loopback only), the one-core result; the CLI prints the one-core figures."""
    distributed = pytest.importorskip("distributed", reason="the cluster extra: pip install -e '.[cluster]'")
    from simulator.verify.cluster import DaskActors, same_hash_seed
    pos = POSITIONS["skirmish-focus-holder-leaves"]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, worker_dashboard_address=None) as lc, \
            distributed.Client(lc) as client:
        stable = not same_hash_seed(client)
        pool = DaskActors(client, 2, functools.partial(Shard, pos, 2, graph=True, stable=stable))
        b = search(pos, pool)
        pool.close()
        a = explore(pos, graph=True)
        assert figures(a) == figures(b) and a.coverage == b.coverage
        assert list(a.graph.edges()) == list(b.graph.edges())
        two = [pos, POSITIONS["duel-two-fronts"]]
        rs = verify.run_positions(two, cluster=lc.scheduler_address, graph=True)
        assert [figures(r) for r in rs] == [figures(explore(p)) for p in two]


@pytest.mark.parametrize("n", [1, 2])
def test_collapsed_levels_explore_the_same_space(monkeypatch, n):
    """Every level held collapsed (its states' parts shared, simulator/verify/compact.py): the same search."""
    from simulator.verify import explore as shard
    pos = POSITIONS["war-combat-R2-defender-last-concede"]
    a = sharded(pos, n)
    monkeypatch.setattr(shard, "COLLAPSE_FROM", 0)
    b = sharded(pos, n)
    same(a, b)
    assert a.coverage == b.coverage


@pytest.mark.parametrize("n", [2, 3, 4])
def test_rebalanced_states_are_expanded_where_they_land(monkeypatch, n):
    """The rebalance between levels evens the states to expand out to the mean (each shard above it gives its
    excess, the shards below take it with their next level): states do move, every one is expanded once, and
    the result is the one-core search's; without a rebalance too."""
    moved: list[int] = []
    give = Shard.give

    def counting(self, counts):
        moved.append(sum(counts))
        return give(self, counts)
    monkeypatch.setattr(Shard, "give", counting)
    pos = POSITIONS["war-combat-R2-defender-last-concede"]
    one = explore(pos, graph=True)
    same(one, sharded(pos, n))
    assert sum(moved) > 0
    pool = InProcess(n, functools.partial(Shard, pos, n, graph=True))
    try:
        same(one, search(pos, pool, rebalance=False))
    finally:
        pool.close()


def test_rebalance_plan_evens_out_to_the_mean():
    """Shards above the mean give, those below take, nobody does both (no state moves twice in a level)."""
    from simulator.verify.explore import _rebalance

    class Pool:
        def __init__(self):
            self.calls = []

        def call_one(self, s, method, counts):
            self.calls.append((s, counts))
            return [b"x" if c else b"" for c in counts]
    pool = Pool()
    gifts, sizes = _rebalance(pool, [100, 0, 60, 40], [100, 0, 60, 40])
    assert pool.calls == [(0, [0, 50, 0, 0]), (2, [0, 0, 0, 10])]
    assert sizes == [50, 50, 50, 50] and [len(g) for g in gifts] == [0, 1, 0, 1]
    pool = Pool()
    assert _rebalance(pool, [40, 41], [40, 41]) == ([[], []], [40, 41]) and not pool.calls


def test_the_next_frontier_is_known_before_the_shards_settle(monkeypatch):
    """Step 3 (assign) tells the coordinator each shard's next frontier and the states of it to expand, exactly
    as settle then finds them, so a level with no rebalance due is settled and the next one expanded in one
    call (``settle_level``: three round trips a level instead of four); the result is the one-core search's."""
    from simulator.verify import explore as shard
    said, settled, combined = [], [], []
    exchange, settle, settle_level = shard._exchange, Shard.settle, Shard.settle_level

    def told(*args):
        r = exchange(*args)
        said.append((r[2], r[3]))
        return r

    def settling(self, replies):
        r = settle(self, replies)
        settled.append(r)
        return r

    def both(self, job):
        combined.append(self.me)
        return settle_level(self, job)
    monkeypatch.setattr(shard, "_exchange", told)
    monkeypatch.setattr(Shard, "settle", settling)
    monkeypatch.setattr(Shard, "settle_level", both)
    pos = POSITIONS["war-combat-R2-defender-last-concede"]
    same(explore(pos, graph=True), sharded(pos, 2))
    assert said == [([a[0], b[0]], [a[1], b[1]]) for a, b in zip(settled[::2], settled[1::2])]
    assert combined and len(combined) < len(settled)



def test_a_dask_shard_runs_each_method_with_the_collector_off():
    """cluster._Actor (a shard in a Dask worker): the cyclic GC is off while a shard method runs, as in the forked
    workers, and as it was again afterwards (the worker is not the search's alone); a method's error still raises."""
    import gc
    from simulator.verify.cluster import _Actor

    class Probe:
        def state(self):
            return gc.isenabled()

        def fail(self):
            raise ValueError("shard failed")

    actor = _Actor(lambda i: Probe(), 0)
    was = gc.isenabled()
    try:
        gc.enable()
        assert actor.call("state") is False and gc.isenabled()
        with pytest.raises(ValueError, match="shard failed"):
            actor.call("fail")
        assert gc.isenabled()
        gc.disable()
        assert actor.call("state") is False and not gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
