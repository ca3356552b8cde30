"""Bounded exhaustive exploration of the simulator: breadth-first over game states, invariants everywhere.

From a starting position (the scenario format's setup keys), every legal action of every player
(``actions.legal(state, p, moves="single")``: a compact move expanded
to one move per unit and destination) is applied with the engine's own ``check``,
``perform`` and ``settle``; states are deduplicated by a 60-bit fingerprint of ``State.key()``, or with a
position's ``symmetry`` of its identity up to interchangeable battlefields (``simulator.verify.symmetry``)
(Python's tuple hash; the stable blake2b one only names the nodes of an ``--export``). Breadth-first
order makes every counterexample trace a shortest one.

Memory: the visited set holds only fingerprints (a dict fingerprint -> node id); the shortest-trace tree
is two flat arrays (parent index, action index in the parent's action list), so a trace is rebuilt by
replaying the action indices from the start; the graph is flat arrays (:mod:`simulator.verify.stategraph`).
Full states live only in the frontier and among the successors of the level being expanded; a state is let
go once expanded, and a large level's states share their parts (:mod:`simulator.verify.compact`). A state
that will never be expanded (terminal, or at the turn or depth bound) is checked as soon as it is known to be
new and only its outcome is kept (:class:`Checked`).
One loop (:class:`Shard`, :func:`search`, below) runs the search on one core, several, or a cluster.

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
import marshal
import pickle
import time
from array import array
from bisect import bisect_left
from collections import deque
from itertools import compress, repeat
from operator import and_, itemgetter, not_, rshift, xor
from dataclasses import dataclass, field
from typing import Callable, Sequence

from statecharts.citations import cite
from statecharts.turn import NEUTRAL_OPEN, SHOWDOWN_OPEN
from statecharts.states import CombatStep, FocusState, Mode, Phase, Status, Window

from simulator.game import engine, loops
from simulator.game import start as midtiming
from simulator.game.actions import Action, legal
from simulator.rules.damage import assigner
from simulator.game.decision import decision as decide
from simulator.rules.zones import census
from simulator.core.errors import IllegalAction, Loop
from simulator.core.model import State
from simulator.core.cards import to_card
from simulator.game.setup import build
from simulator.core.catalogue import every
from simulator.verify import unpickle
from simulator.verify.compact import Collapser
from simulator.verify.symmetry import identity
from simulator.verify.stategraph import BOUNDED, TERMINAL, Analysis, StateGraph, merge
from simulator.verify.visited import compacted, nbytes
from simulator.verify.packed import Packed, Packer, unpacked, clear_cache

ONGOING = (Status.Showdown, Status.ShowdownCombatStaged, Status.Combat, Status.Settled, Status.CombatRestaged)


MASK = (1 << 60) - 1       # the widest fingerprint that is still a 32-byte int (two 30-bit digits)


def fingerprint(g: State) -> int:
    """A 56-bit blake2b fingerprint of the state's identity: the same in every run and process (graph node ids)."""
    return int.from_bytes(hashlib.blake2b(repr(g.key()).encode(), digest_size=7).digest(), "big")


def fast_fingerprint(g: State) -> int:
    """60 bits of Python's tuple hash of the identity: only compared within one process, 20x cheaper than
    :func:`fingerprint`. Hash compaction (SPIN's): two distinct states with one fingerprint would make the search
    miss the second; among N states the odds of any such pair are about N^2 / 2^61: 4e-7 for 10^6 states,
    4e-5 for 10^7, 7e-4 for 4 x 10^7 (docs/performance.md)."""
    return hash(g.key()) & MASK


def fast_symmetric(g: State) -> int:
    """:func:`fast_fingerprint` of the identity up to interchangeable battlefields (``simulator.verify.symmetry``)."""
    return hash(identity(g)) & MASK


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
    if g.ms[("combat", None)] != CombatStep.Idle and not _combat_active(g, active):
        return f"combat step {g.ms[('combat', None)]} with no active combat"
    return None


def _combat_active(g: State, active: list[str]) -> bool:
    return bool(active) and g.ms[("battlefield.status", active[0])] in (Status.Combat, Status.Settled,
                                                                         Status.CombatRestaged)


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
    """312.2, 313.2, 323.12: only the player :func:`simulator.game.decision.decision` names may do more than
    concede (the one place that says who must decide what now)."""
    who = [p for p, acts in actors.items() if acts]
    if g.winner is not None:
        return f"the game is over but {', '.join(who)} can still act" if who else None
    if len(who) > 1:
        return f"{len(who)} players can act at once: {', '.join(who)}"
    d = decide(g)
    if who and (d is None or who[0] != d.player):
        return f"{who[0]} can act but the decision ({d.kind if d else 'none'}) is {d.player if d else 'nobody'}'s"
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
#: the combat steps whose way out is a task of the Resolution step after a chain window (466.2, 466.4, 466.6)
RESOLUTION_TASKS = (CombatStep.ResolutionStep, CombatStep.Result, CombatStep.Control)


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


def _one_zone(g: State, actors) -> str | None:
    """108, Z1: a card is in exactly one zone: no id is listed twice in the hands, decks, trashes, banishments and
    facedown cards; a unit's or gear's card is listed exactly where its ``zone`` says (its owner's), and never
    while on the board. Only in a game that models its zones."""
    if not g.cfg.zones:
        return None
    where: dict[str, list] = {}
    for p, h in g.hands.items():
        for c in h:
            where.setdefault(c, []).append(("hand", p))
    for (z, p), cs in g.piles.items():
        for c in cs:
            where.setdefault(c, []).append((z, p))
    for _, p, c, _ in g.hidden:
        where.setdefault(c, []).append(("hidden", p))
    for c, places in where.items():
        if (c in g.units or c in g.cfg.ids) and len(places) > 1:
            return f"{c} is in {len(places)} zones: {places}"
    return _unit_cards_placed(g, where)


def _unit_cards_placed(g: State, where: dict) -> str | None:
    """The part of :func:`_one_zone` about units and gear: each one's card is where its ``zone`` says."""
    for u in g.units.values():
        at = where.get(u.id, [])
        if u.zone == "board" and at:
            return f"{u.id} is on the board and in {at}"
        listed = u.zone in ("hand", "trash", "banished") or (u.zone == "deck" and ("deck", u.owner) in g.piles)
        if listed and not u.token and at and at != [(u.zone, u.owner)]:
            return f"{u.id} reports zone {u.zone} but its card is in {at}"
    return None


def _cards_conserved(g: State, actors) -> str | None:
    """Z1: the number of cards is conserved, except where a rule creates or removes one (``State.made``); a player
    leaving the game removes their cards (652.3), after which it is not checked."""
    if not g.cfg.zones or len(g.in_game()) < len(g.order):
        return None
    n, want = census(g), g.cfg.start_cards + g.made
    return None if n == want else f"the game holds {n} cards, {want} expected ({g.made:+d} made by rules)"


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
    ("a card is in exactly one zone", "108, 056, 124", _one_zone),
    ("cards are conserved except where a rule creates or removes one", "108, 186.1, 652.3", _cards_conserved),
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
        self.CHECKS[rec[0]](self, g, rec[1], rec[2], rec[3])

    def _combat(self, g: State, source, trigger: str, dest) -> None:
        if dest == CombatStep.DamageStep and g.chain:
            self.found.append(("combat damage never with a chain", "465.1, 465.3",
                               f"combat damage is dealt at {g.active} with {len(g.chain)} item(s) on the chain"))
        elif source in RESOLUTION_TASKS and g.chain:
            self.found.append(("the combat's result, control and end wait for an empty chain", "466.2, 466.4, 466.6",
                               f"combat {trigger} at {g.active} with {len(g.chain)} item(s) on the chain"))

    def _focus(self, g: State, source, trigger: str, dest) -> None:
        if source == FocusState.Holding and dest == FocusState.Off:
            missing = [p for p in g.in_game() if p not in g.focus_passed]
            if missing:
                self.found.append(("a showdown ends after a full round of focus passes", "347.2.a, 348",
                                   f"the showdown's focus round ends ({trigger}) but {', '.join(missing)} "
                                   f"did not pass focus"))

    def _status(self, g: State, source, trigger: str, dest) -> None:
        """Which battlefields' waiting Contested this step cleared (checked once the step is over: ``after``)."""
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

    def _phases(self, g: State, source, trigger: str, dest) -> None:
        if dest == Phase.Main and source != Phase.Main:
            self.main_started = True                     # checked once the step is over (see ``after``)

    def _mode(self, g: State, source, trigger: str, dest) -> None:
        if dest == Mode.Neutral and g.ms[("focus", None)] != FocusState.Off:
            self.found.append(("a showdown ends after a full round of focus passes", "347.2.a, 348",
                               f"the turn becomes Neutral while focus is {g.ms[('focus', None)]}"))

    #: the check of each watched leaf's transitions, as they fire
    CHECKS = {"combat": _combat, "focus": _focus, "battlefield.status": _status, "phases": _phases,
              "turn.mode": _mode}
    WATCHED = frozenset(CHECKS)

    def after(self, g: State) -> None:
        """Checks on the state a step ended in, for transitions fired during it (their effects have run)."""
        if self.main_started:
            self.main_started = False
            self._pools_empty(g)
        if not self.cleared:
            return
        for b in sorted(self.cleared):
            claimants = [p for p in g.players_at(b) if p != g.bfs[b].controller]
            if g.winner is None and claimants and g.ms[("battlefield.status", b)] == Status.Calm:
                self.found.append(("a cleared Contested is re-applied where a player lacks control", "323.11.a",
                                   f"Contested was removed from {b} but {claimants[0]}'s units remain there, "
                                   f"which {claimants[0]} doesn't control"))
        self.cleared = set()

    def _pools_empty(self, g: State) -> None:
        full = {p: n for p, n in g.energy.items() if n}
        if full and g.ms[("phases", None)] == Phase.Main:
            self.found.append(("rune pools are empty when a Main Phase starts", "316.1",
                               f"the Main Phase of {g.turn} began with energy in the pool: {full}"))


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
    symmetry: bool = False         # states one up to a renaming of interchangeable battlefields (verify/symmetry.py)

    def start(self, backend: str = "compiled") -> State:
        cards = {**every(), **{cid: to_card(cid, c) for cid, c in (self.setup.get("cards") or {}).items()}}
        g = build(self.setup, backend=backend, rulings=self.rulings or None, cards=cards)
        g.events_on = False
        if midtiming.begin(g, self.setup):          # a start mid-timing (M1): its step 0 settles it
            engine.settle(g)
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
    peak_rss: int = 0              # peak resident bytes of the largest process the search ran in (ru_maxrss)
    complete: bool = True          # False if a bound (states, depth, time) or a violation stopped the search
    bound: str | None = None       # the bound that ended it: "states", "depth" or "time" (BOUNDS), or None
    stopped: str | None = None     # the checkpoint written when the search stopped to be resumed (checkpoint.py)


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
    except Loop as e:            # the schedule came back to a position by itself (R22)
        mon.found.append((LOOP, e.rule, f"{a.describe()}: {e.what}" + (f"; one round: {' / '.join(e.path)}"
                                                                         if e.path else "")))
        n = None
    except Exception as e:  # noqa: BLE001 - an engine crash is a finding, with its trace
        mon.found.append(("the engine never fails", "334", f"{a.describe()}: {type(e).__name__}: {e}"))
        n = None
    found = mon.found[0] if mon.found else None
    mon.found.clear()
    return n, found


#: the finding of a loop no player decision can end (ruling R22): not a broken rule, a game that is a draw
LOOP = "a loop no player decision can end"
LOOP_RULE = cite("engine.loop")
#: the forced actions a loop may take in one round, at most (each a successor computed again)
LOOP_WALK = 64


def forced_loop(s: State, mon: Monitor) -> list[Action] | None:
    """The forced actions (each the only one a player has, but conceding) that bring ``s`` back to its own
    position up to the numbering of new objects (``simulator.game.loops``): one round of a loop no player decision
    can end (R22); None if a choice, the end of the game, an end of turn or :data:`LOOP_WALK` actions come first.
    A round that ends a turn is no loop: decks are not modelled, and a real turn draws a card (the end-turn loops of
    an exhausted board are reported apart, as idle loops)."""
    start, g, path = loops.identity(s), s, []
    for _ in range(LOOP_WALK):
        acts = actions_of(g, False)
        if len(acts) != 1 or g.winner is not None or acts[0].kind == "end-turn":
            return None                  # (a turn that ends draws a card in a real game: decks are not modelled)
        n, found = try_successor(g, acts[0], mon)
        if n is None or found:
            return None
        path.append(acts[0])
        if loops.identity(n) == start:
            return path
        g = n
    return None


def loop_message(a: Action, path: list[Action]) -> str:
    return (f"after {a.describe()}, the forced actions {'; '.join(x.describe() for x in path)} come back to the "
            f"same position (up to the numbering of new objects): nobody can end it but by conceding, the game is "
            f"a draw")


def node_attrs(g: State, depth: int) -> tuple:
    """What ``--export`` writes about a state besides its flags."""
    return (depth, g.turn_state(), g.turn)


def explore(pos: Position, *, max_states: int | None = None, max_depth: int | None = None,
            graph: bool = False, measure: bool = False, backend: str = "compiled",
            keep_going: bool = False, labels: bool = False, on_level=None, checkpoint=None,
            stable: bool = False, max_seconds: float | None = None) -> Result:
    """Breadth-first exploration of ``pos`` within its bounds, on one core.

    Stops at the first violation (as TLC does: a broken rule can make the space unbounded), unless
    ``keep_going``, which keeps the first violation of each kind. ``graph``: keep the state space as a
    :class:`~simulator.verify.stategraph.StateGraph` (node ``i`` = the ``i``-th state discovered);
    ``labels``: with the actions, turn states and stable fingerprints ``--export`` writes. ``measure``: the
    bytes of the visited set, the trace tree and the graph (``Result.visited_bytes``).

    The search loop is the sharded search's (:func:`search`, below) with one shard in this process: one
    loop serves one core, several and a cluster.
    """
    from simulator.verify.cluster import InProcess
    with InProcess(1, lambda i: Shard(pos, 1, i, max_depth=max_depth, limit=max_states, graph=graph,
                                      labels=labels, backend=backend, keep_going=keep_going,
                                      monitor=Monitor, stable=stable)) as pool:
        return search(pos, pool, limit=max_states, keep_going=keep_going, backend=backend, measure=measure,
                      on_level=on_level, checkpoint=checkpoint, max_seconds=max_seconds)


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


# -- the search loop: one shard, several, a cluster ------------------------------------------------
#
# One position explored by n shards (n = 1: the one-core search): hash-partitioned visited sets, breadth
# first, level by level. Shard ``s`` of ``n`` owns the states whose fingerprint ``f`` has ``f % n == s``: it
# alone holds them in its visited set. A level goes:
#
# 1. **expand**: every shard takes the states of its frontier in id order, checks the invariants and computes
#    every successor. A successor it owns and has seen gets its id at once; any other is held, and its
#    fingerprint with its *order* ``(parent id, action index)`` goes to its owner (once per shard and level;
#    the successor stays where it was computed). With one shard every successor is its own: a new one gets
#    the next free id at once (discovery order is id order) and steps 2-4 are not needed;
# 2. **resolve**: each owner drops what it has seen and, for each new fingerprint, keeps the smallest order;
# 3. **assign**: the coordinator merges the owners' winning orders; a new state's id is the next free id plus
#    its rank among them. That is the id one shard gives it: one shard discovers a level's states in exactly
#    this order, first discovery = smallest order, so the node ids, the shortest-trace tree, the end-turn
#    counts and the counterexamples do not depend on the number of shards. Each owner also says, per sender,
#    how many states the sender won and how many of them it will expand (each outbox entry carries a flag:
#    not terminal, not at a bound), so the coordinator knows the next frontiers before the shards settle;
# 4. **settle**: each shard learns the ids of its held successors (the graph's edges) and keeps the ones it
#    won as its next frontier. When the states to expand of the busiest and the idlest differ by more than
#    1/32, every shard above the mean gives its excess to the shards below (the only states that travel
#    between workers, pickled), which take it with their next expand; when not, the same call goes on to
#    expand the next level.
#
# A level is three round trips between the coordinator and each shard: resolve, assign, and settle with the
# next level's expand (which returns the outbox); four when a rebalance is due (settle, then expand with the
# gifts taken first), plus one give per giving shard.
#
# The coordinator keeps the shortest-trace tree (two arrays from the merged orders) to replay counterexamples.
# A violation stops the search after the first violating state: the shards roll back what they did past it
# (counts, graph, successors), so the figures are those of one shard; only the coverage set may hold a few more
# transitions (those fired past the violating state). With several shards a ``max_states`` bound is checked
# at the start of each level (one shard checks it at each state): a search stopped by its bound may differ
# from the one-shard one, a complete search never does.
#
# Transports (:mod:`simulator.verify.cluster`): shards in this process (one core, tests), forked processes
# (``--jobs``), Dask actors on a cluster (``--cluster``).

BITS = 16                 # an order is parent id << BITS | action index (the trace tree's via is 16 bits too)


def stable_fingerprint(g) -> int:
    """60 bits of blake2b over the identity marshalled (format 0: no references, so equal identities give equal
    bytes): the same in every process and run of one Python version, whatever its hash seed and addresses (Python
    3.11 hashes None by its address). Workers of a cluster, and a search stopped and resumed (checkpoint.py),
    use it: about 6 us a state, against 1 us for :func:`fast_fingerprint` and 19 us for :func:`fingerprint`."""
    return _stable(g.key())


def stable_symmetric(g) -> int:
    """:func:`stable_fingerprint` of the identity up to interchangeable battlefields (``simulator.verify.symmetry``)."""
    return _stable(identity(g))


def start_fingerprint(position: dict, backend: str, full_identity: bool) -> int:
    """The fingerprint a checkpointed search gives the start state of ``position`` (as meta.json holds it: name,
    setup, rulings, symmetry): stable, up to symmetry if the position says so, removed cards forgotten unless
    ``full_identity``. Stored in a checkpoint's meta.json and compared on resume (checkpoint.py)."""
    from simulator.core import model
    pos = Position(position["name"], position["setup"], rulings=position["rulings"], symmetry=position["symmetry"])
    forget, model.FORGET_REMOVED = model.FORGET_REMOVED, not full_identity
    try:
        g = pos.start(backend)
        return (stable_symmetric if pos.symmetry else stable_fingerprint)(g)
    finally:
        model.FORGET_REMOVED = forget


def _stable(k: tuple) -> int:
    try:
        data = marshal.dumps(k, 0)
    except ValueError:                   # an identity holding what marshal does not write: its repr
        data = repr(k).encode()
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "big") & MASK


class _Expanded:
    """What the frontier keeps of a state once expanded: whether it was terminal (finish and cut need no more)."""

    __slots__ = ("winner",)

    def __init__(self, winner) -> None:
        self.winner = winner


EXPANDED = (_Expanded(None), _Expanded(("expanded",)))


class Checked:
    """What the frontier holds of a state that will never be expanded (terminal, or at the turn or depth bound):
    whether it is terminal and the invariants it breaks, checked as soon as the state is known to be new (one
    shard: at discovery; several: when the level settles), in place of the whole state (1-4 KB). Its level's
    expand reads the findings from here, so the search's result is the same as checking it there (the same
    findings, ids and order: tests/test_checked.py). Not used with ``--export``'s labels (which read the state)."""

    __slots__ = ("winner", "findings")

    def __init__(self, winner, findings: tuple) -> None:
        self.winner, self.findings = winner, findings


#: the two outcomes with no finding (almost every one), shared
CHECKED = (Checked(None, ()), Checked(("terminal",), ()))
#: off: every state is held whole until its level is expanded (the differential tests compare both)
CHECK_EARLY = True


def checked(g: State, concede: bool) -> Checked:
    """``g``'s outcome as its level's expand would find it: terminal or not, and the invariants it breaks."""
    found = tuple(state_findings(g, actions_of(g, concede)))
    return Checked(g.winner, found) if found else CHECKED[g.winner is not None]

#: a level holding at least this many states holds them collapsed (their parts shared, compact.py): about
#: 6 us a state, worth it only where memory matters (a level of 50,000 full states is about 190 MB)
COLLAPSE_FROM = 50_000
#: a shard's level expanding at least this many states holds its successors packed (packed.py: about 30 bytes
#: a state in place of about 1 KB collapsed, for about 65 us more a state, measured): only where memory decides
PACK_FROM = 2_000_000


class Shard:
    """One worker's part of a sharded search (every method's arguments and result are picklable).

    With ``n == 1`` it is the whole one-core search: every successor's owner is this shard, so a new state's
    id is known at once (the next free one: discovery order is id order) and a level needs no exchange."""

    def __init__(self, pos: Position, n: int, me: int, *, max_depth: int | None = None, limit: int | None = None,
                 graph: bool = False, labels: bool = False, backend: str = "compiled", keep_going: bool = False,
                 stable: bool = False, monitor=None) -> None:
        self.pos, self.n, self.me = pos, n, me
        self.max_depth, self.limit = max_depth, limit or pos.max_states
        self.labels, self.backend, self.keep_going = labels, backend, keep_going
        if pos.symmetry:
            self.fp = stable_symmetric if stable else fast_symmetric
        else:
            self.fp = stable_fingerprint if stable else fast_fingerprint
        self.mon = (monitor or Monitor)()
        self.start = pos.start(backend)
        self.start.coverage = self.mon
        self.cfg = self.start.cfg
        self.seen: dict[int, int] = {}           # fingerprint -> id, of the states this shard owns (a flat
        #                                          table once large: visited.py; its ids only with a graph)
        self.frontier: list[tuple] = []          # (state, id, depth, turns), by id
        self.leftover: list[tuple] = []          # states never expanded (a violation stopped the search)
        self.sg = StateGraph(labels) if graph else None
        self.compact = Collapser()
        self.edges = self.terminal = self.bounded = 0
        self.limited = False                     # a state was left unexpanded by the state bound
        self.deep = False                        # a state was left unexpanded by the depth bound alone
        self.no_loop: set[int] = set()           # positions (fingerprints) no loop of forced actions comes back to
        self.cpu = 0.0
        self.depth = 0                           # the frontier's depth (a level's states all have it)
        self.base = 0                            # (n == 1) the first id of the level being discovered
        self.collapse: Callable | None = None    # (while a level expands) how its successors are held
        self.stop_all = self.early = False       # (while a level expands) see _begin_expand
        self._level()

    def _level(self) -> None:
        self.out = [(array("Q"), array("Q")) for _ in range(self.n)]   # per owner: fingerprints, orders
        self.flags = [bytearray() for _ in range(self.n)]  # per owner: 1 if the entry's state, if new, is expanded
        self.pending: dict[int, int] = {}        # fingerprint -> placeholder
        self.sent = [array("l") for _ in range(self.n)]   # per owner: the placeholder of each outbox entry
        self.cands: list = []                    # placeholder -> successor
        self.turns = array("H")                  # placeholder -> end-turns on its shortest path
        self.log: list[tuple] = []               # per state expanded this level: what to roll back to
        self.level_nodes = 0                     # the graph's nodes before this level's
        self.best: dict[int, int] = {}           # (owner) new fingerprint -> smallest order
        self.inbox: list = []                    # (owner) per sender: fingerprints, orders, flags
        self.level_edges = len(self.sg.dst) if self.sg is not None else 0   # edges before this level

    # -- the level's steps ---------------------------------------------------------------------------
    def seed(self) -> int:
        f = self.fp(self.start)
        if f % self.n == self.me:
            self.seen[f] = 0
            self.frontier = [(self.start, 0, 0, 0)]
        self.base = 1
        return len(self.frontier)

    def expand(self, seen_total: int) -> list[tuple]:
        """Step 1 on the frontier; the findings: (state id, action index or -1, n, name, rule, message, action)."""
        c0 = time.process_time()
        try:
            return self._expand(seen_total)
        finally:
            self.cpu += time.process_time() - c0

    def _expand(self, seen_total: int) -> list[tuple]:
        self._begin_expand(seen_total)
        found: list[tuple] = []
        frontier = self.frontier
        release = not self.labels                # an expanded state is let go (a level's memory is then about
        for i, (g, v, depth, turns) in enumerate(frontier):   # the larger of two levels, not their sum)
            if found and not self.keep_going:
                self.leftover = frontier[i:]                # past this shard's first violating state
                break
            if release:
                frontier[i] = (EXPANDED[g.winner is not None], v, depth, turns)
            if type(g) is Packed:
                g = unpacked(g)
            if self.n != 1:
                self.log.append((v, i, self.edges, self.terminal, self.bounded, len(self.cands)))
            acts = self._outcome(g, v, depth, turns, found)
            if acts is not None:
                self._successors(g, v, depth, turns, acts, found)
        self.collapse = None
        return found

    def _begin_expand(self, seen_total: int) -> None:
        """How this level holds its successors, and whether the state bound is already reached."""
        self.collapse = self.compact.collapse if len(self.frontier) >= COLLAPSE_FROM else None
        if len(self.frontier) >= PACK_FROM:
            self.collapse = Packer(self.cfg, self.mon).pack           # the level's successors, packed
        self.stop_all = seen_total >= self.limit    # n > 1: the bound is checked once per level
        self.level_nodes = len(self.sg) if self.sg is not None else 0     # the graph's nodes before this level's
        self.early = CHECK_EARLY and not self.labels   # a new state never to be expanded: its outcome only (Checked)

    def _outcome(self, g, v: int, depth: int, turns: int, found: list[tuple]) -> list[Action] | None:
        """Record the findings on ``g`` and what it is (terminal, at a bound, or expanded); its actions if it is
        expanded, else None."""
        acts = self._findings(g, v, found)
        terminal = g.winner is not None
        bound = self.stop_all or (self.n == 1 and len(self.seen) >= self.limit)   # n == 1: at each state, as it fills
        stop = turns >= self.pos.turns or (self.max_depth is not None and depth >= self.max_depth) or bound
        if self.sg is not None:
            self.sg.node(v, TERMINAL if terminal else BOUNDED if stop else 0,
                         node_attrs(g, depth) if self.labels else (), fingerprint(g) if self.labels else 0)
        if terminal:
            self.terminal += 1
            return None
        if stop:
            self.bounded += 1
            self.limited = self.limited or bound
            self.deep = self.deep or (turns < self.pos.turns and not bound)
            return None
        return acts

    def _findings(self, g, v: int, found: list[tuple]) -> list[Action]:
        """Add the invariants state ``v`` breaks to ``found``; its legal actions."""
        acts: list[Action]
        fs: Sequence[tuple[str, str, str]]
        if type(g) is Checked:                   # never expanded: checked when it was found new (the stop below
            acts, fs = [], g.findings            # holds for it: terminal, or at the turn or depth bound)
        else:
            acts = actions_of(g, self.pos.concede)
            fs = state_findings(g, acts)
        for j, (name, rule, msg) in enumerate(fs):
            found.append((v, -1, j, name, rule, msg, None))
        return acts

    def _successors(self, g, v: int, depth: int, turns: int, acts: list[Action], found: list[tuple]) -> None:
        """Every successor of ``g`` (state ``v``): the findings on its step, a forced loop, its discovery."""
        deeper = self.max_depth is None or depth + 1 < self.max_depth     # its successors are expanded, turns allowing
        forced = sum(1 for a in acts if a.kind != "concede") == 1
        for k, a in enumerate(acts):
            s, f = try_successor(g, a, self.mon)
            self.edges += 1
            if f:
                found.append((v, k, 0, *f, a))
            if s is None:
                continue
            if forced and a.kind not in ("concede", "end-turn"):
                self._forced_loop(s, v, k, a, found)
            end = a.kind == "end-turn"
            expand = deeper and s.winner is None and turns + end < self.pos.turns
            w = self._discover(s, v << BITS | k, expand, turns + end)
            if self.sg is not None:
                self.sg.edge(w, end, a.describe() if self.labels else "")

    def _forced_loop(self, s: State, v: int, k: int, a: Action, found: list[tuple]) -> None:
        """``a``, the only action but conceding, led to ``s``: a loop of forced actions from there is a finding."""
        if loops.renamed(s):
            path = self.loop_from(s)
            if path:
                found.append((v, k, 1, LOOP, LOOP_RULE, loop_message(a, path), [a, *path]))

    def _discover(self, s: State, order: int, expand: bool, turns: int) -> int:
        """``s`` reached by ``order`` (parent << BITS | action): its node in the graph (its id, or ``-1 - its
        placeholder`` until its owner settles it); a new one is kept as a candidate of the next level."""
        h = self.fp(s)
        if self.n == 1:                          # every successor is this shard's: ids at once
            w = self.seen.get(h)
            if w is None:
                w = self.seen[h] = len(self.seen)
                self.out[0][1].append(order)
                self.cands.append(checked(s, self.pos.concede) if self.early and not expand else self._keep(s))
                self.turns.append(turns)
            return w
        d = h % self.n
        if d == self.me:
            w = self.seen.get(h)
            if w is not None:                    # seen in an earlier level: its id is known here
                return w
        ph = self.pending.get(h)
        if ph is None:
            ph = self.pending[h] = len(self.cands)
            fps, orders = self.out[d]
            self.sent[d].append(ph)
            fps.append(h)
            orders.append(order)
            self.flags[d].append(expand)
            self.cands.append(self._keep(s))
            self.turns.append(turns)
        return -1 - ph

    def _keep(self, s: State):
        return s if self.collapse is None else self.collapse(s)

    def loop_from(self, s: State) -> list[Action] | None:
        """:func:`forced_loop` from ``s``, remembering the positions from which there is none."""
        h = self.fp(s)
        if h in self.no_loop:
            return None
        path = forced_loop(s, self.mon)
        if path is None:
            self.no_loop.add(h)
        return path

    def advance(self) -> array:
        """(n == 1) The level's new states become the frontier; their orders, in id order (= discovery order)."""
        orders = self.out[0][1]
        depth = self.depth + 1
        self.frontier = [(s, v, depth, t) for v, s, t in zip(range(self.base, self.base + len(self.cands)),
                                                              self.cands, self.turns)]
        self.base += len(self.cands)
        self.depth = depth
        self.compact.clear()
        clear_cache()
        self.seen = compacted(self.seen, ids=self.sg is not None)
        self._level()
        return orders

    def cut(self, last: int) -> list[bytes]:
        """The search stops after state ``last`` (the first violating one): undo everything past it; the outbox."""
        for entry in self.log:
            if entry[0] > last:
                _v, i, self.edges, self.terminal, self.bounded, ncands = entry
                self.leftover = self.frontier[i:]
                if self.sg is not None:
                    self.sg.truncate(self.level_nodes + i)      # a node per state taken from the frontier
                for (fps, orders), sent, flags in zip(self.out, self.sent, self.flags):
                    m = bisect_left(sent, ncands)       # the placeholders sent to an owner ascend
                    del fps[m:], orders[m:], sent[m:], flags[m:]
                del self.cands[ncands:], self.turns[ncands:]
                self.pending = {h: ph for h, ph in self.pending.items() if ph < ncands}
                break
        return self.outbox()

    def outbox(self) -> list[bytes]:
        """Per owner: the fingerprints, the orders (8 bytes each) and the flags (one byte each) of its entries."""
        return [fps.tobytes() + orders.tobytes() + bytes(flags) for (fps, orders), flags in zip(self.out, self.flags)]

    def level(self, job: tuple) -> tuple[list[tuple], list[bytes]]:
        """Step 1 in one call (n > 1): ``job`` = (states seen so far, the states a rebalance gave this shard);
        the findings and the outbox (per owner: fingerprints, orders, flags)."""
        seen_total, gifts = job
        for data in gifts:
            self.take(data)
        return self.expand(seen_total), self.outbox()

    def settle_level(self, job: tuple) -> tuple:
        """Steps 4 and 1 in one call, when no rebalance is due (one round trip less a level): ``job`` =
        (settle's replies, the states seen after this level); settle's result, then the next level's."""
        replies, seen_total = job
        return (*self.settle(replies), *self.level((seen_total, [])))

    def resolve(self, inbox: list[bytes]) -> bytes:
        """Step 2 (as owner): the smallest order of each new fingerprint, sorted."""
        seen = self.seen
        self.inbox = []
        new: list[tuple[int, int]] = []                   # (fingerprint, order) of the unseen entries
        for data in inbox:
            m = len(data) // 17
            fps, orders, flags = array("Q", data[:8 * m]), array("Q", data[8 * m:16 * m]), data[16 * m:]
            self.inbox.append((fps, orders, flags))
            new.extend(compress(zip(fps, orders), map(not_, map(seen.__contains__, fps))))
        new.sort(key=itemgetter(1), reverse=True)         # an order is one (parent, action): unique in a level
        self.best = best = dict(new)                      # so each fingerprint keeps its smallest order
        return array("Q", sorted(best.values())).tobytes()

    def assign(self, merged: bytes, base: int) -> tuple[list[bytes], list[int], list[int]]:
        """Step 3 (as owner): the new states' ids; per sender, each entry's id, negated for the winner; and per
        sender the states it won and those of them it will expand (its next frontier's share from this owner:
        what the coordinator decides a rebalance by before the shards settle)."""
        order = array("Q", merged)
        seen, best = self.seen, self.best
        mine = sorted(best, key=best.__getitem__)            # the new fingerprints, by order: ranks ascend
        ranks = map(bisect_left, repeat(order), map(best.__getitem__, mine))
        ids = list(map(base.__add__, ranks))
        if type(seen) is dict:
            seen.update(zip(mine, ids))
        else:
            for h, v in zip(mine, ids):
                seen[h] = v
        won = dict(zip(map(best.__getitem__, mine), map((-1).__sub__, ids)))    # winning order -> -1 - its id
        look = seen.__getitem__              # (the id of a state seen before: only a graph's edges read it)
        replies = [array("q", map(won.get, orders, map(look, fps))).tobytes() for fps, orders, _f in self.inbox]
        wins = [sum(map(won.__contains__, orders)) for _h, orders, _f in self.inbox]
        works = [sum(compress(map(won.__contains__, orders), flags)) for _h, orders, flags in self.inbox]
        return replies, wins, works

    def settle(self, replies: list[bytes]) -> tuple[int, int]:
        """Step 4: the ids of this shard's successors; the ones it won are its next frontier. Its size, and
        how many of its states will be expanded (what a rebalance evens out)."""
        count = len(self.cands)
        resolved = [0] * count                   # placeholder -> its id, negated (-1 - id) if this shard won it
        put = resolved.__setitem__
        for d, r in enumerate(replies):
            deque(map(put, self.sent[d], array("q", r)), maxlen=0)
        if self.sg is not None:                  # the level's edges to a placeholder (-1 - ph) get its id
            dst, e0 = self.sg.dst, self.level_edges
            ids = map(xor, resolved, map(rshift, resolved, repeat(63)))     # -1 - id (won) or id -> id
            to = dict(zip(range(-1, -1 - count, -1), ids))
            level = dst[e0:]
            dst[e0:] = array("q", map(to.get, level, level))
        depth = self.depth + 1
        cands, turns = self.cands, self.turns
        frontier = [(cands[ph], -1 - v, depth, turns[ph]) for ph, v in enumerate(resolved) if v < 0]
        frontier.sort(key=itemgetter(1))
        if CHECK_EARLY and not self.labels:      # the won states never to be expanded: their outcome only
            concede, expandable = self.pos.concede, self.expandable
            frontier = [x if type(x[0]) is Packed or expandable(x) else (checked(x[0], concede), *x[1:])
                        for x in frontier]
        self.frontier = frontier
        self.depth = depth
        self.compact.clear()
        clear_cache()
        self.seen = compacted(self.seen, ids=self.sg is not None)
        self._level()
        return len(frontier), self.work()

    def cpu_seconds(self) -> float:
        return self.cpu

    # -- checkpoints (checkpoint.py): between two levels ----------------------------------------------
    SAVED = ("seen", "frontier", "sg", "edges", "terminal", "bounded", "limited", "deep", "cpu", "depth", "base")

    def save(self, where: str) -> None:
        """Write this shard's part of a checkpoint into the directory ``where`` (its frontier packed)."""
        packer = Packer(self.cfg, self.mon)
        self.frontier = [(g if type(g) in (Packed, Checked) else packer.pack(g), v, d, t) for g, v, d, t in self.frontier]
        packer.seal()
        part = {name: getattr(self, name) for name in self.SAVED}
        part["coverage"] = self.mon.seen
        with open(f"{where}/shard-{self.me}.pkl", "wb") as f:
            pickle.dump(part, f, protocol=pickle.HIGHEST_PROTOCOL)

    def restore(self, where: str) -> int:
        """Go on from this shard's part of the checkpoint in ``where``; the frontier's size."""
        from pathlib import Path
        from simulator.verify.checkpoint import CheckpointError, load
        file = Path(where) / f"shard-{self.me}.pkl"
        part = load(file)
        f = self.fp(self.start)
        if f % self.n == self.me and f not in part["seen"]:
            raise CheckpointError(f"{file}: its states are not the search of the position in meta.json (its start "
                                  f"state is not among them): refused")
        self.mon.seen = part.pop("coverage")
        for name, value in part.items():
            setattr(self, name, value)
        for g, *_ in self.frontier:
            if type(g) is Packed:
                g.chunk.cfg, g.chunk.coverage, g.chunk.origin = self.cfg, self.mon, f"{where}/shard-{self.me}.pkl"
        self._level()
        return len(self.frontier)

    def peak_rss(self) -> int:
        return _peak_rss()

    def expandable(self, x: tuple) -> bool:
        """Whether a frontier entry will be expanded (not terminal, not at the turn or depth bound): the work."""
        g, _v, depth, turns = x
        return g.winner is None and turns < self.pos.turns and (self.max_depth is None or depth < self.max_depth)

    def work(self) -> int:
        """The frontier's states that will be expanded (what a rebalance evens out; the others cost little)."""
        if not self.frontier:
            return 0
        pturns, max_depth = self.pos.turns, self.max_depth
        if max_depth is not None and self.frontier[0][2] >= max_depth:      # a level's states share a depth
            return 0
        return sum(1 for g, _v, _d, t in self.frontier if g.winner is None and t < pturns)

    # -- moving states between shards ----------------------------------------------------------------
    def give(self, counts: list[int]) -> list[bytes]:
        """``counts[d]`` states to expand for shard ``d``, evenly spread over the frontier (pickled; b"" for none)."""
        total = sum(counts)
        if not total:
            return [b""] * len(counts)
        work = [i for i, x in enumerate(self.frontier) if self.expandable(x)]
        total = min(total, len(work))
        step = len(work) / total
        picked = [work[int(i * step)] for i in range(total)]
        pick = set(picked)
        out, at = [], 0
        for c in counts:
            c = min(c, total - at)
            out.append(self._gift(picked[at:at + c]))
            at += c
        self.frontier = [x for i, x in enumerate(self.frontier) if i not in pick]
        return out

    def _gift(self, picked: list[int]) -> bytes:
        """The frontier's states at ``picked``, pickled without what is the worker's own (b"" for none)."""
        gone = [(unpacked(g), v, d, t) for g, v, d, t in (self.frontier[i] for i in picked)]
        for g, *_ in gone:
            g.cfg = g.coverage = None                # the worker's own: not sent
        return pickle.dumps(gone, protocol=pickle.HIGHEST_PROTOCOL) if gone else b""

    def take(self, data: bytes) -> int:
        if data:
            got = unpickle.loads(data)           # (a checkpoint's pending gifts too: not trusted)
            collapse = len(self.frontier) + len(got) >= COLLAPSE_FROM       # as a level this large is held
            for g, *_ in got:
                g.cfg, g.coverage = self.cfg, self.mon
                if collapse:
                    self.compact.collapse(g)
            self.frontier = sorted(self.frontier + got, key=itemgetter(1))
        return len(self.frontier)

    def finish(self, measure: bool = False) -> dict:
        """The shard's figures; the states never expanded are at the bound (as the one-core search counts).
        ``measure``: the bytes of the visited set and the graph."""
        rest = self.leftover + self.frontier
        if self.sg is not None:
            for g, v, depth, _t in rest:
                g = unpacked(g)
                self.sg.node(v, TERMINAL if g.winner is not None else BOUNDED,
                             node_attrs(g, depth) if self.labels else (), fingerprint(g) if self.labels else 0)
        out = {"rest": len(rest), "edges": self.edges, "terminal": self.terminal, "bounded": self.bounded + len(rest),
               "coverage": set(self.mon.seen), "graph": self.sg, "cpu": self.cpu, "owned": len(self.seen),
               "limited": self.limited, "deep": self.deep, "rss": _peak_rss(),
               "bytes": (nbytes(self.seen) + (self.sg.nbytes() if self.sg is not None else 0)) if measure else 0}
        self.seen, self.frontier, self.leftover, self.cands = {}, [], [], []     # freed before the graph is sent
        return out


def _peak_rss() -> int:
    """This process's peak resident set size in bytes (Linux reports ru_maxrss in KB)."""
    import resource
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def search(pos: Position, pool, *, limit: int | None = None, keep_going: bool = False, backend: str = "compiled",
           rebalance: bool = True, measure: bool = False, on_level=None, checkpoint=None,
           max_seconds: float | None = None) -> Result:
    """Breadth-first exploration of ``pos`` by the shards of ``pool`` (a transport of
    :mod:`simulator.verify.cluster` whose shards are built): the one-core search's result whatever their
    number (with one shard it is the one-core search, :func:`~simulator.verify.explore.explore`).
    ``on_level(Level)``: called after each level (``riftsim verify --levels``: a progress line for a long search).
    ``checkpoint``: a :class:`~simulator.verify.checkpoint.Checkpoint` to resume from and write when due (the
    search then stops between two levels, ``Result.stopped`` says where). ``max_seconds``: the search ends at
    the end of the first level finished after that many seconds of wall time (``Result.bound`` is "time")."""
    gc_was = gc.isenabled()
    gc.disable()                   # millions of long-lived objects, no cycles
    try:
        return _search(pos, pool, limit, keep_going, backend, rebalance, measure, on_level, checkpoint, max_seconds)
    finally:
        if gc_was:
            gc.enable()


@dataclass
class Level:
    """What ``search`` reports after a level: its depth, the states discovered so far and in it, the wall and
    CPU seconds since the start, the peak resident bytes of the largest process."""

    depth: int
    states: int
    new: int
    seconds: float
    cpu: float
    peak_rss: int

    def line(self) -> str:
        return (f"level {self.depth}: {self.states:,} states (+{self.new:,}), {self.seconds:,.0f} s wall, "
                f"{self.cpu:,.0f} s CPU, peak RSS {self.peak_rss / 2 ** 20:,.0f} MB")


def _search(pos, pool, limit, keep_going, backend, rebalance, measure, on_level=None, checkpoint=None,
            max_seconds=None) -> Result:
    # (``limit``: the shards were built with it; the coordinator needs only their sizes)
    return _Search(pos, pool, keep_going, backend, rebalance, measure, on_level, checkpoint, max_seconds).run()


class _Search:
    """The coordinator of one search (:func:`search`): the shortest-path tree (``parent``, ``via``), the level,
    the findings, the shards' frontier sizes and what moves between them."""

    def __init__(self, pos, pool, keep_going, backend, rebalance, measure, on_level, checkpoint, max_seconds):
        self.pos, self.pool, self.n = pos, pool, pool.n
        self.keep_going, self.backend, self.rebalance, self.measure = keep_going, backend, rebalance, measure
        self.on_level, self.checkpoint, self.max_seconds = on_level, checkpoint, max_seconds
        self.local = getattr(pool, "local", False)         # shards in this process: its CPU time is theirs
        self.res = Result(pos.name)
        self.t0, self.c0 = time.perf_counter(), time.process_time()
        self.gifts: list[list[bytes]] = [[] for _ in range(self.n)]   # per shard: the states a rebalance moved to it
        self.ahead = None          # (n > 1) the next level's steps, expanded in the call that settled this one
        self.work: list[int] = []
        if checkpoint is not None and checkpoint.resume:
            self._resume()
        else:
            self.sizes = pool.call_all("seed")
            self.parent, self.via = array("l", [-1]), array("H", [0])
            self.base = 1
            self.kinds: set[str] = set()
            self.level = 0

    def _resume(self) -> None:
        c = self.checkpoint.coordinator()
        self.sizes = self.pool.call_all("restore", str(self.checkpoint.path))
        self.parent, self.via, self.base, self.kinds, self.level, self.gifts, self.res.violations = (
            c["parent"], c["via"], c["base"], c["kinds"], c["level"], c["gifts"], c["violations"])
        self.t0 -= c["seconds"]                             # the times of the runs before count
        if self.local:
            self.c0 -= c["cpu"]                             # (shards in processes count their own CPU)

    def run(self) -> Result:
        while sum(self.sizes):
            self.res.depth = self.level
            found, boxes = self._expand()
            last = self._record(found)
            replies = self._advance(last, boxes)
            due = last is None and self._due()
            late = last is None and not due and self._late()     # the time bound: this level is the last
            if self.n > 1:                       # step 4: the shards settle (sizes and work known from step 3)
                self._settle(last, bool(due or late), replies)
            if last is not None:
                break
            if late:
                self.res.bound = "time"
                break
            if due:
                return self._stop()
        return self._finish()

    def _due(self) -> bool:
        """A checkpoint is due (with states left to expand)."""
        return self.checkpoint is not None and bool(sum(self.sizes)) and self.checkpoint.due()

    def _late(self) -> bool:
        """The time bound is reached (with states left to expand)."""
        return self.max_seconds is not None and sum(self.sizes) > 0 and time.perf_counter() - self.t0 >= self.max_seconds

    def _expand(self) -> tuple[list[tuple], list]:
        """The level's findings, sorted; (n > 1) the shards' outboxes."""
        if self.n == 1:
            return sorted(self.pool.call_one(0, "expand", self.base)), []
        steps = self.ahead or self.pool.call_each("level", [(self.base, self.gifts[s]) for s in range(self.n)])
        self.ahead = None                        # the gifts taken, the level expanded, the outboxes: one call
        return sorted(x for f, _box in steps for x in f), [box for _f, box in steps]

    def _record(self, found: list[tuple]) -> int | None:
        """Each new kind of finding as a violation with its shortest trace; the state the search stops after
        (the first violating one, unless it keeps going), or None."""
        last = None
        for v, _k, _j, name, rule, msg, a in found:
            if last is not None and v != last:
                break
            if name in self.kinds:
                continue
            self.kinds.add(name)
            more = [] if a is None else a if isinstance(a, list) else [a]       # a loop: its round too
            trace = replay(self.pos, self.parent, self.via, v, self.backend)[0] + more
            self.res.violations.append(Violation(name, rule, msg, self.pos.name, trace, self.level + len(more)))
            if not self.keep_going:
                last = v
        return last

    def _advance(self, last: int | None, boxes: list) -> list | None:
        """The level's new states get their ids and places in the tree; (n > 1) the owners' replies."""
        replies = None
        if self.n == 1:                          # ids given at discovery: no exchange
            merged = self.pool.call_one(0, "advance")
            self.sizes = [len(merged)]
        else:
            if last is not None:
                boxes = self.pool.call_all("cut", last)
            merged, replies, self.sizes, self.work = _exchange(self.pool, self.n, self.base, boxes)
        self.parent.extend(map(rshift, merged, repeat(BITS)))
        self.via.extend(map(and_, merged, repeat((1 << BITS) - 1)))
        self.base += len(merged)
        self.level += 1
        if self.on_level is not None and merged:
            cpu = self._cpu()
            self.on_level(Level(self.level, self.base, len(merged), time.perf_counter() - self.t0, cpu,
                                max([_peak_rss(), *self.pool.call_all("peak_rss")])))
        return replies

    def _cpu(self) -> float:
        return time.process_time() - self.c0 if self.local else sum(self.pool.call_all("cpu_seconds"))

    def _settle(self, last: int | None, stopping: bool, replies) -> None:
        """(n > 1) The shards settle the level; the next one is expanded in the same call unless the search
        stops here or a rebalance is due."""
        if last is None and not stopping and self._settle_and_expand():
            steps = self.pool.call_each("settle_level", [(r, self.base) for r in replies])    # and the next level
            self.sizes, self.ahead = [x[0] for x in steps], [x[2:] for x in steps]
            self.gifts = [[] for _ in range(self.n)]
            return
        settled = self.pool.call_each("settle", replies)
        self.sizes, self.work = [x[0] for x in settled], [x[1] for x in settled]
        if last is None:
            self.gifts, self.sizes = (_rebalance(self.pool, self.sizes, self.work) if self.rebalance
                                      else ([[] for _ in range(self.n)], self.sizes))

    def _settle_and_expand(self) -> bool:
        """The next level can be expanded in the call that settles this one: it has states, no rebalance is due."""
        return bool(sum(self.sizes)) and not (self.rebalance and _targets(self.work))

    def _stop(self) -> Result:
        """The checkpoint is due: write the search there and stop."""
        res, ck = self.res, self.checkpoint
        cpu = self._cpu()
        ck.write(lambda where: self.pool.call_all("save", where),
                 {**ck.meta, "level": self.level, "states": self.base, "shards": self.n,
                  "seconds": time.perf_counter() - self.t0, "cpu": cpu},
                 {"parent": self.parent, "via": self.via, "base": self.base, "kinds": self.kinds, "level": self.level,
                  "gifts": self.gifts, "violations": res.violations, "seconds": time.perf_counter() - self.t0,
                  "cpu": cpu})
        res.states, res.depth, res.complete, res.stopped = self.base, self.level, False, str(ck.path)
        res.seconds, res.cpu = time.perf_counter() - self.t0, cpu
        return res

    def _finish(self) -> Result:
        """The shards' totals, the bound that ended the search, the graph."""
        res, parts = self.res, self.pool.call_all("finish", self.measure)
        if res.bound is None:
            res.bound = "states" if any(p["limited"] for p in parts) else "depth" if any(p["deep"] for p in parts) else None
        if res.bound or (res.violations and not self.keep_going and sum(p["rest"] for p in parts)):
            res.complete = False                      # stopped by a bound, or with states still queued
        self._totals(parts)
        return res

    def _totals(self, parts: list[dict]) -> None:
        res = self.res
        res.states = self.base
        res.edges = sum(p["edges"] for p in parts)
        res.terminal = sum(p["terminal"] for p in parts)
        res.bounded = sum(p["bounded"] for p in parts)
        res.coverage = set().union(*(p["coverage"] for p in parts))
        res.cpu = time.process_time() - self.c0 if self.local else sum(p["cpu"] for p in parts)
        res.seconds = time.perf_counter() - self.t0
        res.peak_rss = max(max(p["rss"] for p in parts), _peak_rss())
        parent, via = self.parent, self.via
        if self.measure:
            res.visited_bytes = sum(p["bytes"] for p in parts) + parent.itemsize * len(parent) + via.itemsize * len(via)
        if parts[0]["graph"] is not None:
            res.graph = merge([p["graph"] for p in parts])
            res.tree = (parent, via)


def _exchange(pool, n: int, base: int, boxes: list[list[bytes]]) -> tuple[array, list, list[int], list[int]]:
    """Steps 2 and 3 of a level (``boxes``: the shards' outboxes): the owners resolve, the new states are
    numbered. The new states' orders in id order, each shard's replies to settle with, and the sizes of the
    shards' next frontiers and their states to expand (as settle will give them)."""
    best = pool.call_each("resolve", [[boxes[s][d] for s in range(n)] for d in range(n)])
    merged = array("Q")
    for b in best:
        merged.extend(array("Q", b))
    merged = array("Q", sorted(merged))
    assigned = pool.call_all("assign", merged.tobytes(), base)
    replies = [[assigned[d][0][s] for d in range(n)] for s in range(n)]
    sizes = [sum(assigned[d][1][s] for d in range(n)) for s in range(n)]
    work = [sum(assigned[d][2][s] for d in range(n)) for s in range(n)]
    return merged, replies, sizes, work


def _targets(work: list[int]) -> list[int] | None:
    """Each shard's even share of the level's states to expand (``work``: terminal and bounded states cost
    little, they stay), or None when the busiest and the idlest differ by 1/32 or less (left as they are)."""
    n = len(work)
    total = sum(work)
    if max(work) - min(work) <= max(8, max(work) // 32):
        return None
    return [total // n + (s < total % n) for s in range(n)]


def _rebalance(pool, sizes: list[int], work: list[int]) -> tuple[list[list[bytes]], list[int]]:
    """Moves states between the settled frontiers when :func:`_targets` says: the shards above the mean give
    their excess to those below (one call per giver; the receivers take it with their next level). The gifts
    per receiver, and the frontiers' sizes after."""
    n = len(work)
    gifts: list[list[bytes]] = [[] for _ in range(n)]
    target = _targets(work)
    if target is None:
        return gifts, sizes
    give = {s: work[s] - target[s] for s in range(n) if work[s] > target[s]}
    need = {s: target[s] - work[s] for s in range(n) if work[s] < target[s]}
    sizes = list(sizes)
    for s, excess in give.items():
        counts = _shares(excess, need, n)
        for d, data in enumerate(pool.call_one(s, "give", counts)):
            if data:
                gifts[d].append(data)
                sizes[d] += counts[d]
                sizes[s] -= counts[d]
    return gifts, sizes


def _shares(excess: int, need: dict[int, int], n: int) -> list[int]:
    """How many of a giver's ``excess`` states each shard receives, the neediest first in ``need``'s order
    (``need`` is reduced by what they receive)."""
    counts = [0] * n
    for d in list(need):
        c = min(excess, need[d])
        counts[d] = c
        excess -= c
        need[d] -= c
        if not need[d]:
            del need[d]
        if not excess:
            break
    return counts
