"""Driving the declared machines.

Two interchangeable backends choose which declared transition fires:

* :class:`Compiled` (the default): the code generated from the declarations into
  ``simulator/core/compiled/`` by ``riftsim generate`` (a function per (leaf, state, trigger), the cleanup
  loop, the schedule), used for a leaf while its declarations have the digest the code was generated from
  (:func:`generated`); otherwise a dict ``(leaf, source, trigger) -> [T...]`` derived from the declarations,
  guards tried in declaration order, through :meth:`Runtime.fire_ctx`.
* :class:`Transitions`: real ``transitions`` machines built from the same
  declarations (a ``HierarchicalMachine`` with parallel regions for machines
  that have regions), whose conditions call the same named guards.

``tests/test_backends.py`` runs every scenario on both and compares traces.
:func:`fire` is the only way the simulator changes a machine's state.
"""
from __future__ import annotations

import ast
import hashlib
import inspect
import textwrap
from typing import Any, Callable

import statecharts
from statecharts.schedule import SCHEDULE, Step
from statecharts.spec import Machine, T

from simulator.core import registry
from simulator.core.errors import RulesBug
from simulator.core.log import say
from simulator.core.model import FRESH_BITS, KEEP, Event, State

#: skip a cleanup task (323) whose last run did nothing and none of whose declared inputs has been written since
#: (``Machine.inputs``, ``State.fresh``): the generated loop only; False runs every task (tests compare the two)
SKIP_FRESH = True



class Compiled:
    """The declarations compiled into a lookup table."""

    name = "compiled"

    def __init__(self, machines: tuple[Machine, ...] = statecharts.MACHINES) -> None:
        self.table: dict[tuple[str, str, str], tuple[T, ...]] = {}
        for m in machines:
            for leaf in m.leaves():
                rows: dict[tuple[str, str, str], list[T]] = {}
                for t in leaf.transitions:
                    rows.setdefault((leaf.name, t.source, t.trigger), []).append(t)
                self.table.update({k: tuple(v) for k, v in rows.items()})

    def pick(self, leaf: str, source: str, trigger: str, g, inst, ctx) -> T | None:
        """The first transition on ``trigger`` from ``source`` whose named guards hold (declaration order)."""
        guards = registry.GUARDS
        for t in self.table.get((leaf, source, trigger), ()):
            ok = True
            for n in t.guards:
                if not guards[n](g, inst, ctx):
                    ok = False
                    break
            if ok:
                for n in t.unless:
                    if guards[n](g, inst, ctx):
                        ok = False
                        break
            if ok:
                return t
        return None


class Transitions:
    """The same declarations as real ``transitions`` machines (``statecharts.build``; slower: the reference)."""

    name = "transitions"

    def __init__(self, machines: tuple[Machine, ...] = statecharts.MACHINES) -> None:
        from statecharts.build import build

        self.runners: dict[str, tuple[Any, int]] = {}     # leaf -> (its built machine, its region's index)
        for m in machines:
            b = build(m)
            for k, leaf in enumerate(b.regions):
                self.runners[leaf] = (b, k)

    def pick(self, leaf: str, source: str, trigger: str, g, inst, ctx) -> T | None:
        """The machine is put in the game's whole state (every region: orthogonal regions are real parallel
        states, none reset), the trigger is dispatched to all regions, and the sibling regions are checked
        unchanged (a trigger of one region never moves another)."""
        from transitions.core import MachineError

        b, k = self.runners[leaf]
        before = tuple(source if i == k else g.ms[(r, inst)] for i, r in enumerate(b.regions))
        b.set_states(before)
        b.model.guard = lambda name: registry.GUARDS[name](g, inst, ctx)
        b.model.fired = None
        try:
            b.model.trigger(trigger)
        except (MachineError, AttributeError):       # no such transition / trigger from this state
            return None
        after = b.states()
        moved = [r for i, r in enumerate(b.regions) if i != k and after[i] != before[i]]
        if moved:
            raise RulesBug(f"{trigger!r} on {leaf} also moved the parallel region(s) {', '.join(moved)}")
        return b.model.fired


_BACKENDS: dict[str, object] = {}


def backend(name: str = "compiled"):
    """The shared backend of that name, built once."""
    if name not in _BACKENDS:
        _BACKENDS[name] = {"compiled": Compiled, "transitions": Transitions}[name]()
    return _BACKENDS[name]


class Runtime:
    """Binds a backend to the simulator's named guards and effects."""

    def __init__(self, backend_name: str = "compiled") -> None:
        self.backend = backend(backend_name)
        self.enter = {name: leaf.enter for name, leaf in statecharts.LEAVES.items()}
        self.per = {name: leaf.per for name, leaf in statecharts.LEAVES.items()}
        self.silent: dict[str, bool] = {}
        self.plans: dict[int, tuple] = {}       # id(T) -> _plan(leaf, T): derived from the declarations only
        #: compiled backend: (leaf, source, trigger) -> its function in ``simulator/core/compiled/`` (shared)
        self.fns: dict[tuple[str, str, str], Callable] | None = (generated()[0] if isinstance(self.backend, Compiled)
                                                                 else None)

    def fire(self, g: State, leaf: str, trigger: str, inst: str | None = None, **ctx) -> T:
        return self.fire_ctx(g, leaf, trigger, inst, ctx)

    def fire_ctx(self, g: State, leaf: str, trigger: str, inst: str | None, ctx: dict) -> T:
        """``fire`` with its context as a dict the transition's effects may write to (it is not copied)."""
        key = (leaf, inst)
        source = g.ms[key]
        fns = self.fns
        if fns is not None:                     # compiled: the function generated for (leaf, source, trigger)
            f = fns.get((leaf, source, trigger))
            if f is not None:
                t = f(self, g, inst, ctx)
                if t is None:
                    raise RulesBug(f"machine {leaf}{'[' + inst + ']' if inst else ''}: no transition on "
                                   f"{trigger!r} from {source!r}")
                return t
        t = self.backend.pick(leaf, source, trigger, g, inst, ctx)
        if t is None:
            raise RulesBug(f"machine {leaf}{'[' + inst + ']' if inst else ''}: no transition on "
                           f"{trigger!r} from {source!r}")
        plan = self.plans.get(id(t))
        if plan is None or plan[0] is not t:
            plan = self.plans[id(t)] = self._plan(leaf, t)
        g.ms[key] = t.dest
        keep = KEEP[leaf]
        if keep != -1:
            g.fresh &= keep                 # the tasks reading this machine's state are no longer known to do nothing
        if leaf == "player":
            g.left = None                   # the players still in the game changed
        if g.coverage is not None:
            g.coverage.add(plan[1])
        at = len(g.trace)
        effects = registry.EFFECTS
        for e in t.effects:
            effects[e](g, inst, ctx)
        if t.say and g.events_on:
            say(g, t, leaf, inst, ctx, at, plan[2])
        if plan[3] is not None:
            effects[plan[3]](g, inst, ctx)
        for target, trig, per_bf in plan[4]:
            self.fire_ctx(g, target, trig, (inst if inst in g.bfs else g.active) if per_bf else None, dict(ctx))
        return t

    def _plan(self, leaf: str, t: T) -> tuple:
        return _plan(leaf, t)

    def steps(self, g: State, leaf: str, trigger: str, until: str, inst: str | None, ctx: dict) -> None:
        """Fire ``trigger`` on ``leaf`` until it is in ``until`` (a procedure such as 652's), each firing with
        its own copy of ``ctx``: what ``while g.ms[(leaf, inst)] != until: fire(...)`` does. With the compiled
        backend it calls the generated function of each state directly (no ``fire_ctx`` dispatch per step); the
        ``transitions`` backend and a :class:`Recording` runtime go through ``fire_ctx``."""
        key = (leaf, inst)
        ms = g.ms
        fns = self.fns
        if fns is None or type(self).fire_ctx is not Runtime.fire_ctx:
            while ms[key] != until:
                self.fire_ctx(g, leaf, trigger, inst, dict(ctx))
            return
        while (source := ms[key]) != until:
            f = fns.get((leaf, source, trigger))
            if f is None:                           # not generated (a mutant's leaf): the declarations themselves
                self.fire_ctx(g, leaf, trigger, inst, dict(ctx))
            elif f(self, g, inst, dict(ctx)) is None:
                raise RulesBug(f"machine {leaf}{'[' + inst + ']' if inst else ''}: no transition on "
                               f"{trigger!r} from {source!r}")

    def run(self, g: State, leaf: str, start: str, step: str, until: str, inst: str | None = None) -> None:
        """Fire ``start``, then ``step`` until the machine is back in ``until`` (the cleanup's loop).

        With the compiled backend and a machine whose transitions are silent (no effects, sends or trace
        text: only ``enter`` effects), this runs the loop generated from the declarations
        (``simulator/core/compiled/cleanup.py``): the same transitions in the same order with the same coverage
        records, without ``fire``'s bookkeeping, skipping the tasks known to do nothing (:data:`SKIP_FRESH`).
        """
        silent = self.silent.get(leaf)
        if silent is None:
            silent = self.silent[leaf] = isinstance(self.backend, Compiled) and _silent(leaf, (start, step))
        loop = generated()[1].get((leaf, start, step, until)) if silent else None
        if loop is None:
            self.fire(g, leaf, start, inst)
            while g.ms[(leaf, inst)] != until:
                self.fire(g, leaf, step, inst)
            return
        loop(g, inst, -1 if SKIP_FRESH else 0)


def _plan(leaf: str, t: T) -> tuple:
    """What ``fire`` derives from a declared transition, once per transition: the transition (the cache
    is keyed by ``id(t)`` and checked with ``is``, so a reused id never matches), its coverage record,
    its rules as trace text, the destination's enter effect, its hand-offs as (machine, trigger, per
    battlefield). Effects and guards are still looked up by name when they run. A transition back to its own
    source is internal: it does not run the state's enter effect again (cleanup ``lethal`` in task 3a)."""
    sends = []
    for s in t.sends:
        target, trig = s.split(":")
        sends.append((target, trig, statecharts.LEAVES[target].per == "battlefield"))
    enter = None if t.source == t.dest else statecharts.LEAVES[leaf].enter.get(t.dest)   # a self-transition: internal
    return (t, (leaf, t.source, t.trigger, t.dest, t.guards), ", ".join(t.rules), enter or None, tuple(sends))


def digest(leaf: Machine) -> str:
    """What the code generated for ``leaf`` (``simulator/core/compiled/``, ``riftsim generate``) was derived from,
    hashed: its transitions, enter effects, the cleanup bits it keeps or sets (``KEEP``, ``FRESH_BITS``) and
    where its hand-offs go. The runtime uses the generated code of a leaf only while the digests match."""
    sends = sorted({s.split(":")[0] for t in leaf.transitions for s in t.sends})
    what = (leaf.name, leaf.transitions, tuple(leaf.enter.items()), KEEP.get(leaf.name),
            tuple(sorted((s, b) for (n, s), b in FRESH_BITS.items() if n == leaf.name)),
            tuple((n, statecharts.LEAVES[n].per if n in statecharts.LEAVES else None) for n in sends))
    return hashlib.sha256(repr(what).encode()).hexdigest()[:16]


def schedule_digest(steps: tuple[Step, ...]) -> str:
    """The same for the schedule (``simulator/core/compiled/schedule.py``)."""
    return hashlib.sha256(repr(steps).encode()).hexdigest()[:16]


def inline_expr(fn) -> str | None:
    """The expression of a guard whose body is one ``return EXPR`` over the state ``g`` alone (``g.winner is
    not None``), which the generated schedule and loop inline; None for any other guard (or no source)."""
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return None
    f = tree.body[0]
    body = [n for n in getattr(f, "body", ()) if not (isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant))]
    if not (isinstance(f, ast.FunctionDef) and len(body) == 1 and isinstance(body[0], ast.Return) and body[0].value):
        return None
    names = {n.id for n in ast.walk(body[0].value) if isinstance(n, ast.Name)}
    return ast.unparse(body[0].value) if names <= {"g", "bool", "len"} else None


def inlined_hold(inlined: dict[str, str]) -> bool:
    """Each guard the generated code inlines still has the expression it inlined (a guard edited since
    ``riftsim generate`` makes that code stale)."""
    return all(inline_expr(registry.GUARDS.get(name)) == expr for name, expr in inlined.items())


_GENERATED: list = []


def generated() -> tuple[dict, dict]:
    """(fire functions by (leaf, state, trigger), loops by (leaf, start, step, until)) of the generated code whose
    leaf's declarations have the digest it was generated from (a mutant's leaf has another: it runs through
    ``fire_ctx``); computed once per process."""
    if not _GENERATED:
        from simulator.core.compiled import tables as compiled
        ok = {leaf for leaf, d in compiled.DIGESTS.items()
              if leaf in statecharts.LEAVES and digest(statecharts.LEAVES[leaf]) == d}
        loops = inlined_hold(compiled.INLINED)          # the loops inline one-expression guards
        _GENERATED.append(({k: f for k, f in compiled.FIRES.items() if k[0] in ok},
                           {k: f for k, f in compiled.LOOPS.items() if k[0] in ok and loops}))
    return _GENERATED[0]


def _silent(leaf: str, triggers: tuple[str, ...]) -> bool:
    """The loop's transitions (those on ``triggers``) have no effects, hand-offs or trace text."""
    return all(not (t.effects or t.sends or t.say) for t in statecharts.LEAVES[leaf].transitions
               if t.trigger in triggers)


_ONCE: list = []


def schedule(steps: tuple[Step, ...] = SCHEDULE) -> Callable[[State], bool]:
    """``once(g)``: one step of ``steps`` (``statecharts/schedule.py``), the code generated from them
    (``simulator/core/compiled/schedule.py``); refused when that code was generated from other steps.
    Checked once per process."""
    if not _ONCE or _ONCE[0] is not steps:
        from simulator.core.compiled.schedule import once
        from simulator.core.compiled.tables import INLINED, SCHEDULE_DIGEST
        if steps is not SCHEDULE or schedule_digest(steps) != SCHEDULE_DIGEST or not inlined_hold(INLINED):
            raise RulesBug("simulator/core/compiled/schedule.py was generated from another schedule: "
                           "run `riftsim generate`")
        _ONCE[:] = [steps, once]
    return _ONCE[1]


class Fired:
    """One declared transition as it fired: the step, the leaf machine and its instance, the transition,
    and the trace event it wrote (None for a silent bookkeeping transition)."""

    __slots__ = ("step", "leaf", "inst", "t", "event")

    def __init__(self, step: int, leaf: str, inst: str | None, t: T, event: Event | None) -> None:
        self.step, self.leaf, self.inst, self.t, self.event = step, leaf, inst, t, event

    @property
    def silent(self) -> bool:
        return self.event is None


class Recording(Runtime):
    """A :class:`Runtime` that also keeps every transition it fires, in firing order (``fired``), silent
    ones included: what a trace diagram and the viewer draw.

    The cleanup's generated loop fires without ``fire``'s bookkeeping, so a recording
    runtime always takes ``run``'s generic path: the same transitions in the same order (the docstring of
    :meth:`Runtime.run`; ``tests/test_viewer.py`` checks the traces agree).
    """

    def __init__(self, backend_name: str = "compiled") -> None:
        super().__init__(backend_name)
        self.fired: list[Fired] = []

    def fire_ctx(self, g: State, leaf: str, trigger: str, inst: str | None, ctx: dict) -> T:
        slot = len(self.fired)
        self.fired.append(None)  # type: ignore[arg-type]  # this one fired before the hand-offs it sends
        at = len(g.trace)
        try:
            t = super().fire_ctx(g, leaf, trigger, inst, ctx)
        except BaseException:
            del self.fired[slot:]
            raise
        event = g.trace[at] if t.say and g.events_on else None
        self.fired[slot] = Fired(g.step, leaf, inst, t, event)
        return t

    def run(self, g: State, leaf: str, start: str, step: str, until: str, inst: str | None = None) -> None:
        self.fire(g, leaf, start, inst)
        while g.ms[(leaf, inst)] != until:
            self.fire(g, leaf, step, inst)
