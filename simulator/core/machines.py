"""Driving the declared machines.

Two interchangeable backends choose which declared transition fires:

* :class:`Compiled` (the default): a dict ``(leaf, source, trigger) -> [T...]``
  derived from the declarations, guards tried in declaration order.
* :class:`Transitions`: real ``transitions`` machines built from the same
  declarations (a ``HierarchicalMachine`` with parallel regions for machines
  that have regions), whose conditions call the same named guards.

``tests/test_backends.py`` runs every scenario on both and compares traces.
:func:`fire` is the only way the simulator changes a machine's state.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Callable

import statecharts
from statecharts.schedule import SCHEDULE, Step
from statecharts.spec import Machine, T, send

from simulator.core import registry
from simulator.core.errors import RulesBug
from simulator.core.model import FRESH_BITS, KEEP, Event, State

#: skip a cleanup task (323) whose last run did nothing and none of whose declared inputs has been written since
#: (``Machine.inputs``, ``State.fresh``): the compiled loop only; False runs every task (tests compare the two)
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
        #: compiled backend: (leaf, source, trigger) -> the code :func:`compile_fire` generated for it (shared)
        self.fns: dict[tuple[str, str, str], Callable] | None = _FIRES if isinstance(self.backend, Compiled) else None

    def fire(self, g: State, leaf: str, trigger: str, inst: str | None = None, **ctx) -> T:
        return self.fire_ctx(g, leaf, trigger, inst, ctx)

    def fire_ctx(self, g: State, leaf: str, trigger: str, inst: str | None, ctx: dict) -> T:
        """``fire`` with its context as a dict the transition's effects may write to (it is not copied)."""
        key = (leaf, inst)
        source = g.ms[key]
        fns = self.fns
        if fns is not None:                     # compiled: the code generated for (leaf, source, trigger)
            f = fns.get((leaf, source, trigger))
            if f is None:
                f = fns[(leaf, source, trigger)] = compile_fire(leaf, source, trigger)
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
        if plan[4]:
            self._hand_off(g, plan[4], inst, ctx)
        return t

    def _hand_off(self, g: State, sends: tuple, inst: str | None, ctx: dict) -> None:
        """Fire the transition's hand-offs (``sends``, as :func:`_plan` reads them) whose guards hold, in order."""
        for target, trig, per_bf, gs, us in sends:
            if (gs or us) and not _holds(gs, us, g, inst, ctx):
                continue                    # a guarded hand-off whose guards do not hold now
            self.fire_ctx(g, target, trig, (inst if inst in g.bfs else g.active) if per_bf else None, dict(ctx))

    def _plan(self, leaf: str, t: T) -> tuple:
        return _plan(leaf, t)

    def steps(self, g: State, leaf: str, trigger: str, until: str, inst: str | None, ctx: dict) -> None:
        """Fire ``trigger`` on ``leaf`` until it is in ``until`` (a procedure such as 652's), each firing with
        its own copy of ``ctx``: what ``while g.ms[(leaf, inst)] != until: fire(...)`` does. With the compiled
        backend it runs the code :func:`compile_steps` generated for the unguarded steps from the current state
        (one function for 652's Banishing to Lost), else the code :func:`compile_fire` generated for the state,
        with no ``fire_ctx`` dispatch per step; the ``transitions`` backend and a :class:`Recording` runtime go
        through ``fire_ctx``."""
        key = (leaf, inst)
        ms = g.ms
        fns = self.fns
        if fns is None or type(self).fire_ctx is not Runtime.fire_ctx:
            while ms[key] != until:
                self.fire_ctx(g, leaf, trigger, inst, dict(ctx))
            return
        while (source := ms[key]) != until:
            run = _STEPS.get((leaf, source, trigger, until), _UNSET)
            if run is _UNSET:
                run = _STEPS[(leaf, source, trigger, until)] = compile_steps(leaf, source, trigger, until)
            if run is not None:                     # the unguarded steps from here, in one generated function
                run(self, g, inst, ctx)
                continue
            f = fns.get((leaf, source, trigger))
            if f is None:
                f = fns[(leaf, source, trigger)] = compile_fire(leaf, source, trigger)
            if f(self, g, inst, dict(ctx)) is None:
                raise RulesBug(f"machine {leaf}{'[' + inst + ']' if inst else ''}: no transition on "
                               f"{trigger!r} from {source!r}")

    def run(self, g: State, leaf: str, start: str, step: str, until: str, inst: str | None = None) -> None:
        """Fire ``start``, then ``step`` until the machine is back in ``until`` (the cleanup's loop).

        With the compiled backend and a machine whose transitions are silent (no effects, sends or trace
        text: only ``enter`` effects), this runs code generated from the declarations by :func:`compile_loop`:
        the same transitions in the same order with the same coverage records, without ``fire``'s bookkeeping.
        """
        silent = self.silent.get(leaf)
        if silent is None:
            silent = self.silent[leaf] = isinstance(self.backend, Compiled) and _silent(leaf, (start, step))
        if not silent:
            self.fire(g, leaf, start, inst)
            while g.ms[(leaf, inst)] != until:
                self.fire(g, leaf, step, inst)
            return
        skip = SKIP_FRESH
        loop = _LOOPS.get((leaf, start, step, until, skip))
        if loop is None:
            loop = _LOOPS[(leaf, start, step, until, skip)] = compile_loop(statecharts.LEAVES[leaf], start, step,
                                                                           until, skip=skip)
        loop(g, inst)


def _holds(guards: tuple[str, ...], unless: tuple[str, ...], g: State, inst: str | None, ctx: dict) -> bool:
    """The named ``guards`` hold and none of ``unless`` does (a guarded hand-off, ``statecharts.spec.send``)."""
    return all(registry.GUARDS[n](g, inst, ctx) for n in guards) and \
        not any(registry.GUARDS[n](g, inst, ctx) for n in unless)


def _plan(leaf: str, t: T) -> tuple:
    """What ``fire`` derives from a declared transition, once per transition: the transition (the cache
    is keyed by ``id(t)`` and checked with ``is``, so a reused id never matches), its coverage record,
    its rules as trace text, the destination's enter effect, its hand-offs as (machine, trigger, per
    battlefield). Effects and guards are still looked up by name when they run. A transition back to its own
    source is internal: it does not run the state's enter effect again (cleanup ``lethal`` in task 3a)."""
    sends = []
    for s in t.sends:
        h = send(s)
        sends.append((h.machine, h.trigger, statecharts.LEAVES[h.machine].per == "battlefield", h.guards, h.unless))
    enter = None if t.source == t.dest else statecharts.LEAVES[leaf].enter.get(t.dest)   # a self-transition: internal
    return (t, (leaf, t.source, t.trigger, t.dest, t.guards), ", ".join(t.rules), enter or None, tuple(sends))


def say(g: State, t: T, leaf: str, inst: str | None, ctx: dict, at: int, rules: str) -> None:
    """The trace line of ``t`` (its ``say`` text), inserted at ``at``: before what its effects logged, worded
    after them."""
    values = {"bf": inst if inst in g.bfs else ctx.get("bf", g.active), "player": ctx.get("player"),
              "item": ctx.get("item"), "attacker": g.attacker, "defender": g.defender}
    g.trace.insert(at, Event(g.step, t.say.format_map(values), ctx.get("player"), "", rules,
                             leaf, t.source, t.dest, t.trigger, inst, t.say, tuple(values.items())))


def compile_fire(leaf: str, source: str, trigger: str) -> Callable:
    """Generate ``f(rt, g, inst, ctx) -> T | None``: what :meth:`Runtime.fire_ctx` does for ``trigger`` on
    ``leaf`` in ``source``, as straight-line code.

    Derived from the declarations, never written by hand: the transitions on ``trigger`` from ``source`` in
    declaration order, each an ``if`` over its named guards and ``unless``; the chosen one sets the
    destination, records its coverage, runs its effects, writes its trace line, runs the destination's
    ``enter`` effect (not for a transition back to its own source: it is internal) and fires its hand-offs,
    in :meth:`Runtime.fire_ctx`'s order; None when no transition is enabled. Guards and effects are looked
    up by name when they run (a test may replace one in the registry); the hand-offs go through
    ``rt.fire_ctx`` (a :class:`Recording` runtime records them).
    ``tests/test_backends.py`` checks it against the ``transitions`` machines.
    """
    ts = [t for t in statecharts.LEAVES[leaf].transitions if t.source == source and t.trigger == trigger]
    ns: dict = {"LEAF": leaf, "say": say, "GUARDS": registry.GUARDS, "EFFECTS": registry.EFFECTS}
    lines = ["def f(rt, g, inst, ctx):"]
    for i, t in enumerate(ts):
        conds = [f"GUARDS[{n!r}](g, inst, ctx)" for n in t.guards] + \
            [f"not GUARDS[{n!r}](g, inst, ctx)" for n in t.unless]
        ind = "        " if conds else "    "
        lines.append(f"    if {' and '.join(conds)}:  # --> {t.dest}" if conds else f"    # --> {t.dest}")
        lines += _fired(leaf, t, str(i), ind, "ctx", ns)
        lines.append(f"{ind}return T{i}")
        if not conds:
            break                                  # the transitions after an unguarded one never fire
    else:
        lines.append("    return None")
    exec(compile("\n".join(lines), f"<compiled {leaf} {source} {trigger}>", "exec"), ns)
    ns["f"].source = "\n".join(lines)              # the generated code, for reading
    return ns["f"]


def _fired(leaf: str, t: T, i: str, ind: str, ctx: str, ns: dict) -> list[str]:
    """The generated lines of ``t`` firing (after its guards held), as :meth:`Runtime.fire_ctx` does it: the
    destination, the coverage record, the effects, the trace line, the destination's ``enter`` effect, the
    hand-offs; ``ctx`` names the context dict. Binds ``T{i}``, ``R{i}``, ``RULES{i}`` in ``ns``."""
    plan = _plan(leaf, t)
    ns[f"T{i}"], ns[f"R{i}"], ns[f"RULES{i}"] = t, plan[1], plan[2]
    lines = [f"{ind}g.ms[(LEAF, inst)] = {t.dest!r}"]
    if KEEP[leaf] != -1:                            # the cleanup tasks reading this machine's state (323, INPUTS)
        lines.append(f"{ind}g.fresh &= {KEEP[leaf]}")
    if leaf == "player":
        lines.append(f"{ind}g.left = None")          # the players still in the game changed
    lines += [f"{ind}cov = g.coverage", f"{ind}if cov is not None:", f"{ind}    cov.add(R{i})"]
    if t.say:
        lines.append(f"{ind}at = len(g.trace)")
    for e in t.effects:
        lines.append(f"{ind}EFFECTS[{e!r}](g, inst, {ctx})")
    if t.say:
        lines += [f"{ind}if g.events_on:", f"{ind}    say(g, T{i}, LEAF, inst, {ctx}, at, RULES{i})"]
    if plan[3] is not None:
        lines.append(f"{ind}EFFECTS[{plan[3]!r}](g, inst, {ctx})")
    for target, trig, per_bf, gs, us in plan[4]:
        where = "(inst if inst in g.bfs else g.active)" if per_bf else "None"
        conds = [f"GUARDS[{n!r}](g, inst, {ctx})" for n in gs] + [f"not GUARDS[{n!r}](g, inst, {ctx})" for n in us]
        call = f"rt.fire_ctx(g, {target!r}, {trig!r}, {where}, dict({ctx}))"
        lines += [f"{ind}if {' and '.join(conds)}:", f"{ind}    {call}"] if conds else [f"{ind}{call}"]
    return lines


def compile_steps(leaf: str, source: str, trigger: str, until: str) -> Callable | None:
    """Generate ``f(rt, g, inst, ctx)``: what :meth:`Runtime.steps` does from ``source`` (fire ``trigger``, each
    firing with its own copy of ``ctx``, until ``until``) as one straight-line function, for the states whose only
    possible transition on ``trigger`` is an unguarded one (652's procedure: Banishing, Replacing, Removing,
    Countering). Derived from the declarations, never written by hand: each step is the code :func:`compile_fire`
    generates for it (:func:`_fired`). After each step it checks that the machine is where the declaration took
    it (an effect might have fired it again) and otherwise returns, as it does at the first state with a guarded
    transition: ``steps`` goes on from wherever the machine is. None when ``source`` itself has a guarded one.
    ``tests/test_steps_compiled.py`` checks it against the state-by-state firing."""
    ns: dict = {"LEAF": leaf, "say": say, "GUARDS": registry.GUARDS, "EFFECTS": registry.EFFECTS}
    lines = ["def f(rt, g, inst, ctx):", "    key = (LEAF, inst)"]
    at, done, i = source, set(), 0
    while at != until and at not in done:
        ts = [t for t in statecharts.LEAVES[leaf].transitions if t.source == at and t.trigger == trigger]
        if not ts or ts[0].guards or ts[0].unless:
            break                                  # a guarded first transition: chosen at run time
        t = ts[0]                                  # unguarded: the transitions after it never fire
        done.add(at)
        if i:
            lines += [f"    if g.ms[key] != {at!r}:", "        return"]
        lines.append(f"    c = dict(ctx)  # {at} --{trigger}--> {t.dest}")
        lines += _fired(leaf, t, str(i), "    ", "c", ns)
        at, i = t.dest, i + 1
    if not i:
        return None
    exec(compile("\n".join(lines), f"<compiled {leaf} {source} {trigger}* {until}>", "exec"), ns)
    ns["f"].source = "\n".join(lines)              # the generated code, for reading
    return ns["f"]


_LOOPS: dict = {}
_FIRES: dict = {}
_UNSET = object()
_STEPS: dict = {}      # (leaf, source, trigger, until) -> compile_steps(...), None included


def _silent(leaf: str, triggers: tuple[str, ...]) -> bool:
    """The loop's transitions (those on ``triggers``) have no effects, hand-offs or trace text."""
    return all(not (t.effects or t.sends or t.say) for t in statecharts.LEAVES[leaf].transitions
               if t.trigger in triggers)


def _cond(name: str, ns: dict) -> str:
    """A guard as generated code: a one-expression guard (``registry.test``) inlined, else a call."""
    expr = getattr(ns[f"G_{name}"], "expr", None)
    return f"({expr})" if expr else f"G_{name}(g, inst, None)"


def compile_loop(leaf: Machine, start: str, step: str, until: str, skip: bool = False):
    """Generate a function that runs ``leaf`` from ``start`` through ``step``s back to ``until``.

    The code is derived from the declarations, never written by hand: for each state, its transitions on
    the trigger are tried in declaration order with their named guards; the chosen one sets the destination,
    records coverage and runs the destination's ``enter`` effect. With ``skip``, the enter effect of a state
    that declares its inputs (``Machine.inputs``: the cleanup's tasks, 323) runs only if its bit of
    ``State.fresh`` is clear, and sets it first: a write to one of its inputs clears it again (the barriers
    of ``simulator.core.model``; the effect's own writes included), so the bit stays set only while the
    effect is known to do nothing. A destination with a single incoming
    transition continues inline; any other is a function of its own, returned to the loop (None once back in
    ``until``), so the loop does no table look-up per step and a call only where paths meet.
    ``tests/test_backends.py`` checks it against the ``transitions`` machines.
    """
    rows: dict[tuple[str, str], list[T]] = {}
    for t in leaf.transitions:
        if t.trigger in (start, step):
            rows.setdefault((t.source, t.trigger), []).append(t)
    incoming = Counter(t.dest for ts in rows.values() for t in ts)
    ns: dict = {"RulesBug": RulesBug, "LEAF": leaf.name, "START": start}
    funcs: dict[tuple[str, str], str] = {}        # (state, trigger) -> name of its generated function
    todo: list[tuple[str, str]] = []
    recs: list[str] = []

    def func(state: str, trig: str) -> str:
        if (state, trig) not in funcs:
            funcs[(state, trig)] = f"b{len(funcs)}"
            todo.append((state, trig))
        return funcs[(state, trig)]

    def body(src: str, trig: str, ind: str, inlined: set, out: list[str]) -> None:
        for t in rows.get((src, trig), ()):
            for n in (*t.guards, *t.unless):
                ns[f"G_{n}"] = registry.GUARDS[n]
            conds = [_cond(n, ns) for n in t.guards] + [f"not {_cond(n, ns)}" for n in t.unless]
            rec = f"R{len(recs)}"                       # the coverage record, built once
            recs.append(rec)
            ns[rec] = (leaf.name, t.source, t.trigger, t.dest, t.guards)
            inner = ind + "    " if conds else ind
            if conds:
                out.append(f"{ind}if {' and '.join(conds)}:  # {src} --{trig}--> {t.dest}")
            else:
                out.append(f"{ind}# {src} --{trig}--> {t.dest}")
            out += [f"{inner}ms[key] = {t.dest!r}", f"{inner}if cov is not None:", f"{inner}    cov({rec})"]
            if KEEP[leaf.name] != -1:
                out.append(f"{inner}g.fresh &= {KEEP[leaf.name]}")
            if t.dest in leaf.enter:
                ns[f"E_{t.dest}"] = registry.EFFECTS[leaf.enter[t.dest]]
                bit = FRESH_BITS.get((leaf.name, t.dest)) if skip else None
                if bit is None:
                    out.append(f"{inner}E_{t.dest}(g, inst, {{}})")
                else:                                   # skipped while known to do nothing (its inputs unwritten)
                    out += [f"{inner}fr = g.fresh", f"{inner}if not fr & {bit}:",
                            f"{inner}    g.fresh = fr | {bit}", f"{inner}    E_{t.dest}(g, inst, {{}})"]
            if t.dest == until:
                out.append(f"{inner}return None")
            elif incoming[t.dest] == 1 and t.dest not in inlined:
                body(t.dest, step, inner, inlined | {t.dest}, out)
            else:
                out.append(f"{inner}return {func(t.dest, step)}")
            if not conds:
                return                                  # the transitions after an unguarded one never fire
        out.append(f"{ind}raise RulesBug({f'machine {leaf.name}: no transition on {trig!r} from {src!r}'!r})")

    first = {src: func(src, trig) for (src, trig) in rows if trig == start}
    lines: list[str] = []
    while todo:
        state, trig = todo.pop(0)
        lines.append(f"def {funcs[(state, trig)]}(g, inst, ms, key, cov):")
        body(state, trig, "    ", {state}, lines)
    lines += ["FIRST = {" + ", ".join(f"{src!r}: {f}" for src, f in first.items()) + "}",
              "def loop(g, inst):",
              "    ms = g.ms; key = (LEAF, inst); cov = g.coverage",
              "    if cov is not None:      # a recorder may offer a cheaper add for a leaf it does not watch",
              "        cov = cov.recorder(LEAF) if hasattr(cov, 'recorder') else cov.add",
              "    f = FIRST.get(ms[key])",
              "    if f is None:",
              f"        raise RulesBug('machine {leaf.name}: no transition on %r from %r' % (START, ms[key]))",
              "    while f is not None:",
              "        f = f(g, inst, ms, key, cov)"]
    exec(compile("\n".join(lines), f"<compiled {leaf.name}>", "exec"), ns)
    ns["loop"].source = "\n".join(lines)           # the generated code, for reading
    return ns["loop"]


def compile_schedule(steps: tuple[Step, ...]) -> Callable[[State], bool]:
    """Generate the function that takes one step of ``steps`` (``statecharts/schedule.py``).

    The code is derived from the declaration, never written by hand: the steps in order, each an ``if`` over
    its conditions (named guards, or a machine's state), running the step's named effect and returning True
    to settle on, False once a player must decide. A step without conditions ends the ladder; a schedule
    that can fall through raises :class:`RulesBug`. Every name is checked against the declarations.
    """
    ns: dict = {"RulesBug": RulesBug}
    lines = ["def once(g):", "    ms = g.ms"]
    total = False
    for i, s in enumerate(steps):
        conds = []
        for name, state in s.conditions():
            if state is None:
                fn = ns[f"G_{name}"] = registry.GUARDS[name]
                expr = getattr(fn, "expr", None)        # a one-expression guard is inlined
                conds.append(f"({expr})" if expr else f"G_{name}(g, None, None)")
            else:
                leaf = statecharts.LEAVES[name]
                if state not in leaf.states or leaf.per != "game":
                    raise ValueError(f"schedule step {s.name!r}: {name} has no game-wide state {state!r}")
                conds.append(f"ms[({name!r}, None)] == {state!r}")
        ind = "        " if conds else "    "
        lines.append(f"    if {' and '.join(conds)}:  # {s.name}" if conds else f"    # {s.name}")
        if s.do:
            ns[f"E{i}"] = registry.EFFECTS[s.do]
            lines.append(f"{ind}E{i}(g, None, {{}})")
        lines.append(f"{ind}return {not s.stop}")
        if not conds:
            total = True
            break
    if not total:
        lines.append("    raise RulesBug('the schedule has no step for this state')")
    exec(compile("\n".join(lines), "<compiled schedule>", "exec"), ns)
    ns["once"].source = "\n".join(lines)           # the generated code, for reading
    return ns["once"]


_SCHEDULES: dict = {}


def schedule(steps: tuple[Step, ...] = SCHEDULE) -> Callable[[State], bool]:
    """The compiled ``steps``, built once (after the rules' guards and effects are registered)."""
    if id(steps) not in _SCHEDULES or _SCHEDULES[id(steps)][0] is not steps:
        _SCHEDULES[id(steps)] = (steps, compile_schedule(steps))
    return _SCHEDULES[id(steps)][1]


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

    The cleanup's compiled loop (:func:`compile_loop`) fires without ``fire``'s bookkeeping, so a recording
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
