"""Bounded exhaustive exploration of the simulator: breadth-first over game states, invariants everywhere.

From a starting position (the scenario format's setup keys), every legal action of every player
(``actions.legal(state, p, moves="single")``: a compact move expanded
to one move per unit and destination) is applied with the engine's own ``check``,
``perform`` and ``settle``; states are deduplicated by a 56-bit fingerprint of ``State.key()``
(Python's tuple hash; the stable blake2b one only names the nodes of an ``--export``). Breadth-first
order makes every counterexample trace a shortest one.

Memory: the visited set holds only fingerprints (a dict fingerprint -> node id when the graph is kept);
the shortest-trace tree is two flat arrays (parent index, action index in the parent's action list),
so a trace is rebuilt by replaying the action indices from the start. Full states live only in the
BFS frontier; the graph is flat arrays (:mod:`simulator.verify.stategraph`).
:mod:`simulator.verify.shard` runs the same search on several cores or a cluster.

Checks:

* state invariants (:data:`INVARIANTS`), each citing its rule, evaluated on every distinct state;
* transition monitors (:class:`Monitor`): every declared transition the engine fires is recorded
  as coverage ``(leaf, source, trigger, dest, guards)`` and checked at the moment it fires
  (combat damage with a chain, a showdown ending without a full round of focus passes);
* an engine error (``RulesBug`` or any exception) while computing a successor is a violation too.
"""
from __future__ import annotations

import gc
import hashlib
import time
from array import array
from collections import deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from statecharts.turn import NEUTRAL_OPEN, SHOWDOWN_OPEN
from statecharts.states import ChainState, CombatStep, FocusState, Mode, Phase, Status, Window

from simulator.game import engine
from simulator.rules.damage import assigner
from simulator.game.actions import Action, legal
from simulator.rules.triggers import deciding, orderer
from simulator.core.errors import IllegalAction
from simulator.core.model import State
from simulator.game.setup import build, to_card
from simulator.core.cards import CATALOGUE

if TYPE_CHECKING:
    from simulator.verify.stategraph import Analysis, StateGraph

ONGOING = (Status.Showdown, Status.ShowdownCombatStaged, Status.Combat, Status.Settled)


MASK = (1 << 56) - 1


def fingerprint(g: State) -> int:
    """A 56-bit blake2b fingerprint of the state's identity: the same in every run and process (graph node ids)."""
    return int.from_bytes(hashlib.blake2b(repr(g.key()).encode(), digest_size=7).digest(), "big")


def fast_fingerprint(g: State) -> int:
    """56 bits of Python's tuple hash of the identity: only compared within one process, 20x cheaper than
    :func:`fingerprint`. A 56-bit int is a 32-byte object; a collision among 10^6 states has odds ~7e-6."""
    return hash(g.key()) & MASK


# -- state invariants ----------------------------------------------------------------------------
# Each takes (state, actors) where actors maps every player in the game to their legal actions
# other than concede; it returns None or a one-line description of the violation.

def _one_active(g: State, actors) -> str | None:
    active = [b for b in g.bfs if g.ms[("battlefield.status", b)] in ONGOING]
    if len(active) > 1:
        return f"{len(active)} showdowns or combats are active at once: {', '.join(active)}"
    showdown = g.ms[("turn.mode", None)] == Mode.Showdown
    if active and (g.active != active[0] or not showdown):
        return f"{active[0]} is active but the turn is {g.turn_state()} with active={g.active}"
    if not active and showdown:
        return "the turn is in a Showdown state but no battlefield has an active showdown or combat"
    if g.ms[("combat", None)] != CombatStep.Idle and not (active and g.ms[("battlefield.status", active[0])] in (Status.Combat, Status.Settled)):
        return f"combat step {g.ms[('combat', None)]} with no active combat"
    return None


def _focus_priority(g: State, actors) -> str | None:
    if g.winner is None and not g.choosing and g.turn_state() == SHOWDOWN_OPEN and assigner(g) is None and \
            (g.focus is None or g.priority != g.focus):
        return f"Showdown Open: focus is {g.focus} but priority is {g.priority}"
    return None


def _neutral_no_focus(g: State, actors) -> str | None:
    if g.ms[("turn.mode", None)] == Mode.Neutral and (g.focus is not None or g.ms[("focus", None)] != FocusState.Off):
        return f"Neutral state but {g.focus} has focus (focus machine {g.ms[('focus', None)]})"
    return None


def _chain_closed(g: State, actors) -> str | None:
    if g.winner is not None:
        return None                  # the game is over (323.1, 651.1): nothing is Open or Closed any more
    window = g.ms[("turn.window", None)]
    if bool(g.chain or g.resolving) != (window == Window.Closed):    # an item waiting mid-resolution is on it
        return f"the chain has {len(g.chain)} item(s) but the state is {window}"
    return None


def _no_standard_move(g: State, actors) -> str | None:
    st = g.turn_state()
    if st != NEUTRAL_OPEN:
        for acts in actors.values():
            for a in acts:
                if a.kind == "move":
                    return f"{a.describe()} is legal in a {st} state"
    return None


def _one_actor(g: State, actors) -> str | None:
    who = [p for p, acts in actors.items() if acts]
    if g.winner is not None:
        return f"the game is over but {', '.join(who)} can still act" if who else None
    if len(who) > 1:
        return f"{len(who)} players can act at once: {', '.join(who)}"
    if who:
        mid = g.resolving.item if g.ms[("chain", None)] == ChainState.ResolveChoice and g.resolving else None
        orders = None if mid else orderer(g)      # a may while resolving comes first (383.3.a.3, 158.3)
        decides = deciding(g) if g.ms[("chain", None)] == ChainState.Decide else mid
        assigns = assigner(g)
        expected = g.turn if g.choosing else orders or (decides.controller if decides else assigns or g.priority)
        if who[0] != expected:
            role = "the chooser" if g.choosing else "the orderer" if orders else \
                "the decider (383.3.a)" if decides else "the assigner" if assigns else "priority"
            return f"{who[0]} can act but {role} is {expected}"
    return None


def _no_deadlock(g: State, actors) -> str | None:
    if g.winner is None and not any(actors.values()):
        return (f"deadlock: nobody can act (state {g.turn_state()}, priority {g.priority}, focus {g.focus}, "
                f"chain {len(g.chain)})")
    return None


def _no_stale_holder(g: State, actors) -> str | None:
    if g.winner is not None:
        return None
    left = set(g.order) - set(g.in_game())
    for what, who in (("priority", g.priority), ("focus", g.focus), ("invited", g.invited),
                      ("turn", None if g.handoff else g.turn)):
        if who in left:
            return f"{who} has left the game but still holds {what}"
    return None


def _contested_not_resting(g: State, actors) -> str | None:
    for b in g.bfs:
        if g.ms[("battlefield.status", b)] == Status.Contested and g.winner is None:
            return f"{b} rests Contested after the cleanups: it should have been staged or cleared"
    return None


WAITING = (Status.Contested, Status.Staged, Status.StagedCombat)


def _settled_not_contested(g: State, actors) -> str | None:
    """190.3.b, 348.2.a (R6): once control is settled (one player's units remain and that player controls the
    battlefield) it is no longer Contested, nor a showdown or combat staged there. After a win (the cleanup
    stops at its win check, 323.1) only Contested is checked: a concession may leave a staged combat behind."""
    for b, bf in g.bfs.items():
        st = g.ms[("battlefield.status", b)]
        if (st == Status.Contested if g.winner is not None else st in WAITING) and bf.controller is not None and g.players_at(b) == [bf.controller]:
            return f"control of {b} is settled ({bf.controller} controls it and alone has units there) but it is {st}"
    return None


def _win_is_game_over(g: State, actors) -> str | None:
    """323.1, 651.1, 194.2: a win ends the game; the turn cycle is over (GameOver) exactly when someone has won."""
    phase = g.ms[("phases", None)]
    if (g.winner is not None) != (phase == Phase.GameOver):
        return f"winner {g.winner} but the phase is {phase}"
    return None


#: (name, rule ids, check): the state invariants of the verification issue (and the last one, the
#: evidence that the R9 reset of a Contested battlefield cannot happen: see simulator/verify/positions/positions.yaml)
INVARIANTS = (
    ("one active showdown or combat", "308, 323.12, 323.13, 460", _one_active),
    ("Showdown Open: the focus holder has priority", "313.2", _focus_priority),
    ("Neutral: nobody has focus", "313.5, 348", _neutral_no_focus),
    ("the chain is non-empty iff the state is Closed", "309, 329.1, 340.2", _chain_closed),
    ("no standard move in a showdown or Closed state", "144, 308.1.a, 309.1.a", _no_standard_move),
    ("exactly one player can act", "312.2, 313.2, 323.12", _one_actor),
    ("no deadlock", "334, 335.1", _no_deadlock),
    ("nobody who left holds priority, focus or the turn", "652.5, R10", _no_stale_holder),
    ("Contested is staged or cleared before anyone acts", "322, 323.8, 323.11", _contested_not_resting),
    ("a battlefield whose control is settled is not Contested", "190.3.b, 348.2.a, R6", _settled_not_contested),
    ("the phase is GameOver exactly when someone has won", "323.1, 651.1, 194.2", _win_is_game_over),
)


class Monitor:
    """Coverage recorder and transition monitor: the engine calls ``add`` for every fired transition.

    Installed as ``state.coverage`` on the start state (clones share it); ``g`` is set to the state
    being computed before each successor, so the checks see the state at the moment of firing.
    """

    def __init__(self) -> None:
        self.seen: set[tuple] = set()
        self.g: State | None = None
        self.found: list[tuple[str, str, str]] = []
        self.main_started = False
        self.status: dict[str, str] | None = {}   # battlefield -> status when last seen (which one a fire changed)
        self.before: dict | None = None           # the machine states the step began in (status, lazily)
        self.cleared: set[str] = set()            # battlefields whose waiting Contested ended in this step

    WATCHED = frozenset(("combat", "focus", "turn.mode", "phases", "battlefield.status"))

    def start(self, g: State, before: dict | None = None) -> None:
        """A step begins from ``g``. ``before``: machine states equal to ``g``'s now that nothing will change
        (the parent's, for a successor computed on a clone): the battlefield statuses are then read from it
        only if a status transition fires (most steps fire none)."""
        self.g = g
        self.main_started = False
        if self.cleared:
            self.cleared = set()
        if before is None:
            self.status = {b: g.ms[("battlefield.status", b)] for b in g.bfs}
        else:
            self.status, self.before = None, before

    def add(self, rec: tuple) -> None:
        self.seen.add(rec)
        g = self.g
        if rec[0] in self.WATCHED and g is not None:
            self.check(g, rec)

    def recorder(self, leaf: str):
        """What records ``leaf``'s transitions: ``add`` for a watched leaf, else the plain set's ``add``
        (the generated cleanup loop asks once per run: same records, no monitor call per step)."""
        return self.add if leaf in self.WATCHED else self.seen.add

    def check(self, g: State, rec: tuple) -> None:
        leaf, source, trigger, dest = rec[0], rec[1], rec[2], rec[3]
        if leaf == "combat" and dest == CombatStep.DamageStep and g.chain:
            self.found.append(("combat damage never with a chain", "465.1, 465.3",
                               f"combat damage is dealt at {g.active} with {len(g.chain)} item(s) on the chain"))
        elif leaf == "focus" and source == FocusState.Holding and dest == FocusState.Off:
            missing = [p for p in g.in_game() if p not in g.focus_passed]
            if missing:
                self.found.append(("a showdown ends after a full round of focus passes", "347.2.a, 348",
                                   f"the showdown's focus round ends ({trigger}) but {', '.join(missing)} "
                                   f"did not pass focus"))
        elif leaf == "battlefield.status":
            if self.status is None:
                before = self.before
                assert before is not None
                self.status = {b: before[("battlefield.status", b)] for b in g.bfs}
            for b, was in self.status.items():
                now = g.ms[("battlefield.status", b)]
                if now != was:
                    self.status[b] = now
                    if now == Status.Calm and was in WAITING and trigger != "reset":
                        self.cleared.add(b)
        elif leaf == "phases" and dest == Phase.Main and source != Phase.Main:
            self.main_started = True                     # checked once the step is over (see ``after``)
        elif leaf == "turn.mode" and dest == Mode.Neutral and g.ms[("focus", None)] != FocusState.Off:
            self.found.append(("a showdown ends after a full round of focus passes", "347.2.a, 348",
                               f"the turn becomes Neutral while focus is {g.ms[('focus', None)]}"))

    def after(self, g: State) -> None:
        """Checks on the state a step ended in, for transitions fired during it (their effects have run)."""
        if self.main_started:
            self.main_started = False
            full = {p: n for p, n in g.energy.items() if n}
            if full and g.ms[("phases", None)] == Phase.Main:
                self.found.append(("rune pools are empty when a Main Phase starts", "316.1",
                                   f"the Main Phase of {g.turn} began with energy in the pool: {full}"))
        if not self.cleared:
            return
        for b in sorted(self.cleared):
            claimants = [p for p in g.players_at(b) if p != g.bfs[b].controller]
            if g.winner is None and claimants and g.ms[("battlefield.status", b)] == Status.Calm:
                self.found.append(("a cleared Contested is re-applied where a player lacks control", "323.11.a",
                                   f"Contested was removed from {b} but {claimants[0]}'s units remain there, "
                                   f"which {claimants[0]} doesn't control"))
        self.cleared = set()


# -- positions, results ----------------------------------------------------------------------------

@dataclass
class Position:
    """A starting position (scenario setup keys) and its exploration bounds."""

    name: str
    setup: dict
    turns: int = 2                 # states after this many end-turns (on their shortest path) are not expanded
    concede: bool = False          # explore concede too
    max_states: int = 200_000
    rulings: dict = field(default_factory=dict)
    states: int = 0                # the state count of the last run (explore: states:): schedules the largest first

    def start(self, backend: str = "compiled") -> State:
        cards = {**CATALOGUE, **{cid: to_card(cid, c) for cid, c in (self.setup.get("cards") or {}).items()}}
        g = build(self.setup, backend=backend, rulings=self.rulings or None, cards=cards)
        g.events_on = False
        g.trace = []
        return g


@dataclass
class Violation:
    invariant: str
    rule: str
    message: str
    position: str
    actions: list                  # the shortest trace: Actions from the start
    depth: int = 0


@dataclass
class Result:
    position: str
    states: int = 0
    edges: int = 0
    depth: int = 0
    bounded: int = 0               # states not expanded: turn, depth or state bound
    terminal: int = 0
    seconds: float = 0.0           # wall time of the search
    cpu: float = 0.0               # CPU time of the search (throughput per core, even on a busy machine)
    coverage: set = field(default_factory=set)
    violations: list = field(default_factory=list)
    graph: StateGraph | None = None     # the StateGraph when asked (simulator/verify/stategraph.py)
    analysis: Analysis | None = None    # its Analysis, computed where the search ran
    tree: tuple | None = None      # (parent, via) arrays of the shortest-trace tree, with the graph
    examples: dict = field(default_factory=dict)    # node id -> stable fingerprint (the analysis' examples)
    visited_bytes: int = 0         # bytes of the visited set + trace tree, when asked
    complete: bool = True          # False if max_states stopped the search


def actions_of(g: State, concede: bool) -> list[Action]:
    """Every player's legal actions in a fixed order (the order the trace tree indexes)."""
    out: list[Action] = []
    for p in g.in_game():
        for a in legal(g, p, moves="single"):
            if concede or a.kind != "concede":
                out.append(a)
    return out


def successor(g: State, a: Action, mon: Monitor) -> State:
    """``engine.step`` with the monitor pointed at the new state while it is computed, for an action of
    :func:`actions_of`: without ``step``'s second ``check`` of it (``legal`` is ``check`` applied to the
    candidates, whose shapes are legal by construction: tests/test_successor.py checks both agree on the
    explored states). An ``IllegalAction`` that ``perform`` raises is still the explorer's finding."""
    n = g.clone()
    mon.start(n, g.ms)                   # g is not changed by computing its successor (copy-on-write units)
    try:
        engine.perform(n, a)
        engine.settle(n)
    finally:
        mon.g = None
    mon.after(n)
    return n


def state_findings(g: State, acts: list[Action]) -> list[tuple[str, str, str]]:
    """The state invariants ``g`` breaks, (name, rule, message) in :data:`INVARIANTS` order."""
    actors = {p: [a for a in acts if a.player == p and a.kind != "concede"] for p in g.in_game()}
    out = []
    for name, rule, check in INVARIANTS:
        msg = check(g, actors)
        if msg:
            out.append((name, rule, msg))
    return out


def try_successor(g: State, a: Action, mon: Monitor) -> tuple[State | None, tuple | None]:
    """The successor of ``g`` by ``a`` and the first transition finding of the step (or None): an action
    ``legal`` listed but ``check`` refused, an engine crash, or a monitor's finding."""
    try:
        n = successor(g, a, mon)
    except IllegalAction as e:   # legal() said yes, check() says no: a rules bug
        mon.found.append(("legal actions are accepted", "410", f"{a.describe()} listed as legal but rejected: {e}"))
        n = None
    except Exception as e:  # noqa: BLE001 - an engine crash is a finding, with its trace
        mon.found.append(("the engine never fails", "334", f"{a.describe()}: {type(e).__name__}: {e}"))
        n = None
    found = mon.found[0] if mon.found else None
    mon.found.clear()
    return n, found


def node_attrs(g: State, depth: int) -> tuple:
    """What ``--export`` writes about a state besides its flags."""
    return (depth, g.turn_state(), g.turn)


def explore(pos: Position, *, max_states: int | None = None, max_depth: int | None = None,
            graph: bool = False, measure: bool = False, backend: str = "compiled",
            keep_going: bool = False, labels: bool = False) -> Result:
    """Breadth-first exploration of ``pos`` within its bounds, on one core.

    Stops at the first violation (as TLC does: a broken rule can make the space unbounded), unless
    ``keep_going``, which keeps the first violation of each kind. ``graph``: keep the state space as a
    :class:`~simulator.verify.stategraph.StateGraph` (node ``i`` = the ``i``-th state discovered);
    ``labels``: with the actions, turn states and stable fingerprints ``--export`` writes.
    """
    from simulator.verify.stategraph import BOUNDED, TERMINAL, StateGraph
    limit = max_states or pos.max_states
    res = Result(pos.name)
    mon = Monitor()
    start = pos.start(backend)
    start.coverage = mon
    fp = fast_fingerprint
    parent = array("l")         # index -> parent index
    via = array("H")            # index -> action index in the parent's action list
    seen: set[int] | dict[int, int]
    f0 = fp(start)
    seen = {f0: 0} if graph else {f0}
    parent.append(-1)
    via.append(0)
    sg = StateGraph(labels) if graph else None
    queue = deque([(start, 0, 0, 0)])   # state, index, depth, end-turns
    kinds: set[str] = set()
    t0, c0 = time.perf_counter(), time.process_time()
    gc_was = gc.isenabled()
    gc.disable()
    try:
        while queue:
            if res.violations and not keep_going:
                res.complete = False
                break
            g, idx, depth, turns = queue.popleft()
            res.depth = max(res.depth, depth)
            acts = actions_of(g, pos.concede)
            for name, rule, msg in state_findings(g, acts):
                if name not in kinds:
                    kinds.add(name)
                    res.violations.append(Violation(name, rule, msg, pos.name, _trace(pos, parent, via, idx,
                                                                                     backend), depth))
            terminal = g.winner is not None
            stop = (turns >= pos.turns or (max_depth is not None and depth >= max_depth)
                    or len(seen) >= limit)
            if sg is not None:
                sg.node(idx, TERMINAL if terminal else BOUNDED if stop else 0,
                        node_attrs(g, depth) if labels else (), fingerprint(g) if labels else 0)
            if terminal:
                res.terminal += 1
                continue
            if stop:
                res.bounded += 1
                if len(seen) >= limit:
                    res.complete = False
                continue
            for k, a in enumerate(acts):
                n, found = try_successor(g, a, mon)
                res.edges += 1
                if found:
                    name, rule, msg = found
                    if name not in kinds:
                        kinds.add(name)
                        res.violations.append(Violation(name, rule, msg, pos.name,
                                                        _trace(pos, parent, via, idx, backend) + [a], depth + 1))
                if n is None:
                    continue
                f = fp(n)
                old = seen.get(f) if sg is not None else (f if f in seen else None)   # type: ignore[union-attr]
                if old is None:
                    new = len(parent)
                    if sg is not None:
                        seen[f] = new                                              # type: ignore[index]
                    else:
                        seen.add(f)                                                # type: ignore[union-attr]
                    parent.append(idx)
                    via.append(k)
                    queue.append((n, new, depth + 1, turns + (a.kind == "end-turn")))
                if sg is not None:
                    sg.edge(new if old is None else old, a.kind == "end-turn", a.describe() if labels else "")
    finally:
        if gc_was:
            gc.enable()
    res.bounded += len(queue)                            # left unexpanded by a stop: at the bound too
    if sg is not None:
        for g, idx, depth, _turns in queue:
            sg.node(idx, TERMINAL if g.winner is not None else BOUNDED,
                    node_attrs(g, depth) if labels else (), fingerprint(g) if labels else 0)
    res.seconds = time.perf_counter() - t0
    res.cpu = time.process_time() - c0
    res.states = len(seen)
    res.coverage = set(mon.seen)
    if measure:
        res.visited_bytes = visited_bytes(seen, parent, via) + (sg.nbytes() if sg is not None else 0)
    res.graph = sg
    if sg is not None:
        res.tree = (parent, via)
    return res


def visited_bytes(seen: set | dict, *arrays) -> int:
    """Bytes held by the visited set and the trace tree: the set's table, its int objects, the arrays."""
    import sys
    total = sys.getsizeof(seen) + sum(sys.getsizeof(f) for f in seen)
    return total + sum(a.itemsize * len(a) + 64 for a in arrays)


def _trace(pos: Position, parent, via, idx: int, backend: str) -> list[Action]:
    """The shortest trace to state ``idx``: replay the recorded action indices from the start."""
    return replay(pos, parent, via, idx, backend)[0]


def replay(pos: Position, parent, via, idx: int, backend: str = "compiled") -> tuple[list[Action], State]:
    """The shortest trace to state ``idx`` and the state it ends in (``parent``, ``via``: indexable by id)."""
    path = []
    while parent[idx] >= 0:
        path.append(via[idx])
        idx = parent[idx]
    path.reverse()
    g = pos.start(backend)
    out = []
    for k in path:
        a = actions_of(g, pos.concede)[k]
        out.append(a)
        g = engine.step(g, a)
    return out, g
